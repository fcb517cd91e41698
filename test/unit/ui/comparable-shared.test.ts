// A circular run's share link in Compare: the link's rotation letters, scored on the local items, give
// each item's all-rotations-right outcome (for McNemar on perf) and the circular mean, as the stored
// run does; a plain run's link has neither.
import { describe, expect, it } from 'vitest';
import type { MultipleChoiceItem, OptionLetter } from '../../../src/lib/core/benchmarks/types.ts';
import { rotateItem } from '../../../src/lib/core/protocols/rotation.ts';
import type { McItemResult, McRunRecord } from '../../../src/lib/core/record/run.ts';
import { decodeShareLink, encodeShareLink, type SharedMcRun } from '../../../src/lib/core/formats/share-link/share-link.ts';
import { sharedRows } from '../../../src/lib/engine/shared-items.ts';
import { fromSharedRun, fromStoredRun } from '../../../src/ui/compare/comparable.ts';

const HASH = 'a'.repeat(64);
const LETTERS: OptionLetter[] = ['A', 'B', 'C', 'D'];
const item = (i: number, answer: OptionLetter, n = 4): MultipleChoiceItem =>
  ({ kind: 'multiple-choice', id: `通假字/test/${i}`, datasetId: 'aclue', task: '通假字', split: 'test', question: `问${i}`, options: ['甲', '乙', '丙', '丁'].slice(0, n), answer }) as MultipleChoiceItem;
const ITEMS = [item(0, 'A'), item(1, 'B'), item(2, 'A', 2)];

function run(): McRunRecord {
  return {
    id: 'c', createdAt: '2026-12-01T10:00:00.000Z', updatedAt: '2026-12-01T10:00:00.000Z', datasetId: 'aclue', status: 'completed', warnings: [],
    config: {
      kind: 'multiple-choice', model: { source: { kind: 'site', name: 'jiangu-tiny' }, dtype: 'fp32', backend: 'wasm' }, protocolId: 'aclue', protocolVersion: 2, templateHash: HASH,
      scoring: 'letter-logits', shots: 0, contextLimit: 2048, chatTemplate: false, prefixReuse: true, datasetId: 'aclue', datasetFiles: [], tasks: ['通假字'], limitPerTask: null,
      itemIds: ITEMS.map((i) => i.id), appVersion: 't', circular: true,
    },
  };
}

/** A model that reads: it picks the gold under every order, except item 1 under rotation 2. */
function results(): McItemResult[] {
  return ITEMS.map((it, index) => {
    const n = it.options.length;
    const base = { promptHash: HASH, tokenCount: 1, letters: LETTERS.slice(0, n), tokenIds: [], logProbs: [], probs: [], reusedPrefixTokens: 0, forwardMs: 0, completedAt: '2026-12-01T10:00:00.000Z' };
    const rotations = Array.from({ length: n - 1 }, (_, j) => {
      const gold = rotateItem(it, j + 1).answer;
      const prediction = index === 1 && j + 1 === 2 ? (gold === 'A' ? 'B' : 'A') : gold;
      return { ...base, rotation: j + 1, prediction, gold, correct: prediction === gold };
    });
    return { ...base, runId: 'c', itemId: it.id, task: it.task, index, prompt: '', shotsUsed: 0, exemplarIds: [], prediction: it.answer, gold: it.answer, correct: true, rotations };
  });
}

async function link(r: McRunRecord, rs: McItemResult[]): Promise<SharedMcRun> {
  const shared = await decodeShareLink(await encodeShareLink(r, rs, {}));
  if (shared.kind !== 'multiple-choice') throw new Error('not mc');
  return shared;
}

describe('fromSharedRun of a circular link', () => {
  it('gives the same all-rotations-right outcomes and circular mean as the stored run', async () => {
    const r = run();
    const rs = results();
    const shared = await link(r, rs);
    const fromLink = fromSharedRun(shared, sharedRows(shared, r.config.itemIds, new Map(ITEMS.map((i) => [i.id, i]))));
    const fromStore = fromStoredRun(r, rs);
    expect(fromLink.kind === 'multiple-choice' && fromLink.mcItems!.map((i) => i.allRotationsCorrect)).toEqual([true, false, true]);
    expect(fromLink.kind === 'multiple-choice' && fromLink.mcItems).toEqual(fromStore.kind === 'multiple-choice' && fromStore.mcItems);
    expect(fromLink.robustness?.circularMean).toEqual(fromStore.robustness?.circularMean);
    expect(fromLink.robustness?.circularMean?.n).toBe(3);
  });

  it('a plain run\'s link has no rotation outcome and no circular mean', async () => {
    const r = { ...run(), config: { ...run().config, circular: undefined } };
    const plain = await link(r, results().map(({ rotations: _, ...rest }) => rest));
    const fromLink = fromSharedRun(plain, sharedRows(plain, r.config.itemIds, new Map(ITEMS.map((i) => [i.id, i]))));
    expect(fromLink.kind === 'multiple-choice' && fromLink.mcItems!.every((i) => i.allRotationsCorrect === undefined)).toBe(true);
    expect(fromLink.robustness?.circularMean).toBeUndefined();
  });
});
