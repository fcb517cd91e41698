// The run scheduler's bookkeeping against a fake model client (unit test only; the real worker runs
// in Chromium in test/browser/evaluate.test.ts): results are written item by item, a resume skips
// what is done, a cancel pauses, a failed WebGPU check stops the run until the user decides.
import { describe, expect, it } from 'vitest';
import type { MultipleChoiceItem } from '../../../src/lib/core/benchmarks/types.ts';
import { ModelError, type ModelClient } from '../../../src/lib/engine/model-client.ts';
import { modelError } from '../../../src/lib/engine/model-errors.ts';
import type { LoadParams, LoadResult, ScoreItemParams, ScoreItemResult } from '../../../src/lib/engine/messages.ts';
import { createMcRun } from '../../../src/lib/engine/run-setup.ts';
import { executeRun } from '../../../src/lib/engine/run-scheduler.ts';
import { saveDataset } from '../../../src/lib/store/datasets.ts';
import { getRun, loadResults as loadAnyResults } from '../../../src/lib/store/runs.ts';
import type { McItemResult, McRunRecord } from '../../../src/lib/core/record/run.ts';
import type { JianguDatabase } from '../../../src/lib/store/schema.ts';

const loadResults = async (db: JianguDatabase, id: string) => (await loadAnyResults(db, id)) as McItemResult[];
import { freshDb, makeRecord } from '../store/helpers.ts';
import { fakeLoadResult } from './fake-load.ts';

function items(): MultipleChoiceItem[] {
  const out: MultipleChoiceItem[] = [];
  for (const task of ['Radical', 'Cloze']) {
    for (const split of ['dev', 'test'] as const) {
      for (let order = 0; order < 5; order++) {
        out.push({
          kind: 'multiple-choice',
          id: `${task}/${split}/${order}`,
          datasetId: 'ancientbench',
          task,
          split,
          order,
          source: { file: 'sample.csv', line: order + 2 },
          question: `${task} 问题 ${order}`,
          options: ['甲', '乙', '丙', '丁'],
          answer: (['A', 'B', 'C', 'D'] as const)[order % 4],
        });
      }
    }
  }
  return out;
}

/** A client whose letter log-probabilities are a fixed function of the item, on a given backend. */
function fakeClient(backend: 'webgpu' | 'wasm', options: { skew?: number; onScore?: (p: ScoreItemParams) => void; positions?: { tokens: number; key: string } | null } = {}) {
  const scored: string[] = [];
  const client = {
    async load(params: LoadParams): Promise<LoadResult> {
      return fakeLoadResult(params.backend === 'wasm' ? 'wasm' : backend, options.positions === undefined ? {} : { context: options.positions });
    },
    async scoreItem(params: ScoreItemParams, request?: { signal?: AbortSignal }): Promise<ScoreItemResult> {
      options.onScore?.(params);
      // Like the worker: a request cancelled while in flight returns nothing.
      if (request?.signal?.aborted) throw new ModelError(modelError('cancelled', 'model.cancelled', []));
      scored.push(params.item.id);
      const favourite = params.item.order % 4; // the model "knows" every answer
      // A skew pushes every letter but D down, so on a skewed backend D wins where it should not.
      const logProbs = [0, 1, 2, 3].map((k) => (k === favourite ? -0.5 : -3) - (options.skew ?? 0) * (3 - k));
      return {
        prompt: `prompt of ${params.item.id}`,
        prefix: '',
        shotsUsed: params.shots,
        exemplarIds: [],
        droppedExemplarIds: [],
        overLimit: false,
        score: {
          inputIds: [1, 2, 3],
          candidates: ['A', 'B', 'C', 'D'].map((text, k) => ({ text, tokenId: 4 + k, tokenCount: 1, logProb: logProbs[k], mergesWithPrompt: false })),
          reusedPrefixTokens: 0,
          logitsCopied: 10,
          forwardPasses: 1,
          text: `prompt of ${params.item.id}`,
          forwardMs: 1,
        },
      };
    },
    terminate() {},
  };
  return { client: client as unknown as ModelClient, scored };
}

async function setup() {
  const db = await freshDb();
  const all = items();
  await saveDataset(db, makeRecord('ancientbench', all), all);
  const run = await createMcRun(db, {
    model: { source: { kind: 'site', name: 'jiangu-tiny' }, dtype: 'fp32', backend: 'auto' },
    datasetId: 'ancientbench',
    tasks: ['Radical', 'Cloze'],
    shots: 5,
    limitPerTask: null,
    chatTemplate: false,
    // A fixed seed, so which items come first (and are checked on WASM) is the same every time.
    sampling: { draw: 'random', seed: 1 },
  });
  return { db, run };
}

describe('executeRun', () => {
  it('pins the configuration and writes one result per test item, in order', async () => {
    const { db, run } = await setup();
    expect(run.config).toMatchObject({ protocolId: 'ancientbench', shots: 5, prefixReuse: true, contextLimit: 2048 });
    // Every test item, in the run's seeded order (run-sampling.test.ts, run-sampling-setup.test.ts).
    expect([...run.config.itemIds].sort()).toEqual([0, 1, 2, 3, 4].map((o) => `Cloze/test/${o}`).concat([0, 1, 2, 3, 4].map((o) => `Radical/test/${o}`)));
    expect(run.config.templateHash).toMatch(/^[0-9a-f]{64}$/);
    const { client } = fakeClient('wasm');
    const done = await executeRun(db, run.id, client);
    expect(done.status).toBe('completed');
    const results = await loadResults(db, run.id);
    expect(results.map((r) => r.itemId)).toEqual(run.config.itemIds);
    expect(results.every((r) => r.correct === true)).toBe(true);
    const second = results.find((r) => r.itemId === 'Radical/test/1')!;
    expect(second).toMatchObject({ prediction: 'B', gold: 'B', letters: ['A', 'B', 'C', 'D'] });
    expect(second.probs.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
  });

  it('pauses on cancel and resumes with only the items not yet done', async () => {
    const { db, run } = await setup();
    const abort = new AbortController();
    const first = fakeClient('wasm', { onScore: () => { if (first.scored.length === 3) abort.abort(); } });
    const paused = await executeRun(db, run.id, first.client, { signal: abort.signal });
    expect(paused.status).toBe('paused');
    const kept = await loadResults(db, run.id);
    expect(kept.length).toBe(3);

    const second = fakeClient('wasm');
    const finished = await executeRun(db, run.id, second.client);
    expect(finished.status).toBe('completed');
    expect(second.scored).toEqual(run.config.itemIds.slice(3));
    expect((await loadResults(db, run.id)).map((r) => r.itemId)).toEqual(run.config.itemIds);
  });

  it('stops a WebGPU run whose first items disagree with WASM, until the user overrides', async () => {
    const { db, run } = await setup();
    const gpu = fakeClient('webgpu', { skew: 1 });
    const stopped = (await executeRun(db, run.id, gpu.client, { wasmClient: () => fakeClient('wasm').client, checkItems: 3 })) as McRunRecord;
    expect(stopped.status).toBe('paused');
    expect(stopped.check).toMatchObject({ passed: false, itemIds: run.config.itemIds.slice(0, 3) });
    expect(stopped.check!.maxLogProbDiff).toBeCloseTo(3, 12);
    // The skew changes the prediction of items whose answer is A (order 0 and 4): those among the first 3.
    const flipped = run.config.itemIds.slice(0, 3).filter((id) => Number(id.split('/')[2]) % 4 === 0);
    expect(flipped.length).toBeGreaterThan(0);
    expect(stopped.check!.mismatchedPredictions).toEqual(flipped);
    expect(await loadResults(db, run.id)).toHaveLength(0);

    // Asked again without an override, it stops again; overridden, it runs.
    expect((await executeRun(db, run.id, gpu.client, { wasmClient: () => fakeClient('wasm').client })).status).toBe('paused');
    const stored = (await getRun(db, run.id)) as McRunRecord;
    const { updateRun } = await import('../../../src/lib/store/runs.ts');
    await updateRun(db, run.id, { check: { ...stored.check!, overridden: true } });
    expect((await executeRun(db, run.id, gpu.client, { wasmClient: () => fakeClient('wasm').client })).status).toBe('completed');
  });

  it('passes the check when WebGPU agrees, and records it', async () => {
    const { db, run } = await setup();
    const done = (await executeRun(db, run.id, fakeClient('webgpu').client, { wasmClient: () => fakeClient('wasm').client })) as McRunRecord;
    expect(done.status).toBe('completed');
    expect(done.check).toMatchObject({ passed: true, maxLogProbDiff: 0, mismatchedPredictions: [] });
    expect(done.environment?.backendInfo.backend).toBe('webgpu');
  });

  it('turns off prefix reuse for q8 and records a failed run with its error', async () => {
    const db = await freshDb();
    const all = items();
    await saveDataset(db, makeRecord('ancientbench', all), all);
    const run = await createMcRun(db, {
      model: { source: { kind: 'site', name: 'jiangu-tiny' }, dtype: 'q8', backend: 'wasm' },
      datasetId: 'ancientbench',
      tasks: ['Radical'],
      shots: 5,
      limitPerTask: 2,
      chatTemplate: false,
      sampling: { draw: 'first' },
    });
    expect(run.config.prefixReuse).toBe(false);
    expect([...run.config.itemIds].sort()).toEqual(['Radical/test/0', 'Radical/test/1']);
    const broken = { ...fakeClient('wasm').client, scoreItem: async () => { throw new Error('worker crashed'); } } as unknown as ModelClient;
    await expect(executeRun(db, run.id, broken)).rejects.toThrow('worker crashed');
    expect(await getRun(db, run.id)).toMatchObject({ status: 'failed', error: { code: 'internal', params: { detail: 'worker crashed' } } });
  });

  it('records the applied context limit and where it came from', async () => {
    const { db, run } = await setup();
    expect(run.contextLimit).toEqual({ tokens: 2048, from: 'default', asked: 'default', modelPositions: null });
    const done = await executeRun(db, run.id, fakeClient('wasm', { positions: { tokens: 512, key: 'n_positions' } }).client);
    expect(done.contextLimit).toEqual({ tokens: 512, from: 'config.n_positions', asked: 'default', modelPositions: 512 });
    const { run: other, db: db2 } = await setup();
    const unknown = await executeRun(db2, other.id, fakeClient('wasm', { positions: null }).client);
    expect(unknown.contextLimit).toEqual({ tokens: 2048, from: 'default', asked: 'default', modelPositions: null });
  });

  it('sends the applied limit to the worker and records an item it refuses as too long as failed; the run goes on', async () => {
    const { db, run } = await setup();
    const limits: number[] = [];
    const base = fakeClient('wasm', { positions: { tokens: 1000, key: 'max_position_embeddings' }, onScore: (p) => limits.push(p.contextLimit) });
    const tooLong = run.config.itemIds[2];
    const client = {
      ...base.client,
      load: base.client.load,
      scoreItem: async (params: ScoreItemParams, request?: { signal?: AbortSignal }) => {
        if (params.item.id === tooLong) throw new ModelError(modelError('too-long', 'run.item-too-long', [{ itemId: tooLong, tokens: 1500, limit: params.contextLimit }]));
        if (params.item.id === run.config.itemIds[4]) throw new ModelError(modelError('internal', 'model.failed', [{ detail: 'Gather idx out of range' }]));
        return base.client.scoreItem(params, request);
      },
    } as unknown as ModelClient;
    const done = await executeRun(db, run.id, client);
    expect(done.status).toBe('completed');
    expect(new Set(limits)).toEqual(new Set([1000]));
    const results = await loadResults(db, run.id);
    expect(results.map((r) => r.itemId)).toEqual(run.config.itemIds);
    const failed = results.filter((r) => r.failure);
    expect(failed.map((r) => r.itemId)).toEqual([tooLong, run.config.itemIds[4]]);
    expect(failed[0]).toMatchObject({ prediction: null, correct: null, tokenCount: 1500, failure: { code: 'run.item-too-long', params: { itemId: tooLong, tokens: 1500, limit: 1000 } } });
    expect(failed[1].failure).toEqual({ code: 'model.failed', params: { detail: 'Gather idx out of range' } });
    const { aggregateForDataset, summaryOfAggregate } = await import('../../../src/lib/core/metrics/index.ts');
    const aggregate = aggregateForDataset('ancientbench', results as McItemResult[]);
    expect(aggregate.failed).toBe(2);
    expect(aggregate.pooled.n).toBe(results.length - 2);
    expect(summaryOfAggregate(aggregate)).toMatchObject({ failed: 2, items: results.length });
  });

  it('leaves items too long for the model out of the WebGPU check, and records them failed in the run', async () => {
    const { db, run } = await setup();
    const tooLong = run.config.itemIds[0];
    const refusing = (backend: 'webgpu' | 'wasm') => {
      const base = fakeClient(backend);
      return {
        ...base.client,
        load: base.client.load,
        scoreItem: async (params: ScoreItemParams, request?: { signal?: AbortSignal }) => {
          if (params.item.id === tooLong) throw new ModelError(modelError('too-long', 'run.item-too-long', [{ itemId: tooLong, tokens: 3000, limit: params.contextLimit }]));
          return base.client.scoreItem(params, request);
        },
      } as unknown as ModelClient;
    };
    const done = (await executeRun(db, run.id, refusing('webgpu'), { wasmClient: () => refusing('wasm'), checkItems: 3 })) as McRunRecord;
    expect(done.status).toBe('completed');
    expect(done.check).toMatchObject({ passed: true, itemIds: run.config.itemIds.slice(1, 4) });
    const results = await loadResults(db, run.id);
    expect(results.filter((r) => r.failure).map((r) => r.itemId)).toEqual([tooLong]);
  });

  it('stops, recording nothing, when the model throws on item after item: the model is broken, not the items', async () => {
    const { db, run } = await setup();
    const base = fakeClient('wasm');
    const broken = {
      ...base.client,
      load: base.client.load,
      scoreItem: async () => {
        throw new ModelError(modelError('internal', 'model.failed', [{ detail: 'Unsupported op' }]));
      },
    } as unknown as ModelClient;
    await expect(executeRun(db, run.id, broken)).rejects.toThrow('Unsupported op');
    expect(await getRun(db, run.id)).toMatchObject({ status: 'failed', error: { code: 'model.failed' } });
    expect(await loadResults(db, run.id)).toHaveLength(0);
    expect((await executeRun(db, run.id, base.client)).status).toBe('completed');
    expect((await loadResults(db, run.id)).every((r) => !r.failure)).toBe(true);
  });

  it('stops the run when the worker dies, naming the item; Resume on a new worker finishes it', async () => {
    const { db, run } = await setup();
    const base = fakeClient('wasm');
    let calls = 0;
    const dying = {
      ...base.client,
      load: base.client.load,
      scoreItem: async (params: ScoreItemParams) => {
        if (++calls === 3) throw new ModelError(modelError('internal', 'model.worker-crashed', [], 'RuntimeError: unreachable'));
        return base.client.scoreItem(params);
      },
    } as unknown as ModelClient;
    await expect(executeRun(db, run.id, dying)).rejects.toThrow('crashed');
    const stopped = await getRun(db, run.id);
    expect(stopped).toMatchObject({ status: 'failed', error: { code: 'run.worker-died', params: { itemId: run.config.itemIds[2] } } });
    expect(await loadResults(db, run.id)).toHaveLength(2);
    const fresh = fakeClient('wasm');
    expect((await executeRun(db, run.id, fresh.client)).status).toBe('completed');
    expect(fresh.scored).toEqual(run.config.itemIds.slice(2));
    expect((await loadResults(db, run.id)).every((r) => !r.failure)).toBe(true);
  });
});
