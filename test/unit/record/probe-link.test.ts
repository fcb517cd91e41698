// A memorization run's share link: it carries the configuration (item ids as count and hash), each
// item's Min-K%++ within the link's rounding (so every summary the page draws from it is within half
// a step of the sender's), and each file's exchangeability result; a link that is damaged or says
// something no encoder writes is refused with a 'link.*' notice, and a run a link cannot hold is
// refused when the link is made.
import { describe, expect, it } from 'vitest';
import { checkLinkSummary, probeRunSummary, summarizeScores, LINK_SUMMARY_TOLERANCE } from '../../../src/lib/core/metrics/memorization/index.ts';
import { decodeProbeLink, encodeProbeLink } from '../../../src/lib/core/formats/probe-link/probe-link.ts';
import { deflateRaw, frame, fromBase64Url, inflateRaw, toBase64Url, unframe } from '../../../src/lib/core/formats/share-link/share-bytes.ts';
import { itemIdsHash } from '../../../src/lib/core/formats/share-link/share-link.ts';
import { exchangeabilityPlan } from '../../../src/lib/core/metrics/memorization/index.ts';
import type { ProbeItemResult, ProbeResult, ProbeRunRecord, ProbeShardResult } from '../../../src/lib/core/record/probe-run.ts';
import { mulberry32 } from '../../../src/lib/core/metrics/generation/bootstrap.ts';
import { makeProbeRun, PROBE_HASH } from '../../fixtures/run-records/probe-run.ts';

const HASH = PROBE_HASH;

function probeRun(n: number): { run: ProbeRunRecord; results: ProbeResult[] } {
  const itemIds = Array.from({ length: n }, (_, i) => `古音学/test/${i}`);
  const design = { itemCount: n, shardCount: Math.min(4, Math.floor(n / 2)), permutations: 3, seed: 7 };
  const run: ProbeRunRecord = {
    ...makeProbeRun('probe-1', '2026-12-04T01:02:03.000Z', itemIds, [{ task: '古音学', itemIds, design }]),
    updatedAt: '2026-12-04T01:12:03.000Z',
    environment: { backendInfo: { backend: 'wasm', wasmThreads: 1, crossOriginIsolated: true }, modelInputNames: [], transformersVersion: 't', ortVersion: 'o', userAgent: 'u' },
  };
  const random = mulberry32(3);
  const items = itemIds.map((itemId, index): ProbeItemResult => {
    const positions = 8 + (index % 5);
    return {
      kind: 'item', runId: run.id, itemId, task: '古音学', index, text: `题 ${index}`, textHash: HASH, tokenCount: positions + 1,
      logprob: Array.from({ length: positions }, () => -6 * random()), mean: Array.from({ length: positions }, () => -3 - random()), std: Array.from({ length: positions }, () => 0.5 + random()),
      forwardMs: 1, completedAt: run.updatedAt,
    };
  });
  // One failed item: no score in the link.
  items[2] = { ...items[2], logprob: [], mean: [], std: [], failure: { code: 'run.item-too-long', params: { itemId: items[2].itemId, tokens: 3000, limit: 2048 } } };
  const shards = exchangeabilityPlan(design).map((_, shard): ProbeShardResult => ({ kind: 'shard', runId: run.id, itemId: `#shard/古音学/${shard}`, task: '古音学', shard, index: shard, canonical: -100 - shard, permuted: [-101 - shard, -103, -102.5], tokenCount: 40, forwardMs: 1, completedAt: run.updatedAt }));
  return { run, results: [...items, ...shards] };
}

describe('memorization share link', () => {
  it('carries the configuration, every Min-K%++ within half a step, and the file tests; summaries match within the rounding', async () => {
    const { run, results } = probeRun(40);
    const payload = await encodeProbeLink(run, results);
    const shared = await decodeProbeLink(payload);
    expect(shared.config).toMatchObject({ itemCount: 40, itemIdsHash: await itemIdsHash(run.config.itemIds), k: 0.2, templateHash: HASH, tasks: ['古音学'] });
    expect(shared.config.model).toEqual(run.config.model);
    const summary = probeRunSummary(run, results);
    const exact = run.config.itemIds.map((id) => summary.items.find((i) => i.itemId === id)?.minKPlusPlus ?? null);
    expect(shared.minKPlusPlus[2]).toBeNull();
    shared.minKPlusPlus.forEach((x, i) => (exact[i] === null ? expect(x).toBeNull() : expect(Math.abs(x! - exact[i]!)).toBeLessThanOrEqual(LINK_SUMMARY_TOLERANCE)));
    expect(checkLinkSummary(summarizeScores(exact), shared.minKPlusPlus)).toEqual({ kind: 'matches' });
    const file = summary.exchangeability[0].result!;
    expect(shared.files).toEqual([{ task: '古音学', design: run.config.exchangeability![0].design, statistic: file.statistic, pValue: file.pValue, meanDifference: file.meanDifference }]);
    // Two bytes an item before deflate: a 40-item run's link is short.
    expect(payload.length).toBeLessThan(1200);
  });

  it('refuses a link whose scores do not fit its item count, a score code no encoder writes, or another kind', async () => {
    const { run, results } = probeRun(12);
    const payload = await encodeProbeLink(run, results);
    const { version, header, packed } = unframe(await inflateRaw(fromBase64Url(payload), 1 << 20), 1 << 16);
    const rebuild = async (h: Uint8Array, p: Uint8Array) => toBase64Url(await deflateRaw(frame(version, h, p)));
    await expect(decodeProbeLink(await rebuild(header, packed.slice(0, 20)))).rejects.toMatchObject({ notice: { code: 'link.field-invalid', params: { path: 'scores' } } });
    const bad = packed.slice();
    new DataView(bad.buffer).setInt16(0, 5000, true);
    await expect(decodeProbeLink(await rebuild(header, bad))).rejects.toMatchObject({ notice: { code: 'link.field-invalid', params: { path: 'scores' } } });
    const other = new TextEncoder().encode(new TextDecoder().decode(header).replace('"kind":"memorization"', '"kind":"multiple-choice"'));
    await expect(decodeProbeLink(await rebuild(other, packed))).rejects.toMatchObject({ notice: { code: 'link.field-invalid', params: { path: 'kind' } } });
    const noHash = new TextEncoder().encode(new TextDecoder().decode(header).replace(/"itemIdsHash":"[0-9a-f]+"/, '"itemIdsHash":"x"'));
    await expect(decodeProbeLink(await rebuild(noHash, packed))).rejects.toMatchObject({ notice: { code: 'link.field-invalid', params: { path: 'config.itemIdsHash' } } });
    await expect(decodeProbeLink('!!!')).rejects.toMatchObject({ name: 'ShareLinkError' });
  });

  it('refuses to make a link of a run too large for one, saying so', async () => {
    const { run } = probeRun(40);
    // 70,000 items of scores that deflate poorly: over the 65,536-character payload.
    const many = Array.from({ length: 70_000 }, (_, i) => `古音学/test/${i}`);
    const random = mulberry32(9);
    const big: ProbeResult[] = many.map((itemId, index) => ({ kind: 'item', runId: run.id, itemId, task: '古音学', index, text: '', textHash: HASH, tokenCount: 3, logprob: [-10 * random(), -10 * random()], mean: [-5, -5], std: [1, 1], forwardMs: 1, completedAt: run.updatedAt }));
    await expect(encodeProbeLink({ ...run, config: { ...run.config, itemIds: many, exchangeability: null } }, big)).rejects.toMatchObject({ notice: { code: 'link.cannot-share' } });
  });
});
