// The precision stop (engine/stop-rule.ts): a run stops by itself, completed, as soon as the
// confidence sequence of the benchmark's score is as narrow as asked, and not one item before; a run
// whose intervals could not describe the benchmark, or with no rule, runs to its last item.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MultipleChoiceItem } from '../../../src/lib/core/benchmarks/types.ts';
import type { ModelClient } from '../../../src/lib/engine/model-client.ts';
import type { LoadResult, ScoreItemParams, ScoreItemResult } from '../../../src/lib/engine/messages.ts';
import { createMcRun } from '../../../src/lib/engine/run-setup.ts';
import { executeRun } from '../../../src/lib/engine/run-scheduler.ts';
import { precisionStop, stopCheckBudget, stopCheckFor, stoppedByRule } from '../../../src/lib/engine/stop-rule.ts';
import { saveDataset } from '../../../src/lib/store/datasets.ts';
import { getRun, loadResults } from '../../../src/lib/store/runs.ts';
import type { McItemResult, McRunRecord } from '../../../src/lib/core/record/run.ts';
import type { StopRule } from '../../../src/lib/core/protocols/run-sampling.ts';
import { combineStrata, stratumTracker } from '../../../src/lib/core/metrics/sample-estimate/index.ts';
import { LOOK_SHARE } from '../../../src/lib/core/metrics/sample-estimate/look-plan.ts';
import { looksOf, planForValues, runLookPlan } from '../../../src/lib/core/metrics/run-look-plan.ts';
import type { JianguDatabase } from '../../../src/lib/store/schema.ts';
import { freshDb, makeRecord } from '../store/helpers.ts';
import { fakeLoadResult } from './fake-load.ts';

// AncientBench: Radical (glyph) and Cloze (context), one task per competency, so the rule's weights are ½ and ½.
const TASKS = ['Radical', 'Cloze'];
const PER_TASK = 150;

function items(): MultipleChoiceItem[] {
  return TASKS.flatMap((task) =>
    (['dev', 'test'] as const).flatMap((split) =>
      Array.from({ length: split === 'dev' ? 5 : PER_TASK }, (_, order): MultipleChoiceItem => ({
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
      })),
    ),
  );
}

/** Knows the answer of 7 items in 8 (wrong on every eighth), so the score is neither 0 nor 1. */
function fakeClient(): { client: ModelClient; scored: string[] } {
  const scored: string[] = [];
  const client = {
    async load(): Promise<LoadResult> {
      return fakeLoadResult('wasm');
    },
    async scoreItem(params: ScoreItemParams): Promise<ScoreItemResult> {
      scored.push(params.item.id);
      const favourite = params.item.order % 8 === 7 ? (params.item.order + 1) % 4 : params.item.order % 4;
      const logProbs = [0, 1, 2, 3].map((k) => (k === favourite ? -0.5 : -3));
      return {
        prompt: 'p',
        prefix: '',
        shotsUsed: 0,
        exemplarIds: [],
        droppedExemplarIds: [],
        overLimit: false,
        score: { inputIds: [1], candidates: ['A', 'B', 'C', 'D'].map((text, k) => ({ text, tokenId: 4 + k, tokenCount: 1, logProb: logProbs[k], mergesWithPrompt: false })), reusedPrefixTokens: 0, logitsCopied: 4, forwardPasses: 1, text: 'p', forwardMs: 1 },
      };
    },
    terminate() {},
  };
  return { client: client as unknown as ModelClient, scored };
}

/** A run of both tasks, asked alternately (as a shuffled run visits every task early), with `stopRule`; `sampled` false: an older run in file order. */
async function setup(stopRule: StopRule | undefined, sampled = true): Promise<{ db: JianguDatabase; run: McRunRecord }> {
  const db = await freshDb();
  const all = items();
  await saveDataset(db, makeRecord('ancientbench', all), all);
  const created = await createMcRun(db, { model: { source: { kind: 'site', name: 'jiangu-tiny' }, dtype: 'fp32', backend: 'wasm' }, datasetId: 'ancientbench', tasks: TASKS, shots: 0, limitPerTask: null, chatTemplate: false, ...(stopRule ? { stopRule } : {}) });
  const order = Array.from({ length: PER_TASK }, (_, k) => TASKS.map((task) => `${task}/test/${(k * 37) % PER_TASK}`)).flat();
  // An older record: no sampling, its items task by task in file order.
  const { sampling: _drop, ...unsampled } = created.config;
  const run: McRunRecord = sampled
    ? { ...created, config: { ...created.config, itemIds: order, sampling: { draw: 'random', seed: 7, order: 'shuffled', block: 1, population: { Radical: PER_TASK, Cloze: PER_TASK } } } }
    : { ...created, config: { ...unsampled, itemIds: TASKS.flatMap((task) => Array.from({ length: PER_TASK }, (_, k) => `${task}/test/${k}`)) } };
  await db.put('runs', run);
  return { db, run };
}

/**
 * The half-width of the overall confidence sequence after each stored result, recomputed here from
 * the trackers and the run's planned looks (run-look-plan.ts: the precision rule's target places them).
 */
function halfWidths(run: McRunRecord, results: readonly McItemResult[]): number[] {
  const rule = run.config.stopRule;
  const plan = runLookPlan({ tasks: TASKS, populations: run.config.sampling!.population, limitPerTask: null, rule: run.config.sampling! }, 'ancientbench', rule?.kind === 'precision' ? { kind: 'precision', halfWidth: rule.halfWidth } : { kind: 'watch' }, 0.05)!;
  const trackers = new Map(TASKS.map((task) => [task, stratumTracker(PER_TASK, { sequenceAlpha: 0.05 * (1 - LOOK_SHARE) })]));
  return results.map((r) => {
    trackers.get(r.task)!.push(r.correct ? 1 : 0);
    const s = combineStrata(TASKS.map((task) => ({ weight: 0.5, tracker: trackers.get(task)!, looks: looksOf(plan, task) })), { alpha: 0.05, plan: planForValues(plan, 'accuracy') }).sequence;
    return s ? (s.high - s.low) / 2 : Infinity;
  });
}

describe('precision stop', () => {
  // A check before every item (the page's runs spread checks out to keep their cost a small share: see the last test).
  const kept = { ...stopCheckBudget };
  beforeAll(() => void (stopCheckBudget.share = Infinity));
  afterAll(() => Object.assign(stopCheckBudget, kept));

  it('stops the run, completed, at the first item after which the confidence sequence is within ±halfWidth', async () => {
    const rule: StopRule = { kind: 'precision', halfWidth: 0.12, alpha: 0.05 };
    const { db, run } = await setup(rule);
    expect(run.config.stopRule).toEqual(rule);
    const { client, scored } = fakeClient();
    const done = await executeRun(db, run.id, client);
    expect(done.status).toBe('completed');
    const results = (await loadResults(db, run.id)) as McItemResult[];
    expect(results.length).toBe(scored.length);
    expect(results.length).toBeLessThan(run.config.itemIds.length);
    const widths = halfWidths(run, results);
    // Narrow enough after its last item, and not after any before it.
    expect(widths[widths.length - 1]).toBeLessThanOrEqual(rule.halfWidth);
    expect(widths.slice(0, -1).every((w) => w > rule.halfWidth)).toBe(true);
    expect(stoppedByRule(done, results.length)).toEqual(rule);
  });

  it('runs to the last item when the rule asks more than the items give, when a run is in file order, and with no rule', async () => {
    for (const [rule, sampled] of [[{ kind: 'precision', halfWidth: 0.001, alpha: 0.05 }, true], [{ kind: 'precision', halfWidth: 0.5, alpha: 0.05 }, false], [undefined, true]] as const) {
      const { db, run } = await setup(rule, sampled);
      const { client } = fakeClient();
      const done = await executeRun(db, run.id, client);
      expect(done.status).toBe('completed');
      expect([rule?.halfWidth, sampled, (await loadResults(db, run.id)).length]).toEqual([rule?.halfWidth, sampled, run.config.itemIds.length]);
      expect(stoppedByRule(done, run.config.itemIds.length)).toBeNull();
    }
  });

  it('counts the results stored before a resume', async () => {
    const rule = { kind: 'precision', halfWidth: 0.12, alpha: 0.05 } as const;
    const { db, run } = await setup(rule);
    const { client } = fakeClient();
    await executeRun(db, run.id, client);
    const results = (await loadResults(db, run.id)) as McItemResult[];
    const stored = await getRun(db, run.id);
    // Given every result it stopped with, the check is met before any item more; given one fewer, not yet.
    expect(stopCheckFor(stored!, results)!.met()).toBe(true);
    expect(stopCheckFor(stored!, results.slice(0, -1))!.met()).toBe(false);
    // Fed one at a time, it turns at the same item.
    const check = precisionStop(stored as McRunRecord, rule, results.slice(0, -1))!;
    check.observe(results[results.length - 1]);
    expect(check.met()).toBe(true);
  });

  it('after a check, waits until its cost is the budget’s share of the time before checking again', async () => {
    const rule = { kind: 'precision', halfWidth: 0.12, alpha: 0.05 } as const;
    const { db, run } = await setup(rule);
    await executeRun(db, run.id, fakeClient().client);
    const results = (await loadResults(db, run.id)) as McItemResult[];
    let clock = 0;
    Object.assign(stopCheckBudget, { share: 0.05, now: () => clock });
    try {
      // One result short: the fixed-n interval is narrow enough, so the sequence is computed (taking 2 ms of the fake clock).
      const check = precisionStop((await getRun(db, run.id)) as McRunRecord, rule, results.slice(0, -1))!;
      const now = stopCheckBudget.now;
      stopCheckBudget.now = () => (clock += 1);
      expect(check.met()).toBe(false);
      stopCheckBudget.now = now;
      check.observe(results[results.length - 1]);
      // 1 ms of the check at 5%: nothing again before 20 ms after it started.
      clock = 19;
      expect(check.met()).toBe(false);
      clock = 21;
      expect(check.met()).toBe(true);
    } finally {
      Object.assign(stopCheckBudget, kept);
    }
  });
});
