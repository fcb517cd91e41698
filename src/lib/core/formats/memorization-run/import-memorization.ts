// Reads a memorization run file (export.ts: format "jiangu-memorization-run", version 1). The file is
// untrusted, as a run file is (import-jiangu.ts, whose field helpers this reuses): every field is
// checked and rebuilt, each raw number against the bound a real model can produce (MEMORIZATION_BOUNDS,
// RAW_BOUNDS), and every field computed from others is recomputed and compared, the file refused naming
// the field where it differs (fields/memorization-export.ts lists which is which). The file holds no
// Min-K%, t or p: the page computes them from the per-position numbers and the shards' log-likelihoods
// (probeRunSummary), which is run here once so a file it cannot summarise is refused, not stored.
import { findTask, getDataset } from '../../benchmarks/catalog.ts';
import { checkK, EXCHANGEABILITY_MAX_PERMUTATIONS, exchangeabilityPlan, probeRunSummary } from '../../metrics/memorization/index.ts';
import { storedModelCheck } from '../stored-model-check.ts';
import { notice, type Notice } from '../../notices/index.ts';
import { LAYOUT_VERSION, probeLayoutHash } from '../../protocols/probe-text.ts';
import { sha256Hex } from '../../protocols/template-hash.ts';
import { shardKey, type ProbeFileDesign, type ProbeItemResult, type ProbeResult, type ProbeRunConfig, type ProbeRunRecord, type ProbeShardResult } from '../../record/probe-run.ts';
import { RUN_LABEL_MAX, type RunOrigin, type RunStatus } from '../../record/run.ts';
import type { DatasetId } from '../../benchmarks/types.ts';
import { contextLimit, environment, model, uniqueNames } from '../jiangu-run/import-jiangu.ts';
import { storedNotice } from '../jiangu-run/import-results.ts';
import { FieldReader, RAW_BOUNDS, RUN_IMPORT_LIMITS, fail, finite, id, int, isoDate, list, name, oneOf, problem, sha256, storedWarning, text, type Obj } from '../import-validate.ts';
import { MEMORIZATION_FORMAT } from './export.ts';

/**
 * What one position of a real model's text statistics can hold (the worker's statistics graph, or
 * logprobs.ts on full rows), and what a shard's sum can: the bounds raw numbers are checked against.
 */
export const MEMORIZATION_BOUNDS = {
  /** log p of the actual token: RAW_BOUNDS.tokenLogProb below (a logit gap); above, 0 plus float32 round-off (a log-softmax of a certain token is within 1e-6 of 0). */
  logProbMin: RAW_BOUNDS.tokenLogProb,
  logProbMax: 1e-3,
  /** μ = Σ p log p is minus the entropy of the row: at least −ln(vocabulary) = −ln 2^24 ≈ −16.6 (RAW_BOUNDS.tokenId), at most 0 (plus round-off). */
  meanMin: -17,
  meanMax: 1e-3,
  /** σ, the spread of log p under p: √(E[(log p)²] − μ²) ≤ √E[(log p)²], which is below ln(vocabulary) + 2 < 19 for 2^24 tokens (0 for a uniform row; the graph clamps a negative variance to 0). */
  stdMax: 20,
  /** The most shuffled orders a shard may have (the Evaluate page's most): the design's limit a file must keep. */
  permutationsMax: EXCHANGEABILITY_MAX_PERMUTATIONS,
  /** Milliseconds one text or shard took. */
  ms: RAW_BOUNDS.ms,
  /** Dates: no run can predate 2023 (no release of the libraries Jiangu runs on existed before); a date more than a day after the import is no clock's. */
  earliest: '2023-01-01T00:00:00.000Z',
} as const;

const { results: MAX_RESULTS, listEntries: MAX_LIST, shortChars: SHORT } = RUN_IMPORT_LIMITS;
const INT_MAX = 1_000_000_000;
const DAY_MS = 24 * 3600 * 1000;

const DATASET_IDS: Record<DatasetId, true> = { aclue: true, 'cmmlu-ancient': true, 'ac-eval': true, wenmind: true, ancientbench: true, c3bench: true };
const STATUSES: Record<RunStatus, true> = { created: true, running: true, paused: true, completed: true, failed: true, cancelled: true };
const ORIGIN_KINDS: Record<RunOrigin['kind'], true> = { 'jiangu-file': true, 'lm-eval': true };

/** A memorization run read from a file, `run.origin` set; not yet stored (store/probe-runs.ts importProbeRun). */
export interface ImportedProbeRun {
  run: ProbeRunRecord;
  results: ProbeResult[];
}

/** A date a run can have: ISO, from 2023 to a day after the import. */
function saneDate(value: unknown, path: string, importedAt: string): string {
  const s = isoDate(value, path);
  const at = Date.parse(s);
  if (at < Date.parse(MEMORIZATION_BOUNDS.earliest) || at > Date.parse(importedAt) + DAY_MS) fail(path, { expected: 'date-between', earliest: MEMORIZATION_BOUNDS.earliest.slice(0, 10), latest: importedAt.slice(0, 10) }, value);
  return s;
}

/** `value` must equal `recomputed` (a derived field): refused naming the field otherwise. */
function same(value: unknown, path: string, recomputed: string | number, from: string): void {
  if (value !== recomputed) fail(path, { expected: 'same-as', value: String(recomputed), sameAs: from }, value);
}

/** Each task file's design: its items are the task's items in the run, consecutive and in run order; its shard count and orders within the plan's limits. */
function fileDesigns(r: FieldReader, value: unknown, tasks: readonly string[], itemIds: readonly string[]): ProbeFileDesign[] | null {
  if (value === null) return null;
  const position = new Map(itemIds.map((itemId, i) => [itemId, i]));
  const seen = new Set<string>();
  return list(value, 'run.config.exchangeability', MAX_LIST, (v, p) => {
    const f = r.object(v, p, ['task', 'itemIds', 'design']);
    const task = id(f.task, `${p}.task`);
    if (!tasks.includes(task)) fail(`${p}.task`, { expected: 'run-task', tasks: tasks.slice(0, 10), moreTasks: tasks.length > 10 }, task);
    if (seen.has(task)) throw problem('import.duplicate', { path: `${p}.task`, value: task, first: [...seen].indexOf(task) });
    seen.add(task);
    const ids = uniqueNames(f.itemIds, `${p}.itemIds`, MAX_RESULTS);
    const first = position.get(ids[0] ?? '');
    ids.forEach((itemId, i) => {
      const at = position.get(itemId);
      if (at === undefined) throw problem('import.unknown-item', { path: `${p}.itemIds[${i}]`, itemId });
      // chooseItemsByTask lists a task's items together, in file order: the file's items are a stretch of the run's.
      if (at !== first! + i) fail(`${p}.itemIds[${i}]`, { expected: 'same-as', value: itemIds[first! + i] ?? '—', sameAs: `run.config.itemIds[${first! + i}]` }, itemId);
    });
    const d = r.object(f.design, `${p}.design`, ['itemCount', 'shardCount', 'permutations', 'seed']);
    const itemCount = int(d.itemCount, `${p}.design.itemCount`, 4, MAX_RESULTS);
    same(itemCount, `${p}.design.itemCount`, ids.length, `${p}.itemIds.length`);
    const design = {
      itemCount,
      // Two items a shard at least (exchangeability-plan.ts): m ≤ ⌊n/2⌋.
      shardCount: int(d.shardCount, `${p}.design.shardCount`, 2, Math.floor(itemCount / 2)),
      permutations: int(d.permutations, `${p}.design.permutations`, 1, MEMORIZATION_BOUNDS.permutationsMax),
      seed: int(d.seed, `${p}.design.seed`, 0, 0xffffffff),
    };
    return { task, itemIds: ids, design };
  });
}

function config(r: FieldReader, value: unknown): ProbeRunConfig {
  const o = r.object(value, 'run.config', ['kind', 'model', 'layoutVersion', 'templateHash', 'datasetId', 'datasetFiles', 'tasks', 'limitPerTask', 'itemIds', 'k', 'contextLimit', 'exchangeability', 'appVersion']);
  oneOf(o.kind, 'run.config.kind', { memorization: true });
  const datasetId = oneOf(o.datasetId, 'run.config.datasetId', DATASET_IDS);
  const tasks = uniqueNames(o.tasks, 'run.config.tasks', MAX_LIST);
  tasks.forEach((task, i) => {
    // Tasks of the named benchmark only: a CMMLU run naming ACLUE's tasks was not made here.
    if (findTask(datasetId, task)?.kind !== 'multiple-choice') {
      const known = getDataset(datasetId).tasks.filter((t) => t.kind === 'multiple-choice').map((t) => t.key);
      fail(`run.config.tasks[${i}]`, { expected: 'one-of', set: known.length > 10 ? [...known.slice(0, 10), '…'] : known }, task);
    }
  });
  const itemIds = uniqueNames(o.itemIds, 'run.config.itemIds', MAX_RESULTS);
  const limitPerTask = o.limitPerTask === null ? null : int(o.limitPerTask, 'run.config.limitPerTask', 1, INT_MAX);
  // At most limitPerTask items a task.
  if (limitPerTask !== null && itemIds.length > limitPerTask * tasks.length) fail('run.config.limitPerTask', { expected: 'integer', min: Math.ceil(itemIds.length / Math.max(1, tasks.length)), max: INT_MAX }, limitPerTask);
  const k = finite(o.k, 'run.config.k', Number.MIN_VALUE, 1);
  checkK(k);
  return {
    kind: 'memorization',
    model: model(r, o.model, 'run.config.model'),
    layoutVersion: int(o.layoutVersion, 'run.config.layoutVersion', LAYOUT_VERSION, LAYOUT_VERSION),
    templateHash: sha256(o.templateHash, 'run.config.templateHash'),
    datasetId,
    datasetFiles: list(o.datasetFiles, 'run.config.datasetFiles', MAX_LIST, (v, p) => {
      const f = r.object(v, p, ['path', 'sha256']);
      return { path: id(f.path, `${p}.path`), sha256: sha256(f.sha256, `${p}.sha256`) };
    }),
    tasks,
    limitPerTask,
    itemIds,
    k,
    contextLimit: int(o.contextLimit, 'run.config.contextLimit', 1, RAW_BOUNDS.tokens),
    exchangeability: fileDesigns(r, o.exchangeability, tasks, itemIds),
    appVersion: name(o.appVersion, 'run.config.appVersion'),
  };
}

const positions = (value: unknown, path: string, min: number, max: number) => list(value, path, RAW_BOUNDS.tokens, (v, p) => finite(v, p, min, max));

/** What every result is checked against. */
interface Facts {
  run: ProbeRunRecord;
  importedAt: string;
  position: Map<string, number>;
  /** Each item's task as its file's design lists it. */
  fileTask: Map<string, string>;
  /** Each shard's key → its index among every shard of the run, and its plan's orders. */
  shards: Map<string, { index: number; orders: readonly (readonly number[])[]; permutations: number }>;
  /** The most tokens a text may have had: the limit the run applied. */
  tokenLimit: number;
}

async function itemResult(r: FieldReader, o: Obj, path: string, facts: Facts): Promise<ProbeItemResult> {
  r.object(o, path, ['kind', 'runId', 'itemId', 'task', 'index', 'text', 'textHash', 'tokenCount', 'logprob', 'mean', 'std', 'forwardMs', 'completedAt'], ['failure']);
  const itemId = id(o.itemId, `${path}.itemId`);
  const position = facts.position.get(itemId);
  if (position === undefined) throw problem('import.unknown-item', { path: `${path}.itemId`, itemId });
  const task = id(o.task, `${path}.task`);
  const tasks = facts.run.config.tasks;
  if (!tasks.includes(task)) fail(`${path}.task`, { expected: 'run-task', tasks: tasks.slice(0, 10), moreTasks: tasks.length > 10 }, task);
  const fileTask = facts.fileTask.get(itemId);
  if (fileTask !== undefined) same(task, `${path}.task`, fileTask, 'the task whose file lists the item (run.config.exchangeability)');
  const index = int(o.index, `${path}.index`, 0, MAX_RESULTS);
  if (index !== position) fail(`${path}.index`, { expected: 'item-position', position, itemId }, index);
  const itemText = text(o.text, `${path}.text`);
  const textHash = sha256(o.textHash, `${path}.textHash`);
  same(textHash, `${path}.textHash`, await sha256Hex(itemText), `the sha256 of ${path}.text`);
  const failure = o.failure === undefined ? undefined : storedNotice(o.failure, `${path}.failure`);
  const tokenCount = int(o.tokenCount, `${path}.tokenCount`, 0, RAW_BOUNDS.tokens);
  const logprob = positions(o.logprob, `${path}.logprob`, MEMORIZATION_BOUNDS.logProbMin, MEMORIZATION_BOUNDS.logProbMax);
  const mean = positions(o.mean, `${path}.mean`, MEMORIZATION_BOUNDS.meanMin, MEMORIZATION_BOUNDS.meanMax);
  const std = positions(o.std, `${path}.std`, 0, MEMORIZATION_BOUNDS.stdMax);
  // Position j predicts token j + 1: a text of n tokens has n − 1 positions; a failed text has none.
  const scored = failure ? 0 : Math.max(0, tokenCount - 1);
  same(logprob.length, `${path}.logprob`, scored, failure ? 'no positions (the item failed)' : `${path}.tokenCount − 1`);
  same(mean.length, `${path}.mean`, scored, `${path}.logprob.length`);
  same(std.length, `${path}.std`, scored, `${path}.logprob.length`);
  if (!failure && tokenCount > facts.tokenLimit) fail(`${path}.tokenCount`, { expected: 'integer', min: 0, max: facts.tokenLimit }, tokenCount);
  return {
    kind: 'item',
    runId: facts.run.id,
    itemId,
    task,
    index,
    text: itemText,
    textHash,
    tokenCount,
    logprob,
    mean,
    std,
    forwardMs: finite(o.forwardMs, `${path}.forwardMs`, 0, MEMORIZATION_BOUNDS.ms),
    completedAt: saneDate(o.completedAt, `${path}.completedAt`, facts.importedAt),
    ...(failure ? { failure } : {}),
  };
}

function shardResult(r: FieldReader, o: Obj, path: string, facts: Facts): ProbeShardResult {
  r.object(o, path, ['kind', 'runId', 'itemId', 'task', 'shard', 'index', 'canonical', 'permuted', 'tokenCount', 'forwardMs', 'completedAt']);
  const files = (facts.run.config.exchangeability ?? []).map((f) => f.task);
  const task = id(o.task, `${path}.task`);
  if (!files.includes(task)) fail(`${path}.task`, { expected: 'run-task', tasks: files.slice(0, 10), moreTasks: files.length > 10 }, task);
  const shardCount = facts.run.config.exchangeability!.find((f) => f.task === task)!.design.shardCount;
  const shard = int(o.shard, `${path}.shard`, 0, shardCount - 1);
  const key = shardKey(task, shard);
  same(o.itemId, `${path}.itemId`, key, `${path}.task and ${path}.shard`);
  const planned = facts.shards.get(key)!;
  same(o.index, `${path}.index`, planned.index, `the shard's place in the run's plan`);
  const tokenCount = int(o.tokenCount, `${path}.tokenCount`, 2, RAW_BOUNDS.tokens);
  // A sum of tokenCount − 1 positions' log p, each within the per-position bounds.
  const low = MEMORIZATION_BOUNDS.logProbMin * tokenCount;
  const high = MEMORIZATION_BOUNDS.logProbMax * tokenCount;
  const canonical = finite(o.canonical, `${path}.canonical`, low, high);
  const permuted = list(o.permuted, `${path}.permuted`, MEMORIZATION_BOUNDS.permutationsMax, (v, p) => finite(v, p, low, high));
  same(permuted.length, `${path}.permuted`, planned.permutations, 'the design\'s permutations');
  // The scheduler scores an order that repeats within a shard once: its entries are one number.
  const byOrder = new Map<string, number>();
  planned.orders.forEach((order, j) => {
    const k = order.join(',');
    const first = byOrder.get(k);
    if (first === undefined) byOrder.set(k, j);
    else same(permuted[j], `${path}.permuted[${j}]`, permuted[first], `${path}.permuted[${first}] (the same order)`);
  });
  return {
    kind: 'shard',
    runId: facts.run.id,
    itemId: key,
    task,
    shard,
    index: planned.index,
    canonical,
    permuted,
    tokenCount,
    forwardMs: finite(o.forwardMs, `${path}.forwardMs`, 0, MEMORIZATION_BOUNDS.ms),
    completedAt: saneDate(o.completedAt, `${path}.completedAt`, facts.importedAt),
  };
}

/** The origin an earlier import gave the run (imported, then exported again). */
function earlierOrigin(r: FieldReader, value: unknown, importedAt: string): NonNullable<ProbeRunRecord['origin']> {
  const o = r.object(value, 'run.origin', ['kind', 'fileName', 'importedAt', 'originalRunId']);
  return {
    kind: oneOf(o.kind, 'run.origin.kind', ORIGIN_KINDS),
    fileName: name(o.fileName, 'run.origin.fileName'),
    importedAt: saneDate(o.importedAt, 'run.origin.importedAt', importedAt),
    originalRunId: o.originalRunId === null ? null : name(o.originalRunId, 'run.origin.originalRunId'),
  };
}

/**
 * Reads a memorization run file's parsed JSON. `r`: the reader, whose `known` paths the field table's
 * completeness test reads. `as`: 'file' for an import, 'stored' for a record read back as it was stored
 * (import-jiangu.ts readJianguRun says the difference).
 * @throws FieldProblem naming the first field that is wrong.
 */
export async function readMemorizationRun(root: Obj, fileName: string, importedAt: string, r: FieldReader = new FieldReader(), as: 'file' | 'stored' = 'file'): Promise<ImportedProbeRun> {
  r.object(root, 'file', ['format', 'formatVersion', 'run', 'results']);
  same(root.format, 'format', MEMORIZATION_FORMAT, 'a memorization run file');
  if (root.formatVersion !== 1) throw problem('import.format-version', { found: 'other', text: String(root.formatVersion).slice(0, 40) });
  const o = r.object(root.run, 'run', ['id', 'createdAt', 'updatedAt', 'datasetId', 'status', 'config', 'warnings'], ['environment', 'contextLimit', 'error', 'origin', 'modelCheck', 'label']);
  const runConfig = config(r, o.config);
  same(o.datasetId, 'run.datasetId', runConfig.datasetId, 'run.config.datasetId');
  same(runConfig.templateHash, 'run.config.templateHash', await probeLayoutHash(), `the hash of text layout v${LAYOUT_VERSION}`);
  const previous = o.origin === undefined ? null : earlierOrigin(r, o.origin, importedAt);
  const warnings: (string | Notice)[] = list(o.warnings, 'run.warnings', MAX_LIST, (v, p) => storedWarning(v, p, SHORT * 20));
  const createdAt = saneDate(o.createdAt, 'run.createdAt', importedAt);
  const updatedAt = saneDate(o.updatedAt, 'run.updatedAt', importedAt);
  if (Date.parse(updatedAt) < Date.parse(createdAt)) fail('run.updatedAt', { expected: 'date-between', earliest: createdAt, latest: importedAt }, updatedAt);
  const run: ProbeRunRecord = {
    id: id(o.id, 'run.id'),
    createdAt,
    updatedAt,
    datasetId: runConfig.datasetId,
    status: oneOf(o.status, 'run.status', STATUSES),
    config: runConfig,
    warnings,
    ...(o.environment === undefined ? {} : { environment: environment(r, o.environment, 'run.environment') }),
    ...(o.contextLimit === undefined ? {} : { contextLimit: contextLimit(r, o.contextLimit, 'run.contextLimit') }),
    ...(o.error === undefined ? {} : { error: storedWarning(o.error, 'run.error', SHORT * 20) }),
    // Descriptive only: a check this version cannot read is dropped; a number out of its bound is refused.
    ...((check) => (check ? { modelCheck: check } : {}))(storedModelCheck(r, o.modelCheck, 'run.modelCheck')),
    // The user's own words, shown as text: bounded as the scoring run file's (import-jiangu.ts).
    ...(o.label === undefined ? {} : { label: name(o.label, 'run.label', RUN_LABEL_MAX) }),
  };

  const plan = new Map<string, { index: number; orders: readonly (readonly number[])[]; permutations: number }>();
  const fileTask = new Map<string, string>();
  for (const file of runConfig.exchangeability ?? []) {
    file.itemIds.forEach((itemId) => fileTask.set(itemId, file.task));
    exchangeabilityPlan(file.design).forEach((shard, i) => plan.set(shardKey(file.task, i), { index: plan.size, orders: shard.orders, permutations: file.design.permutations }));
  }
  const facts: Facts = { run, importedAt, position: new Map(runConfig.itemIds.map((itemId, i) => [itemId, i])), fileTask, shards: plan, tokenLimit: run.contextLimit?.tokens ?? runConfig.contextLimit };

  if (!Array.isArray(root.results)) fail('results', { expected: 'list' }, root.results);
  const max = runConfig.itemIds.length + plan.size;
  if (root.results.length > max) throw problem('import.too-many-results', { count: root.results.length, max });
  const seen = new Map<string, number>();
  const results: ProbeResult[] = [];
  for (const [i, v] of (root.results as unknown[]).entries()) {
    const path = `results[${i}]`;
    if (typeof v !== 'object' || v === null || Array.isArray(v)) fail(path, { expected: 'object' }, v);
    const res = v as Obj;
    same(res.runId, `${path}.runId`, run.id, 'run.id');
    const kind = oneOf(res.kind, `${path}.kind`, { item: true, shard: true });
    const result = kind === 'item' ? await itemResult(r, res, path, facts) : shardResult(r, res, path, facts);
    const first = seen.get(result.itemId);
    if (first !== undefined) throw problem('import.two-results', { path: `${path}.itemId`, itemId: result.itemId, first });
    seen.set(result.itemId, i);
    results.push(result);
  }
  // The store's order: items in run order, then shards in run order.
  results.sort((a, b) => (a.kind === b.kind ? a.index - b.index : a.kind === 'item' ? -1 : 1));
  // A completed run has every item's and every shard's result: the status is derived from them.
  if (run.status === 'completed' && results.length !== max) same(results.length, 'run.status', max, 'every item and shard of a completed run');

  try {
    probeRunSummary(run, results);
  } catch (error) {
    throw problem('import.summary-failed', { detail: error instanceof Error ? error.message : String(error) });
  }

  // A record read back as stored (a backup's): as it was, its earlier import rebuilt (readJianguRun's `as`).
  if (as === 'stored') {
    if (previous) run.origin = previous;
    return { run, results };
  }
  // Nothing runs an imported run until the user resumes it here.
  if (run.status === 'running') {
    run.status = 'paused';
    warnings.push(notice('import.was-running', { results: results.length, items: max }));
  }
  if (previous) warnings.push(notice('import.imported-before', { from: previous.kind, fileName: previous.fileName, importedAt: previous.importedAt }));
  const ignored = r.ignoredWarning();
  if (ignored) warnings.push(ignored);
  // The run it was made as: a file exported from an imported copy names that copy's local id, its origin the first.
  run.origin = { kind: 'jiangu-file', fileName, importedAt, originalRunId: previous?.originalRunId ?? run.id };
  return { run, results };
}
