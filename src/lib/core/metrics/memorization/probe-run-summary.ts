// What a memorization run's page, its exports and Compare show, from its stored results: each item's
// two probes (from its per-position statistics, at the run's k), their distributions per task and
// overall, the items this model finds most familiar, and each task file's exchangeability test with
// its p-value Holm-adjusted over the files tested (a benchmark is several files, each a test).
import type { ProbeResult, ProbeRunRecord } from '../../record/probe-run.ts';
import { holmAdjust } from '../holm.ts';
import { exchangeabilityTest, type ExchangeabilityResult } from './exchangeability-test.ts';
import { memorizationScoresOf, type MemorizationItemScores } from './item-scores.ts';
import { probeDistribution, type ProbeDistribution } from './score-summary.ts';

export interface FileExchangeability {
  task: string;
  /** Shards stored of the design's. */
  shardsDone: number;
  shardsPlanned: number;
  /** Null until every shard is stored. */
  result: ExchangeabilityResult | null;
  /** Holm-adjusted over the files with a result. */
  pHolm: number | null;
}

export interface ProbeRunSummary {
  items: MemorizationItemScores[];
  /** Items whose text could not be scored (over the context limit). */
  failed: number;
  minKProb: ProbeDistribution;
  minKPlusPlus: ProbeDistribution;
  exchangeability: FileExchangeability[];
}

export function probeRunSummary(run: Pick<ProbeRunRecord, 'config'>, results: readonly ProbeResult[]): ProbeRunSummary {
  const items: MemorizationItemScores[] = [];
  let failed = 0;
  const shards = new Map<string, Map<number, { canonical: number; permuted: readonly number[] }>>();
  for (const r of results) {
    if (r.kind === 'shard') {
      if (!shards.has(r.task)) shards.set(r.task, new Map());
      shards.get(r.task)!.set(r.shard, r);
      continue;
    }
    if (r.failure) {
      failed++;
      continue;
    }
    items.push(memorizationScoresOf(r.itemId, r.task, r.logprob.map((logprob, j) => ({ logprob, mean: r.mean[j], std: r.std[j] })), run.config.k));
  }
  const files = (run.config.exchangeability ?? []).map((file) => {
    const done = shards.get(file.task) ?? new Map();
    const complete = done.size === file.design.shardCount;
    const ordered = complete ? Array.from({ length: file.design.shardCount }, (_, i) => done.get(i)!) : null;
    return { task: file.task, shardsDone: done.size, shardsPlanned: file.design.shardCount, result: ordered ? exchangeabilityTest(file.design, ordered) : null, pHolm: null as number | null };
  });
  const adjusted = holmAdjust(files.map((f) => f.result?.pValue ?? null));
  files.forEach((f, i) => (f.pHolm = adjusted[i]));
  return {
    items,
    failed,
    minKProb: probeDistribution(items, 'minKProb', run.config.tasks),
    minKPlusPlus: probeDistribution(items, 'minKPlusPlus', run.config.tasks),
    exchangeability: files,
  };
}
