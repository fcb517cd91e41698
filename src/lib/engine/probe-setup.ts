// Creating a memorization run (issue 26): its items and, per task file, the exchangeability test's
// design are fixed and stored before the first text is scored, so a resumed run asks exactly the
// same texts and a result always says what produced it.
import type { DatasetId, MultipleChoiceItem } from '../core/benchmarks/types.ts';
import type { RunModel } from '../core/record/run.ts';
import type { ProbeFileDesign, ProbeRunRecord } from '../core/record/probe-run.ts';
import { DEFAULT_CONTEXT_LIMIT } from '../core/protocols/build-prompt.ts';
import { LAYOUT_VERSION, probeItemText, probeLayoutHash } from '../core/protocols/probe-text.ts';
import { EXCHANGEABILITY_DEFAULT_PERMUTATIONS, EXCHANGEABILITY_DEFAULT_SEED, EXCHANGEABILITY_MAX_PERMUTATIONS, MIN_K_DEFAULT, exchangeabilityPlan, shardCountFor } from '../core/metrics/memorization/index.ts';
import { notice, type Notice } from '../core/notices/index.ts';
import { APP_VERSION } from '../core/version.ts';
import { createProbeRun } from '../store/probe-runs.ts';
import type { JianguDatabase } from '../store/schema.ts';
import { chooseItemsByTask, newRunBase, storedDataset } from './run-setup.ts';

export interface NewProbeRun {
  model: RunModel;
  datasetId: DatasetId;
  tasks: string[];
  limitPerTask: number | null;
  /** Default 0.2, the papers' k. */
  k?: number;
  contextLimit?: number;
  /** The file-order test, with r permutations per shard (default 25) and its seed (default 12345); absent: not run. */
  exchangeability?: { permutations?: number; seed?: number; shards?: number };
}

/** One test per task with enough items (4 at least: two shards of two); tasks with fewer are said, not tested. */
export function fileDesigns(taskItems: readonly { task: string; itemIds: string[] }[], asked: NonNullable<NewProbeRun['exchangeability']>): { designs: ProbeFileDesign[]; untested: string[] } {
  const designs: ProbeFileDesign[] = [];
  const untested: string[] = [];
  for (const { task, itemIds } of taskItems) {
    const shardCount = shardCountFor(itemIds.length, asked.shards);
    if (shardCount === null) {
      untested.push(task);
      continue;
    }
    // At most the Evaluate page's most (a number typed past the input's max): what a run file or link may state.
    const permutations = Math.min(EXCHANGEABILITY_MAX_PERMUTATIONS, asked.permutations ?? EXCHANGEABILITY_DEFAULT_PERMUTATIONS);
    designs.push({ task, itemIds, design: { itemCount: itemIds.length, shardCount, permutations, seed: asked.seed ?? EXCHANGEABILITY_DEFAULT_SEED } });
  }
  return { designs, untested };
}

export async function createProbeRunRecord(db: JianguDatabase, request: NewProbeRun): Promise<ProbeRunRecord> {
  const dataset = await storedDataset(db, request.datasetId);
  const chosen = await chooseItemsByTask(db, request, 'multiple-choice', 'test');
  const itemIds = chosen.flatMap((c) => c.itemIds);
  const warnings: Notice[] = [];
  let exchangeability: ProbeFileDesign[] | null = null;
  if (request.exchangeability) {
    const { designs, untested } = fileDesigns(chosen.filter((c) => c.itemIds.length > 0), request.exchangeability);
    exchangeability = designs;
    if (untested.length > 0) warnings.push(notice('probe.file-too-small', { tasks: untested.join(', ') }));
  }
  const contextLimit = request.contextLimit ?? DEFAULT_CONTEXT_LIMIT;
  const asked = request.contextLimit === undefined ? ('default' as const) : ('user' as const);
  const run: ProbeRunRecord = {
    ...newRunBase(request.datasetId),
    config: {
      kind: 'memorization',
      model: request.model,
      layoutVersion: LAYOUT_VERSION,
      templateHash: await probeLayoutHash(),
      datasetId: request.datasetId,
      datasetFiles: dataset.files.map((f) => ({ path: f.path, sha256: f.sha256 })),
      tasks: request.tasks,
      limitPerTask: request.limitPerTask,
      itemIds,
      k: request.k ?? MIN_K_DEFAULT,
      contextLimit,
      exchangeability,
      appVersion: APP_VERSION,
    },
    contextLimit: { tokens: contextLimit, from: asked, asked, modelPositions: null },
    warnings,
  };
  await createProbeRun(db, run);
  return run;
}

/**
 * What a memorization run will read, for the page to say before it starts: the items' texts, and
 * the exchangeability test's (each shard in file order and in each distinct one of its r other orders:
 * every item's text up to r + 1 times; a 2-item shard's twice). Characters, since the tokenizer is the model's (about one token a character for
 * Qwen's vocabulary on classical Chinese; three for a byte-fallback one).
 */
export function probeCost(items: readonly Pick<MultipleChoiceItem, 'task' | 'question' | 'options'>[], exchangeability: { permutations: number; shards?: number; seed?: number } | null): { texts: number; characters: number; shardTexts: number; shardCharacters: number } {
  const chars = items.map((item) => [...probeItemText(item)].length);
  const characters = chars.reduce((a, b) => a + b, 0);
  if (!exchangeability) return { texts: items.length, characters, shardTexts: 0, shardCharacters: 0 };
  const byTask = new Map<string, number[]>();
  items.forEach((item, i) => byTask.set(item.task, [...(byTask.get(item.task) ?? []), chars[i] + 2]));
  let shardTexts = 0;
  let shardCharacters = 0;
  for (const lengths of byTask.values()) {
    const m = shardCountFor(lengths.length, exchangeability.shards);
    if (m === null) continue;
    // A repeated order is scored once (probe-scheduler.ts): a 2-item shard's r orders are one text.
    const design = { itemCount: lengths.length, shardCount: m, permutations: exchangeability.permutations, seed: exchangeability.seed ?? EXCHANGEABILITY_DEFAULT_SEED };
    const plan = exchangeabilityPlan(design);
    plan.forEach((shard) => {
      const texts = 1 + new Set(shard.orders.map((o) => o.join(','))).size;
      shardTexts += texts;
      shardCharacters += shard.items.reduce((sum, i) => sum + lengths[i], 0) * texts;
    });
  }
  return { texts: items.length, characters, shardTexts, shardCharacters };
}
