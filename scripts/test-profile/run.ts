/**
 * `npm run test:profile`: runs the steps of `npm test` (read from package.json, so the two cannot
 * drift apart) with the suite's profile recorder on, and writes where the time went:
 *
 *   test-results/profile/profile.md   steps, costs (browser launches, served sites, contexts, model
 *                                     loads, site builds, fixtures), every file, the slowest tests
 *   test-results/profile/tests.tsv    every test with its time and model loads
 *   test-results/profile/*.json       vitest's JSON reports; events-*.jsonl the recorded events
 *
 * Usage: npm run test:profile [-- --only test:unit,test:browser] [-- --out <dir>] [-- --save-order] [-- <vitest args>]
 *   --only: run only these steps of `npm test` (by their npm script names, e.g. build,test:browser);
 *   --save-order: write each file's seconds into test/file-seconds.json, the order files start in
 *   (test/sequencer.ts: longest first); anything else is passed to the vitest steps (e.g. a file
 *   filter: test/browser/reading).
 * A failing step is recorded and the next ones still run; the exit code is the first failure's.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../site-routes.ts';
import type { ProfileEvent } from './events.ts';
import { profileTable, testsTsv, type Step, type VitestJsonReport } from './table.ts';

function parseArgs(argv: readonly string[]) {
  let only: string[] | undefined;
  let saveOrder = false;
  let out = join(projectRoot, 'test-results', 'profile');
  const vitestArgs: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--only') only = argv[++i].split(',');
    else if (argv[i] === '--out') out = argv[++i];
    else if (argv[i] === '--save-order') saveOrder = true;
    else vitestArgs.push(argv[i]);
  }
  return { only, out, saveOrder, vitestArgs };
}

/** The commands of `npm test`, in order: `npm run <name>` each. */
function testSteps(): string[] {
  const script = (JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts.test;
  return script.split('&&').map((part) => {
    const m = /^\s*npm run ([\w:-]+)\s*$/.exec(part);
    if (!m) throw new Error(`npm test's step "${part.trim()}" is not \`npm run <script>\`: teach scripts/test-profile/run.ts to time it`);
    return m[1];
  });
}

const VITEST_STEPS: Record<string, string> = { 'test:unit': 'unit', 'test:browser': 'browser' };

/** Merges each file's seconds into test/file-seconds.json (files not run keep theirs), sorted by path. */
function saveFileSeconds(reports: readonly { report: VitestJsonReport }[]): void {
  const path = join(projectRoot, 'test', 'file-seconds.json');
  const table = existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as Record<string, number>) : {};
  const root = projectRoot.replace(/\/$/, '');
  for (const { report } of reports) {
    for (const file of report.testResults) table[file.name.slice(root.length + 1)] = Math.round((file.endTime - file.startTime) / 100) / 10;
  }
  const sorted = Object.fromEntries(Object.entries(table).filter(([file]) => existsSync(join(root, file))).sort(([a], [b]) => (a < b ? -1 : 1)));
  writeFileSync(path, `${JSON.stringify(sorted, null, 1)}\n`);
  console.log(`file order saved: ${path}`);
}

function main(): number {
  const { only, out, saveOrder, vitestArgs } = parseArgs(process.argv.slice(2));
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const env = { ...process.env, JIANGU_TEST_PROFILE: out };
  const steps: Step[] = [];
  const reports: { project: string; report: VitestJsonReport }[] = [];
  let exit = 0;
  for (const name of testSteps()) {
    if (only && !only.includes(name)) continue;
    const project = VITEST_STEPS[name];
    const args = ['run', name];
    const json = project ? join(out, `${project}.json`) : undefined;
    if (json) args.push('--', '--reporter=default', '--reporter=json', `--outputFile.json=${json}`, ...vitestArgs);
    console.log(`\n+ npm ${args.join(' ')}`);
    const start = performance.now();
    const result = spawnSync('npm', args, { cwd: projectRoot, env, stdio: 'inherit' });
    const ok = result.status === 0;
    steps.push({ name: `npm run ${name}`, seconds: (performance.now() - start) / 1000, ok });
    if (!ok && exit === 0) exit = result.status ?? 1;
    if (json && existsSync(json)) reports.push({ project, report: JSON.parse(readFileSync(json, 'utf8')) as VitestJsonReport });
  }
  const events: ProfileEvent[] = readdirSync(out)
    .filter((f) => /^events-\d+\.jsonl$/.test(f))
    .flatMap((f) => readFileSync(join(out, f), 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line) as ProfileEvent));
  const title = `Test profile, ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC`;
  const table = profileTable({ title, steps, reports, events, root: projectRoot.replace(/\/$/, '') });
  writeFileSync(join(out, 'profile.md'), table);
  writeFileSync(join(out, 'tests.tsv'), testsTsv(reports, projectRoot.replace(/\/$/, ''), events));
  if (saveOrder) saveFileSeconds(reports);
  console.log(`\n${table.split('\n## Files')[0]}`);
  console.log(`The whole table: ${join(out, 'profile.md')}; every test: ${join(out, 'tests.tsv')}`);
  return exit;
}

process.exit(main());
