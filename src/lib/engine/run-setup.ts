// Creating a multiple-choice run: the configuration is fixed and stored before the first item, so
// a result can always say exactly what produced it.
import { C3BENCH_PROTOCOL, clozeTemplateHash, generationTemplateHash, getProtocol, protocolForDataset, templateHash } from '../core/protocols/index.ts';
import type { DatasetId, Item } from '../core/benchmarks/types.ts';
import type { Decoding, GenRunRecord, McRunRecord, PrideConfig, RunModel } from '../core/record/run.ts';
import { DEFAULT_ESTIMATION_SHARE, drawEstimationSet } from '../core/protocols/estimation-set.ts';
import { APP_VERSION } from '../core/version.ts';
import { DEFAULT_CONTEXT_LIMIT } from '../core/protocols/build-prompt.ts';
import { jianguError, notice, type Notice } from '../core/notices/index.ts';
import { getDataset as getStoredDataset, loadTaskItems } from '../store/datasets.ts';
import { createRun } from '../store/runs.ts';
import type { JianguDatabase } from '../store/schema.ts';

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

/**
 * The run's items: per task in the order asked, the first `limitPerTask` of the split, in file order.
 * Also how a shared link's item list is rebuilt from its configuration (the link carries only a hash).
 */
/** The items a run asks, task by task in the request's order (each task's first `limitPerTask`, in file order). */
export async function chooseItemsByTask(
  db: JianguDatabase,
  request: { datasetId: DatasetId; tasks: string[]; limitPerTask: number | null },
  kind: Item['kind'],
  split: 'test' | 'dev',
): Promise<{ task: string; itemIds: string[] }[]> {
  const chosen: { task: string; itemIds: string[] }[] = [];
  for (const task of request.tasks) {
    const items = (await loadTaskItems(db, request.datasetId, task, split)).filter((item) => item.kind === kind);
    chosen.push({ task, itemIds: (request.limitPerTask === null ? items : items.slice(0, request.limitPerTask)).map((item) => item.id) });
  }
  if (chosen.every((c) => c.itemIds.length === 0)) throw jianguError('run.no-items', { kind });
  return chosen;
}

export async function chooseItems(...args: Parameters<typeof chooseItemsByTask>): Promise<string[]> {
  return (await chooseItemsByTask(...args)).flatMap((c) => c.itemIds);
}

/** Dynamically quantized weights pick their activation scale per forward pass (see McRunConfig.prefixReuse). */
export function prefixReuseSafe(dtype: RunModel['dtype']): boolean {
  return dtype !== 'q8';
}

/** A fresh seed for an estimation set: any 32-bit unsigned integer, recorded with the run. */
function randomSeed(): number {
  return crypto.getRandomValues(new Uint32Array(1))[0];
}

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
  const itemIds = await chooseItems(db, request, 'multiple-choice', request.split ?? 'test');
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
      appVersion: APP_VERSION,
      ...(request.circular ? { circular: true } : {}),
      ...(pride ? { pride } : {}),
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
}

/** A generation run (C3Bench protocol) over the chosen tasks' test items, in file order. */
export async function createGenRun(db: JianguDatabase, request: NewGenRun): Promise<GenRunRecord> {
  const dataset = await storedDataset(db, request.datasetId);
  const itemIds = await chooseItems(db, request, 'generation', 'test');
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
      appVersion: APP_VERSION,
    },
    warnings: request.datasetId === 'wenmind' ? [notice('run.wenmind-judge')] : [],
  };
  await createRun(db, run);
  return run;
}
