// What sharing, importing and comparing cost at benchmark scale, in Node: synthetic AncientBench-shaped
// multiple-choice runs (10 tasks, seeded random letters; no data files) of 5,000 and 28,707 items (the
// paper's full size). It measures the share link's length (target: a 5,000-item link under 8 KB) and
// how long encoding, decoding, exporting, importing, comparing two runs and calibration take. A
// measurement, not a test: nothing fails when a number is over.
//
//   npx tsx scripts/bench/records.ts
import './build-globals.ts';
import { ANCIENTBENCH_TASKS } from '../../src/lib/core/benchmarks/catalog-tasks.ts';
import type { OptionLetter } from '../../src/lib/core/benchmarks/types.ts';
import { calibration, compareRuns, mulberry32, runSummary } from '../../src/lib/core/metrics/index.ts';
import { fabricatedMcRun } from '../fixtures/fabricated-run.ts';
import { runJson } from '../../src/lib/core/formats/jiangu-run/export.ts';
import { parseRunFile } from '../../src/lib/core/formats/import-record.ts';
import type { McItemResult, McRunRecord } from '../../src/lib/core/record/run.ts';
import { decodeShareLink, encodeShareLink, shareUrl } from '../../src/lib/core/formats/share-link/share-link.ts';
import { fromStoredRun } from '../../src/ui/compare/comparable.ts';

const LETTERS: OptionLetter[] = ['A', 'B', 'C', 'D'];
const LINK_TARGET = 8 * 1024;

function syntheticRun(items: number, seed: number): Promise<{ run: McRunRecord; results: McItemResult[] }> {
  const random = mulberry32(seed);
  const tasks = ANCIENTBENCH_TASKS.map((t) => t.key);
  return fabricatedMcRun({
    id: `bench-${seed}`,
    datasetId: 'ancientbench',
    model: { source: { kind: 'hub', id: 'org/model', revision: 'main' }, dtype: 'q4', backend: 'webgpu' },
    tasks,
    datasetFiles: [{ path: 'ancientbench.csv', sha256: 'a'.repeat(64) }],
    limitPerTask: null,
    items: Array.from({ length: items }, (_, i) => {
      const task = tasks[i % tasks.length];
      // Random letter logits, log-normalized over a larger vocabulary (the letters' log-probs sum below 1).
      const logits = LETTERS.map(() => random() * 4);
      return { id: `${task}/test/${Math.floor(i / tasks.length)}`, task, gold: LETTERS[Math.floor(random() * 4)], logProbs: logits.map((l) => l - 6) };
    }),
  });
}

async function time<T>(work: () => Promise<T> | T): Promise<{ ms: number; value: T }> {
  const start = performance.now();
  const value = await work();
  return { ms: performance.now() - start, value };
}

async function main(): Promise<void> {
  console.log('| items | link chars | link encode / decode ms | export JSON MB, ms | import ms | compare 2 runs ms | calibration ms |');
  console.log('|---|---|---|---|---|---|---|');
  for (const items of [5_000, 28_707]) {
    const a = await syntheticRun(items, 1);
    const b = await syntheticRun(items, 2);
    const encoded = await time(() => encodeShareLink(a.run, a.results, runSummary(a.run, a.results)));
    const url = shareUrl('https://jiangu.example/', encoded.value);
    const decoded = await time(() => decodeShareLink(encoded.value));
    const exported = await time(() => runJson(a.run, a.results));
    const imported = await time(() => parseRunFile(exported.value, 'bench.json'));
    if (imported.value.results.length !== items || decoded.value.kind !== 'multiple-choice') throw new Error('round trip lost items');
    const compared = await time(() => compareRuns([fromStoredRun(a.run, a.results), fromStoredRun(b.run, b.results)]));
    const pooled = compared.value.rows.find((r) => r.key === 'pooled')!.differences[1]!;
    const calibrated = await time(() =>
      calibration(a.results.map((r) => ({ probs: r.probs, predicted: LETTERS.indexOf(r.prediction!), correct: r.correct, gold: LETTERS.indexOf(r.gold!) }))),
    );
    const linkNote = items === 5_000 ? ` (target < ${LINK_TARGET}: ${url.length < LINK_TARGET ? 'met' : 'NOT met'})` : '';
    console.log(
      `| ${items.toLocaleString('en-US')} | ${url.length.toLocaleString('en-US')}${linkNote} | ${encoded.ms.toFixed(1)} / ${decoded.ms.toFixed(1)} | ` +
        `${(exported.value.length / 1024 / 1024).toFixed(1)}, ${exported.ms.toFixed(0)} | ${imported.ms.toFixed(0)} | ${compared.ms.toFixed(0)} (McNemar p ${pooled.mcnemar?.pValue.toFixed(3)}) | ` +
        `${calibrated.ms.toFixed(1)} (ECE ${(100 * calibrated.value.ece!).toFixed(2)}%) |`,
    );
  }
}

await main();
