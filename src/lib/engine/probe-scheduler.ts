// Runs a stored memorization run to the end (issue 26): every item's text scored position by
// position, then, when the run tests the files' order, every shard in file order and in its r
// permuted orders. Each item and each shard is written the moment it is complete, so a reload loses
// at most the one in flight and Resume (this same function) asks only what is missing. One tab at a
// time per run (the same Web Locks as scoring runs).
//
// A text over the context limit is recorded as failed and the run goes on; a shard's texts, longer
// than any one item, are scored in sliding windows of the context limit (the reference's) instead.
// Anything else the model throws ends the run (failed, resumable), as a scoring run's does.
import type { MultipleChoiceItem } from '../core/benchmarks/types.ts';
import { exchangeabilityPlan } from '../core/metrics/memorization/index.ts';
import { jianguError, noticeOf } from '../core/notices/index.ts';
import { probeItemText, probeShardText } from '../core/protocols/probe-text.ts';
import { resolveContextLimit } from '../core/protocols/context-limit.ts';
import { shardKey, type ProbeItemResult, type ProbeResult, type ProbeRunRecord, type ProbeShardResult } from '../core/record/probe-run.ts';
import { sha256Hex } from '../core/protocols/template-hash.ts';
import { loadItems } from '../store/datasets.ts';
import { getProbeRun, loadProbeResults, saveProbeResult, updateProbeRun } from '../store/probe-runs.ts';
import { isQuotaError } from '../store/errors.ts';
import type { JianguDatabase } from '../store/schema.ts';
import { ModelError, type ModelClient } from './model-client.ts';
import type { LoadProgress } from './messages.ts';
import { withRunLock, type RunPhase } from './run-scheduler.ts';
import { environmentOf, probeLoadParams } from './run-load.ts';

export interface ProbeProgress {
  /** Items and shards done, of all. */
  items: { done: number; total: number };
  shards: { done: number; total: number };
  /** Texts scored per second since this (re)start. */
  textsPerSecond: number;
}

export interface ProbeExecuteOptions {
  signal?: AbortSignal;
  onProgress?: (progress: ProbeProgress) => void;
  onResult?: (result: ProbeResult) => void;
  onPhase?: (phase: RunPhase) => void;
}

/**
 * Every shard the run asks, in run order: its file, its number, its items in file order, and the
 * plan's orders as positions in the shard (the plan numbers a file's items; a shard's are consecutive).
 */
export function plannedShards(run: ProbeRunRecord) {
  return (run.config.exchangeability ?? []).flatMap((file) =>
    exchangeabilityPlan(file.design).map((shard, i) => ({ task: file.task, shard: i, itemIds: shard.items.map((k) => file.itemIds[k]), orders: shard.orders.map((order) => order.map((k) => k - shard.items[0])) })),
  );
}

/**
 * Runs (or resumes) memorization run `runId` with `client`, which it loads with the run's model and
 * Jiangu's statistics outputs. Returns the run as it ends: completed, paused (through `signal`), or
 * failed (the error is recorded and thrown).
 */
export async function executeProbeRun(db: JianguDatabase, runId: string, client: ModelClient, options: ProbeExecuteOptions = {}): Promise<ProbeRunRecord> {
  return withRunLock(runId, async () => {
    let run = await getProbeRun(db, runId);
    if (!run) throw jianguError('probe.not-stored', { runId });
    if (run.status === 'completed') return run;
    const items = new Map((await loadItems(db, run.datasetId)).map((item) => [item.id, item]));
    const missing = run.config.itemIds.filter((id) => items.get(id)?.kind !== 'multiple-choice');
    if (missing.length > 0) throw jianguError('run.items-missing', { count: missing.length, first: missing[0], datasetId: run.datasetId });
    run = await updateProbeRun(db, runId, { status: 'running' });
    try {
      const files: Parameters<NonNullable<ProbeExecuteOptions['onPhase']>>[0] = { kind: 'loading', files: {} };
      options.onPhase?.(files);
      const info = await client.load(
        probeLoadParams(run.config.model),
        {
          onProgress: (p: LoadProgress) => {
            files.files[p.file] = { loaded: p.loaded ?? files.files[p.file]?.loaded ?? null, total: p.total ?? files.files[p.file]?.total ?? null, done: p.status === 'done' };
            options.onPhase?.({ kind: 'loading', files: { ...files.files } });
          },
        },
      );
      const limit = resolveContextLimit(run.contextLimit?.asked ?? 'default', run.config.contextLimit, info.context ?? null);
      run = await updateProbeRun(db, runId, { environment: environmentOf(info), contextLimit: limit, ...(info.modelCheck ? { modelCheck: info.modelCheck } : {}) });
      options.onPhase?.({ kind: 'running' });

      const stored = new Map((await loadProbeResults(db, runId)).map((r) => [r.itemId, r]));
      const shards = plannedShards(run);
      const progress: ProbeProgress = {
        items: { done: run.config.itemIds.filter((id) => stored.has(id)).length, total: run.config.itemIds.length },
        shards: { done: shards.filter((s) => stored.has(shardKey(s.task, s.shard))).length, total: shards.length },
        textsPerSecond: 0,
      };
      const started = performance.now();
      let texts = 0;
      const report = () => {
        const seconds = (performance.now() - started) / 1000;
        progress.textsPerSecond = seconds > 0 ? texts / seconds : 0;
        options.onProgress?.({ items: { ...progress.items }, shards: { ...progress.shards }, textsPerSecond: progress.textsPerSecond });
      };
      const keep = async (result: ProbeResult) => {
        await saveProbeResult(db, result);
        stored.set(result.itemId, result);
        options.onResult?.(result);
        report();
      };
      report();

      for (const [index, id] of run.config.itemIds.entries()) {
        if (stored.has(id)) continue;
        if (options.signal?.aborted) return await updateProbeRun(db, runId, { status: 'paused' });
        const item = items.get(id) as MultipleChoiceItem;
        const text = probeItemText(item);
        const base = { kind: 'item' as const, runId, itemId: id, task: item.task, index, text, textHash: await sha256Hex(text) };
        let result: ProbeItemResult;
        try {
          const stats = await client.textStatistics({ text, moments: true, contextLimit: limit.tokens, itemId: id }, { signal: options.signal });
          result = { ...base, tokenCount: stats.ids.length, logprob: Array.from(stats.logprob), mean: Array.from(stats.mean!), std: Array.from(stats.std!), forwardMs: stats.forwardMs, completedAt: new Date().toISOString() };
        } catch (error) {
          if (options.signal?.aborted) return await updateProbeRun(db, runId, { status: 'paused' });
          // Too long for the model: this item's alone; anything else holds for every item.
          if (!(error instanceof ModelError && error.code === 'too-long')) throw error;
          const failure = noticeOf(error);
          result = { ...base, tokenCount: typeof failure.params.tokens === 'number' ? failure.params.tokens : 0, logprob: [], mean: [], std: [], forwardMs: 0, completedAt: new Date().toISOString(), failure };
        }
        texts++;
        progress.items.done++;
        await keep(result);
      }

      for (const [index, planned] of shards.entries()) {
        const key = shardKey(planned.task, planned.shard);
        if (stored.has(key)) continue;
        const shardItems = planned.itemIds.map((id) => items.get(id) as MultipleChoiceItem);
        const shardStarted = performance.now();
        const logLikelihood = async (order: readonly number[]) => {
          const stats = await client.textStatistics({ text: probeShardText(shardItems, order), moments: false, window: limit.tokens }, { signal: options.signal });
          texts++;
          return { sum: stats.logprob.reduce((a, b) => a + b, 0), tokens: stats.ids.length };
        };
        let canonical: { sum: number; tokens: number };
        const permuted: number[] = [];
        try {
          canonical = await logLikelihood(shardItems.map((_, i) => i));
          // The plan's orders index the shard's positions in file order; a repeated order is scored once.
          const known = new Map<string, number>();
          for (const order of planned.orders) {
            if (options.signal?.aborted) return await updateProbeRun(db, runId, { status: 'paused' });
            const orderKey = order.join(',');
            let sum = known.get(orderKey);
            if (sum === undefined) {
              sum = (await logLikelihood(order)).sum;
              known.set(orderKey, sum);
            }
            permuted.push(sum);
          }
        } catch (error) {
          if (options.signal?.aborted) return await updateProbeRun(db, runId, { status: 'paused' });
          throw error;
        }
        progress.shards.done++;
        const result: ProbeShardResult = { kind: 'shard', runId, itemId: key, task: planned.task, shard: planned.shard, index, canonical: canonical.sum, permuted, tokenCount: canonical.tokens, forwardMs: performance.now() - shardStarted, completedAt: new Date().toISOString() };
        await keep(result);
      }
      return await updateProbeRun(db, runId, { status: 'completed' });
    } catch (caught) {
      if (options.signal?.aborted) return await updateProbeRun(db, runId, { status: 'paused' });
      // No room to write the failure either (storage full): the record stays as it was, the page hears why.
      await updateProbeRun(db, runId, { status: 'failed', error: noticeOf(caught) }).catch((e: unknown) => {
        if (!isQuotaError(e)) throw e;
      });
      throw caught;
    }
  });
}
