// The stored-run worker's work (src/lib/data/stored-run-work.ts), in Node with fake-indexeddb: a
// large run comes back whole, in order and in chunks, checked as the page would check it; a damaged
// or missing run as the page's check says; the bootstrap numbers exactly the functions' own, after
// the structured clone a worker message makes.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { OptionLetter } from '../../../src/lib/core/benchmarks/types.ts';
import { compareContinuousRuns } from '../../../src/lib/core/metrics/compare-continuous-runs.ts';
import { aggregateContinuous, continuousOf } from '../../../src/lib/core/metrics/continuous.ts';
import { mulberry32 } from '../../../src/lib/core/metrics/index.ts';
import { doStoredRunTask, RESULTS_PER_MESSAGE, type StoredRunPart } from '../../../src/lib/data/stored-run-work.ts';
import { readRunChecked } from '../../../src/lib/store/runs.ts';
import { sampleOfRun } from '../../../src/lib/core/metrics/run-estimate.ts';
import { pairedSequence } from '../../../src/lib/core/metrics/compare-sequence.ts';
import { newRunSampling, orderRun } from '../../../src/lib/core/protocols/run-sampling.ts';
import type { JianguDatabase } from '../../../src/lib/store/schema.ts';
import { fabricatedMcRun } from '../../../scripts/fixtures/fabricated-run.ts';
import { freshDb } from '../store/helpers.ts';

const LETTERS: OptionLetter[] = ['A', 'B', 'C', 'D'];
const TASKS = ['Radical', 'Pronunciation', 'Homophone'];
const COUNT = 2 * RESULTS_PER_MESSAGE + 321;

async function storedRun(db: JianguDatabase, id: string, seed: number) {
  const random = mulberry32(seed);
  const made = await fabricatedMcRun({
    id,
    datasetId: 'ancientbench',
    model: { source: { kind: 'site', name: 'jiangu-tiny' }, dtype: 'fp32', backend: 'wasm' },
    tasks: TASKS,
    datasetFiles: [{ path: 'ancientbench.csv', sha256: 'a'.repeat(64) }],
    limitPerTask: null,
    items: Array.from({ length: COUNT }, (_, i) => ({ id: `q${i}`, task: TASKS[i % 3], gold: LETTERS[i % 4], logProbs: LETTERS.map(() => random() * 4 - 6) })),
  });
  // Each with a prompt, as a real result has.
  const results = made.results.map((r) => ({ ...r, prompt: `问题 ${r.itemId}\n答案是：` }));
  const tx = db.transaction(['runs', 'results'], 'readwrite');
  await Promise.all([tx.objectStore('runs').put(made.run), ...results.map((r) => tx.objectStore('results').put(r)), tx.done]);
  return { ...made, results };
}

async function partsOf(db: JianguDatabase, task: Parameters<typeof doStoredRunTask>[0]): Promise<StoredRunPart[]> {
  const parts: StoredRunPart[] = [];
  // Each part as the page receives it: cloned.
  await doStoredRunTask(task, async () => db, (part) => parts.push(structuredClone(part)));
  return parts;
}

describe('stored-run worker work', () => {
  let db: JianguDatabase;
  beforeEach(async () => {
    db = await freshDb();
  });
  afterEach(() => db.close());

  it('reads a large run whole, in order, in chunks, after the same check as the page', async () => {
    await storedRun(db, 'big', 1);
    const parts = await partsOf(db, { kind: 'read', runId: 'big' });
    const page = await readRunChecked(db, 'big');
    if (!page || !('run' in page)) throw new Error('the fixture run should be readable');
    expect(parts.map((p) => p.type)).toEqual(['run', 'results', 'results', 'results', 'done']);
    const run = parts[0] as Extract<StoredRunPart, { type: 'run' }>;
    expect(run.run).toEqual(page.run);
    expect(run.total).toBe(COUNT);
    const chunks = parts.filter((p): p is Extract<StoredRunPart, { type: 'results' }> => p.type === 'results');
    expect(chunks.map((c) => c.results.length)).toEqual([RESULTS_PER_MESSAGE, RESULTS_PER_MESSAGE, COUNT - 2 * RESULTS_PER_MESSAGE]);
    expect(chunks.flatMap((c) => c.results)).toEqual(page.results);
  });

  it('leaves the prompts out when asked, after checking them whole', async () => {
    await storedRun(db, 'lean', 5);
    const page = await readRunChecked(db, 'lean');
    if (!page || !('run' in page)) throw new Error('the fixture run should be readable');
    const parts = await partsOf(db, { kind: 'read', runId: 'lean', withoutPrompts: true });
    const results = parts.flatMap((p) => (p.type === 'results' ? p.results : []));
    expect(page.results.every((r) => r.prompt.length > 0)).toBe(true);
    expect(results).toEqual(page.results.map((r) => ({ ...r, prompt: '' })));
  });

  it('says a damaged run is unreadable, naming the field, and a missing one is not stored', async () => {
    const { results } = await storedRun(db, 'bad', 2);
    await db.put('results', { ...results[3000], probs: [2, -1, 0, 0] });
    const parts = await partsOf(db, { kind: 'read', runId: 'bad' });
    expect(parts.map((p) => p.type)).toEqual(['checked', 'done']);
    const checked = (parts[0] as Extract<StoredRunPart, { type: 'checked' }>).checked;
    expect(checked).toEqual(await readRunChecked(db, 'bad'));
    expect(checked && 'unreadable' in checked ? String(checked.unreadable.problem.params?.path) : '').toMatch(/^results\[\d+\]\.probs/);
    const missing = await partsOf(db, { kind: 'read', runId: 'never' });
    expect(missing).toEqual([{ type: 'checked', checked: null }, { type: 'done' }]);
  });

  it('gives the continuous aggregates and comparisons the functions give', async () => {
    const a = await storedRun(db, 'a', 3);
    const b = await storedRun(db, 'b', 4);
    const items = a.results.flatMap((r) => continuousOf(r) ?? []);
    const other = b.results.flatMap((r) => continuousOf(r) ?? []);
    const [continuous] = await partsOf(db, { kind: 'continuous', datasetId: 'ancientbench', items, metrics: ['pGold', 'logPGold'], order: TASKS });
    expect(continuous).toEqual({ type: 'continuous', aggregates: [aggregateContinuous('ancientbench', items, 'pGold', TASKS), aggregateContinuous('ancientbench', items, 'logPGold', TASKS)] });
    const baseline = { scoring: 'letter-logits' as const, items };
    const others = [{ scoring: 'letter-logits' as const, items: other }, null];
    const [compared] = await partsOf(db, { kind: 'compare-continuous', datasetId: 'ancientbench', baseline, others, order: TASKS });
    expect(compared).toEqual({ type: 'compared', comparisons: others.map((o) => compareContinuousRuns('ancientbench', baseline, o, TASKS)) });
  });
  it("gives an earlier run's pace sample as sampleOfRun of its stored results (the Evaluate page's estimate)", async () => {
    const made = await storedRun(db, 'paced', 5);
    const parts = await partsOf(db, { kind: 'pace-sample', runId: 'paced', model: 'site:jiangu-tiny' });
    const pace = parts.find((p) => p.type === 'pace');
    expect(pace?.type === 'pace' && pace.sample).toEqual(sampleOfRun(made.run, made.results, 'site:jiangu-tiny'));
    expect(pace?.type === 'pace' && pace.sample?.items.length).toBe(COUNT);
    const none = (await partsOf(db, { kind: 'pace-sample', runId: 'gone', model: 'site:jiangu-tiny' })).find((p) => p.type === 'pace');
    expect(none).toEqual({ type: 'pace', sample: null });
  });
  it("gives Compare's paired sequences as pairedSequence of the stored runs, and null for a run not stored", async () => {
    // Two runs of the same items in the same random order (a shared sampling), and a third in file order.
    const byTask = TASKS.map((task) => ({ task, itemIds: Array.from({ length: COUNT }, (_, i) => `q${i}`).filter((_, i) => TASKS[i % 3] === task) }));
    const population = Object.fromEntries(byTask.map((t) => [t.task, t.itemIds.length]));
    const sampling = newRunSampling('random', 11, population);
    const order = orderRun(byTask, sampling);
    const a = await storedRun(db, 'pair-a', 1);
    const b = await storedRun(db, 'pair-b', 2);
    const c = await storedRun(db, 'pair-c', 3);
    const tx = db.transaction(['runs', 'results'], 'readwrite');
    for (const made of [a, b]) {
      made.run.config = { ...made.run.config, itemIds: order, sampling };
      const at = new Map(order.map((id, i) => [id, i]));
      made.results = made.results.map((r) => ({ ...r, index: at.get(r.itemId)! }));
      await tx.objectStore('runs').put(made.run);
      for (const r of made.results) await tx.objectStore('results').put(r);
    }
    await tx.done;
    const parts = await partsOf(db, { kind: 'paired-sequence', datasetId: 'ancientbench', baselineId: 'pair-a', otherIds: ['pair-b', 'pair-c', 'gone'] });
    const paired = parts.find((p) => p.type === 'paired');
    const runOf = (made: typeof a) => ({ config: { ...made.run.config, datasetId: made.run.datasetId }, items: [...made.results].sort((x, y) => x.index - y.index) });
    expect(paired).toEqual({ type: 'paired', sequences: [pairedSequence('ancientbench', runOf(a), runOf(b)), pairedSequence('ancientbench', runOf(a), runOf(c)), null] });
    const [ab, ac] = paired?.type === 'paired' ? paired.sequences : [];
    expect(ab && 'sequence' in ab && ab.sequence.pairs).toBe(COUNT);
    expect(ac && 'problem' in ac && ac.problem).toBeTruthy();
  });
});
