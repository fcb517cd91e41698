// Circular and PriDe runs in the scheduler, against a fake model client that always picks the
// option 甲 wherever it stands (the real worker runs in Chromium in test/browser/circular-run.test.ts):
// each item's rotations are asked with its options rotated and stored in order, one write per
// rotation; a cancel mid-item resumes from the first missing rotation; PriDe asks rotations of its
// estimation items only; a rotation the model throws on is stored failed and the run goes on.
import { describe, expect, it } from 'vitest';
import type { MultipleChoiceItem, OptionLetter } from '../../../src/lib/core/benchmarks/types.ts';
import { ModelError, type ModelClient } from '../../../src/lib/engine/model-client.ts';
import { modelError } from '../../../src/lib/engine/model-errors.ts';
import type { GenerateItemResult, LoadParams, LoadResult, ScoreItemParams, ScoreItemResult } from '../../../src/lib/engine/messages.ts';
import { createMcRun, type NewMcRun } from '../../../src/lib/engine/run-setup.ts';
import { executeRun, type RunProgress } from '../../../src/lib/engine/run-scheduler.ts';
import { runCost } from '../../../src/lib/engine/run-rotations.ts';
import { rotateItem } from '../../../src/lib/core/protocols/rotation.ts';
import { drawEstimationSet } from '../../../src/lib/core/protocols/estimation-set.ts';
import { saveDataset } from '../../../src/lib/store/datasets.ts';
import { loadResults as loadAnyResults } from '../../../src/lib/store/runs.ts';
import type { ItemResult, McItemResult } from '../../../src/lib/core/record/run.ts';
import type { JianguDatabase } from '../../../src/lib/store/schema.ts';
import { freshDb, makeRecord } from '../store/helpers.ts';
import { JianguError } from '../../../src/lib/core/notices/index.ts';

const loadResults = async (db: JianguDatabase, id: string) => (await loadAnyResults(db, id)) as McItemResult[];
const LETTERS = ['A', 'B', 'C', 'D'] as const;

/** Two tasks, dev and test; test item `order` has options rotated so that 甲 is at order % n, and (for the Cloze task) three options. */
function items(): MultipleChoiceItem[] {
  const out: MultipleChoiceItem[] = [];
  for (const [task, options] of [['Radical', ['甲', '乙', '丙', '丁']], ['Cloze', ['甲', '乙', '丙']]] as const) {
    for (const split of ['dev', 'test'] as const) {
      for (let order = 0; order < 10; order++) {
        out.push({
          kind: 'multiple-choice',
          id: `${task}/${split}/${order}`,
          datasetId: 'ancientbench',
          task,
          split,
          order,
          source: { file: 'sample.csv', line: order + 2 },
          question: `${task} 问题 ${order}`,
          options: [...options],
          answer: LETTERS[order % options.length],
        });
      }
    }
  }
  return out;
}

/** Always picks the option 甲, wherever the item shows it; records every item it was asked, as asked. */
function fakeClient(onScore?: (params: ScoreItemParams, asked: number) => void) {
  const asked: MultipleChoiceItem[] = [];
  const client = {
    async load(params: LoadParams): Promise<LoadResult> {
      return { backendInfo: { backend: 'wasm', wasmThreads: 1, crossOriginIsolated: true }, modelType: 'llama', vocabSize: 10, inputNames: ['input_ids'], loadMs: 1, transformersVersion: 't', ortVersion: 'o', context: { tokens: 2048, key: 'max_position_embeddings' }, ...(params ? {} : {}) };
    },
    async scoreItem(params: ScoreItemParams, request?: { signal?: AbortSignal }): Promise<ScoreItemResult> {
      onScore?.(params, asked.length);
      if (request?.signal?.aborted) throw new ModelError(modelError('cancelled', 'model.cancelled', []));
      asked.push(params.item);
      const text = `prompt of ${params.item.id}: ${params.item.options.join('/')}`;
      return {
        prompt: text,
        prefix: '',
        shotsUsed: params.shots,
        exemplarIds: [],
        droppedExemplarIds: [],
        overLimit: false,
        score: {
          inputIds: [1, 2, 3, 4, 5],
          candidates: params.item.options.map((option, k) => ({ text: LETTERS[k], tokenId: 4 + k, tokenCount: 1, logProb: option === '甲' ? -0.5 : -3 - k, mergesWithPrompt: false })),
          reusedPrefixTokens: 3,
          logitsCopied: 10,
          forwardPasses: 1,
          text,
          forwardMs: 1,
        },
      };
    },
    /** generate-extract: answers with the letter 甲 stands at. */
    async generateItem(params: ScoreItemParams & { maxNewTokens: number }): Promise<GenerateItemResult> {
      onScore?.(params, asked.length);
      asked.push(params.item);
      const text = `prompt of ${params.item.id}: ${params.item.options.join('/')}`;
      const answer = `答案是 ${LETTERS[params.item.options.indexOf('甲')]}`;
      return { prompt: text, prefix: '', shotsUsed: params.shots, exemplarIds: [], droppedExemplarIds: [], overLimit: false, generation: { inputIds: [1, 2, 3], promptText: text, tokenIds: [9], text: answer, stoppedBy: 'eos', ms: 2 } };
    },
    terminate() {},
  };
  return { client: client as unknown as ModelClient, asked };
}

async function setup(extra: Partial<NewMcRun> = {}) {
  const db = await freshDb();
  const all = items();
  await saveDataset(db, makeRecord('ancientbench', all), all);
  const run = await createMcRun(db, {
    model: { source: { kind: 'site', name: 'jiangu-tiny' }, dtype: 'fp32', backend: 'auto' },
    datasetId: 'ancientbench',
    tasks: ['Radical', 'Cloze'],
    shots: 5,
    limitPerTask: 3,
    chatTemplate: false,
    ...extra,
  });
  return { db, run, byId: new Map(all.map((item) => [item.id, item])) };
}

describe('a circular run', () => {
  it('records circular and a PriDe set, and asks every rotation of every item, stored in order with the gold moved', async () => {
    const { db, run, byId } = await setup({ circular: true });
    expect(run.config.circular).toBe(true);
    expect(run.config.pride?.share).toBe(0.05);
    expect(Number.isInteger(run.config.pride?.seed)).toBe(true);
    expect(run.config.pride?.estimationItemIds).toEqual(drawEstimationSet(run.config.itemIds, 0.05, run.config.pride!.seed));
    const { client, asked } = fakeClient();
    const writes: ItemResult[] = [];
    let last: RunProgress | null = null;
    const done = await executeRun(db, run.id, client, { onResult: (r) => writes.push(r), onProgress: (p) => (last = p) });
    expect(done.status).toBe('completed');
    const results = await loadResults(db, run.id);
    expect(results).toHaveLength(6);
    for (const result of results) {
      const item = byId.get(result.itemId)!;
      const n = item.options.length;
      expect(result.rotations?.map((r) => r.rotation)).toEqual(Array.from({ length: n - 1 }, (_, i) => i + 1));
      for (const rotation of result.rotations!) {
        const rotated = rotateItem(item, rotation.rotation);
        expect(rotation.gold).toBe(rotated.answer);
        // The fake picks 甲 wherever the rotation put it; scored alone on the rotated item it gives the same.
        expect(rotation.prediction).toBe(LETTERS[rotated.options.indexOf('甲')]);
        expect(rotation.correct).toBe(rotation.prediction === rotated.answer);
        expect(rotation.reusedPrefixTokens).toBe(3);
      }
      // The gold letters move: all n positions over the rotations.
      expect(new Set([result.gold, ...result.rotations!.map((r) => r.gold)]).size).toBe(n);
    }
    // Asked: rotation 0 then 1..n−1 of each item, in run order, with the options rotated.
    const expected = run.config.itemIds.flatMap((id) => {
      const item = byId.get(id)!;
      return item.options.map((_, k) => rotateItem(item, k).options.join(''));
    });
    expect(asked.map((item) => item.options.join(''))).toEqual(expected);
    // The page hears of each item twice: rotation 0, then the item with every rotation (each rotation
    // is stored the moment it is scored: see the resume case below).
    expect(writes.map((r) => `${r.itemId}:${(r as McItemResult).rotations?.length ?? 0}`)).toEqual(run.config.itemIds.flatMap((id) => [`${id}:0`, `${id}:${byId.get(id)!.options.length - 1}`]));
    expect(last).toMatchObject({ done: 6, total: 6, prompts: { done: 3 * 4 + 3 * 3, total: 3 * 4 + 3 * 3 } });
  });

  it('resumes an item cut off between rotations from its first missing rotation, with none duplicated or lost', async () => {
    const { db, run } = await setup({ circular: true });
    const abort = new AbortController();
    // Cancelled while the second item's third prompt (its rotation 2) is in flight.
    const first = fakeClient((_params, n) => n === 6 && abort.abort());
    expect((await executeRun(db, run.id, first.client, { signal: abort.signal })).status).toBe('paused');
    const kept = await loadResults(db, run.id);
    expect(kept.map((r) => r.rotations?.map((x) => x.rotation))).toEqual([[1, 2, 3], [1]]);

    const second = fakeClient();
    let start: RunProgress | null = null;
    const finished = await executeRun(db, run.id, second.client, { onProgress: (p) => (start ??= p) });
    expect(finished.status).toBe('completed');
    expect(start).toMatchObject({ done: 1, prompts: { done: 6, total: 21 } });
    // The resumed item continues at rotation 2; nothing before it is asked again.
    expect(second.asked[0].id).toBe(run.config.itemIds[1]);
    expect(second.asked).toHaveLength(21 - 6);
    const results = await loadResults(db, run.id);
    expect(results.map((r) => r.rotations?.map((x) => x.rotation).join(','))).toEqual(['1,2,3', '1,2,3', '1,2,3', '1,2', '1,2', '1,2']);
  });

  it('stores a rotation the model throws on as failed and goes on', async () => {
    const { db, run } = await setup({ circular: true });
    let thrown = false;
    // The first item's rotation 2 (its third prompt) throws, once.
    const { client } = fakeClient((_params, n) => {
      if (n === 2 && !thrown) {
        thrown = true;
        throw new ModelError(modelError('internal', 'model.failed', [{ detail: 'Gather idx out of range' }]));
      }
    });
    expect((await executeRun(db, run.id, client)).status).toBe('completed');
    const results = await loadResults(db, run.id);
    const rotations = results[0].rotations!;
    expect(rotations.map((r) => r.rotation)).toEqual([1, 2, 3]);
    expect(rotations[1]).toMatchObject({ rotation: 2, prediction: null, correct: null, failure: { code: 'model.failed' } });
    expect(rotations[0].failure).toBeUndefined();
    expect(results.every((r) => r.rotations?.length === r.letters.length - 1)).toBe(true);
  });

  it('stops, recording none of them, when the model throws on rotation after rotation', async () => {
    const { db, run } = await setup({ circular: true });
    const { client } = fakeClient((_params, n) => {
      if (n >= 2) throw new ModelError(modelError('internal', 'model.failed', [{ detail: 'Unsupported op' }]));
    });
    await expect(executeRun(db, run.id, client)).rejects.toThrow(/Unsupported op/);
    const kept = await loadResults(db, run.id);
    // Rotation 0 and 1 of the first item were scored; the three failures after them are not stored.
    expect(kept.map((r) => r.rotations?.map((x) => x.rotation))).toEqual([[1]]);
  });

  it('works with generate-extract too, the extracted letter read in the rotated order, with no PriDe (it needs log-probabilities)', async () => {
    const { db, run, byId } = await setup({ circular: true, scoring: 'generate-extract' });
    expect(run.config.circular).toBe(true);
    expect(run.config.pride).toBeUndefined();
    const { client } = fakeClient();
    expect((await executeRun(db, run.id, client)).status).toBe('completed');
    for (const result of await loadResults(db, run.id)) {
      const item = byId.get(result.itemId)!;
      expect(result.rotations).toHaveLength(item.options.length - 1);
      for (const rotation of result.rotations!) {
        const rotated = rotateItem(item, rotation.rotation);
        expect(rotation.prediction).toBe(LETTERS[rotated.options.indexOf('甲')]);
        expect(rotation.generated?.output).toBe(`答案是 ${rotation.prediction}`);
        expect(rotation.logProbs).toEqual([]);
        expect(rotation.correct).toBe(rotation.prediction === rotated.answer);
      }
    }
  });
});

describe('a PriDe run', () => {
  it('asks rotations of its estimation items only, the same set for the same seed', async () => {
    // The set is drawn from the run's items in their order: the same sample seed gives the same order.
    const { db, run } = await setup({ pride: { share: 0.4, seed: 7 }, sampling: { draw: 'random', seed: 3 } });
    expect(run.config.circular).toBeUndefined();
    expect(run.config.pride).toEqual({ share: 0.4, seed: 7, estimationItemIds: drawEstimationSet(run.config.itemIds, 0.4, 7) });
    expect(run.config.pride!.estimationItemIds).toHaveLength(2);
    const again = await setup({ pride: { share: 0.4, seed: 7 }, sampling: { draw: 'random', seed: 3 } });
    expect(again.run.config.pride!.estimationItemIds).toEqual(run.config.pride!.estimationItemIds);
    const { client } = fakeClient();
    expect((await executeRun(db, run.id, client)).status).toBe('completed');
    const results = await loadResults(db, run.id);
    const estimation = new Set(run.config.pride!.estimationItemIds);
    for (const r of results) expect(r.rotations?.length ?? 0).toBe(estimation.has(r.itemId) ? r.letters.length - 1 : 0);
    expect(results.filter((r) => r.rotations).map((r) => r.itemId)).toEqual(run.config.pride!.estimationItemIds);
  });

  it('is refused for generate-extract with a run.* notice, and absent when not asked', async () => {
    await expect(setup({ pride: {}, scoring: 'generate-extract' })).rejects.toSatisfy((e: unknown) => e instanceof JianguError && e.notice.code === 'run.pride-needs-logits');
    const plain = await setup();
    expect(plain.run.config.pride).toBeUndefined();
    expect(plain.run.config.circular).toBeUndefined();
  });
});

describe('runCost', () => {
  it('counts one prompt per item plus the rotations asked', () => {
    expect(runCost([4, 4, 3], {})).toEqual({ items: 3, prompts: 3, factor: 1 });
    expect(runCost([4, 4, 3], { circular: true })).toEqual({ items: 3, prompts: 11, factor: 11 / 3 });
    // 864 four-option items: ×4.0; PriDe at 5% asks 43 items' 3 other rotations.
    expect(runCost(Array(864).fill(4), { circular: true }).prompts).toBe(3456);
    expect(runCost(Array(864).fill(4), { prideShare: 0.05 }).prompts).toBe(864 + 43 * 3);
  });
});

// Used only so that the letters type is checked against the record's.
void ((l: OptionLetter) => l);
