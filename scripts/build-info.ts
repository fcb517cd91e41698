// Values the build writes into the code: the package version and the git commit (or "unknown"
// outside a git checkout), for run records. JIANGU_BUILD_ID, when set, is appended to the commit
// (`<commit>.<id>`): two builds of one commit then differ, as the service worker's update test needs.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from './site-routes.ts';

function gitCommit(): string {
  try {
    return execFileSync('git', ['rev-parse', '--short=12', 'HEAD'], { cwd: projectRoot, encoding: 'utf8' }).trim();
  } catch {
    return 'unknown';
  }
}

export function buildDefines(): Record<string, string> {
  const { version } = JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8')) as { version: string };
  const build = process.env.JIANGU_BUILD_ID;
  const commit = build ? `${gitCommit()}.${build}` : gitCommit();
  return { __APP_VERSION__: JSON.stringify(version), __GIT_COMMIT__: JSON.stringify(commit) };
}
