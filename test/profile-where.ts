// A setup file of both test projects (vitest.config.ts): tells the suite's profile recorder
// (scripts/test-profile/events.ts) which file and test is running, so a browser launch or a model
// load is charged to the test that paid for it. Records nothing unless the suite is profiled.
import { relative } from 'node:path';
import { expect } from 'vitest';
import { setProfileWhere } from '../scripts/test-profile/events.ts';
import { projectRoot } from '../scripts/site-routes.ts';

setProfileWhere(() => {
  const { testPath, currentTestName } = expect.getState();
  // As vitest's JSON report names a test: its describe blocks' titles and its own, joined by spaces.
  return { file: testPath ? relative(projectRoot, testPath) : undefined, test: currentTestName?.split(' > ').join(' ') };
});
