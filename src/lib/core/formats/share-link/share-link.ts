// A share link: a run's configuration, summary and (for multiple choice) every predicted letter,
// deflated into a URL fragment so that nothing leaves the browser until the user pastes the link.
// Written and read by this site only; this comment is its specification (version SHARE_LINK_VERSION,
// share-types.ts), and share-validate.ts checks every field of a link as untrusted input.
//
// Payload = base64url(deflate-raw(frame)), frame =
//   byte 0         format version (1)
//   bytes 1–4      header length L, u32 big-endian
//   bytes 5…5+L    header: UTF-8 JSON { kind, datasetId, createdAt, environment, summary, config, … }
//   the rest       multiple choice: n 2-bit codes per plane, 4 a byte, first item in the high bits,
//                  each plane exactly ceil(n/4) bytes. Plane 1, the letters: A=0 B=1 C=2 D=3 (0 where
//                  there is no letter). Plane 2, only when the header's `gaps` is true, the status:
//                  0 scored with a letter, 1 scored with no extractable letter (a null prediction),
//                  2 no result yet, 3 invalid. Then, only when the header has `rotations`, the
//                  rotation planes of circular runs and PriDe's estimation items (share-rotations.ts).
//                  Generation: nothing.
// The letters take all four codes, so nulls need the status plane; it is left out when every slot
// has a letter. A plane rather than a list of indices keeps the worst case bounded: 5,000 items
// with every answer unextractable still fit in about 3.4 KB, where an index list would take 16 KB.
// The item ids are not carried (5,000 of them would not fit): the config's dataset, tasks and
// limitPerTask rebuild them, and `itemIdsHash` checks the rebuilt list. Generation outputs do not
// fit either: `outputsHash` is one sha256 over all of them, and the run file carries the outputs.
// Rotations that would push a link over SHARE_LIMITS.payloadChars are left out, and the header says
// so (`rotationsOmitted`): the run file carries them. PriDe's estimation ids are replaced, as the
// item ids are, by their count and hash; the draw's share and seed rebuild them. A sampled run's
// config carries its `sampling` (issue 36: draw, seed, order, blocks, each task's N), from which the
// item ids are drawn again in run order; a link without it is read as before (the first limitPerTask
// of each task, task by task). Its `stopRule`, when the run had one, says why it ended early.
import type { DatasetId, OptionLetter } from '../../benchmarks/types.ts';
import { sha256Hex } from '../../protocols/template-hash.ts';
import type { GenItemResult, ItemResult, McItemResult, RunRecord } from '../../record/run.ts';
import { deflateRaw, frame, fromBase64Url, inflateRaw, pack2, toBase64Url, unframe, unpack2 } from './share-bytes.ts';
import { SHARE_LIMITS, SHARE_LINK_VERSION, ShareLinkError, shareLinkError, type SharedEnvironment, type SharedGenRun, type SharedMcRun, type SharedRun } from './share-types.ts';
import { environment, genConfig, hash, int, isoDate, mcConfig, noteFieldsRead, object, summary } from './share-validate.ts';
import { maxRotationBytes, packRotations, unpackRotations } from './share-rotations.ts';
import { checkLinkDate, checkLinkSample, checkLinkSummary, checkLinkTasks } from './share-check.ts';
import { notice, noticeOf, renderNotice } from '../../notices/index.ts';
import { concatBytes as concat } from '../../bytes.ts';

const LETTERS: readonly OptionLetter[] = ['A', 'B', 'C', 'D'];
const STATUS_LETTER = 0;
const STATUS_NULL = 1;
const STATUS_UNSCORED = 2;

export { SHARE_LIMITS, SHARE_LINK_VERSION, ShareLinkError };
export type { SharedEnvironment, SharedGenConfig, SharedGenRun, SharedMcConfig, SharedMcRun, SharedPride, SharedRotation, SharedRun } from './share-types.ts';

/** Where the payload goes in a URL: the fragment, so it is never sent to a server. */
export const SHARED_ROUTE = '#/shared/';

/** sha256 hex of the item ids joined with '\n', in run order. */
export function itemIdsHash(itemIds: readonly string[]): Promise<string> {
  return sha256Hex(itemIds.join('\n'));
}

/**
 * sha256 hex of JSON.stringify of every output in config.itemIds order, null where an item has no
 * output: one hash (64 characters) instead of one per item, which would not fit in a link.
 */
export function outputsHash(itemIds: readonly string[], results: readonly GenItemResult[]): Promise<string> {
  const byId = new Map(results.map((r) => [r.itemId, r.output]));
  return sha256Hex(JSON.stringify(itemIds.map((id) => byId.get(id) ?? null)));
}

/**
 * The fragment payload for `run`: its configuration (item ids replaced by count and hash), the
 * summary the page shows, and for multiple choice each item's predicted letter (and each of its
 * rotations', left out when they would not fit). Throws
 * ShareLinkError when the run holds something a link may not (an overlong string, a control
 * character, too many items): the encoder checks its output with the decoder's rules.
 */
export async function encodeShareLink(run: RunRecord, results: readonly ItemResult[], runSummary: Record<string, number | null>): Promise<string> {
  const { itemIds, ...rest } = run.config;
  const config: Record<string, unknown> = { ...rest, itemCount: itemIds.length, itemIdsHash: await itemIdsHash(itemIds) };
  if (run.config.kind === 'multiple-choice' && run.config.pride) {
    const { share, seed, estimationItemIds } = run.config.pride;
    config.pride = { share, seed, estimationCount: estimationItemIds.length, estimationIdsHash: await itemIdsHash(estimationItemIds) };
  }
  const adapter = run.environment?.backendInfo.adapter;
  const commit = run.environment?.resolvedRevision?.commit;
  const env: SharedEnvironment | null = run.environment
    ? { backend: run.environment.backendInfo.backend, adapterArchitecture: adapter ? adapter.architecture || null : null, ...(commit ? { modelCommit: commit } : {}) }
    : null;
  const base = { kind: run.config.kind, datasetId: run.datasetId, createdAt: run.createdAt, environment: env, summary: runSummary, config };
  if (run.config.kind !== 'multiple-choice') {
    const gen = results as readonly GenItemResult[];
    const ids = new Set(itemIds);
    const header = { ...base, outputsHash: await outputsHash(itemIds, gen), outputCount: new Set(gen.filter((r) => ids.has(r.itemId)).map((r) => r.itemId)).size };
    return checked(await payloadOf(header, []));
  }
  const byIndex = new Map<number, McItemResult>();
  const position = new Map(itemIds.map((id, i) => [id, i]));
  for (const r of results as readonly McItemResult[]) {
    const i = position.get(r.itemId);
    if (i !== undefined) byIndex.set(i, r);
  }
  const n = [...byIndex.keys()].reduce((max, i) => Math.max(max, i + 1), 0);
  const letterCodes: number[] = [];
  const status: number[] = [];
  for (let i = 0; i < n; i++) {
    const prediction = byIndex.get(i)?.prediction;
    letterCodes.push(prediction ? LETTERS.indexOf(prediction) : 0);
    status.push(prediction === undefined ? STATUS_UNSCORED : prediction === null ? STATUS_NULL : STATUS_LETTER);
  }
  const gaps = status.some((code) => code !== STATUS_LETTER);
  const planes = gaps ? [pack2(letterCodes), pack2(status)] : [pack2(letterCodes)];
  const rotations = packRotations(byIndex, n);
  if (rotations) {
    const payload = await payloadOf({ ...base, n, gaps, rotations: rotations.header }, [...planes, rotations.bytes]);
    if (payload.length <= SHARE_LIMITS.payloadChars) return checked(payload);
    return checked(await payloadOf({ ...base, n, gaps, rotationsOmitted: true }, planes));
  }
  return checked(await payloadOf({ ...base, n, gaps }, planes));
}

async function payloadOf(header: object, planes: readonly Uint8Array[]): Promise<string> {
  const json = new TextEncoder().encode(JSON.stringify(header));
  return toBase64Url(await deflateRaw(frame(SHARE_LINK_VERSION, json, concat(planes))));
}

/** The encoder's output read with the decoder's rules: a run holding what a link may not is refused here, not by the recipient. */
async function checked(payload: string): Promise<string> {
  try {
    await decodeShareLink(payload);
  } catch (e) {
    const why = noticeOf(e);
    throw new ShareLinkError(notice('link.cannot-share', { en: renderNotice(why, 'en'), zh: renderNotice(why, 'zh') }), { cause: e });
  }
  return payload;
}

/** The full URL: `${base}#/shared/${payload}` (base without a fragment). */
export function shareUrl(base: string, payload: string): string {
  const hashAt = base.indexOf('#');
  return `${hashAt >= 0 ? base.slice(0, hashAt) : base}${SHARED_ROUTE}${payload}`;
}

const MAX_INFLATED = 5 + SHARE_LIMITS.headerBytes + 2 * Math.ceil(SHARE_LIMITS.predictions / 4) + maxRotationBytes(SHARE_LIMITS.predictions);

/**
 * Reads a payload (the part after `#/shared/`) into a checked SharedRun. Never evaluates anything,
 * and never throws anything but ShareLinkError, whose message says what is wrong and where.
 * Strings come back as the data they are (HTML included): render them as text.
 */
export async function decodeShareLink(payload: string): Promise<SharedRun> {
  try {
    return await decode(payload);
  } catch (e) {
    if (e instanceof ShareLinkError) throw e;
    throw shareLinkError('link.unreadable', { detail: e instanceof Error ? e.message : String(e) });
  }
}

async function decode(payload: string): Promise<SharedRun> {
  if (typeof payload !== 'string' || payload.length === 0) throw shareLinkError('link.empty');
  if (payload.length > SHARE_LIMITS.payloadChars) throw shareLinkError('link.payload-too-long', { chars: payload.length, max: SHARE_LIMITS.payloadChars });
  const bytes = await inflateRaw(fromBase64Url(payload), MAX_INFLATED);
  if (bytes.length > 0 && bytes[0] !== SHARE_LINK_VERSION) {
    throw shareLinkError('link.version', { version: bytes[0], supported: SHARE_LINK_VERSION });
  }
  const framed = unframe(bytes, SHARE_LIMITS.headerBytes);
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(framed.header));
  } catch {
    throw shareLinkError('link.header-not-json');
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) object(json, 'header', []);
  const kind = (json as Record<string, unknown>).kind;
  if (kind === 'multiple-choice') return mcRun(json, framed.packed);
  if (kind === 'generation') return genRun(json, framed.packed);
  throw shareLinkError('link.kind-unknown', { found: JSON.stringify(typeof kind === 'string' ? kind.slice(0, 60) : kind ?? null) });
}

const BASE_KEYS = ['kind', 'datasetId', 'createdAt', 'environment', 'summary', 'config'] as const;

function base(h: Record<string, unknown>, configDatasetId: DatasetId) {
  if (h.datasetId !== configDatasetId) throw shareLinkError('link.dataset-mismatch', { header: String(JSON.stringify(h.datasetId) ?? 'missing').slice(0, 80), config: JSON.stringify(configDatasetId) });
  const createdAt = isoDate(h.createdAt, 'createdAt');
  checkLinkDate(createdAt);
  return {
    version: SHARE_LINK_VERSION,
    datasetId: configDatasetId,
    createdAt,
    environment: environment(h.environment),
    summary: summary(h.summary),
  } as const;
}

function mcRun(json: unknown, packed: Uint8Array): SharedMcRun {
  const h = object(json, 'header', [...BASE_KEYS, 'n', 'gaps'], ['rotations', 'rotationsOmitted']);
  const config = mcConfig(h.config);
  const n = int(h.n, 'n', 0, SHARE_LIMITS.predictions);
  if (n > config.itemCount) throw shareLinkError('link.too-many-predictions', { n, items: config.itemCount });
  if (typeof h.gaps !== 'boolean') throw shareLinkError('link.field-invalid', { path: 'gaps', found: JSON.stringify(h.gaps) ?? 'missing', expected: 'true or false' });
  if (h.rotationsOmitted !== undefined && h.rotationsOmitted !== true) {
    throw shareLinkError('link.field-invalid', { path: 'rotationsOmitted', found: JSON.stringify(h.rotationsOmitted), expected: 'true, or no such field' });
  }
  if (h.rotationsOmitted === true && h.rotations !== undefined) {
    throw shareLinkError('link.field-invalid', { path: 'rotationsOmitted', found: 'true', expected: 'no such field in a link that carries `rotations`' });
  }
  const plane = Math.ceil(n / 4);
  const expected = h.gaps ? 2 * plane : plane;
  const withRotations = h.rotations !== undefined;
  if (withRotations ? packed.length < expected : packed.length !== expected) {
    throw shareLinkError('link.predictions-size', { bytes: packed.length, n, expected, more: packed.length > expected });
  }
  // The packed letters after the header (fields/share-link.ts `predictions`).
  noteFieldsRead('predictions');
  const predictions: (OptionLetter | null)[] = unpack2(packed.subarray(0, plane), n).map((code) => LETTERS[code]);
  const unscored: number[] = [];
  if (h.gaps) {
    unpack2(packed.subarray(plane, expected), n).forEach((code, i) => {
      if (code === STATUS_LETTER) return;
      if (code !== STATUS_NULL && code !== STATUS_UNSCORED) throw shareLinkError('link.prediction-status', { index: i, code });
      if (code === STATUS_UNSCORED) unscored.push(i);
      predictions[i] = null;
    });
  }
  const rotations = withRotations ? unpackRotations(h.rotations, packed.subarray(expected), n, new Set(unscored)) : null;
  const run: SharedMcRun = { kind: 'multiple-choice', ...base(h, config.datasetId), config, predictions, unscored, rotations, rotationsOmitted: h.rotationsOmitted === true };
  checkLinkTasks(config);
  checkLinkSample(config);
  checkLinkSummary(run.summary, config, n - unscored.length);
  return run;
}

function genRun(json: unknown, packed: Uint8Array): SharedGenRun {
  const h = object(json, 'header', [...BASE_KEYS, 'outputsHash', 'outputCount']);
  const config = genConfig(h.config);
  if (packed.length !== 0) throw shareLinkError('link.generation-extra-bytes', { bytes: packed.length });
  const outputCount = int(h.outputCount, 'outputCount', 0, config.itemCount);
  const run: SharedGenRun = { kind: 'generation', ...base(h, config.datasetId), config, outputsHash: hash(h.outputsHash, 'outputsHash'), outputCount };
  checkLinkTasks(config);
  checkLinkSample(config);
  checkLinkSummary(run.summary, config, null);
  return run;
}
