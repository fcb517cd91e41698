// "Run B on A's sample" and the sign-settled stop (paired-run.ts, stop-rule-paired.ts) through the
// real scheduler with fake model clients: B gets A's items in A's order, stops by itself once the
// paired confidence sequence excludes 0 (completed, fewer results than items, the difference then
// settled), and runs to its last item when it cannot be settled (the same answers as A).
import { describe, expect, it } from 'vitest';
import type { MultipleChoiceItem } from '../../../src/lib/core/benchmarks/types.ts';
import type { ModelClient } from '../../../src/lib/engine/model-client.ts';
import type { LoadResult, ScoreItemParams, ScoreItemResult } from '../../../src/lib/engine/messages.ts';
import { createMcRun } from '../../../src/lib/engine/run-setup.ts';
import { executeRun } from '../../../src/lib/engine/run-scheduler.ts';
import { createPairedRun, pairedRunRequest } from '../../../src/lib/engine/paired-run.ts';
import { pairedBaselineFor, signSettledStop } from '../../../src/lib/engine/stop-rule-paired.ts';
import { stoppedByRule } from '../../../src/lib/engine/stop-rule.ts';
import { pairedSequence } from '../../../src/lib/core/metrics/compare-sequence.ts';
import { saveDataset } from '../../../src/lib/store/datasets.ts';
import { loadResults } from '../../../src/lib/store/runs.ts';
import type { McItemResult, McRunRecord, RunModel } from '../../../src/lib/core/record/run.ts';
import type { JianguDatabase } from '../../../src/lib/store/schema.ts';
import { freshDb, makeRecord } from '../store/helpers.ts';
import { fakeLoadResult } from './fake-load.ts';

const TASKS = ['Radical', 'Cloze'];
const PER_TASK = 150;

function items(): MultipleChoiceItem[] {
  return TASKS.flatMap((task) =>
    Array.from({ length: PER_TASK }, (_, order): MultipleChoiceItem => ({
      kind: 'multiple-choice',
      id: `${task}/test/${order}`,
      datasetId: 'ancientbench',
      task,
      split: 'test',
      order,
      source: { file: 'sample.csv', line: order + 2 },
      question: `${task} 问题 ${order}`,
      options: ['甲', '乙', '丙', '丁'],
      answer: 'A',
    })),
  );
}

/** A model that answers A (right) on the items `right` says, B otherwise. */
function fakeClient(right: (item: MultipleChoiceItem) => boolean): ModelClient {
  const client = {
    async load(): Promise<LoadResult> {
      return fakeLoadResult('wasm');
    },
    async scoreItem(params: ScoreItemParams): Promise<ScoreItemResult> {
      const favourite = right(params.item as MultipleChoiceItem) ? 0 : 1;
      return {
        prompt: `prompt of ${params.item.id}`,
        prefix: '',
        shotsUsed: 0,
        exemplarIds: [],
        droppedExemplarIds: [],
        overLimit: false,
        score: {
          inputIds: [1, 2, 3],
          candidates: ['A', 'B', 'C', 'D'].map((text, k) => ({ text, tokenId: 4 + k, tokenCount: 1, logProb: k === favourite ? -0.5 : -3, mergesWithPrompt: false })),
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
  return client as unknown as ModelClient;
}

const MODEL_A: RunModel = { source: { kind: 'site', name: 'jiangu-tiny' }, dtype: 'fp32', backend: 'wasm' };
const MODEL_B: RunModel = { source: { kind: 'hub', id: 'someone/other-model' }, dtype: 'q8', backend: 'wasm' };
/** A weak model: right on about a quarter of the items (a fixed pattern, not the order). */
const weak = (item: MultipleChoiceItem) => (item.order * 7) % 4 === 0;

async function baseline(db: JianguDatabase): Promise<McRunRecord> {
  const all = items();
  await saveDataset(db, makeRecord('ancientbench', all), all);
  const run = await createMcRun(db, { model: MODEL_A, datasetId: 'ancientbench', tasks: TASKS, shots: 0, limitPerTask: null, chatTemplate: false, sampling: { draw: 'random', seed: 1234 } });
  const done = await executeRun(db, run.id, fakeClient(weak));
  expect(done.status).toBe('completed');
  return done as McRunRecord;
}

describe('a run of model B on run A’s sample', () => {
  it('asks A’s items in A’s order, with the sign-settled rule naming A', async () => {
    const db = await freshDb();
    const a = await baseline(db);
    const b = await createPairedRun(db, a, MODEL_B);
    expect(b.config.itemIds).toEqual(a.config.itemIds);
    expect(b.config.sampling).toEqual(a.config.sampling);
    expect(b.config.model).toEqual(MODEL_B);
    expect(b.config.stopRule).toEqual({ kind: 'sign-settled', baselineRunId: a.id, alpha: 0.05 });
    db.close();
  });

  it('stops once B is settled better, and the difference at that moment excludes 0', async () => {
    const db = await freshDb();
    const a = await baseline(db);
    const b = await createPairedRun(db, a, MODEL_B);
    const done = await executeRun(db, b.id, fakeClient(() => true));
    const results = (await loadResults(db, b.id)) as McItemResult[];
    expect(done.status).toBe('completed');
    expect(results.length).toBeGreaterThan(0);
    expect(results.length).toBeLessThan(b.config.itemIds.length);
    expect(stoppedByRule(done, results.length)).toEqual(b.config.stopRule);
    // Stopped in order: B's results are the first items of the shared order.
    expect(new Set(results.map((r) => r.itemId))).toEqual(new Set(b.config.itemIds.slice(0, results.length)));
    const aResults = (await loadResults(db, a.id)) as McItemResult[];
    const seq = pairedSequence('ancientbench', { config: a.config, items: aResults }, { config: b.config, items: results });
    if (!('sequence' in seq)) throw new Error(`refused: ${seq.problem}`);
    expect(seq.sequence.verdict).toBe('other-better');
    // One item fewer was not yet settled (it stopped at the first look that was).
    const before = pairedSequence('ancientbench', { config: a.config, items: aResults }, { config: b.config, items: results.slice(0, -1) });
    if (!('sequence' in before)) throw new Error('refused');
    expect(before.sequence.verdict).toBe('unsettled');
    db.close();
  });

  it('runs to its last item when B answers exactly as A (never settled)', async () => {
    const db = await freshDb();
    const a = await baseline(db);
    const b = await createPairedRun(db, a, MODEL_B);
    const done = await executeRun(db, b.id, fakeClient(weak));
    expect(done.status).toBe('completed');
    expect((await loadResults(db, b.id)).length).toBe(b.config.itemIds.length);
    db.close();
  });

  it('never stops, and says why, when A is gone or was asked on another sample', async () => {
    const db = await freshDb();
    const a = await baseline(db);
    const b = await createPairedRun(db, a, MODEL_B);
    const rule = { kind: 'sign-settled' as const, baselineRunId: 'no-such-run', alpha: 0.05 };
    const orphan = { ...b, config: { ...b.config, stopRule: rule } };
    expect(await pairedBaselineFor(db, orphan)).toEqual({ problem: 'baseline-missing' });
    expect(signSettledStop(orphan, rule, { problem: 'baseline-missing' }, [])).toBeNull();
    const other = await createMcRun(db, { model: MODEL_A, datasetId: 'ancientbench', tasks: TASKS, shots: 0, limitPerTask: null, chatTemplate: false, sampling: { draw: 'random', seed: 99 } });
    const elsewhere = { ...b, config: { ...b.config, stopRule: { ...rule, baselineRunId: other.id } } };
    expect(await pairedBaselineFor(db, elsewhere)).toEqual({ problem: 'sampling-differs' });
    expect(await pairedBaselineFor(db, a)).toBeNull();
    db.close();
  });

  it('is refused for a baseline asked in file order', async () => {
    const db = await freshDb();
    const a = await baseline(db);
    const old = { ...a, config: { ...a.config, sampling: undefined } };
    let code: string | null = null;
    try {
      pairedRunRequest(old, MODEL_B);
    } catch (error) {
      code = (error as { notice?: { code: string } }).notice?.code ?? null;
    }
    expect(code).toBe('compare.paired-no-order');
    db.close();
  });
});
