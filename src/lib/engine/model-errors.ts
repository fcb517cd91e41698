// Turns whatever transformers.js, onnxruntime-web or the browser threw into a message a user can
// act on. Pure (no DOM), so it is unit-tested in Node with the error texts those libraries produce.
import type { Dtype, ModelErrorCode, ModelErrorInfo, ModelSource } from './messages.ts';
import { notice, renderNotice, type NoticeCode, type ParamArgs } from '../core/notices/index.ts';
import type { ModelWhere } from '../core/notices/catalog-model.ts';
import { ranOutOfMemory } from './memory-failure.ts';

/** A worker error: its code for the page to act on, its notice for the page to word, English for logs. */
export function modelError<C extends NoticeCode>(code: ModelErrorCode, noticeCode: C, params: ParamArgs<C>, detail?: string): ModelErrorInfo {
  const n = notice(noticeCode, ...params);
  return { code, notice: n, message: renderNotice(n, 'en'), ...(detail === undefined ? {} : { detail }) };
}

/** The model's name for messages: a hub id with its revision, or a site folder. */
export function whereOf(source: ModelSource): ModelWhere {
  return source.kind === 'hub' ? { source: 'hub', name: `${source.id}${source.revision ? `@${source.revision}` : ''}` } : { source: 'site', name: source.name };
}

export interface LoadContext {
  source: ModelSource;
  dtype: Dtype;
  backend: 'webgpu' | 'wasm';
  /** The external data files the load asked for (declared or found), to name them in errors. */
  externalFiles?: readonly string[];
  /** Model files this load could not fetch because their host could not be reached, and no cache holds. */
  unreachable?: UnreachableFiles;
}

/**
 * The fetches of a load that failed as a network failure does (fetch threw: offline, the host down,
 * a service worker with no copy answering with a network error), whose URLs no cache holds either.
 * transformers.js turns such a failure of a site file into "not found locally", as if the model were
 * missing; these tell the two apart.
 */
export interface UnreachableFiles {
  /** Absolute URLs, in the order they failed. */
  urls: readonly string[];
  /** The model's folder URL (ending in '/'), to name a file by its path in the folder. */
  folderUrl: string;
  /** navigator.onLine was false. */
  offline: boolean;
}

export function describeSource(source: ModelSource): string {
  return source.kind === 'hub'
    ? `${source.id}${source.revision ? `@${source.revision}` : ''}`
    : `the site's model folder /models/${source.name}/`;
}

const dtypeSuffix: Record<Dtype, string> = { fp32: '', fp16: '_fp16', q8: '_quantized', q4: '_q4', q4f16: '_q4f16' };

/** The ONNX file transformers.js loads for a dtype. */
export function modelFileFor(dtype: Dtype): string {
  return `onnx/model${dtypeSuffix[dtype]}.onnx`;
}

function textOf(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  if (typeof error === 'number') return `onnxruntime error code ${error}`;
  return String(error);
}

/** Classifies an error thrown while loading a model. */
export function classifyLoadError(error: unknown, ctx: LoadContext): ModelErrorInfo {
  const detail = textOf(error);
  const info = classifyLoadDetail(error, detail, ctx);
  return (ctx.unreachable && notStoredOffline(info, detail, ctx.source, ctx.unreachable)) || info;
}

/** The notices a file that could not be fetched reads as: a missing model, dtype or data file, or a network error. */
const LOOKS_MISSING = new Set(['model.not-found', 'model.no-dtype', 'load.external-data-missing', 'model.network']);

/**
 * The offline notice in place of `info`, when `info` only looks like a missing file or a network error
 * because a file the error names (or, for an error that names none, the last one) could not be fetched.
 * A missing file whose fetch got an answer (a real 404) keeps its notice.
 */
function notStoredOffline(info: ModelErrorInfo, detail: string, source: ModelSource, unreachable: UnreachableFiles): ModelErrorInfo | null {
  if (!LOOKS_MISSING.has(info.notice.code) || unreachable.urls.length === 0) return null;
  const named = unreachable.urls.filter((url) => names(detail, url) || names(detail, new URL(url).pathname));
  const url = info.notice.code === 'model.network' ? (named.at(-1) ?? unreachable.urls.at(-1)) : named.at(-1);
  if (url === undefined) return null;
  const file = url.startsWith(unreachable.folderUrl) ? decodeURIComponent(url.slice(unreachable.folderUrl.length)) : url;
  return modelError('network', 'model.not-stored-offline', [{ ...whereOf(source), file, host: new URL(url).host, offline: unreachable.offline }], detail);
}

/** Whether `detail` names `path` whole: `…/model.onnx` is not named by `…/model.onnx_data`. */
function names(detail: string, path: string): boolean {
  for (let at = detail.indexOf(path); at >= 0; at = detail.indexOf(path, at + 1)) {
    if (!/[\w.-]/.test(detail.charAt(at + path.length))) return true;
  }
  return false;
}

function classifyLoadDetail(error: unknown, detail: string, ctx: LoadContext): ModelErrorInfo {
  const where = whereOf(ctx.source);
  const file = modelFileFor(ctx.dtype);
  const external = classifyExternalDataError(detail, ctx, where, file);
  if (external) return external;
  if (/Could not locate file|Unauthorized access|Forbidden access|ModelFileNotFoundError|no such model file|not found locally/i.test(detail)) {
    const missingWeights = /onnx\/model[^"]*\.onnx/.test(detail);
    return missingWeights
      ? modelError('unsupported-dtype', 'model.no-dtype', [{ ...where, dtype: ctx.dtype, file }], detail)
      : modelError('model-not-found', 'model.not-found', [where], detail);
  }
  if (/does not support fp16|shader-f16/i.test(detail)) {
    return modelError('unsupported-dtype', 'model.no-shader-f16', [{ dtype: ctx.dtype }], detail);
  }
  // Before "damaged": ORT's wasm says "Can't create a session … std::bad_alloc" when a file and its
  // weights outgrow the 4 GB a wasm Memory can hold (real-shaped fp32 and fp16 0.5B files do, issue 35).
  if (ranOutOfMemory(detail)) {
    return modelError('out-of-memory', 'model.load-out-of-memory', [{ ...where, file, dtype: ctx.dtype, on: ctx.backend === 'webgpu' ? 'gpu' : 'tab' }], detail);
  }
  if (/create a session|failed to load model|protobuf parsing failed|Unexpected token .* in JSON|is not valid JSON|invalid model|reading 'tokenizer_class'/i.test(detail)) {
    return modelError('invalid-model', 'model.damaged', [{ ...where, file }], detail);
  }
  if (/Invalid dtype|Unsupported data type|not (implemented|supported).*(MatMulNBits|type)/i.test(detail)) {
    return modelError('unsupported-dtype', 'model.dtype-backend', [{ ...where, dtype: ctx.dtype, backend: ctx.backend }], detail);
  }
  return classifyRunError(error, ctx);
}

/**
 * External data (`onnx/model{suffix}.onnx_data`, `_1`, …): a missing file fails in transformers.js'
 * download ("Could not locate file") or, where nothing fetched it, in ORT's mount lookup; a short or
 * damaged one fails in ORT when an initializer's offset and length run past the file's end.
 */
function classifyExternalDataError(detail: string, ctx: LoadContext, where: ModelWhere, file: string): ModelErrorInfo | null {
  const named = /onnx\/[\w.-]*\.onnx_data(_\d+)?/.exec(detail)?.[0] ?? /[\w.-]*\.onnx_data(_\d+)?/.exec(detail)?.[0];
  const dataFile = named === undefined ? (ctx.externalFiles?.[0] ?? `${file}_data`) : named.startsWith('onnx/') ? named : `onnx/${named}`;
  if (named === undefined && !/external data|external initializer|MountedFiles/i.test(detail)) return null;
  if (/out of bounds|can ?not be read in full/i.test(detail)) {
    return modelError('invalid-model', 'load.external-data-damaged', [{ ...where, file: dataFile }], detail);
  }
  // "MountedFiles is not available": ORT looked for data nothing fetched, as nothing declared or found it.
  if (/Could not locate file|not found|\b404\b|MountedFiles is not available|no such file|Failed to get file size/i.test(detail)) {
    return modelError('model-not-found', 'load.external-data-missing', [{ ...where, file: dataFile }], detail);
  }
  return modelError('invalid-model', 'load.external-data-damaged', [{ ...where, file: dataFile }], detail);
}

/** Classifies an error thrown while running a loaded model (or one no other rule matched). */
export function classifyRunError(error: unknown, ctx?: Partial<Pick<LoadContext, 'source' | 'dtype' | 'backend'>>): ModelErrorInfo {
  const detail = textOf(error);
  if (/No available adapters|webgpu.*(not|un)(available|supported)|requestAdapter|navigator\.gpu/i.test(detail)) {
    return modelError('webgpu-unavailable', 'model.webgpu-unavailable', [], detail);
  }
  if (ranOutOfMemory(detail)) return outOfMemory(detail, ctx);
  if (/Failed to fetch|NetworkError|ERR_|net::|network|Load failed|TypeError: fetch/i.test(detail)) {
    return modelError('network', 'model.network', [], detail);
  }
  return modelError('internal', 'model.failed', [{ detail }], detail);
}

/** A memory failure of the model `ctx` names (as far as it is known), with what to try. */
function outOfMemory(detail: string, ctx?: Partial<Pick<LoadContext, 'source' | 'dtype' | 'backend'>>): ModelErrorInfo {
  const model = ctx?.source ? whereOf(ctx.source) : {};
  return modelError('out-of-memory', 'model.out-of-memory', [{ on: ctx?.backend === 'webgpu' ? 'gpu' : 'tab', ...model, ...(ctx?.dtype ? { dtype: ctx.dtype } : {}) }], detail);
}

/**
 * The worker's 'error' event (an exception nothing in the worker caught; the page gives the worker up):
 * a memory failure of the model last loaded (`last`: its source, dtype and backend as far as known),
 * else a crash.
 */
export function workerCrashError(message: string, last?: Partial<Pick<LoadContext, 'source' | 'dtype' | 'backend'>> | null): ModelErrorInfo {
  return ranOutOfMemory(message) ? outOfMemory(message, last ?? undefined) : modelError('internal', 'model.worker-crashed', [], message);
}
