// The live tally gives, after every result, the numbers aggregateForDataset gives for the results so
// far (an item that comes again replaces itself), for each dataset's grouping and overall rule.
import { describe, expect, it } from 'vitest';
import { aggregateForDataset, aggregationFor, countFailed, countUnextracted, McTally, type TalliedResult } from '../../../src/lib/core/metrics/index.ts';
import { getDataset } from '../../../src/lib/core/benchmarks/catalog.ts';
import type { DatasetId } from '../../../src/lib/core/benchmarks/types.ts';

/** A small deterministic generator (mulberry32), so a failure replays. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function resultFor(rand: () => number, itemId: string, task: string): TalliedResult {
  const r = rand();
  if (r < 0.05) return { itemId, task, correct: null, failure: { code: 'run.item-too-long' } };
  if (r < 0.1) return { itemId, task, correct: null, prediction: 'A' };
  const generated = rand() < 0.3 ? {} : undefined;
  const prediction = generated && rand() < 0.4 ? null : 'B';
  return { itemId, task, correct: prediction !== null && rand() < 0.35, prediction, ...(generated ? { generated } : {}) };
}

describe('McTally', () => {
  for (const datasetId of ['ancientbench', 'aclue', 'cmmlu-ancient', 'ac-eval', 'wenmind'] as DatasetId[]) {
    it(`agrees with aggregateForDataset after every result (${datasetId})`, () => {
      const tasks = getDataset(datasetId).tasks.filter((t) => t.kind === 'multiple-choice').map((t) => t.key);
      const rand = random(datasetId.length * 7919);
      const tally = new McTally(aggregationFor(datasetId));
      const latest = new Map<string, TalliedResult>();
      for (let i = 0; i < 600; i++) {
        // One in five results is an item already seen coming again (rotations, a failed item run again).
        const again = latest.size > 0 && rand() < 0.2;
        const itemId = again ? [...latest.keys()][Math.floor(rand() * latest.size)] : `item-${i}`;
        const task = again ? latest.get(itemId)!.task : tasks[Math.floor(rand() * tasks.length)];
        const result = resultFor(rand, itemId, task);
        latest.set(itemId, result);
        tally.set(result);
        if (i % 37 === 0 || i === 599) {
          const all = [...latest.values()];
          expect(tally.aggregate()).toEqual(aggregateForDataset(datasetId, all));
          expect(tally.size).toBe(all.length);
          expect(tally.unextracted).toBe(countUnextracted(all.map((r) => ({ prediction: r.prediction ?? null, generated: r.generated }))));
          expect(tally.failed).toBe(countFailed(all));
          for (const t of tasks) expect([...tally.failuresOf(t).keys()].sort()).toEqual(all.filter((r) => r.task === t && r.failure).map((r) => r.itemId).sort());
        }
      }
    });
  }

  it('a result that replaces a failed one takes the failure away', () => {
    const tally = new McTally(aggregationFor('aclue'));
    tally.set({ itemId: 'x', task: '古音学', correct: null, failure: { code: 'model.failed' } });
    expect(tally.failed).toBe(1);
    tally.set({ itemId: 'x', task: '古音学', correct: true });
    expect(tally.failed).toBe(0);
    expect(tally.failuresOf('古音学').size).toBe(0);
    expect(tally.aggregate().pooled).toMatchObject({ n: 1, correct: 1 });
  });
});
