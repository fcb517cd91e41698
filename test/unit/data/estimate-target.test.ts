// The Evaluate page's estimate target (src/lib/data/estimate-target.ts), in Node with
// fake-indexeddb: the stored-run worker's answer, after the structured clone a worker message makes,
// is the page's own (the same items, the same prompt sizes); the count that sends a configuration to
// the worker reads whole tasks whatever the limit; and which prompts read a reused prefix.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { MultipleChoiceItem } from '../../../src/lib/core/benchmarks/types.ts';
import { protocolForDataset } from '../../../src/lib/core/protocols/index.ts';
import { prefixReads, promptChars } from '../../../src/lib/core/protocols/prompt-chars.ts';
import { newRunSampling, sampleRun } from '../../../src/lib/core/protocols/run-sampling.ts';
import { estimateTarget, itemsToRead, type TargetRequest } from '../../../src/lib/data/estimate-target.ts';
import { doStoredRunTask, type StoredRunPart } from '../../../src/lib/data/stored-run-work.ts';
import { saveDataset } from '../../../src/lib/store/datasets.ts';
import type { JianguDatabase } from '../../../src/lib/store/schema.ts';
import { freshDb, makeItems, makeRecord } from '../store/helpers.ts';

const SHAPE = [
  { task: '古音学', dev: 6, test: 40 },
  { task: '词汇', dev: 5, test: 31 },
  { task: '语法', dev: 0, test: 12 },
];
const items = makeItems('aclue', SHAPE);
const request = (over: Partial<TargetRequest> = {}): TargetRequest => ({ kind: 'multiple-choice', datasetId: 'aclue', tasks: ['词汇', '古音学'], limitPerTask: null, scoring: 'letter-logits', shots: 5, reusePrefix: true, sampling: { draw: 'random', seed: 20_261_205 }, ...over });

let db: JianguDatabase;
beforeEach(async () => {
  db = await freshDb();
  await saveDataset(db, makeRecord('aclue', items), items);
});
afterEach(() => db.close());

async function inWorker(r: TargetRequest) {
  const parts: StoredRunPart[] = [];
  await doStoredRunTask({ kind: 'estimate-target', request: r }, () => Promise.resolve(db), (part) => parts.push(structuredClone(part)));
  expect(parts.map((p) => p.type)).toEqual(['target', 'done']);
  return (parts[0] as Extract<StoredRunPart, { type: 'target' }>).target;
}

describe('the estimate target', () => {
  it('comes back from the worker as the page computes it, and as promptChars gives over the chosen items', async () => {
    const cases = [
      request(),
      request({ limitPerTask: 7 }),
      request({ limitPerTask: 7, sampling: { draw: 'random', seed: 1 } }),
      request({ limitPerTask: 7, sampling: { draw: 'first', seed: 1 } }),
      request({ scoring: 'cloze', reusePrefix: false, shots: 0, limitPerTask: 9 }),
      request({ scoring: 'generate-extract' }),
    ];
    for (const r of cases) {
      const worker = await inWorker(r);
      expect(worker).toEqual(await estimateTarget(db, r));
      // Chosen as a new run with this draw and seed chooses (createMcRun: newRunSampling), in the order it asks them.
      const ofTask = (task: string, split: 'test' | 'dev') => items.filter((i): i is MultipleChoiceItem => i.kind === 'multiple-choice' && i.task === task && i.split === split).sort((a, b) => a.order - b.order);
      const population = r.tasks.map((task) => ({ task, itemIds: ofTask(task, 'test').map((i) => i.id) }));
      const asked = sampleRun(population, r.limitPerTask, newRunSampling(r.sampling.draw, r.sampling.seed!, {})).itemIds;
      expect(worker.itemIds).toEqual(asked);
      if (r.limitPerTask !== null && r.sampling.draw === 'random') expect(worker.itemIds).not.toEqual(sampleRun(population, r.limitPerTask, undefined).itemIds);
      const byId = new Map(items.map((i) => [i.id, i]));
      const chosen = asked.map((id) => byId.get(id) as MultipleChoiceItem);
      const devByTask = new Map(r.shots > 0 ? r.tasks.map((task) => [task, ofTask(task, 'dev')]) : []);
      const expected = r.scoring === 'generate-extract' ? null : promptChars({ protocol: protocolForDataset('aclue'), scoring: r.scoring as 'letter-logits' | 'cloze', shots: r.shots, reusePrefix: r.reusePrefix, items: chosen, devByTask });
      expect(worker.chars).toEqual(expected);
    }
  });

  it('counts the items sizing reads: whole tasks whatever the limit, and their dev items for exemplars', async () => {
    expect(await itemsToRead(db, request({ limitPerTask: 3 }))).toBe(31 + 5 + 40 + 6);
    expect(await itemsToRead(db, request({ shots: 0 }))).toBe(31 + 40);
    expect(await itemsToRead(db, request({ datasetId: 'wenmind' }))).toBe(0);
  });
});

describe('prefixReads', () => {
  it('reads a reused prefix when it differs from the prompt before’s, and every prefix without reuse', () => {
    const reuse = prefixReads(true);
    expect(['a', 'a', 'b', 'b', 'a'].map(reuse)).toEqual([true, false, true, false, true]);
    const fresh = prefixReads(false);
    expect(['a', 'a', 'b'].map(fresh)).toEqual([true, true, true]);
  });
});
