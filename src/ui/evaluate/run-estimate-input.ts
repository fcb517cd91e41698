// What the Evaluate page's time estimate is computed from (core/metrics/run-estimate.ts): the
// configured run's items and prompt sizes, this browser's earlier runs as pace samples, where Auto
// would run on this device, and the probe that times the first items of the configured run.
import type { DatasetId, GenerationItem, MultipleChoiceItem } from '../../lib/core/benchmarks/types.ts';
import { readConfiguredItems, type ConfiguredItems, type EstimateTarget, type TargetRequest } from '../../lib/data/estimate-target.ts';
import { configuredTarget, paceSampleOf, type WorkPlace } from '../../lib/data/stored-run-client.ts';
import type { Backend, BackendChoice, Dtype, ModelSource } from '../../lib/core/models/model-types.ts';
import type { Decoding, McScoring, RunRecord } from '../../lib/core/record/run.ts';
import { pageShareOf, sampleOfProbe, sampleOfRun, shapeOf, type PageShare, type PaceSample, type ProbePrompt, type RunShape } from '../../lib/core/metrics/run-estimate.ts';
import { buildGenerationPrompt, protocolForDataset, resolveContextLimit } from '../../lib/core/protocols/index.ts';
// The worker's own rule for Auto (pure, no transformers.js), so the page predicts what a load picks.
import { describeAdapter, softwareAdapterName } from '../../lib/engine/backend-adapter.ts';
import { modelPool } from '../../lib/engine/model-pool.ts';
import { ModelError } from '../../lib/engine/model-client.ts';
import { modelError } from '../../lib/engine/model-errors.ts';
import { prefixReuseSafe } from '../../lib/engine/run-setup.ts';
import { failsOnlyThisItem } from '../../lib/engine/run-scheduler.ts';
import { runLoadParams } from '../../lib/engine/run-load.ts';
import { openJianguDb } from '../../lib/store/schema.ts';
import type { RunListEntry } from '../../lib/core/record/run-list-entry.ts';
import { modelId } from '../i18n/model-label.ts';
import { ortDefaultThreads } from '../site/site-status.ts';

/** The run as the Evaluate page has it configured. */
export interface EstimateConfig {
  kind: 'multiple-choice' | 'generation';
  datasetId: DatasetId;
  tasks: string[];
  limitPerTask: number | null;
  scoring: McScoring;
  shots: number;
  chatTemplate: boolean;
  maxNewTokens: number;
  decoding: Decoding;
  model: { source: ModelSource; dtype: Dtype; backend: BackendChoice };
  /** Which items of each task the run draws (SampleChoice): the estimate sizes exactly those. */
  sampling: { draw: 'random' | 'first'; seed: number };
}

/** Items the probe scores: enough for two timed gaps after the first (which pays the warm-up). */
export const PROBE_ITEMS = 3;

export function shapeFor(c: EstimateConfig): RunShape {
  const model = modelId(c.model.source);
  if (c.kind === 'generation') return { model, dtype: c.model.dtype, scoring: 'generation', shots: 0, chatTemplate: c.chatTemplate, maxNewTokens: c.maxNewTokens };
  return { model, dtype: c.model.dtype, scoring: c.scoring, shots: c.shots, chatTemplate: c.chatTemplate, maxNewTokens: c.scoring === 'generate-extract' ? c.maxNewTokens : null };
}

/** Whether the run reuses its prefix's KV cache, as createMcRun decides. */
function reusesPrefix(c: EstimateConfig): boolean {
  return c.kind === 'multiple-choice' && c.shots > 0 && prefixReuseSafe(c.model.dtype) && c.scoring !== 'generate-extract';
}

/** What the configuration asks of the store: its items and how their prompts are built. */
function targetRequest(c: EstimateConfig): TargetRequest {
  return { kind: c.kind, datasetId: c.datasetId, tasks: c.tasks, limitPerTask: c.limitPerTask, scoring: c.scoring, shots: c.shots, reusePrefix: reusesPrefix(c), sampling: c.sampling };
}

/** The items a run started now would ask (chooseItems, as createMcRun), with their tasks' dev items, read on the page. */
async function configuredItems(c: EstimateConfig): Promise<ConfiguredItems> {
  const db = await openJianguDb();
  try {
    return await readConfiguredItems(db, targetRequest(c));
  } finally {
    db.close();
  }
}

/**
 * The configured run's items and the characters of its prompts (letters and cloze; null otherwise),
 * and where they were counted: a large configuration's in the stored-run worker (building ~28,000
 * prompts takes the page a second), a small one's on the page (data/stored-run-client.ts).
 */
export async function loadTarget(c: EstimateConfig): Promise<EstimateTarget & { sizedIn: WorkPlace }> {
  const db = await openJianguDb();
  try {
    return await configuredTarget(db, targetRequest(c));
  } finally {
    db.close();
  }
}

/** Earlier runs read once each (by id and last change): their samples, or null for one that gives none. */
const sampleCache = new Map<string, PaceSample | null>();

/** The most runs of the configured model and dtype whose records an estimate reads (newest first). */
const MOST_ALIKE = 50;

/**
 * The records an estimate reads, fetched by id from the run index's entries (the page lists entries,
 * never every record): this browser's newest runs of the model and dtype, its newest run of any model
 * (the page's share of a prompt), and its newest run that recorded where it ran (the threads).
 */
export async function estimateRecords(entries: readonly RunListEntry[], source: ModelSource, dtype: Dtype): Promise<RunRecord[]> {
  const local = entries.filter((e) => !e.origin);
  const model = modelId(source);
  const wanted = new Set([
    ...local.filter((e) => e.model.dtype === dtype && modelId(e.model.source) === model).slice(0, MOST_ALIKE).map((e) => e.id),
    ...local.filter((e) => e.status !== 'created').slice(0, 1).map((e) => e.id),
    ...local.filter((e) => e.backend !== null).slice(0, 1).map((e) => e.id),
  ]);
  if (wanted.size === 0) return [];
  const db = await openJianguDb();
  try {
    const tx = db.transaction('runs');
    const found = await Promise.all([...wanted].map((id) => tx.store.get(id)));
    return found.filter((r): r is RunRecord => r !== undefined);
  } finally {
    db.close();
  }
}

/**
 * Pace samples of this browser's runs of the model and dtype (imported runs ran elsewhere). Results
 * are read only for the `most` runs of the configured scoring kind the estimate would pick first
 * (the same backend, then the same shots and template, then the newest: a 28,707-item run's results
 * take seconds to read); the others come without results, so the estimate can still say why none fits.
 */
export async function loadSamples(runs: readonly RunRecord[], shape: RunShape, source: ModelSource, backend: Backend | null, most = 2): Promise<PaceSample[]> {
  const model = modelId(source);
  const alike = runs.filter((r) => !r.origin && r.config.model.dtype === shape.dtype && modelId(r.config.model.source) === model);
  const rank = (r: RunRecord) => {
    const s = shapeOf(r, model);
    const ranBackend = r.environment?.backendInfo.backend ?? r.config.model.backend;
    return [backend === null || ranBackend === backend ? 1 : 0, s.shots === shape.shots && s.chatTemplate === shape.chatTemplate ? 1 : 0];
  };
  const read = alike
    .filter((r) => shapeOf(r, model).scoring === shape.scoring)
    .sort((a, b) => {
      const [x, y] = [rank(a), rank(b)];
      return y[0] - x[0] || y[1] - x[1] || b.createdAt.localeCompare(a.createdAt);
    })
    .slice(0, most);
  const missing = read.filter((r) => !sampleCache.has(`${r.id}|${r.updatedAt}`));
  if (missing.length > 0) {
    const db = await openJianguDb();
    try {
      for (const run of missing) sampleCache.set(`${run.id}|${run.updatedAt}`, await paceSampleOf(db, run, model));
    } finally {
      db.close();
    }
  }
  const others = alike.filter((r) => !read.includes(r)).flatMap((r) => sampleOfRun(r, [], model) ?? []);
  return [...read.flatMap((r) => sampleCache.get(`${r.id}|${r.updatedAt}`) ?? []), ...others];
}

/**
 * The page's share of a prompt (storing, drawing) in this browser's newest run of any model (its
 * results read once), for a probe, which stores and draws nothing; null when no run here has one.
 */
export async function loadPageShare(runs: readonly RunRecord[]): Promise<PageShare | null> {
  const newest = runs.filter((r) => !r.origin && r.status !== 'created').sort((a, b) => b.createdAt.localeCompare(a.createdAt))[0];
  if (!newest) return null;
  const key = `${newest.id}|${newest.updatedAt}`;
  if (!sampleCache.has(key)) {
    const db = await openJianguDb();
    try {
      sampleCache.set(key, await paceSampleOf(db, newest, modelId(newest.config.model.source)));
    } finally {
      db.close();
    }
  }
  const sample = sampleCache.get(key);
  return sample ? pageShareOf([sample]) : null;
}

let adapterHere: ReturnType<typeof describeAdapter> | null = null;

/**
 * Where a load with `choice` would run here: the worker's Auto rule (workers/backend-choice.ts, on engine/backend-adapter.ts) on
 * this page's adapter: WebGPU on a hardware adapter that can run the dtype, else WASM.
 */
export async function backendHere(choice: BackendChoice, dtype: Dtype): Promise<Backend> {
  if (choice !== 'auto') return choice;
  const gpu = typeof navigator === 'undefined' ? undefined : (navigator as Navigator & { gpu?: GPU }).gpu;
  // Asked once per page: the adapter does not change while it is open.
  adapterHere ??= describeAdapter(gpu).catch(() => null);
  const adapter = await adapterHere;
  if (!adapter) return 'wasm';
  if ((dtype === 'fp16' || dtype === 'q4f16') && !adapter.shaderF16) return 'wasm';
  return softwareAdapterName(adapter) === null ? 'webgpu' : 'wasm';
}

/** The wasm threads a load here would use: the newest run's as the worker reported it, else ORT's default rule. */
export function threadsHere(runs: readonly RunRecord[]): number {
  const newest = [...runs].filter((r) => !r.origin && r.environment).sort((a, b) => b.createdAt.localeCompare(a.createdAt))[0];
  const reported = newest?.environment?.backendInfo.wasmThreads;
  if (reported) return reported;
  return ortDefaultThreads(typeof crossOriginIsolated !== 'undefined' && crossOriginIsolated, typeof navigator === 'undefined' ? undefined : navigator.hardwareConcurrency);
}

/** What the probe measured: its sample, and the model's load time (which the run pays too). */
export interface ProbeOutcome {
  sample: PaceSample;
  loadSeconds: number;
}

/** `work`, or a cancellation as soon as `signal` aborts (`work` then settles unobserved). */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  work.catch(() => undefined);
  if (signal.aborted) return Promise.reject(new ModelError(modelError('cancelled', 'model.cancelled', [])));
  return new Promise<T>((resolve, reject) => {
    const stop = () => reject(new ModelError(modelError('cancelled', 'model.cancelled', [])));
    signal.addEventListener('abort', stop, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', stop));
  });
}

/** The pace probe, as a user of the page's model pool. */
const paceProbe = {};

/**
 * Loads the model as the run would, on the worker the run would use (the page's model pool: one
 * that holds it already, else one that stays loaded for the run, if it comes next), and asks the
 * first PROBE_ITEMS configured items exactly as the run scheduler asks them (scoreRequest), timing each.
 */
export async function probePace(c: EstimateConfig, signal: AbortSignal, onItem?: (done: number, total: number) => void): Promise<ProbeOutcome> {
  const { itemIds, items, devByTask } = await configuredItems(c);
  const chosen = itemIds.slice(0, PROBE_ITEMS).map((id) => items.get(id)!);
  const params = runLoadParams(c);
  const choice = modelPool.clientFor(paceProbe, params);
  choice.settle(true);
  const client = choice.client;
  try {
    const cloze = c.kind === 'multiple-choice' && c.scoring === 'cloze';
    const started = performance.now();
    // Not cancelled through the worker: another view may be waiting on the same load (ModelClient.load).
    // A probe stopped during its load stops waiting; its worker is ended below when no one else uses it.
    const info = await untilAborted(client.load(params), signal);
    const loadSeconds = (performance.now() - started) / 1000;
    const contextLimit = resolveContextLimit('default', 2048, info.context ?? null).tokens;
    const prompts: ProbePrompt[] = [];
    const now = () => performance.timeOrigin + performance.now();
    /** One item asked as the scheduler asks it (scoreRequest), with what its stored result would count. */
    const askOne = async (item: MultipleChoiceItem | GenerationItem): Promise<Omit<ProbePrompt, 'itemId' | 'at'>> => {
      if (item.kind === 'generation') {
        const sampling = c.decoding.kind === 'sample' ? { sampling: { topK: c.decoding.topK, topP: c.decoding.topP, seed: c.decoding.seed } } : {};
        const prompt = buildGenerationPrompt(item);
        const g = await client.generate({ prompt, itemId: item.id, maxNewTokens: c.maxNewTokens, chatTemplate: c.chatTemplate, ...sampling }, { signal });
        return { tokenCount: g.inputIds.length, reusedPrefixTokens: 0, chars: prompt.length, modelMs: g.ms, generated: { tokens: g.tokenIds.length, atLimit: g.stoppedBy === 'max-tokens' } };
      }
      const request = { protocolId: protocolForDataset(c.datasetId).id, item, exemplars: devByTask.get(item.task) ?? [], shots: c.shots, contextLimit, chatTemplate: c.chatTemplate, reusePrefix: reusesPrefix(c) };
      if (cloze) {
        const s = await client.scoreClozeItem({ ...request, unconditional: true }, { signal });
        return { tokenCount: s.contextIds.length, reusedPrefixTokens: s.reusedPrefixTokens, chars: s.context.length, modelMs: s.forwardMs, optionTokens: s.options.map((o) => o.tokenIds.length), unconditional: true };
      }
      if (c.scoring === 'generate-extract') {
        const g = await client.generateItem({ ...request, reusePrefix: false, maxNewTokens: c.maxNewTokens }, { signal });
        return { tokenCount: g.generation.inputIds.length, reusedPrefixTokens: 0, chars: g.prompt.length, modelMs: g.generation.ms };
      }
      const s = await client.scoreItem(request, { signal });
      return { tokenCount: s.score.inputIds.length, reusedPrefixTokens: s.score.reusedPrefixTokens, chars: s.prompt.length, modelMs: s.score.forwardMs };
    };
    for (const [i, item] of chosen.entries()) {
      onItem?.(i, chosen.length);
      try {
        const prompt = await askOne(item);
        prompts.push({ ...prompt, itemId: item.id, at: now() });
      } catch (error) {
        // An item the run would store as failed (too long for the model) is skipped here as well.
        if (signal.aborted || !failsOnlyThisItem(error)) throw error;
      }
    }
    onItem?.(chosen.length, chosen.length);
    const sample = sampleOfProbe(shapeFor(c), c.model.backend, info.backendInfo.backend, info.backendInfo.wasmThreads, prompts);
    return { sample, loadSeconds };
  } catch (error) {
    // Stopped (the configuration changed): a worker of its own is ended at once, as its load or item may still be running.
    if (!modelPool.failed(paceProbe, error) && signal.aborted) modelPool.abandon(paceProbe);
    throw error;
  } finally {
    modelPool.release(paceProbe);
  }
}
