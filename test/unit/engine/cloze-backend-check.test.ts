// The WebGPU check of a cloze run (unit test against fake clients; the real worker's check runs in
// Chromium in test/browser/cloze-run.test.ts): before a WebGPU cloze run, its first items are scored
// on WASM too, loaded with the statistics outputs as the run is; each option's summed log-probability
// ÷ its tokens is compared within the tolerance, and the option the acc rule picks must agree. And
// "Run on WASM instead" keeps the run's scoring.
import { describe, expect, it } from 'vitest';
import type { MultipleChoiceItem } from '../../../src/lib/core/benchmarks/types.ts';
import type { McItemResult, McRunRecord } from '../../../src/lib/core/record/run.ts';
import type { ModelClient } from '../../../src/lib/engine/model-client.ts';
import type { LoadParams, LoadResult, ScoreClozeItemParams, ScoreClozeItemResult } from '../../../src/lib/engine/messages.ts';
import { executeRun } from '../../../src/lib/engine/run-scheduler.ts';
import { createMcRun, wasmRerunRequest } from '../../../src/lib/engine/run-setup.ts';
import { saveDataset } from '../../../src/lib/store/datasets.ts';
import { loadResults } from '../../../src/lib/store/runs.ts';
import { freshDb, makeRecord } from '../store/helpers.ts';
import { fakeLoadResult } from './fake-load.ts';

function items(): MultipleChoiceItem[] {
  return [0, 1, 2, 3, 4].flatMap((order) =>
    (['dev', 'test'] as const).map((split) => ({
      kind: 'multiple-choice' as const,
      id: `Radical/${split}/${order}`,
      datasetId: 'ancientbench' as const,
      task: 'Radical',
      split,
      order,
      source: { file: 'sample.csv', line: order + 2 },
      question: `问题 ${order}`,
      options: ['甲', '乙乙', '丙丙丙', '丁丁丁丁'],
      answer: (['A', 'B', 'C', 'D'] as const)[order % 4],
    })),
  );
}

/**
 * Option k has k + 1 tokens at -1 a token, except the gold option at -0.2 a token. `shift` adds to
 * every token of the last option (D): its sum moves by 4 × shift, its per-token mean by shift.
 */
function clozeClient(backend: 'webgpu' | 'wasm', shift = 0) {
  const loads: LoadParams[] = [];
  const asked: string[] = [];
  const client = {
    async load(params: LoadParams): Promise<LoadResult> {
      loads.push(params);
      return fakeLoadResult(params.backend === 'wasm' ? 'wasm' : backend);
    },
    async scoreItem(): Promise<never> {
      throw new Error('a cloze run asked for letters');
    },
    async scoreClozeItem(params: ScoreClozeItemParams): Promise<ScoreClozeItemResult> {
      asked.push(params.item.id);
      const gold = params.item.order % 4;
      const options = params.item.options.map((text, k) => {
        const tokens = k + 1;
        const perToken = (k === gold ? -0.2 : -1) + (k === 3 ? shift : 0);
        return { continuation: text, tokenIds: Array.from({ length: tokens }, (_, i) => 10 + i), logLikelihood: perToken * tokens, isGreedy: false, contextIsPrefix: true, ...(params.unconditional ? { unconditional: -2 * tokens } : {}) };
      });
      return { context: `context of ${params.item.id}`, prefix: '', shotsUsed: params.shots, exemplarIds: [], droppedExemplarIds: [], overLimit: false, text: `context of ${params.item.id}`, contextIds: [1, 2, 3], options, reusedPrefixTokens: 0, logitsCopied: 0, forwardPasses: 4, forwardMs: 1 };
    },
    terminate() {},
  };
  return { client: client as unknown as ModelClient, loads, asked };
}

async function setup() {
  const db = await freshDb();
  const all = items();
  await saveDataset(db, makeRecord('ancientbench', all), all);
  const run = await createMcRun(db, {
    model: { source: { kind: 'site', name: 'jiangu-tiny' }, dtype: 'q4', backend: 'auto' },
    datasetId: 'ancientbench',
    tasks: ['Radical'],
    shots: 0,
    limitPerTask: null,
    chatTemplate: false,
    scoring: 'cloze',
  });
  return { db, run };
}

describe('the WebGPU check of a cloze run', () => {
  it('scores the first items on WASM with the statistics outputs, and passes within the tolerance per token', async () => {
    const { db, run } = await setup();
    const wasm = clozeClient('wasm');
    // D moves by 0.008 a token on WebGPU: 0.032 over its 4 tokens, within 1e-2 a token.
    const gpu = clozeClient('webgpu', 0.008);
    const done = (await executeRun(db, run.id, gpu.client, { wasmClient: () => wasm.client, checkItems: 3 })) as McRunRecord;
    expect(done.status).toBe('completed');
    expect(wasm.loads).toEqual([expect.objectContaining({ backend: 'wasm', dtype: 'q4', statistics: true })]);
    expect(gpu.loads[0]).toMatchObject({ statistics: true });
    expect(wasm.asked).toEqual(run.config.itemIds.slice(0, 3));
    expect(done.check).toMatchObject({ passed: true, itemIds: run.config.itemIds.slice(0, 3), mismatchedPredictions: [], tolerance: 1e-2 });
    expect(done.check!.maxLogProbDiff).toBeCloseTo(0.008, 12);
    expect(await loadResults(db, run.id)).toHaveLength(5);
  });

  it('stops the run when an option is off by more than the tolerance a token, or the acc rule picks another option', async () => {
    const { db, run } = await setup();
    // 0.02 a token: no prediction changes (D stays below the gold), but over the tolerance.
    const off = (await executeRun(db, run.id, clozeClient('webgpu', 0.02).client, { wasmClient: () => clozeClient('wasm').client, checkItems: 3 })) as McRunRecord;
    expect(off.status).toBe('paused');
    expect(off.check).toMatchObject({ passed: false, mismatchedPredictions: [] });
    expect(off.check!.maxLogProbDiff).toBeCloseTo(0.02, 12);
    expect(await loadResults(db, run.id)).toHaveLength(0);

    const other = await setup();
    // 1 a token on D: its sum beats the gold's on every item, so the predictions differ.
    const flipped = (await executeRun(other.db, other.run.id, clozeClient('webgpu', 1).client, { wasmClient: () => clozeClient('wasm').client, checkItems: 3 })) as McRunRecord;
    expect(flipped.status).toBe('paused');
    // Every item checked but one whose gold is D (order 3), where D wins on both backends.
    expect(flipped.check!.mismatchedPredictions).toEqual(other.run.config.itemIds.slice(0, 3).filter((id) => id !== 'Radical/test/3'));
  });

  it('"Run on WASM instead" keeps cloze scoring and the rest of the configuration', async () => {
    const { db, run } = await setup();
    const failed = (await executeRun(db, run.id, clozeClient('webgpu', 1).client, { wasmClient: () => clozeClient('wasm').client, checkItems: 3 })) as McRunRecord;
    const request = wasmRerunRequest(failed);
    expect(request).toEqual({ model: { ...run.config.model, backend: 'wasm' }, datasetId: 'ancientbench', tasks: ['Radical'], shots: 0, limitPerTask: null, chatTemplate: false, scoring: 'cloze', sampling: { draw: 'random', seed: run.config.sampling!.seed, order: 'shuffled', block: 4, growth: 2, maxBlock: 64 } });
    const again = await createMcRun(db, request);
    expect(again.config).toMatchObject({ scoring: 'cloze', protocolVersion: run.config.protocolVersion, templateHash: run.config.templateHash, itemIds: run.config.itemIds });
    const done = await executeRun(db, again.id, clozeClient('wasm').client);
    expect(done.status).toBe('completed');
    const results = (await loadResults(db, again.id)) as McItemResult[];
    expect(results.every((r) => r.cloze !== undefined && r.correct === true)).toBe(true);
  });
});
