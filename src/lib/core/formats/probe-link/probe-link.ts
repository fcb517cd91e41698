// A memorization run as a share link (issue 26, item 5): its configuration (item ids replaced by
// their count and hash, as scoring runs' links do), each item's Min-K%++ rounded to 0.01 (link-scores.ts:
// what the charts need), and each task file's exchangeability result; in the URL fragment
// `#/probe-link/<payload>`, deflated, never sent anywhere. Min-K% Prob and the per-position numbers
// travel in the run file. A link is untrusted input: every field is checked as scoring runs' links are
// (share-validate.ts), and the encoder reads its own output with the decoder's rules.
import type { DatasetId } from '../../benchmarks/types.ts';
import type { SharedEnvironment } from '../share-link/share-types.ts';
import type { ProbeResult, ProbeRunRecord } from '../../record/probe-run.ts';
import { notice, noticeOf, renderNotice } from '../../notices/index.ts';
import { memorizationScoresOf, probeRunSummary, scoresFromLink, scoresToLink, LINK_SCORE_SIGNATURE } from '../../metrics/memorization/index.ts';
import { deflateRaw, frame, fromBase64Url, inflateRaw, toBase64Url, unframe } from '../share-link/share-bytes.ts';
import { itemIdsHash } from '../share-link/share-link.ts';
import { SHARE_LIMITS, ShareLinkError, shareLinkError } from '../share-link/share-types.ts';
import { DATASET_IDS, environment, hash, int, isoDate, list, model, num, object, text } from '../share-link/share-validate.ts';
import type { SharedProbeRun } from './probe-link-types.ts';
import { checkProbeLink } from './probe-link-check.ts';

export const PROBE_LINK_ROUTE = '#/probe-link/';
export const PROBE_LINK_VERSION = 1;

export type { SharedProbeFile, SharedProbeRun } from './probe-link-types.ts';

/** The payload of run `run`'s link; throws ShareLinkError when the run holds what a link may not. */
export async function encodeProbeLink(run: ProbeRunRecord, results: readonly ProbeResult[]): Promise<string> {
  const { itemIds, exchangeability, kind: _kind, ...config } = run.config;
  const summary = probeRunSummary(run, results);
  const byId = new Map(results.flatMap((r) => (r.kind === 'item' && !r.failure ? [[r.itemId, r] as const] : [])));
  const scores = itemIds.map((id) => {
    const r = byId.get(id);
    return r ? memorizationScoresOf(r.itemId, r.task, r.logprob.map((logprob, j) => ({ logprob, mean: r.mean[j], std: r.std[j] })), run.config.k).minKPlusPlus : null;
  });
  const env: SharedEnvironment | null = run.environment ? { backend: run.environment.backendInfo.backend, adapterArchitecture: run.environment.backendInfo.adapter?.architecture || null } : null;
  const header = {
    kind: 'memorization',
    datasetId: run.datasetId,
    createdAt: run.createdAt,
    environment: env,
    scores: LINK_SCORE_SIGNATURE,
    config: { ...config, itemCount: itemIds.length, itemIdsHash: await itemIdsHash(itemIds) },
    files: exchangeability
      ? exchangeability.map((file) => {
          const result = summary.exchangeability.find((f) => f.task === file.task)?.result ?? null;
          return { task: file.task, design: file.design, statistic: result?.statistic ?? null, pValue: result?.pValue ?? null, meanDifference: result?.meanDifference ?? null };
        })
      : null,
  };
  const codes = scoresToLink(scores);
  const json = new TextEncoder().encode(JSON.stringify(header));
  const payload = toBase64Url(await deflateRaw(frame(PROBE_LINK_VERSION, json, new Uint8Array(codes.buffer, codes.byteOffset, codes.byteLength))));
  try {
    if (payload.length > SHARE_LIMITS.payloadChars) throw shareLinkError('link.payload-too-long', { chars: payload.length, max: SHARE_LIMITS.payloadChars });
    await decodeProbeLink(payload);
  } catch (e) {
    const why = noticeOf(e);
    throw new ShareLinkError(notice('link.cannot-share', { en: renderNotice(why, 'en'), zh: renderNotice(why, 'zh') }), { cause: e });
  }
  return payload;
}

const nullableNumber = (value: unknown, path: string) => (value === null ? null : num(value, path, -Number.MAX_VALUE, Number.MAX_VALUE));

/** A payload (after `#/probe-link/`) read into a checked SharedProbeRun; throws nothing but ShareLinkError. */
export async function decodeProbeLink(payload: string): Promise<SharedProbeRun> {
  try {
    if (payload.length > SHARE_LIMITS.payloadChars) throw shareLinkError('link.payload-too-long', { chars: payload.length, max: SHARE_LIMITS.payloadChars });
    const bytes = await inflateRaw(fromBase64Url(payload), 5 + SHARE_LIMITS.headerBytes + 2 * SHARE_LIMITS.predictions);
    const { version, header, packed } = unframe(bytes, SHARE_LIMITS.headerBytes);
    if (version !== PROBE_LINK_VERSION) throw shareLinkError('link.version', { version, supported: PROBE_LINK_VERSION });
    let parsed: unknown;
    try {
      parsed = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(header));
    } catch {
      throw shareLinkError('link.header-not-json');
    }
    const o = object(parsed, 'link', ['kind', 'datasetId', 'createdAt', 'environment', 'scores', 'config', 'files']);
    if (o.kind !== 'memorization') throw shareLinkError('link.field-invalid', { path: 'kind', found: JSON.stringify(String(o.kind).slice(0, 40)), expected: '"memorization"' });
    if (o.scores !== LINK_SCORE_SIGNATURE) throw shareLinkError('link.field-invalid', { path: 'scores', found: JSON.stringify(String(o.scores).slice(0, 80)), expected: JSON.stringify(LINK_SCORE_SIGNATURE) });
    const c = object(o.config, 'config', ['model', 'layoutVersion', 'templateHash', 'datasetId', 'datasetFiles', 'tasks', 'limitPerTask', 'itemCount', 'itemIdsHash', 'k', 'contextLimit', 'appVersion']);
    const datasetId = oneDataset(o.datasetId, 'datasetId');
    if (oneDataset(c.datasetId, 'config.datasetId') !== datasetId) throw shareLinkError('link.field-invalid', { path: 'config.datasetId', found: JSON.stringify(c.datasetId), expected: JSON.stringify(datasetId) });
    const itemCount = int(c.itemCount, 'config.itemCount', 0, SHARE_LIMITS.predictions);
    if (packed.length !== 2 * itemCount) throw shareLinkError('link.field-invalid', { path: 'scores', found: `${packed.length} bytes`, expected: `${2 * itemCount} bytes (two per item)` });
    const copy = packed.slice();
    const codes = new Int16Array(copy.buffer, copy.byteOffset, itemCount);
    let minKPlusPlus: (number | null)[];
    try {
      minKPlusPlus = scoresFromLink(codes);
    } catch (e) {
      throw shareLinkError('link.field-invalid', { path: 'scores', found: e instanceof Error ? e.message : String(e), expected: 'score codes within ±4096' });
    }
    const files = o.files === null ? null : list(o.files, 'files', SHARE_LIMITS.listEntries, (v, p) => {
      const f = object(v, p, ['task', 'design', 'statistic', 'pValue', 'meanDifference']);
      const d = object(f.design, `${p}.design`, ['itemCount', 'shardCount', 'permutations', 'seed']);
      return {
        task: text(f.task, `${p}.task`),
        design: { itemCount: int(d.itemCount, `${p}.design.itemCount`, 4, itemCount), shardCount: int(d.shardCount, `${p}.design.shardCount`, 2, itemCount), permutations: int(d.permutations, `${p}.design.permutations`, 1, 10_000), seed: int(d.seed, `${p}.design.seed`, 0, 0xffffffff) },
        statistic: nullableNumber(f.statistic, `${p}.statistic`),
        pValue: f.pValue === null ? null : num(f.pValue, `${p}.pValue`, 0, 1),
        meanDifference: nullableNumber(f.meanDifference, `${p}.meanDifference`),
      };
    });
    const shared: SharedProbeRun = {
      version: PROBE_LINK_VERSION,
      datasetId,
      createdAt: isoDate(o.createdAt, 'createdAt'),
      environment: environment(o.environment),
      config: {
        model: model(c.model, 'config.model'),
        layoutVersion: int(c.layoutVersion, 'config.layoutVersion', 1, 1000),
        templateHash: hash(c.templateHash, 'config.templateHash'),
        tasks: list(c.tasks, 'config.tasks', SHARE_LIMITS.listEntries, text),
        limitPerTask: c.limitPerTask === null ? null : int(c.limitPerTask, 'config.limitPerTask', 1, 1_000_000_000),
        itemCount,
        itemIdsHash: hash(c.itemIdsHash, 'config.itemIdsHash'),
        datasetFiles: list(c.datasetFiles, 'config.datasetFiles', SHARE_LIMITS.listEntries, (v, p) => {
          const f = object(v, p, ['path', 'sha256']);
          return { path: text(f.path, `${p}.path`), sha256: hash(f.sha256, `${p}.sha256`) };
        }),
        k: num(c.k, 'config.k', Number.MIN_VALUE, 1),
        contextLimit: int(c.contextLimit, 'config.contextLimit', 1, 1 << 24),
        appVersion: text(c.appVersion, 'config.appVersion'),
      },
      files,
      minKPlusPlus,
    };
    checkProbeLink(shared);
    return shared;
  } catch (e) {
    if (e instanceof ShareLinkError) throw e;
    throw shareLinkError('link.unreadable', { detail: e instanceof Error ? e.message : String(e) });
  }
}

function oneDataset(value: unknown, path: string): DatasetId {
  if (typeof value !== 'string' || !Object.hasOwn(DATASET_IDS, value)) throw shareLinkError('link.field-invalid', { path, found: JSON.stringify(String(value).slice(0, 40)), expected: `one of ${Object.keys(DATASET_IDS).join(', ')}` });
  return value as DatasetId;
}

/** The full URL of a payload. */
export function probeLinkUrl(base: string, payload: string): string {
  const at = base.indexOf('#');
  return `${at >= 0 ? base.slice(0, at) : base}${PROBE_LINK_ROUTE}${payload}`;
}
