// Share links of circular runs and PriDe estimation items: every rotation's letter travels (a count
// plane, a letter plane, a status plane), the config's `circular` and `pride` (its ids as count and
// hash), and a run whose rotations would not fit is shared without them, saying so.
import { describe, expect, it } from 'vitest';
import type { OptionLetter } from '../../../src/lib/core/benchmarks/types.ts';
import { mulberry32 } from '../../../src/lib/core/metrics/generation/bootstrap.ts';
import { notice } from '../../../src/lib/core/notices/index.ts';
import type { McItemResult, McRotationResult, McRunRecord } from '../../../src/lib/core/record/run.ts';
import { deflateRaw, frame, fromBase64Url, inflateRaw, toBase64Url, unframe } from '../../../src/lib/core/formats/share-link/share-bytes.ts';
import { decodeShareLink, encodeShareLink, itemIdsHash, SHARE_LIMITS, ShareLinkError, type SharedMcRun } from '../../../src/lib/core/formats/share-link/share-link.ts';

const HASH = 'a'.repeat(64);
const LETTERS: OptionLetter[] = ['A', 'B', 'C', 'D'];

function run(n: number, extra: Partial<McRunRecord['config']> = {}): McRunRecord {
  return {
    id: 'circ-1', createdAt: '2026-12-01T10:00:00.000Z', updatedAt: '2026-12-01T10:00:00.000Z', datasetId: 'aclue', status: 'completed',
    config: {
      kind: 'multiple-choice', model: { source: { kind: 'site', name: 'jiangu-tiny' }, dtype: 'fp32', backend: 'wasm' }, protocolId: 'aclue',
      protocolVersion: 2, templateHash: HASH, scoring: 'letter-logits', shots: 0, contextLimit: 2048, chatTemplate: false, prefixReuse: true,
      datasetId: 'aclue', datasetFiles: [{ path: 'data/test/通假字.csv', sha256: 'b'.repeat(64) }], tasks: ['通假字'], limitPerTask: null,
      itemIds: Array.from({ length: n }, (_, i) => `通假字/test/${i}`), appVersion: '0.1.0+test', ...extra,
    },
    warnings: [],
  };
}

function rotation(k: number, prediction: OptionLetter | null, options = 4, failed = false): McRotationResult {
  return {
    rotation: k, promptHash: HASH, tokenCount: 3, letters: LETTERS.slice(0, options), tokenIds: [], logProbs: [], probs: [], prediction, gold: 'A',
    correct: prediction === 'A', reusedPrefixTokens: 0, forwardMs: 0, completedAt: '2026-12-01T10:01:00.000Z',
    ...(failed ? { failure: notice('run.item-too-long', { itemId: 'x', tokens: 9000, limit: 2048 }) } : {}),
  } as McRotationResult;
}

function result(r: McRunRecord, i: number, prediction: OptionLetter | null, rotations?: McRotationResult[], options = 4): McItemResult {
  return {
    runId: r.id, itemId: r.config.itemIds[i], task: '通假字', index: i, prompt: '', promptHash: HASH, tokenCount: 3, shotsUsed: 0, exemplarIds: [],
    letters: LETTERS.slice(0, options), tokenIds: [], logProbs: [], probs: [], prediction, gold: 'A', correct: prediction === 'A', reusedPrefixTokens: 0,
    forwardMs: 0, completedAt: '2026-12-01T10:01:00.000Z', ...(rotations ? { rotations } : {}),
  };
}

async function mc(payload: string): Promise<SharedMcRun> {
  const shared = await decodeShareLink(payload);
  if (shared.kind !== 'multiple-choice') throw new Error('not multiple choice');
  return shared;
}

async function open(payload: string): Promise<{ header: Record<string, unknown>; packed: Uint8Array }> {
  const { header, packed } = unframe(await inflateRaw(fromBase64Url(payload), 1 << 22), 1 << 20);
  return { header: JSON.parse(new TextDecoder().decode(header)) as Record<string, unknown>, packed: packed.slice() };
}

async function craft(header: unknown, packed: Uint8Array): Promise<string> {
  return toBase64Url(await deflateRaw(frame(1, new TextEncoder().encode(JSON.stringify(header)), packed)));
}

async function refusal(payload: string): Promise<ShareLinkError> {
  const error = await decodeShareLink(payload).then(() => null, (e: unknown) => e);
  expect(error).toBeInstanceOf(ShareLinkError);
  return error as ShareLinkError;
}

/** A circular run of a 4-, a 3- and a 2-option item, then one whose rotations were cut short, one with a failed and an unextracted rotation, one not yet run. */
function circularRun() {
  const r = run(6, { circular: true, pride: { share: 0.5, seed: 7, estimationItemIds: ['通假字/test/1', '通假字/test/4'] } });
  const results = [
    result(r, 0, 'A', [rotation(1, 'D'), rotation(2, 'C'), rotation(3, 'B')]),
    result(r, 1, 'C', [rotation(1, 'B', 3), rotation(2, 'A', 3)], 3),
    result(r, 2, 'B', [rotation(1, 'A', 2)], 2),
    result(r, 3, 'D', [rotation(1, 'D')]),
    result(r, 4, null, [rotation(1, null), rotation(2, null, 4, true), rotation(3, 'C')]),
  ];
  return { r, results };
}

describe('share links with rotations', () => {
  it("carry every rotation's letter of 4-, 3- and 2-option items, in each rotation's order, with circular and pride", async () => {
    const { r, results } = circularRun();
    const shared = await mc(await encodeShareLink(r, results, { overall: 40 }));
    expect(shared.predictions).toEqual(['A', 'C', 'B', 'D', null]);
    expect(shared.rotations).toEqual([
      [{ prediction: 'D', failed: false }, { prediction: 'C', failed: false }, { prediction: 'B', failed: false }],
      [{ prediction: 'B', failed: false }, { prediction: 'A', failed: false }],
      [{ prediction: 'A', failed: false }],
      [{ prediction: 'D', failed: false }],
      [{ prediction: null, failed: false }, { prediction: null, failed: true }, { prediction: 'C', failed: false }],
    ]);
    expect(shared.rotationsOmitted).toBe(false);
    expect(shared.config.circular).toBe(true);
    expect(shared.config.pride).toEqual({ share: 0.5, seed: 7, estimationCount: 2, estimationIdsHash: await itemIdsHash(['通假字/test/1', '通假字/test/4']) });
  });

  it('carry a PriDe-only run: rotations on its estimation items alone, no gaps plane when every rotation has a letter', async () => {
    const r = run(4, { pride: { share: 0.25, seed: 3, estimationItemIds: ['通假字/test/2'] } });
    const results = [result(r, 0, 'A'), result(r, 1, 'B'), result(r, 2, 'C', [rotation(1, 'C'), rotation(2, 'C'), rotation(3, 'C')]), result(r, 3, 'D')];
    const payload = await encodeShareLink(r, results, {});
    expect((await open(payload)).header.rotations).toEqual({ slots: 3, gaps: false });
    const shared = await mc(payload);
    expect(shared.rotations).toEqual([[], [], [0, 0, 0].map(() => ({ prediction: 'C', failed: false })), []]);
    expect(shared.config.circular).toBeUndefined();
  });

  it('a plain run carries no rotation planes: the header is what links always had', async () => {
    const r = run(3);
    const payload = await encodeShareLink(r, [result(r, 0, 'A'), result(r, 1, 'B'), result(r, 2, 'C')], {});
    const { header, packed } = await open(payload);
    expect(Object.keys(header).sort()).toEqual(['config', 'createdAt', 'datasetId', 'environment', 'gaps', 'kind', 'n', 'summary']);
    expect(packed.length).toBe(1);
    const shared = await mc(payload);
    expect(shared.rotations).toBeNull();
    expect(shared.rotationsOmitted).toBe(false);
  });

  it('old links (made before rotations existed) still decode', async () => {
    // Made by main's encoder at 8c70d2d (5 items, 4 with results: A, no letter, C, D).
    const old =
      'pVLBbhMxEC3iyIVPQHPFSb3O7tL4hpAQlTggFHEo6mHWnk1MvPZqPRsaRZHoiU9A4h_6WT3wF8hpWoEEp87Nb541772ZJycnT1_sYO2CBQ3d6Nn1niZmFZ0hEGCRMRGf5y4aP2bMDIRM9jWDBiVVPSmKyUwuCqWl1FJOpZQXIIDCxg0xdBQYdBi9F5DGrsNhC3oHcUMDeg9aVXsBJobWLTP-XyVdtOQzI8VxMPQHNznOhIAdgYYvDsNynLALW9gLsLztM9z2MwUCGjRrOvz6iqnLhH6IHE30f1m8Bz_RkFwMoJUApq73yPQO0ypTH1kgIJk4uLAEDZ6YaZj4uHSccmcVOYGWh2SYrvi96xyDVrI8E2BWyIujGtAt-kRZMrXu6iONiUDzMNK_l3fE3jpPCfTnHfTI2U7GT5kSn_769vP2-vvtzY-pSZuDFlRVDRqaRxbsLwUwpnUeDA9j4FKAz_Y-0LDAtL4_Fuz7h_hBToupfBm9BQGOqXsTx3xW1d3r3KbjVpSdVWpOWJctStPOSFbzxp41VYFlSdhgUVZNURhllJKqwcaoWlqa2fpVU8-NzBcRQJcCltinuyD3z57_Bg';
    const shared = await mc(old);
    expect(shared.predictions).toEqual(['A', null, 'C', 'D']);
    expect(shared.unscored).toEqual([]);
    expect(shared.rotations).toBeNull();
    expect(shared.rotationsOmitted).toBe(false);
    expect(shared.config.circular).toBeUndefined();
    expect(shared.config.pride).toBeUndefined();
  });

  it('leave the rotations out, and say so, when they would push the link over its limit', async () => {
    const n = 80_000;
    const r = run(n, { circular: true, pride: { share: 0.05, seed: 1, estimationItemIds: ['通假字/test/0'] } });
    // Letters deflate cannot fold away (seeded, so the test is the same every time).
    const random = mulberry32(11);
    const letter = (): OptionLetter => LETTERS[Math.floor(random() * 4)];
    const results = r.config.itemIds.map((_, i) => result(r, i, letter(), [rotation(1, letter()), rotation(2, letter()), rotation(3, letter())]));
    const payload = await encodeShareLink(r, results, {});
    console.log(`80,000-item circular run, link without its rotations: ${payload.length} characters`);
    expect(payload.length).toBeLessThanOrEqual(SHARE_LIMITS.payloadChars);
    const shared = await mc(payload);
    expect(shared.rotationsOmitted).toBe(true);
    expect(shared.rotations).toBeNull();
    expect(shared.predictions).toEqual(results.map((x) => x.prediction));
    expect(shared.config.circular).toBe(true);
    // A tenth of the run fits with every rotation.
    const small = run(8_000, { circular: true });
    const fits = await mc(await encodeShareLink(small, results.slice(0, 8_000).map((x) => ({ ...x, runId: small.id })), {}));
    expect(fits.rotationsOmitted).toBe(false);
    expect(fits.rotations?.map((rs) => rs.map((x) => x.prediction))).toEqual(results.slice(0, 8_000).map((x) => x.rotations!.map((y) => y.prediction)));
  });
});

describe('share link rotation fields, refused when malformed', () => {
  async function valid() {
    const { r, results } = circularRun();
    const { header, packed } = await open(await encodeShareLink(r, results, {}));
    return { header, packed, config: header.config as Record<string, unknown>, pride: (header.config as Record<string, unknown>).pride as Record<string, unknown> };
  }

  it('config.circular and config.pride, each field typed and bounded, naming it', async () => {
    const { header, packed, config, pride } = await valid();
    const cases: [unknown, string, RegExp][] = [
      [{ ...config, circular: 'yes' }, 'config.circular', /expected true or false/],
      [{ ...config, pride: 5 }, 'config.pride', /expected an object/],
      [{ ...config, pride: { ...pride, share: 0 } }, 'config.pride.share', /above 0/],
      [{ ...config, pride: { ...pride, share: '0.05' } }, 'config.pride.share', /a number from 0 to 1/],
      [{ ...config, pride: { ...pride, share: 1.5 } }, 'config.pride.share', /a number from 0 to 1/],
      [{ ...config, pride: { ...pride, seed: 1.5 } }, 'config.pride.seed', /an integer/],
      [{ ...config, pride: { ...pride, estimationCount: 7 } }, 'config.pride.estimationCount', /an integer from 0 to 6/],
      [{ ...config, pride: { ...pride, estimationIdsHash: 'abc' } }, 'config.pride.estimationIdsHash', /sha256/],
      [{ ...config, pride: { share: 0.5, seed: 7, estimationCount: 2 } }, 'config.pride.estimationIdsHash', /a value/],
    ];
    for (const [forged, path, message] of cases) {
      const error = await refusal(await craft({ ...header, config: forged }, packed));
      expect(error.notice.code, path).toBe('link.field-invalid');
      expect(error.notice.params, path).toMatchObject({ path });
      expect(error.message, path).toMatch(message);
    }
    const unknown = await refusal(await craft({ ...header, config: { ...config, pride: { ...pride, estimationItemIds: [] } } }, packed));
    expect(unknown.notice.code).toBe('link.field-unknown');
    expect(unknown.notice.params).toMatchObject({ path: 'config.pride' });
  });

  it('rotations and rotationsOmitted in the header', async () => {
    const { header, packed } = await valid();
    const rotations = header.rotations as { slots: number; gaps: boolean };
    const cases: [Record<string, unknown>, string, string][] = [
      [{ ...header, rotations: [1] }, 'link.field-invalid', 'rotations'],
      [{ ...header, rotations: { ...rotations, slots: 0 } }, 'link.field-invalid', 'rotations.slots'],
      [{ ...header, rotations: { ...rotations, slots: 16 } }, 'link.field-invalid', 'rotations.slots'],
      [{ ...header, rotations: { ...rotations, gaps: 1 } }, 'link.field-invalid', 'rotations.gaps'],
      [{ ...header, rotations: { slots: rotations.slots } }, 'link.field-invalid', 'rotations.gaps'],
      [{ ...header, rotationsOmitted: false }, 'link.field-invalid', 'rotationsOmitted'],
      [{ ...header, rotationsOmitted: true }, 'link.field-invalid', 'rotationsOmitted'],
    ];
    for (const [forged, code, path] of cases) {
      const error = await refusal(await craft(forged, packed));
      expect(error.notice.code, JSON.stringify(forged.rotations)).toBe(code);
      expect(error.notice.params).toMatchObject({ path });
    }
    const extra = await refusal(await craft({ ...header, rotations: { ...rotations, k: 1 } }, packed));
    expect(extra.notice.code).toBe('link.field-unknown');
    expect(extra.notice.params).toMatchObject({ path: 'rotations' });
  });

  it('rotation planes of the wrong size, counts that disagree with slots, an invalid status, rotations on an item with no result', async () => {
    const { header, packed } = await valid();
    const rotations = header.rotations as { slots: number; gaps: boolean };
    expect(rotations).toEqual({ slots: 10, gaps: true });
    // Letter planes: 5 items with gaps = 2 + 2 bytes; rotation planes: counts 2, letters 3, status 3.
    expect(packed.length).toBe(4 + 2 + 3 + 3);
    const longer = await refusal(await craft(header, new Uint8Array([...packed, 0])));
    expect(longer.notice.code).toBe('link.rotations-size');
    expect(longer.message).toMatch(/rotation letters take 9 bytes; 5 items with 10 rotations need exactly 8 \(more than the header says\)/);
    const shorter = await refusal(await craft(header, packed.subarray(0, packed.length - 1)));
    expect(shorter.message).toMatch(/cut short/);
    const noLetters = await refusal(await craft(header, packed.subarray(0, 3)));
    expect(noLetters.notice.code).toBe('link.predictions-size');
    const fewer = await refusal(await craft({ ...header, rotations: { slots: 9, gaps: true } }, packed));
    expect(fewer.notice.code).toBe('link.rotations-count');
    expect(fewer.message).toMatch(/add up to 10.*says 9/);
    // Status of the first rotation slot (item 0, rotation 1) set to 3.
    const bad = packed.slice();
    bad[4 + 2 + 3] |= 0xc0;
    const status = await refusal(await craft(header, bad));
    expect(status.notice.code).toBe('link.rotation-status');
    expect(status.notice.params).toMatchObject({ index: 0, rotation: 1, code: 3 });
    // Item 4 (no letter) marked as having no result (status 2) while it carries 3 rotations.
    const unscored = packed.slice();
    unscored[2 + 1] = (unscored[2 + 1] & ~0xc0) | 0x80;
    const error = await refusal(await craft(header, unscored));
    expect(error.notice.code).toBe('link.rotations-unscored');
    expect(error.notice.params).toMatchObject({ index: 4, count: 3 });
  });

  it('a rotation field the encoder would write wrongly is refused when sharing, not by the recipient', async () => {
    const r = run(2, { pride: { share: 0.5, seed: 1, estimationItemIds: ['x', 'y', 'z'] } });
    await expect(encodeShareLink(r, [result(r, 0, 'A')], {})).rejects.toThrow(/cannot be shared.*`config\.pride\.estimationCount` is number 3; expected an integer from 0 to 2/);
  });
});
