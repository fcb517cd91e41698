// The profile table of a test run: the steps of `npm test`, per-file and per-test wall time from
// vitest's JSON report, and the costs recorded as events (events.ts) — browser launches, served
// sites, browser contexts, model loads, site builds and fixture generation — per kind, per file and
// per test. Pure: run.ts reads the files and writes what this returns.
import type { ProfileEvent, ProfileKind } from './events.ts';

/** The parts of vitest's JSON reporter output read here. */
export interface VitestJsonReport {
  testResults: {
    name: string;
    startTime: number;
    endTime: number;
    assertionResults: { fullName: string; status: string; duration?: number | null }[];
  }[];
}

export interface Step {
  name: string;
  seconds: number;
  ok: boolean;
}

const KINDS: readonly ProfileKind[] = ['browser-launch', 'site-start', 'context', 'model-load', 'site-build', 'fixtures'];

const s = (ms: number) => (ms / 1000).toFixed(1);
const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

interface Sum {
  n: number;
  ms: number;
}
const add = (sum: Sum | undefined, ms: number): Sum => ({ n: (sum?.n ?? 0) + 1, ms: (sum?.ms ?? 0) + ms });
const show = (sum: Sum | undefined) => (sum ? `${sum.n} / ${s(sum.ms)} s` : '');

/** Per-test rows of every report, longest first, with the events charged to each. */
export function testRows(reports: readonly { project: string; report: VitestJsonReport }[], root: string, events: readonly ProfileEvent[]) {
  const byTest = new Map<string, Map<ProfileKind, Sum>>();
  for (const e of events) {
    if (!e.file || !e.test) continue;
    const key = `${e.file}\u0000${e.test}`;
    const kinds = byTest.get(key) ?? new Map<ProfileKind, Sum>();
    kinds.set(e.kind, add(kinds.get(e.kind), e.ms));
    byTest.set(key, kinds);
  }
  const rows: { project: string; file: string; test: string; ms: number; status: string; costs: Map<ProfileKind, Sum> }[] = [];
  for (const { project, report } of reports) {
    for (const file of report.testResults) {
      const path = relativeTo(file.name, root);
      for (const t of file.assertionResults) {
        rows.push({ project, file: path, test: t.fullName, ms: t.duration ?? 0, status: t.status, costs: byTest.get(`${path}\u0000${t.fullName}`) ?? new Map() });
      }
    }
  }
  return rows.sort((a, b) => b.ms - a.ms);
}

const relativeTo = (path: string, root: string) => (path.startsWith(`${root}/`) ? path.slice(root.length + 1) : path);

export function profileTable(options: {
  title: string;
  steps: readonly Step[];
  reports: readonly { project: string; report: VitestJsonReport }[];
  events: readonly ProfileEvent[];
  root: string;
  /** Rows of the slowest-tests table (every test goes to the TSV file beside it). */
  topTests?: number;
}): string {
  const { steps, reports, events, root } = options;
  const out: string[] = [`# ${options.title}`, ''];

  out.push('## Steps', '', '| step | wall s | |', '|---|---:|---|');
  for (const step of steps) out.push(`| ${cell(step.name)} | ${step.seconds.toFixed(1)} | ${step.ok ? '' : 'failed'} |`);
  out.push(`| **all** | **${steps.reduce((t, x) => t + x.seconds, 0).toFixed(1)}** | |`, '');

  out.push('## Costs paid besides the tests’ own work', '', '| kind | what | count | total s | mean s |', '|---|---|---:|---:|---:|');
  for (const kind of KINDS) {
    const ofKind = events.filter((e) => e.kind === kind);
    if (!ofKind.length) continue;
    const total = ofKind.reduce((t, e) => t + e.ms, 0);
    out.push(`| **${kind}** | all | ${ofKind.length} | ${s(total)} | ${s(total / ofKind.length)} |`);
    const byDetail = new Map<string, Sum>();
    for (const e of ofKind) byDetail.set(e.detail ?? '', add(byDetail.get(e.detail ?? ''), e.ms));
    for (const [detail, sum] of [...byDetail].sort((a, b) => b[1].ms - a[1].ms)) {
      if (byDetail.size > 1 || detail) out.push(`| | ${cell(detail || '—')} | ${sum.n} | ${s(sum.ms)} | ${s(sum.ms / sum.n)} |`);
    }
  }
  out.push('');

  for (const { project, report } of reports) {
    const files = report.testResults.map((f) => ({ path: relativeTo(f.name, root), ms: f.endTime - f.startTime, tests: f.assertionResults.length, skipped: f.assertionResults.filter((t) => t.status !== 'passed' && t.status !== 'failed').length, failed: f.assertionResults.filter((t) => t.status === 'failed').length }));
    files.sort((a, b) => b.ms - a.ms);
    const starts = report.testResults.map((f) => f.startTime);
    const ends = report.testResults.map((f) => f.endTime);
    const span = starts.length ? Math.max(...ends) - Math.min(...starts) : 0;
    const sum = files.reduce((t, f) => t + f.ms, 0);
    out.push(`## Files: ${project} (${files.length} files, ${s(sum)} s of file time in ${s(span)} s of wall time)`, '');
    out.push('| file | wall s | tests | skipped | failed | browsers | sites | contexts | model loads (n / s) | builds |', '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
    for (const f of files) {
      const mine = events.filter((e) => e.file === f.path);
      const count = (kind: ProfileKind) => mine.filter((e) => e.kind === kind).length || '';
      const loads = mine.filter((e) => e.kind === 'model-load');
      const loadSum = loads.length ? `${loads.length} / ${s(loads.reduce((t, e) => t + e.ms, 0))}` : '';
      out.push(`| ${cell(f.path)} | ${s(f.ms)} | ${f.tests} | ${f.skipped || ''} | ${f.failed || ''} | ${count('browser-launch')} | ${count('site-start')} | ${count('context')} | ${loadSum} | ${count('site-build')} |`);
    }
    out.push('');
  }

  const rows = testRows(reports, root, events);
  const top = options.topTests ?? 40;
  out.push(`## The ${Math.min(top, rows.length)} slowest tests (of ${rows.length}; all in tests.tsv)`, '');
  out.push('| s | file | test | model loads (n / s) | contexts |', '|---:|---|---|---:|---:|');
  for (const r of rows.slice(0, top)) out.push(`| ${s(r.ms)} | ${cell(r.file)} | ${cell(r.test)} | ${show(r.costs.get('model-load'))} | ${show(r.costs.get('context'))} |`);
  out.push('');
  return out.join('\n');
}

/** Every test, one line each, tab-separated: project, file, test, status, seconds, model loads, their seconds. */
export function testsTsv(reports: readonly { project: string; report: VitestJsonReport }[], root: string, events: readonly ProfileEvent[]): string {
  const lines = ['project\tfile\ttest\tstatus\tseconds\tmodel_loads\tmodel_load_seconds'];
  for (const r of testRows(reports, root, events)) {
    const loads = r.costs.get('model-load');
    lines.push([r.project, r.file, r.test.replace(/\t/g, ' '), r.status, s(r.ms), loads?.n ?? 0, loads ? s(loads.ms) : '0.0'].join('\t'));
  }
  return `${lines.join('\n')}\n`;
}
