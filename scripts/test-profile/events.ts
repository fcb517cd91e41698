// Where the test suite's time goes: the costs a test pays besides its own work (a Chromium launch, a
// served site, a browser context, a model load in a page, a site build) are recorded here as events,
// one JSON line each, when JIANGU_TEST_PROFILE names a folder (`npm run test:profile` sets it). Without
// it nothing is recorded and nothing is installed in the pages. scripts/test-profile/table.ts turns
// the events and vitest's JSON report into the profile table.
import { appendFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';

export type ProfileKind = 'browser-launch' | 'site-start' | 'context' | 'model-load' | 'site-build' | 'fixtures';

export interface ProfileEvent {
  kind: ProfileKind;
  /** Wall time of the event, in ms. */
  ms: number;
  /** The test file (relative to the project) and test whose time it was, where known. */
  file?: string;
  test?: string;
  /** What was launched or loaded: flags, a model and dtype, an error. */
  detail?: string;
  pid: number;
}

/** The folder events go to, or undefined when the suite is not being profiled. */
export const profileDir = (): string | undefined => process.env.JIANGU_TEST_PROFILE || undefined;

type Where = () => { file?: string; test?: string };
let where: Where = () => ({});

/** The test runner's setup tells the recorder which file and test is running (test/browser/profile-where.ts). */
export function setProfileWhere(fn: Where): void {
  where = fn;
}

export function recordProfileEvent(kind: ProfileKind, ms: number, detail?: string): void {
  const dir = profileDir();
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  const event: ProfileEvent = { kind, ms: Math.round(ms), ...where(), ...(detail ? { detail } : {}), pid: process.pid };
  appendFileSync(join(dir, `events-${process.pid}.jsonl`), `${JSON.stringify(event)}\n`);
}

/** Times `work` as one event of `kind` (when profiling; otherwise just runs it). */
export async function profiled<T>(kind: ProfileKind, detail: string | undefined, work: () => Promise<T>): Promise<T> {
  const start = performance.now();
  try {
    return await work();
  } finally {
    recordProfileEvent(kind, performance.now() - start, detail);
  }
}
