// A circular run's link against this browser's items: each carried rotation is scored against the
// local item rotated (rotateItem), counts are checked against the item's options, and PriDe's
// estimation set is drawn again from the link's seed and checked by hash.
import { describe, expect, it } from 'vitest';
import type { MultipleChoiceItem, OptionLetter } from '../../../src/lib/core/benchmarks/types.ts';
import { drawEstimationSet } from '../../../src/lib/core/protocols/estimation-set.ts';
import { rotateItem } from '../../../src/lib/core/protocols/rotation.ts';
import type { McItemResult, McRotationResult, McRunRecord } from '../../../src/lib/core/record/run.ts';
import { decodeShareLink, encodeShareLink, type SharedMcRun } from '../../../src/lib/core/formats/share-link/share-link.ts';
import { sharedEstimationIds, sharedResults, sharedRows } from '../../../src/lib/engine/shared-items.ts';

const HASH = 'a'.repeat(64);
const LETTERS: OptionLetter[] = ['A', 'B', 'C', 'D'];

function item(i: number, options: string[], answer: OptionLetter): MultipleChoiceItem {
  return { kind: 'multiple-choice', id: `通假字/test/${i}`, datasetId: 'aclue', task: '通假字', split: 'test', question: `问题${i}`, options, answer } as MultipleChoiceItem;
}

const ITEMS = [item(0, ['甲', '乙', '丙', '丁'], 'B'), item(1, ['甲', '乙', '丙'], 'C'), item(2, ['甲', '乙'], 'A'), item(3, ['甲', '乙', '丙', '丁'], 'D')];
const IDS = ITEMS.map((i) => i.id);

function run(pride: McRunRecord['config']['pride']): McRunRecord {
  return {
    id: 'r', createdAt: '2026-12-01T10:00:00.000Z', updatedAt: '2026-12-01T10:00:00.000Z', datasetId: 'aclue', status: 'completed',
    config: {
      kind: 'multiple-choice', model: { source: { kind: 'site', name: 'jiangu-tiny' }, dtype: 'fp32', backend: 'wasm' }, protocolId: 'aclue', protocolVersion: 2,
      templateHash: HASH, scoring: 'letter-logits', shots: 0, contextLimit: 2048, chatTemplate: false, prefixReuse: true, datasetId: 'aclue',
      datasetFiles: [], tasks: ['通假字'], limitPerTask: null, itemIds: IDS, appVersion: 't', circular: true, ...(pride ? { pride } : {}),
    },
    warnings: [],
  };
}

/** The model always picks `letter`, under every order: a stored result as the engine writes it. */
function stored(it: MultipleChoiceItem, index: number, letter: OptionLetter): McItemResult {
  const n = it.options.length;
  const asked = (k: number) => rotateItem(it, k);
  const rotations: McRotationResult[] = Array.from({ length: n - 1 }, (_, j) => {
    const rotated = asked(j + 1);
    return {
      rotation: j + 1, promptHash: HASH, tokenCount: 1, letters: LETTERS.slice(0, n), tokenIds: [], logProbs: [], probs: [], prediction: letter, gold: rotated.answer,
      correct: letter === rotated.answer, reusedPrefixTokens: 0, forwardMs: 0, completedAt: '2026-12-01T10:00:00.000Z',
    };
  });
  return {
    runId: 'r', itemId: it.id, task: it.task, index, prompt: '', promptHash: HASH, tokenCount: 1, shotsUsed: 0, exemplarIds: [], letters: LETTERS.slice(0, n),
    tokenIds: [], logProbs: [], probs: [], prediction: letter, gold: it.answer, correct: letter === it.answer, reusedPrefixTokens: 0, forwardMs: 0,
    completedAt: '2026-12-01T10:00:00.000Z', rotations,
  };
}

async function link(r: McRunRecord, results: McItemResult[]): Promise<SharedMcRun> {
  const shared = await decodeShareLink(await encodeShareLink(r, results, {}));
  if (shared.kind !== 'multiple-choice') throw new Error('not mc');
  return shared;
}

const byId = new Map(ITEMS.map((i) => [i.id, i]));

describe('a circular link against the local items', () => {
  it("scores every rotation against the item rotated, equal to the sharer's stored results", async () => {
    const results = ITEMS.map((it, i) => stored(it, i, 'A'));
    const shared = await link(run(undefined), results);
    const rows = sharedRows(shared, IDS, byId);
    expect(rows.map((r) => r.rotations.length)).toEqual([3, 2, 1, 3]);
    // Item 0 (gold B): rotation 1 shows 乙 at A, so A is right there; rotation 2 and 3 move B to D and C.
    expect(rows[0].rotations.map((r) => [r.gold, r.correct])).toEqual([['A', true], ['D', false], ['C', false]]);
    const rebuilt = sharedResults(rows);
    expect(rebuilt.map((r) => r.rotations!.map((x) => [x.rotation, x.prediction, x.gold, x.correct]))).toEqual(
      results.map((r) => r.rotations!.map((x) => [x.rotation, x.prediction, x.gold, x.correct])),
    );
    expect(rebuilt.map((r) => [r.itemId, r.task, r.letters, r.prediction, r.gold, r.correct])).toEqual(results.map((r) => [r.itemId, r.task, r.letters, r.prediction, r.gold, r.correct]));
  });

  it('refuses more rotations than the local item has options for, naming the item', async () => {
    const results = ITEMS.map((it, i) => stored(it, i, 'A'));
    const shared = await link(run(undefined), results);
    const fewer = new Map(byId);
    fewer.set(IDS[0], { ...ITEMS[0], options: ['甲', '乙'] } as MultipleChoiceItem);
    expect(() => sharedRows(shared, IDS, fewer)).toThrow(/carries 3 rotations for item 通假字\/test\/0, which has 2 options here/);
  });

  it('refuses a rotation letter beyond the local item\'s options', async () => {
    const results = ITEMS.map((it, i) => stored(it, i, 'A'));
    results[2].rotations![0].prediction = 'D';
    const shared = await link(run(undefined), results);
    expect(() => sharedRows(shared, IDS, byId)).toThrow(/letter D for rotation 1 of item 通假字\/test\/2 is not one of its 2 options/);
  });

  it("draws PriDe's estimation set again from the link's seed, and refuses a set it does not draw", async () => {
    const drawn = drawEstimationSet(IDS, 0.5, 42);
    const shared = await link(run({ share: 0.5, seed: 42, estimationItemIds: drawn }), ITEMS.map((it, i) => stored(it, i, 'B')));
    expect(await sharedEstimationIds(shared, IDS)).toEqual(drawn);
    expect(sharedRows(shared, IDS, byId, drawn).map((r) => r.estimation)).toEqual(IDS.map((id) => drawn.includes(id)));
    const other = IDS.filter((id) => !drawn.includes(id));
    const forged = await link(run({ share: 0.5, seed: 42, estimationItemIds: other }), ITEMS.map((it, i) => stored(it, i, 'B')));
    await expect(sharedEstimationIds(forged, IDS)).rejects.toThrow(/PriDe estimation set \(2 items, share 0.5, seed 42\) is not the set this browser draws/);
  });
});
