// Reads a run file this site exported (runJson: format "jiangu-run", version 1). The file is
// untrusted: every field is checked and rebuilt, the results are checked against the run
// (import-results.ts: ids, order, letters, the prediction against the log-probabilities, `probs`
// against their softmax (derived-scores.ts), `correct` against prediction and gold), every number is
// held to what a model can produce (RAW_BOUNDS), and the summary is recomputed from the results,
// never taken from the file.
// Which field is raw and which derived is written in fields/run-file.ts.
import { getDataset } from '../../benchmarks/catalog.ts';
import type { DatasetId } from '../../benchmarks/types.ts';
import { genResult, mcResult, storedNotice, type RunFacts } from './import-results.ts';
import { SAMPLE_CONFIG_KEYS, sampleFieldsOf } from './import-sampling.ts';
import { runSummary, summaryMismatches } from '../../metrics/run-summary.ts';
import { storedSummaryMismatches } from '../lm-eval/import/lm-eval-summary.ts';
import type { Backend, BackendChoice, Dtype, ModelSource } from '../../models/model-types.ts';
import { protocolForDataset, type McProtocolId } from '../../protocols/mc-protocols.ts';
import { FIXED_DECODING, type DecodingOptions } from '../../protocols/decoding.ts';
import { storedModelCheck } from '../stored-model-check.ts';
import { drawEstimationSet } from '../../protocols/estimation-set.ts';
import { notice, type Notice } from '../../notices/index.ts';
import {
  FieldReader,
  RAW_BOUNDS,
  RUN_IMPORT_LIMITS,
  anyObject,
  bool,
  fail,
  finite,
  id,
  int,
  isoDate,
  list,
  name,
  oneOf,
  problem,
  sha256,
  storedWarning,
  summaryRecord,
  text,
  type ImportedRun,
  type Obj,
} from '../import-validate.ts';
import type {
  BackendCheck,
  Decoding,
  GenRunConfig,
  GenRunRecord,
  ItemResult,
  LetterToken,
  McItemResult,
  McRunConfig,
  McRunRecord,
  PrideConfig,
  RunEnvironment,
  RunModel,
  RunContextLimit,
  RunOrigin,
  RunRecord,
  RunStatus,
} from '../../record/run.ts';
import { RUN_LABEL_MAX } from '../../record/run.ts';

const INT_MAX = 1_000_000_000;
const { results: MAX_RESULTS, listEntries: MAX_LIST, shortChars: SHORT } = RUN_IMPORT_LIMITS;
const { tokens: MAX_TOKENS, tokenId: MAX_TOKEN_ID } = RAW_BOUNDS;


// Records (not arrays) so that adding a member to a union fails to compile until it is listed here.
const DATASET_IDS: Record<DatasetId, true> = { aclue: true, 'cmmlu-ancient': true, 'ac-eval': true, wenmind: true, ancientbench: true, c3bench: true };
const STATUSES: Record<RunStatus, true> = { created: true, running: true, paused: true, completed: true, failed: true, cancelled: true };
const MC_PROTOCOL_IDS: Record<McProtocolId, true> = { cmmlu: true, ancientbench: true, aclue: true, 'wenmind-mc': true, 'ac-eval': true };
const DTYPES: Record<Dtype, true> = { fp32: true, fp16: true, q8: true, q4: true, q4f16: true };
const BACKEND_CHOICES: Record<BackendChoice, true> = { auto: true, webgpu: true, wasm: true };
const BACKENDS: Record<Backend, true> = { webgpu: true, wasm: true };
const SCORINGS: Record<McRunConfig['scoring'], true> = { 'letter-logits': true, 'generate-extract': true, cloze: true };
const ORIGIN_KINDS: Record<RunOrigin['kind'], true> = { 'jiangu-file': true, 'lm-eval': true };
const REVISION_HOW = { pinned: true, 'response-header': true, 'hub-api': true } as const;

/** What an lm-eval import writes as the template hash: the harness's prompt is not one of ours. */
export const LM_EVAL_TEMPLATE_HASH = 'lm-eval';

function source(r: FieldReader, value: unknown, path: string): ModelSource {
  const s = r.object(value, path, ['kind'], ['id', 'revision', 'host', 'name']);
  if (oneOf(s.kind, `${path}.kind`, { hub: true, site: true }) === 'hub') {
    const hub: ModelSource = { kind: 'hub', id: id(s.id, `${path}.id`) };
    if (s.revision !== undefined) hub.revision = name(s.revision, `${path}.revision`);
    if (s.host !== undefined) hub.host = name(s.host, `${path}.host`);
    return hub;
  }
  return { kind: 'site', name: id(s.name, `${path}.name`) };
}

export function model(r: FieldReader, value: unknown, path: string): RunModel {
  const o = r.object(value, path, ['source', 'dtype', 'backend']);
  return { source: source(r, o.source, `${path}.source`), dtype: oneOf(o.dtype, `${path}.dtype`, DTYPES), backend: oneOf(o.backend, `${path}.backend`, BACKEND_CHOICES) };
}

/** A list of ids, each once (a repeat is refused, naming both places). */
export function uniqueNames(value: unknown, path: string, max: number): string[] {
  const seen = new Map<string, number>();
  return list(value, path, max, (v, p) => {
    const s = id(v, p);
    const first = seen.get(s);
    if (first !== undefined) throw problem('import.duplicate', { path: p, value: s, first });
    seen.set(s, seen.size);
    return s;
  });
}

/** The fields both configurations share. `lmEvalHash`: the run was itself imported, so the harness's marker is a valid hash. */
function commonConfig(r: FieldReader, o: Obj, lmEvalHash: boolean) {
  const templateHash = lmEvalHash && o.templateHash === LM_EVAL_TEMPLATE_HASH ? LM_EVAL_TEMPLATE_HASH : sha256(o.templateHash, 'run.config.templateHash');
  const itemIds = uniqueNames(o.itemIds, 'run.config.itemIds', MAX_RESULTS);
  return {
    model: model(r, o.model, 'run.config.model'),
    protocolVersion: int(o.protocolVersion, 'run.config.protocolVersion', 0, INT_MAX),
    templateHash,
    chatTemplate: bool(o.chatTemplate, 'run.config.chatTemplate'),
    datasetId: oneOf(o.datasetId, 'run.config.datasetId', DATASET_IDS),
    datasetFiles: list(o.datasetFiles, 'run.config.datasetFiles', MAX_LIST, (v, p) => {
      const f = r.object(v, p, ['path', 'sha256']);
      return { path: id(f.path, `${p}.path`), sha256: sha256(f.sha256, `${p}.sha256`) };
    }),
    tasks: uniqueNames(o.tasks, 'run.config.tasks', MAX_LIST),
    limitPerTask: o.limitPerTask === null ? null : int(o.limitPerTask, 'run.config.limitPerTask', 0, MAX_RESULTS),
    itemIds,
    appVersion: name(o.appVersion, 'run.config.appVersion'),
    ...(o.thinking === undefined ? {} : { thinking: oneOf(o.thinking, 'run.config.thinking', { off: true }) }),
  };
}

const COMMON_KEYS = ['kind', 'model', 'protocolId', 'protocolVersion', 'templateHash', 'chatTemplate', 'datasetId', 'datasetFiles', 'tasks', 'limitPerTask', 'itemIds', 'appVersion'];

function mcConfig(r: FieldReader, value: unknown, lmEvalHash: boolean): McRunConfig {
  const o = r.object(value, 'run.config', [...COMMON_KEYS, 'scoring', 'shots', 'contextLimit', 'prefixReuse'], ['maxNewTokens', 'thinking', 'circular', 'pride', ...SAMPLE_CONFIG_KEYS]);
  const config: McRunConfig = {
    kind: 'multiple-choice',
    ...commonConfig(r, o, lmEvalHash),
    protocolId: oneOf(o.protocolId, 'run.config.protocolId', MC_PROTOCOL_IDS),
    scoring: oneOf(o.scoring, 'run.config.scoring', SCORINGS),
    shots: int(o.shots, 'run.config.shots', 0, 1000),
    contextLimit: int(o.contextLimit, 'run.config.contextLimit', 0, MAX_TOKENS),
    prefixReuse: bool(o.prefixReuse, 'run.config.prefixReuse'),
  };
  if (o.maxNewTokens !== undefined) config.maxNewTokens = int(o.maxNewTokens, 'run.config.maxNewTokens', 1, MAX_TOKENS);
  if (o.circular !== undefined) config.circular = bool(o.circular, 'run.config.circular');
  if (o.pride !== undefined) config.pride = prideConfig(r, o.pride, 'run.config.pride', config);
  Object.assign(config, sampleFieldsOf(r, o, config));
  // Option order never enters a cloze context: a circular cloze run cannot have been made.
  if (config.scoring === 'cloze' && config.circular) fail('run.config.scoring', { expected: 'one-of', set: ['letter-logits', 'generate-extract'] }, config.scoring);
  let expected: McProtocolId | null = null;
  try {
    expected = protocolForDataset(config.datasetId).id;
  } catch {
    throw problem('import.no-mc-tasks', { datasetId: config.datasetId });
  }
  if (config.protocolId !== expected) fail('run.config.protocolId', { expected: 'protocol-of-dataset', protocolId: expected, datasetId: config.datasetId }, config.protocolId);
  return config;
}

/** PriDe's settings: its estimation set must be the one its seed draws from the run's items (letter-logits runs only). */
function prideConfig(r: FieldReader, value: unknown, path: string, config: McRunConfig): PrideConfig {
  const o = r.object(value, path, ['share', 'seed', 'estimationItemIds']);
  // PriDe reads the letters' log-probabilities: a run with it is a letter-logits run.
  if (config.scoring !== 'letter-logits') fail('run.config.scoring', { expected: 'one-of', set: ['letter-logits'] }, config.scoring);
  const share = finite(o.share, `${path}.share`, Number.MIN_VALUE, 1);
  const seed = int(o.seed, `${path}.seed`, 0, 0xffffffff);
  const estimationItemIds = uniqueNames(o.estimationItemIds, `${path}.estimationItemIds`, MAX_RESULTS);
  const drawn = drawEstimationSet(config.itemIds, share, seed);
  if (drawn.length !== estimationItemIds.length || drawn.some((itemId, i) => itemId !== estimationItemIds[i])) fail(`${path}.estimationItemIds`, { expected: 'estimation-set', seed, share }, o.estimationItemIds);
  return { share, seed, estimationItemIds };
}

function decoding(r: FieldReader, value: unknown, path: string): Decoding {
  const o = r.object(value, path, ['kind'], ['topK', 'topP', 'seed']);
  if (oneOf(o.kind, `${path}.kind`, { greedy: true, sample: true }) === 'greedy') return { kind: 'greedy' };
  r.object(o, path, ['kind', 'topK', 'topP', 'seed']);
  return { kind: 'sample', topK: int(o.topK, `${path}.topK`, 1, MAX_TOKEN_ID), topP: finite(o.topP, `${path}.topP`, 0, 1), seed: int(o.seed, `${path}.seed`, 0, Number.MAX_SAFE_INTEGER) };
}

function genConfig(r: FieldReader, value: unknown, lmEvalHash: boolean): GenRunConfig {
  const o = r.object(value, 'run.config', [...COMMON_KEYS, 'maxNewTokens', 'decoding'], ['thinking', ...SAMPLE_CONFIG_KEYS]);
  const config: GenRunConfig = {
    kind: 'generation',
    ...commonConfig(r, o, lmEvalHash),
    protocolId: oneOf(o.protocolId, 'run.config.protocolId', { c3bench: true }),
    maxNewTokens: int(o.maxNewTokens, 'run.config.maxNewTokens', 1, MAX_TOKENS),
    decoding: decoding(r, o.decoding, 'run.config.decoding'),
  };
  Object.assign(config, sampleFieldsOf(r, o, config));
  if (!getDataset(config.datasetId).tasks.some((task) => task.kind === 'generation')) {
    throw problem('import.no-generation-tasks', { datasetId: config.datasetId });
  }
  return config;
}

export function environment(r: FieldReader, value: unknown, path: string): RunEnvironment {
  const o = r.object(value, path, ['backendInfo', 'modelInputNames', 'transformersVersion', 'ortVersion', 'userAgent'], ['resolvedRevision', 'prefillRows', 'logitsPath', 'statisticsPath']);
  const b = r.object(o.backendInfo, `${path}.backendInfo`, ['backend', 'wasmThreads', 'crossOriginIsolated'], ['adapter', 'fallbackReason', 'fallbackNotice']);
  const backendInfo: RunEnvironment['backendInfo'] = {
    backend: oneOf(b.backend, `${path}.backendInfo.backend`, BACKENDS),
    wasmThreads: int(b.wasmThreads, `${path}.backendInfo.wasmThreads`, 0, 1024),
    crossOriginIsolated: bool(b.crossOriginIsolated, `${path}.backendInfo.crossOriginIsolated`),
  };
  if (b.adapter !== undefined) {
    const p = `${path}.backendInfo.adapter`;
    const a = r.object(b.adapter, p, ['vendor', 'architecture', 'device', 'description', 'isFallbackAdapter', 'shaderF16']);
    backendInfo.adapter = {
      vendor: name(a.vendor, `${p}.vendor`),
      architecture: name(a.architecture, `${p}.architecture`),
      device: name(a.device, `${p}.device`),
      description: name(a.description, `${p}.description`),
      isFallbackAdapter: bool(a.isFallbackAdapter, `${p}.isFallbackAdapter`),
      shaderF16: bool(a.shaderF16, `${p}.shaderF16`),
    };
  }
  if (b.fallbackReason !== undefined) backendInfo.fallbackReason = text(b.fallbackReason, `${path}.backendInfo.fallbackReason`, SHORT * 4);
  if (b.fallbackNotice !== undefined) backendInfo.fallbackNotice = storedNotice(b.fallbackNotice, `${path}.backendInfo.fallbackNotice`);
  const env: RunEnvironment = {
    backendInfo,
    modelInputNames: list(o.modelInputNames, `${path}.modelInputNames`, 100, name),
    transformersVersion: name(o.transformersVersion, `${path}.transformersVersion`),
    ortVersion: name(o.ortVersion, `${path}.ortVersion`),
    userAgent: name(o.userAgent, `${path}.userAgent`),
  };
  if (o.resolvedRevision !== undefined) {
    const p = `${path}.resolvedRevision`;
    const v = r.object(o.resolvedRevision, p, ['commit', 'how'], ['note']);
    const commit = v.commit === null ? null : name(v.commit, `${p}.commit`);
    if (commit !== null && !/^[0-9a-f]{40}$/.test(commit)) fail(`${p}.commit`, { expected: 'git-commit-or-null' }, commit);
    env.resolvedRevision = { commit, how: v.how === null ? null : oneOf(v.how, `${p}.how`, REVISION_HOW) };
    if (v.note !== undefined) env.resolvedRevision.note = text(v.note, `${p}.note`, SHORT * 4);
  }
  if (o.prefillRows !== undefined) env.prefillRows = o.prefillRows === null ? null : int(o.prefillRows, `${path}.prefillRows`, 1, 1 << 24);
  if (o.logitsPath !== undefined) env.logitsPath = checkedPath(r, o.logitsPath, `${path}.logitsPath`, { native: true, rewritten: true, chunked: true });
  if (o.statisticsPath !== undefined) env.statisticsPath = checkedPath(r, o.statisticsPath, `${path}.statisticsPath`, { graph: true, worker: true });
  return env;
}

/** A path a load chose for its numbers and the check it passed (LogitsPath, StatisticsPath): its kind, why, and the check's numbers. */
function checkedPath<K extends string>(r: FieldReader, value: unknown, path: string, kinds: Record<K, true>): { kind: K; refusal?: Notice; check?: { tokens: number; maxAbsDiff: number } } {
  const l = r.object(value, path, ['kind'], ['refusal', 'check']);
  const out: { kind: K; refusal?: Notice; check?: { tokens: number; maxAbsDiff: number } } = { kind: oneOf(l.kind, `${path}.kind`, kinds) };
  if (l.refusal !== undefined) out.refusal = storedNotice(l.refusal, `${path}.refusal`);
  if (l.check !== undefined) {
    const c = r.object(l.check, `${path}.check`, ['tokens', 'maxAbsDiff']);
    // maxAbsDiff: between two backends' logits, each within fp16's ±65,504 (RAW_BOUNDS.logProbGap).
    out.check = { tokens: int(c.tokens, `${path}.check.tokens`, 1, MAX_TOKENS), maxAbsDiff: finite(c.maxAbsDiff, `${path}.check.maxAbsDiff`, 0, RAW_BOUNDS.logProbGap) };
  }
  return out;
}

function backendCheck(r: FieldReader, value: unknown, path: string): BackendCheck {
  const o = r.object(value, path, ['itemIds', 'tolerance', 'maxLogProbDiff', 'mismatchedPredictions', 'passed'], ['overridden']);
  const check: BackendCheck = {
    itemIds: list(o.itemIds, `${path}.itemIds`, MAX_LIST, id),
    tolerance: finite(o.tolerance, `${path}.tolerance`, 0, RAW_BOUNDS.logProbGap),
    maxLogProbDiff: finite(o.maxLogProbDiff, `${path}.maxLogProbDiff`, 0, RAW_BOUNDS.logProbGap),
    mismatchedPredictions: list(o.mismatchedPredictions, `${path}.mismatchedPredictions`, MAX_LIST, id),
    passed: bool(o.passed, `${path}.passed`),
  };
  if (o.overridden !== undefined) check.overridden = bool(o.overridden, `${path}.overridden`);
  return check;
}

function letterTokens(r: FieldReader, value: unknown, path: string): LetterToken[] {
  return list(value, path, 4, (v, p) => {
    const o = r.object(v, p, ['letter', 'tokenId', 'singleToken'], ['aloneTokenIds']);
    const token: LetterToken = { letter: id(o.letter, `${p}.letter`), tokenId: int(o.tokenId, `${p}.tokenId`, 0, MAX_TOKEN_ID), singleToken: bool(o.singleToken, `${p}.singleToken`) };
    if (o.aloneTokenIds !== undefined) token.aloneTokenIds = list(o.aloneTokenIds, `${p}.aloneTokenIds`, 16, (t, q) => int(t, q, 0, MAX_TOKEN_ID));
    return token;
  });
}


/** The generate() options a run recorded: only the ones this version writes, with the values it writes. */
function decodingOptionsOf(r: FieldReader, value: unknown, path: string): DecodingOptions {
  const fixed = Object.keys(FIXED_DECODING) as (keyof typeof FIXED_DECODING)[];
  const o = r.object(value, path, ['do_sample', 'temperature', 'top_k', 'top_p', ...fixed]);
  for (const key of fixed) {
    if (o[key] !== FIXED_DECODING[key]) fail(`${path}.${key}`, { expected: 'one-of', set: [String(FIXED_DECODING[key])] }, o[key]);
  }
  return {
    ...FIXED_DECODING,
    do_sample: bool(o.do_sample, `${path}.do_sample`),
    // generate()'s temperature divides the logits: above 100 every token is equally likely in practice.
    temperature: finite(o.temperature, `${path}.temperature`, 0, 100),
    top_k: int(o.top_k, `${path}.top_k`, 0, MAX_TOKEN_ID),
    top_p: finite(o.top_p, `${path}.top_p`, 0, 1),
  };
}

/** The origin an earlier import gave the run (it was imported, then exported again). */
function earlierOrigin(r: FieldReader, value: unknown, path: string): RunOrigin {
  const o = r.object(value, path, ['kind', 'fileName', 'importedAt', 'originalRunId', 'storedSummary', 'summaryMismatches'], ['harnessTasks', 'harnessBackend', 'harnessLimit']);
  const origin: RunOrigin = {
    kind: oneOf(o.kind, `${path}.kind`, ORIGIN_KINDS),
    fileName: name(o.fileName, `${path}.fileName`),
    importedAt: isoDate(o.importedAt, `${path}.importedAt`),
    originalRunId: o.originalRunId === null ? null : name(o.originalRunId, `${path}.originalRunId`),
    storedSummary: o.storedSummary === null ? null : summaryRecord(o.storedSummary, `${path}.storedSummary`),
    summaryMismatches: list(o.summaryMismatches, `${path}.summaryMismatches`, MAX_LIST, (v, p) => {
      const m = r.object(v, p, ['key', 'stored', 'recomputed']);
      const value = (v: unknown, q: string) => (v === null ? null : finite(v, q, 0, RAW_BOUNDS.summaryValue));
      return { key: name(m.key, `${p}.key`), stored: value(m.stored, `${p}.stored`), recomputed: value(m.recomputed, `${p}.recomputed`) };
    }),
  };
  if (o.harnessTasks !== undefined) {
    origin.harnessTasks = list(o.harnessTasks, `${path}.harnessTasks`, MAX_LIST, (v, p) => {
      const t = r.object(v, p, ['name', 'version']);
      // A harness task's version (1.0, 2): a small number, as the harness numbers them.
      const version = t.version === null ? null : typeof t.version === 'number' ? finite(t.version, `${p}.version`, 0, RAW_BOUNDS.harnessNumber) : name(t.version, `${p}.version`);
      return { name: id(t.name, `${p}.name`), version };
    });
  }
  if (o.harnessBackend !== undefined) {
    const b = r.object(o.harnessBackend, `${path}.harnessBackend`, ['model', 'device']);
    origin.harnessBackend = { model: name(b.model, `${path}.harnessBackend.model`), device: b.device === null ? null : name(b.device, `${path}.harnessBackend.device`) };
  }
  // --limit: a share below 1 or a count of docs.
  if (o.harnessLimit !== undefined) origin.harnessLimit = finite(o.harnessLimit, `${path}.harnessLimit`, 0, RAW_BOUNDS.harnessNumber);
  return origin;
}

/** The context limit a run recorded (see RunContextLimit). */
export function contextLimit(r: FieldReader, value: unknown, path: string): RunContextLimit {
  const o = r.object(value, path, ['tokens', 'from', 'asked', 'modelPositions']);
  const from = name(o.from, `${path}.from`);
  if (from !== 'user' && from !== 'default' && !/^config\.[A-Za-z_]+$/.test(from)) fail(`${path}.from`, { expected: 'one-of', set: ['user', 'default', 'config.<key>'] }, from);
  return {
    tokens: int(o.tokens, `${path}.tokens`, 1, MAX_TOKENS),
    from: from as RunContextLimit['from'],
    asked: oneOf(o.asked, `${path}.asked`, { user: true, default: true }),
    modelPositions: o.modelPositions === null ? null : int(o.modelPositions, `${path}.modelPositions`, 1, MAX_TOKENS),
  };
}

/**
 * Reads a Jiangu run file's parsed JSON (the caller has checked `format` and `formatVersion`).
 *
 * @param root The file's top-level object.
 * @param fileName For the origin.
 * @param importedAt ISO time of this import.
 * @param r The reader (a test passes its own to see which fields it knows: fields/run-file.ts is checked against it).
 * @param as 'file' (an import: the run is stopped if it was running, its origin is this import, and
 *   what the reader left out is a warning on it) or 'stored' (a record as this site stored it, read
 *   back from the store or a backup: every field is checked and rebuilt the same way, but its status,
 *   warnings and origin stay as they were, and what was left out is in `r.ignored` for the caller).
 * @throws FieldProblem naming the first field that is wrong.
 */
export function readJianguRun(root: Obj, fileName: string, importedAt: string, r: FieldReader = new FieldReader(), as: 'file' | 'stored' = 'file'): ImportedRun {
  r.object(root, 'file', ['format', 'formatVersion', 'run', 'results'], ['summary']);
  const runObj = r.object(root.run, 'run', ['id', 'createdAt', 'updatedAt', 'datasetId', 'status', 'config', 'warnings'], ['environment', 'check', 'letterTokens', 'error', 'origin', 'contextLimit', 'decodingOptions', 'modelCheck', 'label']);
  const kind = oneOf(anyObject(runObj.config, 'run.config').kind, 'run.config.kind', { 'multiple-choice': true, generation: true });
  const previous = runObj.origin === undefined ? null : earlierOrigin(r, runObj.origin, 'run.origin');
  const config = kind === 'multiple-choice' ? mcConfig(r, runObj.config, previous !== null) : genConfig(r, runObj.config, previous !== null);

  const datasetId = oneOf(runObj.datasetId, 'run.datasetId', DATASET_IDS);
  if (datasetId !== config.datasetId) fail('run.datasetId', { expected: 'same-as', value: config.datasetId, sameAs: 'run.config.datasetId' }, datasetId);
  const originalId = id(runObj.id, 'run.id');
  const status = oneOf(runObj.status, 'run.status', STATUSES);
  const warnings: (string | Notice)[] = list(runObj.warnings, 'run.warnings', MAX_LIST, (v, p) => storedWarning(v, p, SHORT * 20));
  const base = {
    id: originalId,
    createdAt: isoDate(runObj.createdAt, 'run.createdAt'),
    updatedAt: isoDate(runObj.updatedAt, 'run.updatedAt'),
    datasetId,
    status,
    warnings,
    ...(runObj.environment === undefined ? {} : { environment: environment(r, runObj.environment, 'run.environment') }),
    ...(runObj.error === undefined ? {} : { error: storedWarning(runObj.error, 'run.error', SHORT * 20) }),
    ...(runObj.contextLimit === undefined ? {} : { contextLimit: contextLimit(r, runObj.contextLimit, 'run.contextLimit') }),
    ...(runObj.decodingOptions === undefined ? {} : { decodingOptions: decodingOptionsOf(r, runObj.decodingOptions, 'run.decodingOptions') }),
    // Descriptive only: a check this version cannot read is dropped; a number out of its bound is refused.
    ...((check) => (check ? { modelCheck: check } : {}))(storedModelCheck(r, runObj.modelCheck, 'run.modelCheck')),
    // The user's own name for the run: raw text, bounded (RUN_LABEL_MAX), no control characters.
    ...(runObj.label === undefined ? {} : { label: name(runObj.label, 'run.label', RUN_LABEL_MAX) }),
  };

  if (!Array.isArray(root.results)) fail('results', { expected: 'list' }, root.results);
  if (root.results.length > MAX_RESULTS) throw problem('import.too-many-results', { count: root.results.length, max: MAX_RESULTS });
  const facts: RunFacts = { runId: originalId, position: new Map(config.itemIds.map((itemId, i) => [itemId, i])), tasks: new Set(config.tasks) };
  const seen = new Map<string, number>();
  const results: ItemResult[] = root.results.map((v: unknown, i: number) => {
    const path = `results[${i}]`;
    const result = config.kind === 'multiple-choice' ? mcResult(r, v, path, facts, config) : genResult(r, v, path, facts, config.datasetId);
    const first = seen.get(result.itemId);
    if (first !== undefined) throw problem('import.two-results', { path: `${path}.itemId`, itemId: result.itemId, first });
    seen.set(result.itemId, i);
    return result;
  });
  results.sort((a, b) => a.index - b.index);

  const run: RunRecord =
    config.kind === 'multiple-choice'
      ? ({
          ...base,
          config,
          ...(runObj.check === undefined ? {} : { check: backendCheck(r, runObj.check, 'run.check') }),
          ...(runObj.letterTokens === undefined ? {} : { letterTokens: letterTokens(r, runObj.letterTokens, 'run.letterTokens') }),
        } satisfies McRunRecord)
      : ({ ...base, config } satisfies GenRunRecord);
  if (config.kind === 'generation') {
    // Only multiple-choice runs have these.
    if (runObj.check !== undefined) r.ignored.add('run.check');
    if (runObj.letterTokens !== undefined) r.ignored.add('run.letterTokens');
  }

  const storedSummary = root.summary === undefined || root.summary === null ? null : summaryRecord(root.summary, 'summary');
  const recomputed = recomputeSummary(run, results);
  if (as === 'stored') {
    // The record as it was made or imported: its earlier import (rebuilt field by field), or none.
    // What that import's file stated is kept as its claim; where it disagrees is derived: recomputed here.
    if (previous) run.origin = { ...previous, summaryMismatches: earlierMismatches(previous, run, results, recomputed) };
    return { run, results };
  }

  // Nothing runs an imported run here: one exported mid-run is stopped, not running.
  if (status === 'running') {
    run.status = 'cancelled';
    warnings.push(notice('import.was-running', { results: results.length, items: config.itemIds.length }));
  }
  if (previous) {
    warnings.push(notice('import.imported-before', { from: previous.kind, fileName: previous.fileName, importedAt: previous.importedAt }));
  }
  const ignored = r.ignoredWarning();
  if (ignored) warnings.push(ignored);

  run.origin = {
    kind: 'jiangu-file',
    fileName,
    importedAt,
    originalRunId: originalId,
    storedSummary,
    summaryMismatches: storedSummary ? summaryMismatches(storedSummary, recomputed) : [],
    ...(previous?.harnessTasks ? { harnessTasks: previous.harnessTasks } : {}),
  };
  return { run, results };
}

/** An earlier import's disagreements between its file's stated summary and the results, computed as that import computed them. */
function earlierMismatches(origin: RunOrigin, run: RunRecord, results: readonly ItemResult[], recomputed: Record<string, number | null>): RunOrigin['summaryMismatches'] {
  if (!origin.storedSummary) return [];
  if (origin.kind === 'lm-eval' && run.config.kind === 'multiple-choice') return storedSummaryMismatches(origin.storedSummary, recomputed, results as McItemResult[]);
  return summaryMismatches(origin.storedSummary, recomputed);
}

/** runSummary, with its refusals (a result set it cannot aggregate) reported as a problem of the file. */
export function recomputeSummary(run: ImportedRun['run'], results: readonly ItemResult[]): Record<string, number | null> {
  try {
    return runSummary(run, results);
  } catch (error) {
    throw problem('import.summary-failed', { detail: error instanceof Error ? error.message : String(error) });
  }
}
