// Turns a share link's parsed JSON header into typed values, field by field. The header is
// untrusted: each check names the field (as a path, e.g. `config.shots`) and says what was expected.
// Objects are rebuilt from the known fields only, so nothing unexpected (a `__proto__` key, an
// extra field) reaches a caller.
import type { DatasetId } from '../../benchmarks/types.ts';
import type { Backend, BackendChoice, Dtype, ModelSource } from '../../models/model-types.ts';
import { isSiteModelName } from '../../models/model-names.ts';
import type { McProtocolId } from '../../protocols/mc-protocols.ts';
import { nameProblem } from '../../text-safety.ts';
import type { Decoding, McRunConfig, RunModel } from '../../record/run.ts';
import type { RunSampling, StopRule } from '../../protocols/run-sampling.ts';
import { SHARE_LIMITS, shareLinkError, type SharedEnvironment, type SharedGenConfig, type SharedMcConfig, type SharedPride } from './share-types.ts';

type Obj = Record<string, unknown>;

// Records (not arrays) so that adding a member to the union fails to compile until it is listed here.
export const DATASET_IDS: Record<DatasetId, true> = { aclue: true, 'cmmlu-ancient': true, 'ac-eval': true, wenmind: true, ancientbench: true, c3bench: true };
const MC_PROTOCOL_IDS: Record<McProtocolId, true> = { cmmlu: true, ancientbench: true, aclue: true, 'wenmind-mc': true, 'ac-eval': true };
const DTYPE_SET: Record<Dtype, true> = { fp32: true, fp16: true, q8: true, q4: true, q4f16: true };
const BACKEND_CHOICES: Record<BackendChoice, true> = { auto: true, webgpu: true, wasm: true };
const BACKENDS: Record<Backend, true> = { webgpu: true, wasm: true };
const SCORINGS: Record<McRunConfig['scoring'], true> = { 'letter-logits': true, 'generate-extract': true, cloze: true };

const SHA256_HEX = /^[0-9a-f]{64}$/;

function fail(path: string, expected: string, value: unknown): never {
  throw shareLinkError('link.field-invalid', { path, found: describe(value), expected });
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return `a list of ${value.length}`;
  if (typeof value === 'string') return value.length > 40 ? `a string of ${value.length} characters` : `the string ${JSON.stringify(value)}`;
  if (typeof value === 'object') return 'an object';
  if (value === undefined) return 'missing';
  return `${typeof value} ${String(value)}`;
}

/** While set (shareLinkFieldsRead), every field the decoder reads or may read, list positions as [*]. */
let fieldsRead: Set<string> | null = null;

/** Notes fields the decoder reads (header fields by name, the rest by path), for the field table's test. */
export function noteFieldsRead(...paths: string[]): void {
  if (fieldsRead) for (const p of paths) fieldsRead.add(p.replace(/\[\d+\]/g, '[*]'));
}

/**
 * The fields `decode` read or could have read (an object's optional keys too): the other half of the
 * field table's completeness (fields/share-link.ts names only such fields). Tests only: while it runs,
 * nothing else may decode.
 */
export async function shareLinkFieldsRead(decode: () => Promise<unknown>): Promise<Set<string>> {
  const read = new Set<string>();
  fieldsRead = read;
  try {
    await decode();
  } finally {
    fieldsRead = null;
  }
  return read;
}

export function object(value: unknown, path: string, keys: readonly string[], optional: readonly string[] = []): Obj {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) fail(path, 'an object', value);
  const allowed = new Set([...keys, ...optional]);
  noteFieldsRead(...[...allowed].map((key) => (path === 'header' ? key : `${path}.${key}`)));
  for (const key of Object.keys(value)) {
    if (!allowed.has(key)) throw shareLinkError('link.field-unknown', { path, key: JSON.stringify(key.slice(0, 60)), known: [...allowed] });
  }
  for (const key of keys) if (!(key in value)) fail(`${path}.${key}`, 'a value', undefined);
  return value as Obj;
}

export function text(value: unknown, path: string): string {
  if (typeof value !== 'string') fail(path, 'a string', value);
  if (value.length > SHARE_LIMITS.stringChars) throw shareLinkError('link.field-too-long', { path, chars: value.length, max: SHARE_LIMITS.stringChars });
  // The site's one rule for names (text-safety.ts), the run importer's: no invisible or direction character.
  const bad = nameProblem(value, Infinity);
  if (bad?.kind === 'invisible') throw shareLinkError('link.field-control-char', { path, codepoint: bad.codePoint.slice(2), at: bad.position });
  return value;
}

/** An absolute http(s) URL: a link's model host is fetched from (once the user agrees), so nothing else may pass. */
function httpUrl(value: unknown, path: string): string {
  const s = text(value, path);
  let url: URL | null = null;
  try {
    url = new URL(s);
  } catch {
    url = null;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) fail(path, 'an http(s) URL', s);
  return s;
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

/** An ISO 8601 date and time that Date reads (the page formats it; an invalid date would throw there). */
export function isoDate(value: unknown, path: string): string {
  const s = text(value, path);
  if (!ISO_DATE.test(s) || !Number.isFinite(Date.parse(s))) fail(path, 'an ISO date and time such as 2026-11-30T12:00:00.000Z', s);
  return s;
}

export function hash(value: unknown, path: string): string {
  if (typeof value !== 'string' || !SHA256_HEX.test(value)) fail(path, '64 lower-case hex digits (a sha256)', value);
  return value;
}

export function int(value: unknown, path: string, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) fail(path, `an integer from ${min} to ${max}`, value);
  return value;
}

export function num(value: unknown, path: string, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min || value > max) fail(path, `a number from ${min} to ${max}`, value);
  return value;
}

export function bool(value: unknown, path: string): boolean {
  if (typeof value !== 'boolean') fail(path, 'true or false', value);
  return value;
}

export function oneOf<T extends string>(value: unknown, path: string, set: Record<T, true>): T {
  if (typeof value !== 'string' || !Object.hasOwn(set, value)) fail(path, `one of ${Object.keys(set).join(', ')}`, value);
  return value as T;
}

export function list<T>(value: unknown, path: string, max: number, item: (v: unknown, path: string) => T): T[] {
  if (!Array.isArray(value)) fail(path, 'a list', value);
  if (value.length > max) throw shareLinkError('link.list-too-long', { path, entries: value.length, max });
  return value.map((v, i) => item(v, `${path}[${i}]`));
}

const INT_MAX = 1_000_000_000;

export function model(value: unknown, path: string): RunModel {
  const o = object(value, path, ['source', 'dtype', 'backend']);
  const s = object(o.source, `${path}.source`, ['kind'], ['id', 'revision', 'host', 'name']);
  const kind = oneOf(s.kind, `${path}.source.kind`, { hub: true, site: true });
  let source: ModelSource;
  if (kind === 'hub') {
    object(s, `${path}.source`, ['kind', 'id'], ['revision', 'host']);
    source = { kind, id: text(s.id, `${path}.source.id`) };
    if (s.revision !== undefined) source.revision = text(s.revision, `${path}.source.revision`);
    if (s.host !== undefined) source.host = httpUrl(s.host, `${path}.source.host`);
  } else {
    object(s, `${path}.source`, ['kind', 'name']);
    const name = text(s.name, `${path}.source.name`);
    if (!isSiteModelName(name)) fail(`${path}.source.name`, 'a model folder name (letters, digits, ".", "-", "_"; no ".." or slashes)', name);
    source = { kind, name };
  }
  return { source, dtype: oneOf(o.dtype, `${path}.dtype`, DTYPE_SET), backend: oneOf(o.backend, `${path}.backend`, BACKEND_CHOICES) };
}

function decoding(value: unknown, path: string): Decoding {
  const o = object(value, path, ['kind'], ['topK', 'topP', 'seed']);
  const kind = oneOf(o.kind, `${path}.kind`, { greedy: true, sample: true });
  if (kind === 'greedy') {
    object(o, path, ['kind']);
    return { kind };
  }
  object(o, path, ['kind', 'topK', 'topP', 'seed']);
  return { kind, topK: int(o.topK, `${path}.topK`, 1, INT_MAX), topP: num(o.topP, `${path}.topP`, 0, 1), seed: int(o.seed, `${path}.seed`, 0, Number.MAX_SAFE_INTEGER) };
}

const COMMON_KEYS = ['kind', 'model', 'protocolId', 'protocolVersion', 'templateHash', 'chatTemplate', 'datasetId', 'datasetFiles', 'tasks', 'limitPerTask', 'itemCount', 'itemIdsHash', 'appVersion'] as const;

function common(o: Obj) {
  return {
    model: model(o.model, 'config.model'),
    protocolVersion: int(o.protocolVersion, 'config.protocolVersion', 0, INT_MAX),
    templateHash: hash(o.templateHash, 'config.templateHash'),
    chatTemplate: bool(o.chatTemplate, 'config.chatTemplate'),
    datasetId: oneOf(o.datasetId, 'config.datasetId', DATASET_IDS),
    datasetFiles: list(o.datasetFiles, 'config.datasetFiles', SHARE_LIMITS.listEntries, (v, p) => {
      const f = object(v, p, ['path', 'sha256']);
      return { path: text(f.path, `${p}.path`), sha256: hash(f.sha256, `${p}.sha256`) };
    }),
    tasks: list(o.tasks, 'config.tasks', SHARE_LIMITS.listEntries, text),
    limitPerTask: o.limitPerTask === null ? null : int(o.limitPerTask, 'config.limitPerTask', 0, INT_MAX),
    itemCount: int(o.itemCount, 'config.itemCount', 0, SHARE_LIMITS.predictions),
    itemIdsHash: hash(o.itemIdsHash, 'config.itemIdsHash'),
    appVersion: text(o.appVersion, 'config.appVersion'),
    ...(o.thinking === undefined ? {} : { thinking: oneOf(o.thinking, 'config.thinking', { off: true }) }),
  };
}

export function mcConfig(value: unknown): SharedMcConfig {
  const o = object(value, 'config', [...COMMON_KEYS, 'scoring', 'shots', 'contextLimit', 'prefixReuse'], ['maxNewTokens', 'thinking', 'circular', 'pride', ...SAMPLE_KEYS]);
  const config: SharedMcConfig = {
    kind: 'multiple-choice',
    protocolId: oneOf(o.protocolId, 'config.protocolId', MC_PROTOCOL_IDS),
    scoring: oneOf(o.scoring, 'config.scoring', SCORINGS),
    shots: int(o.shots, 'config.shots', 0, 1000),
    contextLimit: int(o.contextLimit, 'config.contextLimit', 0, INT_MAX),
    prefixReuse: bool(o.prefixReuse, 'config.prefixReuse'),
    ...common(o),
  };
  if (o.maxNewTokens !== undefined) config.maxNewTokens = int(o.maxNewTokens, 'config.maxNewTokens', 1, INT_MAX);
  if (o.circular !== undefined) config.circular = bool(o.circular, 'config.circular');
  if (o.pride !== undefined) config.pride = pride(o.pride, config.itemCount);
  Object.assign(config, sampleFields(o));
  // Option order never enters a cloze context, and PriDe reads letters: neither goes with option-text scoring.
  if (config.scoring === 'cloze' && (config.circular || config.pride)) fail('config.scoring', '"letter-logits" (circular and PriDe score letters)', config.scoring);
  if (o.kind !== 'multiple-choice') fail('config.kind', '"multiple-choice" (the link\'s kind)', o.kind);
  return config;
}

/** PriDe's draw (share, seed) and the count and hash of the ids it drew, checked against the run's size. */
function pride(value: unknown, itemCount: number): SharedPride {
  const o = object(value, 'config.pride', ['share', 'seed', 'estimationCount', 'estimationIdsHash']);
  const share = num(o.share, 'config.pride.share', 0, 1);
  if (share === 0) fail('config.pride.share', 'a number above 0, at most 1', share);
  return {
    share,
    seed: int(o.seed, 'config.pride.seed', -(2 ** 31), 2 ** 32 - 1),
    estimationCount: int(o.estimationCount, 'config.pride.estimationCount', 0, itemCount),
    estimationIdsHash: hash(o.estimationIdsHash, 'config.pride.estimationIdsHash'),
  };
}

export function genConfig(value: unknown): SharedGenConfig {
  const o = object(value, 'config', [...COMMON_KEYS, 'maxNewTokens', 'decoding'], ['thinking', ...SAMPLE_KEYS]);
  if (o.kind !== 'generation') fail('config.kind', '"generation" (the link\'s kind)', o.kind);
  const config: SharedGenConfig = {
    kind: 'generation',
    protocolId: oneOf(o.protocolId, 'config.protocolId', { c3bench: true }),
    maxNewTokens: int(o.maxNewTokens, 'config.maxNewTokens', 1, INT_MAX),
    decoding: decoding(o.decoding, 'config.decoding'),
    ...common(o),
  };
  return Object.assign(config, sampleFields(o));
}

const SAMPLE_KEYS = ['sampling', 'stopRule'] as const;

/**
 * The sample a link carries (issue 36), absent in older links (the first limitPerTask in file order):
 * its draw, seed, order and blocks rebuild the items here (shared-items.ts), and its population per
 * task must be the link's tasks exactly and give the link's item count (share-check.ts
 * checkLinkSample). The stop rule says why a run ended before its last item; a baseline run id is
 * the sharer's, shown as text, never looked up.
 */
function sampleFields(o: Obj): { sampling?: RunSampling; stopRule?: StopRule } {
  const out: { sampling?: RunSampling; stopRule?: StopRule } = {};
  if (o.sampling !== undefined) out.sampling = sampling(o.sampling);
  if (o.stopRule !== undefined) out.stopRule = stopRule(o.stopRule);
  return out;
}

function sampling(value: unknown): RunSampling {
  const path = 'config.sampling';
  const o = object(value, path, ['draw', 'seed', 'order', 'block', 'population'], ['growth', 'maxBlock']);
  const out: RunSampling = {
    draw: oneOf(o.draw, `${path}.draw`, { random: true, first: true }),
    seed: int(o.seed, `${path}.seed`, 0, 0xffffffff),
    order: oneOf(o.order, `${path}.order`, { shuffled: true, file: true }),
    block: int(o.block, `${path}.block`, 1, INT_MAX),
    population: {},
  };
  if (o.growth !== undefined) out.growth = num(o.growth, `${path}.growth`, 1, 64);
  if (o.maxBlock !== undefined) out.maxBlock = int(o.maxBlock, `${path}.maxBlock`, 1, INT_MAX);
  // Task name → N. Read here as a form only (each a bounded name and count); that the names are the
  // link's tasks and the sizes give its items is checked after its tasks (share-check.ts checkLinkSample).
  const p = o.population;
  if (typeof p !== 'object' || p === null || Array.isArray(p)) fail(`${path}.population`, 'an object of task sizes', p);
  noteFieldsRead(`${path}.population`);
  const entries = Object.entries(p);
  if (entries.length > SHARE_LIMITS.listEntries) throw shareLinkError('link.list-too-long', { path: `${path}.population`, entries: entries.length, max: SHARE_LIMITS.listEntries });
  // fromEntries defines own properties, so a task named __proto__ stays a plain key.
  out.population = Object.fromEntries(entries.map(([task, n]) => [text(task, `${path}.population (a task)`), int(n, `${path}.population.${task.slice(0, 60)}`, 0, INT_MAX)]));
  return out;
}

function stopRule(value: unknown): StopRule {
  const path = 'config.stopRule';
  const o = object(value, path, ['kind', 'alpha'], ['halfWidth', 'baselineRunId']);
  const kind = oneOf(o.kind, `${path}.kind`, { precision: true, 'sign-settled': true });
  const alpha = num(o.alpha, `${path}.alpha`, 0, 1);
  if (alpha === 0 || alpha === 1) fail(`${path}.alpha`, 'a number between 0 and 1', alpha);
  if (kind === 'precision') {
    object(o, path, ['kind', 'alpha', 'halfWidth']);
    const halfWidth = num(o.halfWidth, `${path}.halfWidth`, 0, 1);
    if (halfWidth === 0) fail(`${path}.halfWidth`, 'a share above 0, at most 1', halfWidth);
    return { kind, alpha, halfWidth };
  }
  object(o, path, ['kind', 'alpha', 'baselineRunId']);
  return { kind, alpha, baselineRunId: text(o.baselineRunId, `${path}.baselineRunId`) };
}

export function environment(value: unknown): SharedEnvironment | null {
  if (value === null) return null;
  const o = object(value, 'environment', ['backend', 'adapterArchitecture'], ['modelCommit']);
  const env: SharedEnvironment = {
    backend: oneOf(o.backend, 'environment.backend', BACKENDS),
    adapterArchitecture: o.adapterArchitecture === null ? null : text(o.adapterArchitecture, 'environment.adapterArchitecture'),
  };
  if (o.modelCommit !== undefined && o.modelCommit !== null) {
    if (typeof o.modelCommit !== 'string' || !/^[0-9a-f]{40}$/.test(o.modelCommit)) fail('environment.modelCommit', '40 lower-case hex digits (a git commit)', o.modelCommit);
    env.modelCommit = o.modelCommit;
  }
  return env;
}

export function summary(value: unknown): Record<string, number | null> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) fail('summary', 'an object of numbers', value);
  const entries = Object.entries(value);
  if (entries.length > SHARE_LIMITS.listEntries) throw shareLinkError('link.list-too-long', { path: 'summary', entries: entries.length, max: SHARE_LIMITS.listEntries });
  // fromEntries defines own properties, so a key named __proto__ stays a plain key.
  return Object.fromEntries(
    entries.map(([key, v]) => {
      text(key, `summary key ${JSON.stringify(key.slice(0, 60))}`);
      return [key, v === null ? null : num(v, `summary.${key}`, -Number.MAX_VALUE, Number.MAX_VALUE)];
    }),
  );
}

