// A result that cannot be stored for lack of room ends the run with that said (issue 46), not with
// "Something went wrong inside Jiangu: " (Chromium's quota error has an empty message): the notice
// names the item, every result before it is kept, and when not even the run's failure can be written
// the record is left as it was (running, so the page shows it interrupted and Resume goes on). Scoring
// and memorization runs alike, on fake-indexeddb with the browser's refusal simulated (full-storage.ts).
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { MultipleChoiceItem } from '../../../src/lib/core/benchmarks/types.ts';
import type { ModelClient } from '../../../src/lib/engine/model-client.ts';
import type { LoadParams, LoadResult, ScoreItemParams, ScoreItemResult, TextStatisticsParams } from '../../../src/lib/engine/messages.ts';
import { createMcRun } from '../../../src/lib/engine/run-setup.ts';
import { executeRun } from '../../../src/lib/engine/run-scheduler.ts';
import { createProbeRunRecord } from '../../../src/lib/engine/probe-setup.ts';
import { executeProbeRun } from '../../../src/lib/engine/probe-scheduler.ts';
import { saveDataset } from '../../../src/lib/store/datasets.ts';
import { getRun, loadResults } from '../../../src/lib/store/runs.ts';
import { getProbeRun, loadProbeResults } from '../../../src/lib/store/probe-runs.ts';
import { isQuotaError } from '../../../src/lib/store/errors.ts';
import { noticeOf, renderNotice } from '../../../src/lib/core/notices/index.ts';
import { freshDb, makeRecord } from '../store/helpers.ts';
import { fillStorage } from '../store/full-storage.ts';
import { fakeLoadResult } from './fake-load.ts';

afterEach(() => vi.restoreAllMocks());

function items(): MultipleChoiceItem[] {
  return ['dev', 'test'].flatMap((split) =>
    [0, 1, 2, 3, 4].map((order): MultipleChoiceItem => ({
      kind: 'multiple-choice',
      id: `Radical/${split}/${order}`,
      datasetId: 'ancientbench',
      task: 'Radical',
      split: split as 'dev' | 'test',
      order,
      source: { file: 'sample.csv', line: order + 2 },
      question: `部首 问题 ${order}`,
      options: ['甲', '乙', '丙', '丁'],
      answer: 'A',
    })),
  );
}

/** A model that answers every item at once: letters' log-probabilities, and a text's per-token numbers. */
const client = {
  async load(_params: LoadParams): Promise<LoadResult> {
    return fakeLoadResult('wasm');
  },
  async scoreItem(params: ScoreItemParams): Promise<ScoreItemResult> {
    return {
      prompt: `prompt of ${params.item.id}`,
      prefix: '',
      shotsUsed: 0,
      exemplarIds: [],
      droppedExemplarIds: [],
      overLimit: false,
      score: {
        inputIds: [1, 2, 3],
        candidates: ['A', 'B', 'C', 'D'].map((text, k) => ({ text, tokenId: 4 + k, tokenCount: 1, logProb: k === 0 ? -0.5 : -3, mergesWithPrompt: false })),
        reusedPrefixTokens: 0,
        logitsCopied: 10,
        forwardPasses: 1,
        text: `prompt of ${params.item.id}`,
        forwardMs: 1,
      },
    };
  },
  async textStatistics(params: TextStatisticsParams) {
    const n = Math.max(2, params.text.length);
    return { ids: Array.from({ length: n }, (_, i) => i), logprob: new Float32Array(n).fill(-1), mean: new Float32Array(n).fill(-1), std: new Float32Array(n).fill(1), forwardMs: 1 };
  },
  terminate() {},
} as unknown as ModelClient;

async function setup() {
  const db = await freshDb();
  const all = items();
  await saveDataset(db, makeRecord('ancientbench', all), all);
  return db;
}

const model = { source: { kind: 'site' as const, name: 'jiangu-tiny' }, dtype: 'fp32' as const, backend: 'wasm' as const };

describe('a scoring run whose result cannot be stored', () => {
  it('stops with the item named, the results before it kept, the failure recorded when it fits', async () => {
    const db = await setup();
    const run = await createMcRun(db, { model, datasetId: 'ancientbench', tasks: ['Radical'], shots: 0, limitPerTask: null, chatTemplate: false, sampling: { draw: 'first', seed: 1 } });
    // From the third result on, results are refused; the run's own record still has room.
    let results = 0;
    fillStorage((store) => store === 'results' && ++results > 2);
    const error = await executeRun(db, run.id, client).catch((e: unknown) => e);
    vi.restoreAllMocks();
    expect(isQuotaError(error)).toBe(true);
    const third = run.config.itemIds[2];
    expect(noticeOf(error)).toEqual({ code: 'run.storage-full', params: { itemId: third } });
    expect(renderNotice(noticeOf(error), 'en').startsWith(`Not enough browser storage to save the result of item ${third}: the run stopped there`)).toBe(true);
    expect((await loadResults(db, run.id)).map((r) => r.itemId)).toEqual(run.config.itemIds.slice(0, 2));
    const stored = await getRun(db, run.id);
    expect(stored).toMatchObject({ status: 'failed', error: { code: 'run.storage-full', params: { itemId: third } } });
    // Room again: Resume goes on from the item refused.
    expect((await executeRun(db, run.id, client)).status).toBe('completed');
    expect((await loadResults(db, run.id)).map((r) => r.itemId)).toEqual(run.config.itemIds);
    db.close();
  });

  it('says why it stopped even when not even the failure can be written, and leaves the record as it was', async () => {
    const db = await setup();
    const run = await createMcRun(db, { model, datasetId: 'ancientbench', tasks: ['Radical'], shots: 0, limitPerTask: null, chatTemplate: false, sampling: { draw: 'first', seed: 1 } });
    // Every write from the third result on is refused, the run record's included.
    let results = 0;
    fillStorage((store) => (store === 'results' ? ++results > 2 : results >= 2));
    const error = await executeRun(db, run.id, client).catch((e: unknown) => e);
    vi.restoreAllMocks();
    expect(noticeOf(error)).toEqual({ code: 'run.storage-full', params: { itemId: run.config.itemIds[2] } });
    expect(await loadResults(db, run.id)).toHaveLength(2);
    // The record is as the run left it before the refused write: running, no error (the page shows it interrupted).
    const stored = await getRun(db, run.id);
    expect(stored?.status).toBe('running');
    expect(stored && 'error' in stored).toBe(false);
    db.close();
  });
});

describe('a memorization run whose result cannot be stored', () => {
  it('stops with the item named and its earlier results kept', async () => {
    const db = await setup();
    const run = await createProbeRunRecord(db, { model, datasetId: 'ancientbench', tasks: ['Radical'], limitPerTask: 4 });
    let results = 0;
    fillStorage((store) => store === 'probeResults' && ++results > 1);
    const error = await executeProbeRun(db, run.id, client).catch((e: unknown) => e);
    vi.restoreAllMocks();
    expect(noticeOf(error)).toEqual({ code: 'run.storage-full', params: { itemId: run.config.itemIds[1] } });
    expect((await loadProbeResults(db, run.id)).map((r) => r.itemId)).toEqual([run.config.itemIds[0]]);
    expect(await getProbeRun(db, run.id)).toMatchObject({ status: 'failed', error: { code: 'run.storage-full' } });
    db.close();
  });
});
