// Creating a multiple-choice run: the configuration is fixed and stored before the first item, so
// a result can always say exactly what produced it.
import { C3BENCH_PROTOCOL, clozeTemplateHash, generationTemplateHash, getProtocol, protocolForDataset, templateHash } from '../core/protocols/index.ts';
import type { DatasetId, Item } from '../core/benchmarks/types.ts';
import type { Decoding, GenRunRecord, McRunRecord, PrideConfig, RunModel } from '../core/record/run.ts';
import { DEFAULT_ESTIMATION_SHARE, drawEstimationSet } from '../core/protocols/estimation-set.ts';
import { FILE_ORDER, isSamplingSeed, newRunSampling, randomSamplingSeed, sampleRun, type RunSampling, type SamplingRule, type TaskItems } from '../core/protocols/run-sampling.ts';
import { APP_VERSION } from '../core/version.ts';
import { DEFAULT_CONTEXT_LIMIT } from '../core/protocols/build-prompt.ts';
import { jianguError, notice, type Notice } from '../core/notices/index.ts';
import { getDataset as getStoredDataset, loadTaskItems } from '../store/datasets.ts';
import { createRun } from '../store/runs.ts';
import type { JianguDatabase } from '../store/schema.ts';
import type { StopRule } from '../core/protocols/run-sampling.ts';

export interface NewMcRun {
  model: RunModel;
  datasetId: DatasetId;
  tasks: string[];
  shots: number;
  limitPerTask: number | null;
  chatTemplate: boolean;
  /** Tokens a prompt may have; omitted: the model's own positions (from its config.json). */
  contextLimit?: number;
  /** Which split is evaluated; exemplars always come from dev. */
  split?: 'test' | 'dev';
  /**
   * Default letter-logits (the papers' method). cloze: each option's text scored as the continuation
   * of the question (the protocol's cloze layout; informative for small models, about k times the cost).
   */
  scoring?: 'letter-logits' | 'generate-extract' | 'cloze';
  /** generate-extract: the most tokens an answer may have (default 32). */
  maxNewTokens?: number;
  /** Circular evaluation: every item also asked under each cyclic rotation of its options. */
  circular?: boolean;
  /**
   * PriDe: an estimation set (share of the items, default 5%, drawn by seed, default a fresh random
   * 32-bit one) asked under every rotation. Letter-logits only. A circular run always gets it.
   */
  pride?: { share?: number; seed?: number };
  /** Stop by itself once the score is known this precisely (engine/stop-rule.ts); omitted: ask every item. */
  stopRule?: StopRule;
  /** How the items are chosen (see RunSampling); absent: a random sample by a fresh seed. */
  sampling?: SamplingRequest;
}

/**
 * What a run request asks of its sample: 'random' limitPerTask items of each task drawn by `seed`
 * (absent: a fresh random one), or the 'first' limitPerTask in file order (to match `lm_eval
 * --limit`). A new run asks them in the seeded shuffled order (RunSampling.order) with the default
 * blocks; a request that repeats a recorded run names its order and blocks (samplingRequestOf).
 */
export interface SamplingRequest {
  draw: 'random' | 'first';
  seed?: number;
  /**
   * A request that repeats a recorded run (a reproduction of a link, "Run on WASM instead", another
   * model on the same sample and order): the order and blocks it records, so a run from before
   * issue 36 (task by task, in file order) or made with other blocks is asked in its own order.
   * Absent for a new run: the shuffled order with the default blocks.
   */
  order?: RunSampling['order'];
  block?: number;
  growth?: number;
  maxBlock?: number;
}

/** A new run's draw when its request names none: a random sample (issue 36), not the first N. */
export const DEFAULT_SAMPLING_DRAW: SamplingRequest['draw'] = 'random';

/**
 * The request that asks again exactly what `sampling` asked: its draw, seed, order and blocks; for
 * a record without sampling (before issue 36) the first limitPerTask, task by task (FILE_ORDER).
 */
export function samplingRequestOf(sampling: RunSampling | undefined): SamplingRequest {
  if (!sampling) return { ...FILE_ORDER };
  const { population: _population, ...rule } = sampling;
  return rule;
}

/**
 * After a failed WebGPU check, "Run on WASM instead": the same configuration as a new run on WASM,
 * with the same scoring (a cloze run stays cloze) and the same rotations (circular, and PriDe's share
 * and seed, so the same estimation set). Only a context limit the user asked for travels; otherwise
 * the model's own applies again.
 */
export function wasmRerunRequest(run: McRunRecord): NewMcRun {
  const c = run.config;
  return {
    model: { ...c.model, backend: 'wasm' },
    datasetId: c.datasetId,
    tasks: c.tasks,
    shots: c.shots,
    limitPerTask: c.limitPerTask,
    chatTemplate: c.chatTemplate,
    ...(c.scoring !== 'letter-logits' ? { scoring: c.scoring } : {}),
    ...(c.maxNewTokens !== undefined ? { maxNewTokens: c.maxNewTokens } : {}),
    ...(run.contextLimit?.asked === 'user' ? { contextLimit: c.contextLimit } : {}),
    ...(c.circular ? { circular: true } : {}),
    ...(c.pride ? { pride: { share: c.pride.share, seed: c.pride.seed } } : {}),
    // The same sample in the same order (a record from before sampling was recorded: the first N, task by task).
    sampling: samplingRequestOf(c.sampling),
    ...(c.stopRule ? { stopRule: c.stopRule } : {}),
  };
}

/** What every new run record starts with. */
export function newRunBase(datasetId: DatasetId) {
  const now = new Date().toISOString();
  return { id: crypto.randomUUID(), createdAt: now, updatedAt: now, datasetId, status: 'created' as const };
}

export async function storedDataset(db: JianguDatabase, id: DatasetId) {
  const dataset = await getStoredDataset(db, id);
  if (!dataset) throw jianguError('run.dataset-not-stored', { datasetId: id });
  return dataset;
}

/** What decides a run's items: its tasks, the limit, and the draw and order (absent: a record from before RunSampling, the first N in file order, task by task). */
export interface ItemChoice {
  datasetId: DatasetId;
  tasks: string[];
  limitPerTask: number | null;
  sampling?: SamplingRule;
}

/**
 * The run's items from the stored tasks (core/protocols/run-sampling.ts sampleRun): per task the
 * chosen items in file order (`byTask`), all of them in the order the run asks them (`itemIds`),
 * and each task's population (its items of the split and kind). Also how a shared link's item list
 * is rebuilt from its configuration (the link carries only a hash).
 */
export async function chooseRunItems(
  db: JianguDatabase,
  request: ItemChoice,
  kind: Item['kind'],
  split: 'test' | 'dev',
): Promise<{ byTask: TaskItems[]; itemIds: string[]; population: Record<string, number> }> {
  const tasks: TaskItems[] = [];
  const population: Record<string, number> = {};
  for (const task of request.tasks) {
    const items = (await loadTaskItems(db, request.datasetId, task, split)).filter((item) => item.kind === kind);
    tasks.push({ task, itemIds: items.map((item) => item.id) });
    population[task] = items.length;
  }
  const { byTask, itemIds } = sampleRun(tasks, request.limitPerTask, request.sampling);
  if (itemIds.length === 0) throw jianguError('run.no-items', { kind });
  return { byTask, itemIds, population };
}

/** The items a run asks per task, in the request's task order, each task's chosen items in file order. */
export async function chooseItemsByTask(...args: Parameters<typeof chooseRunItems>): Promise<{ task: string; itemIds: string[] }[]> {
  return (await chooseRunItems(...args)).byTask.map((c) => ({ task: c.task, itemIds: [...c.itemIds] }));
}

/** The items a run asks, in the order it asks them. */
export async function chooseItems(...args: Parameters<typeof chooseRunItems>): Promise<string[]> {
  return (await chooseRunItems(...args)).itemIds;
}

/**
 * The draw and order a new run records, before its population is known: the draw asked (default
 * random) and its seed (default a fresh one), in the shuffled order.
 */
export function samplingRuleFor(request: SamplingRequest | undefined): SamplingRule {
  const draw = request?.draw ?? DEFAULT_SAMPLING_DRAW;
  const seed = request?.seed ?? randomSamplingSeed();
  if (!isSamplingSeed(seed)) throw jianguError('run.sampling-seed', { seed: String(seed) });
  if (request?.order === undefined) return newRunSampling(draw, seed, {});
  const { growth, maxBlock } = request;
  return { draw, seed, order: request.order, block: request.block ?? 1, ...(growth !== undefined ? { growth } : {}), ...(maxBlock !== undefined ? { maxBlock } : {}) };
}

/** A new run's items and the RunSampling it records (population included). */
async function chooseNewRunItems(db: JianguDatabase, request: NewMcRun | NewGenRun, kind: Item['kind'], split: 'test' | 'dev'): Promise<{ itemIds: string[]; sampling: RunSampling }> {
  const rule = samplingRuleFor(request.sampling);
  const chosen = await chooseRunItems(db, { ...request, sampling: rule }, kind, split);
  // The rule as applied (a reproduction's own order and blocks included), with the tasks' sizes.
  const { draw, seed, order, block, growth, maxBlock } = rule;
  return { itemIds: chosen.itemIds, sampling: { draw, seed, order, block, ...(growth !== undefined ? { growth } : {}), ...(maxBlock !== undefined ? { maxBlock } : {}), population: chosen.population } };
}

/** Dynamically quantized weights pick their activation scale per forward pass (see McRunConfig.prefixReuse). */
export function prefixReuseSafe(dtype: RunModel['dtype']): boolean {
  return dtype !== 'q8';
}

/** A fresh seed for an estimation set: any 32-bit unsigned integer, recorded with the run. */
const randomSeed = randomSamplingSeed;

/**
 * The run's PriDe configuration, or null when none is asked. A circular run always has one (its
 * rotations already cover every item). PriDe needs the letters' log-probabilities: refused for
 * generate-extract (a circular generate-extract run has no PriDe).
 */
export function prideFor(request: Pick<NewMcRun, 'circular' | 'pride' | 'scoring'>, itemIds: readonly string[]): PrideConfig | null {
  const scoring = request.scoring ?? 'letter-logits';
  if (request.pride && scoring !== 'letter-logits') throw jianguError('run.pride-needs-logits', { scoring });
  if (!request.pride && !(request.circular && scoring === 'letter-logits')) return null;
  const share = request.pride?.share ?? DEFAULT_ESTIMATION_SHARE;
  if (!(share > 0 && share <= 1)) throw jianguError('run.pride-share', { share: String(share) });
  const seed = request.pride?.seed ?? randomSeed();
  if (!Number.isInteger(seed) || seed < 0 || seed > 0xffffffff) throw jianguError('run.pride-seed', { seed: String(seed) });
  return { share, seed, estimationItemIds: drawEstimationSet(itemIds, share, seed) };
}

export async function createMcRun(db: JianguDatabase, request: NewMcRun): Promise<McRunRecord> {
  const dataset = await storedDataset(db, request.datasetId);
  const protocol = protocolForDataset(request.datasetId);
  const shots = Math.min(request.shots, protocol.maxShots);
  const { itemIds, sampling } = await chooseNewRunItems(db, request, 'multiple-choice', request.split ?? 'test');
  // Option order does not enter a cloze context: every rotation would score the same.
  if (request.circular && request.scoring === 'cloze') throw jianguError('run.circular-needs-letters');
  const pride = prideFor(request, itemIds);
  const warnings: Notice[] = [];
  if (shots < request.shots) warnings.push(notice('run.shots-capped', { protocol: protocol.id, max: protocol.maxShots, shots }));
  const contextLimit = request.contextLimit ?? DEFAULT_CONTEXT_LIMIT;
  const asked = request.contextLimit === undefined ? ('default' as const) : ('user' as const);
  const run: McRunRecord = {
    ...newRunBase(request.datasetId),
    config: {
      kind: 'multiple-choice',
      model: request.model,
      protocolId: protocol.id,
      // A cloze run is another formulation: its layout's own version and hashed template text.
      protocolVersion: request.scoring === 'cloze' ? getProtocol(protocol.id).cloze.version : getProtocol(protocol.id).version,
      templateHash: await (request.scoring === 'cloze' ? clozeTemplateHash : templateHash)(protocol, { chatTemplate: request.chatTemplate }),
      scoring: request.scoring ?? 'letter-logits',
      ...(request.scoring === 'generate-extract' ? { maxNewTokens: request.maxNewTokens ?? 32 } : {}),
      shots,
      contextLimit,
      chatTemplate: request.chatTemplate,
      ...(request.chatTemplate ? { thinking: 'off' as const } : {}),
      prefixReuse: shots > 0 && prefixReuseSafe(request.model.dtype) && request.scoring !== 'generate-extract',
      datasetId: request.datasetId,
      datasetFiles: dataset.files.map((f) => ({ path: f.path, sha256: f.sha256 })),
      tasks: request.tasks,
      limitPerTask: request.limitPerTask,
      itemIds,
      sampling,
      appVersion: APP_VERSION,
      ...(request.circular ? { circular: true } : {}),
      ...(pride ? { pride } : {}),
      ...(request.stopRule ? { stopRule: request.stopRule } : {}),
    },
    // Until the model is loaded and its positions are known (then the scheduler records the applied one).
    contextLimit: { tokens: contextLimit, from: asked, asked, modelPositions: null },
    warnings,
  };
  await createRun(db, run);
  return run;
}

export interface NewGenRun {
  model: RunModel;
  datasetId: DatasetId;
  tasks: string[];
  limitPerTask: number | null;
  chatTemplate: boolean;
  maxNewTokens: number;
  decoding: Decoding;
  /** How the items are chosen (see NewMcRun.sampling); absent: a random sample by a fresh seed. */
  sampling?: SamplingRequest;
}

/** A generation run (C3Bench protocol) over the chosen tasks' test items (NewGenRun.sampling). */
export async function createGenRun(db: JianguDatabase, request: NewGenRun): Promise<GenRunRecord> {
  const dataset = await storedDataset(db, request.datasetId);
  const { itemIds, sampling } = await chooseNewRunItems(db, request, 'generation', 'test');
  const run: GenRunRecord = {
    ...newRunBase(request.datasetId),
    config: {
      kind: 'generation',
      model: request.model,
      protocolId: 'c3bench',
      protocolVersion: C3BENCH_PROTOCOL.version,
      templateHash: await generationTemplateHash(undefined, { chatTemplate: request.chatTemplate }),
      chatTemplate: request.chatTemplate,
      ...(request.chatTemplate ? { thinking: 'off' as const } : {}),
      maxNewTokens: Math.max(1, Math.floor(request.maxNewTokens)),
      decoding: request.decoding,
      datasetId: request.datasetId,
      datasetFiles: dataset.files.map((f) => ({ path: f.path, sha256: f.sha256 })),
      tasks: request.tasks,
      limitPerTask: request.limitPerTask,
      itemIds,
      sampling,
      appVersion: APP_VERSION,
    },
    warnings: request.datasetId === 'wenmind' ? [notice('run.wenmind-judge')] : [],
  };
  await createRun(db, run);
  return run;
}
