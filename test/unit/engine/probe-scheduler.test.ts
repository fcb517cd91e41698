// The memorization run's bookkeeping against a fake model client (the real worker runs in Chromium in
// test/browser/memorization-run.test.ts): every item's text is scored once, every shard in file order
// and in each of the plan's orders (an order repeated within a shard once), results written as they
// come, a pause keeps what is done and a resume asks only the rest, a text over the limit is recorded
// as failed while the run goes on, and a shard's texts go in windows of the context limit.
import { describe, expect, it } from 'vitest';
import type { MultipleChoiceItem } from '../../../src/lib/core/benchmarks/types.ts';
import { EXCHANGEABILITY_DEFAULT_SEED, exchangeabilityPlan } from '../../../src/lib/core/metrics/memorization/index.ts';
import { probeItemText, probeShardText } from '../../../src/lib/core/protocols/probe-text.ts';
import { shardKey, type ProbeItemResult, type ProbeShardResult } from '../../../src/lib/core/record/probe-run.ts';
import { ModelError, type ModelClient } from '../../../src/lib/engine/model-client.ts';
import { modelError } from '../../../src/lib/engine/model-errors.ts';
import type { LoadParams, LoadResult, TextStatisticsParams, TextStatisticsResult } from '../../../src/lib/engine/messages.ts';
import { createProbeRunRecord, probeCost } from '../../../src/lib/engine/probe-setup.ts';
import { executeProbeRun, plannedShards } from '../../../src/lib/engine/probe-scheduler.ts';
import { saveDataset } from '../../../src/lib/store/datasets.ts';
import { getProbeRun, loadProbeResults } from '../../../src/lib/store/probe-runs.ts';
import { freshDb, makeRecord } from '../store/helpers.ts';
import { fakeLoadResult } from './fake-load.ts';

function items(): MultipleChoiceItem[] {
  const out: MultipleChoiceItem[] = [];
  for (const [task, count] of [['Radical', 9], ['Cloze', 3]] as const) {
    for (let order = 0; order < count; order++) {
      out.push({ kind: 'multiple-choice', id: `${task}/test/${order}`, datasetId: 'ancientbench', task, split: 'test', order, source: { file: 'sample.csv', line: order + 2 }, question: `${task} 问题 ${order}`, options: ['甲', '乙', '丙', '丁'], answer: 'A' });
    }
  }
  return out;
}

/** A text's made-up statistics: one position per character after the first, log p from the character's code. */
function fakeClient(options: { tooLong?: string; onText?: (p: TextStatisticsParams) => void } = {}) {
  const asked: TextStatisticsParams[] = [];
  let loadedWith: LoadParams | null = null;
  const client = {
    async load(params: LoadParams): Promise<LoadResult> {
      loadedWith = params;
      return fakeLoadResult('wasm', { context: { tokens: 64, key: 'max_position_embeddings' }, statisticsPath: { kind: 'graph' } });
    },
    async textStatistics(params: TextStatisticsParams, request?: { signal?: AbortSignal }): Promise<TextStatisticsResult> {
      options.onText?.(params);
      if (request?.signal?.aborted) throw new ModelError(modelError('cancelled', 'model.cancelled', []));
      if (options.tooLong && params.text.includes(options.tooLong)) throw new ModelError(modelError('too-long', 'run.item-too-long', [{ itemId: params.itemId ?? '—', tokens: 99, limit: 64 }]));
      asked.push(params);
      const chars = [...params.text];
      const logprob = Float64Array.from(chars.slice(1), (c, i) => -((c.codePointAt(0)! % 7) + 1) * (1 + 0.01 * i));
      return { ids: chars.map((c) => c.codePointAt(0)!), logprob, argmax: new Int32Array(logprob.length), ...(params.moments ? { mean: logprob.map((x) => x - 1), std: logprob.map(() => 1) } : {}), path: 'graph', logitsCopied: 0, forwardPasses: 1, forwardMs: 1 };
    },
  };
  return { client: client as unknown as ModelClient, asked, loaded: () => loadedWith };
}

async function setUp(exchangeability = true) {
  const db = await freshDb();
  const all = items();
  await saveDataset(db, makeRecord('ancientbench', all), all);
  const run = await createProbeRunRecord(db, {
    model: { source: { kind: 'site', name: 'jiangu-tiny' }, dtype: 'fp32', backend: 'wasm' },
    datasetId: 'ancientbench',
    tasks: ['Radical', 'Cloze'],
    limitPerTask: null,
    ...(exchangeability ? { exchangeability: { permutations: 4, seed: 7 } } : {}),
  });
  return { db, run, all };
}

describe('executeProbeRun', () => {
  it('scores every item once and every shard in file order and its orders, loading the model with statistics', async () => {
    const { db, run, all } = await setUp();
    // Radical's 9 items make 4 shards (3, 2, 2, 2 items: the reference's split); Cloze's 3 items are too few (said).
    expect(run.config.exchangeability?.map((f) => [f.task, f.design.shardCount])).toEqual([['Radical', 4]]);
    expect(run.warnings).toEqual([{ code: 'probe.file-too-small', params: { tasks: 'Cloze' } }]);
    const fake = fakeClient();
    const done = await executeProbeRun(db, run.id, fake.client);
    expect(done.status).toBe('completed');
    expect(fake.loaded()?.statistics).toBe(true);
    const results = await loadProbeResults(db, run.id);
    const itemResults = results.filter((r): r is ProbeItemResult => r.kind === 'item');
    expect(itemResults.map((r) => r.itemId)).toEqual(run.config.itemIds);
    const byId = new Map(all.map((i) => [i.id, i]));
    for (const r of itemResults) {
      expect(r.text).toBe(probeItemText(byId.get(r.itemId)!));
      expect(r.logprob).toHaveLength([...r.text].length - 1);
      expect(r.mean).toHaveLength(r.logprob.length);
    }
    const shards = results.filter((r): r is ProbeShardResult => r.kind === 'shard');
    const file = run.config.exchangeability![0];
    const plan = exchangeabilityPlan(file.design);
    expect(shards.map((s) => s.itemId)).toEqual(plan.map((_, i) => shardKey('Radical', i)));
    const radical = file.itemIds.map((id) => byId.get(id)!);
    const sumOf = (text: string) => [...text].slice(1).reduce((sum, c, i) => sum - ((c.codePointAt(0)! % 7) + 1) * (1 + 0.01 * i), 0);
    shards.forEach((s, i) => {
      const local = plan[i].items.map((k) => radical[k]);
      expect(s.canonical).toBeCloseTo(sumOf(probeShardText(local, local.map((_, j) => j))), 9);
      expect(s.permuted).toHaveLength(4);
      s.permuted.forEach((p, r) => expect(p).toBeCloseTo(sumOf(probeShardText(local, plan[i].orders[r].map((k) => k - plan[i].items[0]))), 9));
    });
    // Shards are scored in windows of the model's 64 positions, items refused past them.
    const shardAsks = fake.asked.filter((p) => !p.moments);
    expect(shardAsks.every((p) => p.window === 64)).toBe(true);
    expect(fake.asked.filter((p) => p.moments).every((p) => p.contextLimit === 64 && p.window === undefined)).toBe(true);
    // A 2-item shard has one other order: asked once however often the plan repeats it.
    const twoItem = plan.findIndex((s) => s.items.length === 2);
    expect(shardAsks.filter((p) => plannedShards(run)[twoItem].itemIds.every((id) => p.text.includes(byId.get(id)!.question))).length).toBe(2);
  });

  it('pauses on cancel keeping what is done, and a resume asks only the rest', async () => {
    const { db, run } = await setUp();
    const controller = new AbortController();
    let seen = 0;
    const first = fakeClient({ onText: () => ++seen === 5 && controller.abort() });
    expect((await executeProbeRun(db, run.id, first.client, { signal: controller.signal })).status).toBe('paused');
    const kept = await loadProbeResults(db, run.id);
    expect(kept).toHaveLength(4);
    const second = fakeClient();
    expect((await executeProbeRun(db, run.id, second.client)).status).toBe('completed');
    const asked = second.asked.filter((p) => p.moments).map((p) => p.itemId);
    expect(asked).toEqual(run.config.itemIds.slice(4));
    expect((await loadProbeResults(db, run.id)).slice(0, 4)).toEqual(kept);
  });

  it('records a text too long for the model as failed and goes on', async () => {
    const { db, run } = await setUp(false);
    const fake = fakeClient({ tooLong: 'Radical 问题 3' });
    expect((await executeProbeRun(db, run.id, fake.client)).status).toBe('completed');
    const results = (await loadProbeResults(db, run.id)) as ProbeItemResult[];
    const failed = results.filter((r) => r.failure);
    expect(failed.map((r) => r.itemId)).toEqual(['Radical/test/3']);
    expect(failed[0]).toMatchObject({ logprob: [], tokenCount: 99, failure: { code: 'run.item-too-long' } });
    expect(results).toHaveLength(run.config.itemIds.length);
  });

  it('fails, resumable, on any other model error', async () => {
    const { db, run } = await setUp(false);
    const broken = { ...fakeClient().client, textStatistics: async () => Promise.reject(new ModelError(modelError('internal', 'model.failed', [{ detail: 'boom' }]))) } as unknown as ModelClient;
    await expect(executeProbeRun(db, run.id, broken)).rejects.toThrow();
    expect((await getProbeRun(db, run.id))?.status).toBe('failed');
    expect((await executeProbeRun(db, run.id, fakeClient().client)).status).toBe('completed');
  });
});

describe('probeCost', () => {
  it('counts the items\' characters, and each shard once in file order and once per distinct other order (a 2-item shard twice, not r + 1 times)', () => {
    const all = items();
    const plain = probeCost(all, null);
    expect(plain.texts).toBe(12);
    expect(plain.characters).toBe(all.reduce((n, item) => n + [...probeItemText(item)].length, 0));
    const withTest = probeCost(all, { permutations: 4 });
    // Radical: 4 shards (3, 2, 2, 2 items); Cloze has too few items. A 2-item shard's 4 orders are all the swap.
    const plan = exchangeabilityPlan({ itemCount: 9, shardCount: 4, permutations: 4, seed: EXCHANGEABILITY_DEFAULT_SEED });
    const distinct = plan.map((shard) => new Set(shard.orders.map((o) => o.join(','))).size);
    expect(distinct.slice(1)).toEqual([1, 1, 1]);
    expect(withTest.shardTexts).toBe(distinct.reduce((n, d) => n + 1 + d, 0));
    const radical = all.filter((i) => i.task === 'Radical').map((item) => [...probeItemText(item)].length + 2);
    expect(withTest.shardCharacters).toBe(plan.reduce((n, shard, k) => n + shard.items.reduce((c, i) => c + radical[i], 0) * (1 + distinct[k]), 0));
    // Fewer texts than r + 1 a shard: the repeated orders are not paid for.
    expect(withTest.shardTexts).toBeLessThan(4 * 5);
  });
});
