// Links as untrusted input (issue 34, item 1): a real memorization link (a run made by the project's
// own code, linked by the page's encoder) and a real scoring share link, each field of the header
// mutated one at a time (out of range, off by a little, of another kind, removed), and the packed
// scores too. Each mutation is refused naming the field (or a field the table says is computed from
// it or checked against it), or read with the table calling the field raw and the page's numbers equal
// to their recomputation from the link's raw fields. And each table is complete against a real link.
import { beforeAll, describe, expect, it } from 'vitest';
import { PROBE_LINK_FIELDS } from '../../../src/lib/core/formats/fields/probe-link.ts';
import { decodeProbeLink, type SharedProbeRun } from '../../../src/lib/core/formats/probe-link/probe-link.ts';
import { deflateRaw, frame, fromBase64Url, inflateRaw, toBase64Url, unframe } from '../../../src/lib/core/formats/share-link/share-bytes.ts';
import { ShareLinkError } from '../../../src/lib/core/formats/share-link/share-types.ts';
import { LINK_SCORE_NONE, studentTSurvival, summarizeScores } from '../../../src/lib/core/metrics/memorization/index.ts';
import type { FieldTable } from '../../../src/lib/core/formats/fields/index.ts';
import { allPaths, classOf, sampledLeaves, mutated, mutationsOf, namesField, pathOf } from './mutate.ts';
import { madeProbeLink, madeProbeRun } from './memorization-fixture.ts';
import { madeGenerationShareLink, madeShareLink } from './share-fixture.ts';
import { SHARE_LINK_FIELDS } from '../../../src/lib/core/formats/fields/share-link.ts';
import { decodeShareLink } from '../../../src/lib/core/formats/share-link/share-link.ts';
import { shareLinkFieldsRead } from '../../../src/lib/core/formats/share-link/share-validate.ts';

interface Parts {
  version: number;
  header: Record<string, unknown>;
  packed: Uint8Array;
}

async function open(payload: string): Promise<Parts> {
  const { version, header, packed } = unframe(await inflateRaw(fromBase64Url(payload), 1 << 22), 1 << 20);
  return { version, header: JSON.parse(new TextDecoder().decode(header)) as Record<string, unknown>, packed: packed.slice() };
}

async function close(parts: Parts): Promise<string> {
  return toBase64Url(await deflateRaw(frame(parts.version, new TextEncoder().encode(JSON.stringify(parts.header)), parts.packed)));
}

/** Every header mutation, and what became of it: refused at a path, or read. */
async function mutateHeader<T>(table: FieldTable, parts: Parts, decode: (payload: string) => Promise<T>, onRead: (read: T, path: string, header: Record<string, unknown>) => void) {
  const wrong: string[] = [];
  const accepted: string[] = [];
  let tried = 0;
  for (const at of sampledLeaves(parts.header)) {
    const path = pathOf(at);
    const original = at.reduce<unknown>((v, p) => (v as Record<string | number, unknown>)[p], parts.header);
    for (const mutation of mutationsOf(original)) {
      const header = mutated(parts.header, at, mutation.value);
      tried++;
      let read: T;
      try {
        read = await decode(await close({ ...parts, header }));
      } catch (e) {
        if (!(e instanceof ShareLinkError)) throw new Error(`${path} ${mutation.name}: threw ${String(e)}`);
        // The decoders name the header's own fields `link.<field>` or `header.<field>`.
        // Refusals whose message names no path say which field they are about by their code.
        const byCode: Record<string, string> = { 'link.dataset-mismatch': 'datasetId', 'link.kind-unknown': 'kind', 'link.too-many-predictions': 'n', 'link.predictions-size': 'predictions' };
        const named = byCode[e.notice.code] ?? (e.notice.params as { path?: string }).path;
        const refused = (named ?? `(${e.notice.code})`).replace(/^(link|header)\./, '');
        if (!namesField(table, refused, path)) wrong.push(`${path} ${mutation.name}: refused at ${refused} (${e.message})`);
        continue;
      }
      const entry = classOf(table, path);
      // A derived field left out is not shown: nothing of it is read from the link.
      const absent = mutation.name === 'removed' && entry?.field.class === 'derived';
      if (entry?.field.class !== 'raw' && !absent) wrong.push(`${path} ${mutation.name}: read, but the table says ${entry?.field.class ?? 'nothing'}`);
      onRead(read, path, header);
      accepted.push(`${path} ${mutation.name}`);
    }
  }
  return { wrong, accepted, tried };
}

/** What the probe link's page shows, recomputed from the link's raw fields: the rounded scores' summary, and each file's p from its t. */
function probePageNumbers(shared: SharedProbeRun) {
  return { summary: summarizeScores(shared.minKPlusPlus), p: (shared.files ?? []).map((f) => f.pValue) };
}

describe('memorization run link', () => {
  let parts: Parts;
  beforeAll(async () => {
    parts = await open(await madeProbeLink(await madeProbeRun()));
  });

  it('refuses each mutated header field naming it, or reads it as raw with the page\'s numbers recomputed from the raw fields', async () => {
    const { wrong, accepted, tried } = await mutateHeader(PROBE_LINK_FIELDS, parts, decodeProbeLink, (shared) => {
      const codes = new Int16Array(parts.packed.buffer, parts.packed.byteOffset, parts.packed.length / 2);
      const scores = Array.from(codes, (c) => (c === LINK_SCORE_NONE ? null : c / 100));
      expect(probePageNumbers(shared)).toEqual({
        summary: summarizeScores(scores),
        p: (shared.files ?? []).map((f) => (f.statistic === null ? null : studentTSurvival(f.statistic, f.design.shardCount - 1))),
      });
    });
    expect(wrong).toEqual([]);
    expect(tried).toBeGreaterThan(150);
    // No huge number is read, and no date field dated 9999 (a text field may hold any text).
    expect(accepted.filter((a) => /out of range|At date 9999/.test(a))).toEqual([]);
    expect(accepted).toContain('config.model.source.name other text');
    expect(accepted).not.toContain('files[0].pValue +1');
  });

  it('refuses the walk\'s links: t = −1.8e308 with a small p, a task absent from the run, another benchmark\'s task dated 9999, 8 shards × 10,000 orders', async () => {
    const file = (parts.header.files as Record<string, unknown>[])[0];
    const cases: [string, (h: Record<string, unknown>) => void, string, string][] = [
      ['t at −1.79e308', (h) => Object.assign((h.files as Record<string, unknown>[])[0], { statistic: -1.79e308, pValue: 0.0001 }), 'link.field-invalid', 'files[0].statistic'],
      ['p that t does not give', (h) => Object.assign((h.files as Record<string, unknown>[])[0], { pValue: (file.pValue as number) / 2 }), 'link.derived-differs', 'files[0].pValue'],
      ['a task absent from the run', (h) => Object.assign((h.files as Record<string, unknown>[])[0], { task: 'Pronunciation' }), 'link.task-not-in-run', 'files[0].task'],
      ['another benchmark\'s task', (h) => ((h.config as { tasks: string[] }).tasks[0] = '古音学'), 'link.task-not-in-dataset', 'config.tasks[0]'],
      ['dated 9999', (h) => (h.createdAt = '9999-01-01T00:00:00.000Z'), 'link.date-out-of-range', 'createdAt'],
      ['8 shards × 10,000 orders', (h) => Object.assign((h.files as { design: Record<string, number> }[])[0].design, { shardCount: 8, permutations: 10_000 }), 'link.design-out-of-range', 'files[0].design'],
    ];
    for (const [name, change, code, path] of cases) {
      const header = structuredClone(parts.header);
      change(header);
      await expect(decodeProbeLink(await close({ ...parts, header })), name).rejects.toMatchObject({ notice: { code, params: { path } } });
    }
  });

  it('reads the packed scores as raw: a changed score moves the summary, a code no encoder writes is refused', async () => {
    const changed = parts.packed.slice();
    const view = new DataView(changed.buffer);
    view.setInt16(0, view.getInt16(0, true) + 300, true);
    const shared = await decodeProbeLink(await close({ ...parts, packed: changed }));
    const codes = new Int16Array(changed.buffer, 0, changed.length / 2);
    expect(summarizeScores(shared.minKPlusPlus)).toEqual(summarizeScores(Array.from(codes, (c) => (c === LINK_SCORE_NONE ? null : c / 100))));
    view.setInt16(0, 4097, true);
    await expect(decodeProbeLink(await close({ ...parts, packed: changed }))).rejects.toMatchObject({ notice: { code: 'link.field-invalid', params: { path: 'scores' } } });
  });

  it('says what a link of no items is: read, with nothing to summarise', async () => {
    const header = structuredClone(parts.header);
    Object.assign(header.config as Record<string, unknown>, { itemCount: 0 });
    header.files = null;
    const shared = await decodeProbeLink(await close({ ...parts, header, packed: new Uint8Array(0) }));
    expect(shared.config.itemCount).toBe(0);
    expect(summarizeScores(shared.minKPlusPlus)).toBeNull();
  });

  it('lists every field of a real link in the table, and every entry is a field of a link', () => {
    expect(allPaths(parts.header).filter((p) => classOf(PROBE_LINK_FIELDS, p) === null)).toEqual([]);
    // Fields a real link may leave out (a site model has no hub id, a WASM run no adapter): every entry is one the decoder names.
    const optional = ['environment.modelCommit', 'config.model.source.id', 'config.model.source.revision', 'config.model.source.host', 'environment.adapterArchitecture'];
    const present = new Set(allPaths(parts.header).map((p) => p.replace(/\[\d+\]/g, '[*]')));
    expect(Object.keys(PROBE_LINK_FIELDS).filter((k) => !present.has(k) && !optional.includes(k))).toEqual([]);
  });
});

describe('scoring run share link', () => {
  let parts: Parts;
  beforeAll(async () => {
    parts = await open(await madeShareLink());
  });

  it('refuses each mutated header field naming it, or reads it as raw with the page\'s numbers as the link states them in range', async () => {
    const { wrong, accepted, tried } = await mutateHeader(SHARE_LINK_FIELDS, parts, decodeShareLink, (shared, _path, header) => {
      // What the page shows before a reproduction: the summary, each value as the header has it and in its range.
      expect(shared.summary).toEqual(header.summary);
      for (const [key, value] of Object.entries(shared.summary)) if (value !== null) expect(value, key).toBeLessThanOrEqual(Math.max(100, shared.config.itemCount));
    });
    expect(wrong).toEqual([]);
    expect(tried).toBeGreaterThan(150);
    expect(accepted.filter((a) => /out of range|At date 9999/.test(a))).toEqual([]);
    expect(accepted).toContain('summary.overall +1');
    expect(accepted).not.toContain('summary.items +1');
  });

  it('refuses a summary no run has: a percent over 100, a task the link does not have, more items than its letters', async () => {
    const cases: [string, (h: Record<string, unknown>) => void, string, string][] = [
      ['overall 130', (h) => ((h.summary as Record<string, number>).overall = 130), 'link.field-invalid', 'summary.overall'],
      ['a task absent from the run', (h) => ((h.summary as Record<string, number>)['task:Pronunciation'] = 50), 'link.field-invalid', 'summary.task:Pronunciation'],
      ['items not the letters\'', (h) => ((h.summary as Record<string, number>).items = 10), 'link.derived-differs', 'summary.items'],
      ['another benchmark\'s task', (h) => ((h.config as { tasks: string[] }).tasks[0] = '通假字'), 'link.task-not-in-dataset', 'config.tasks[0]'],
      ['dated 9999', (h) => (h.createdAt = '9999-01-01T00:00:00.000Z'), 'link.date-out-of-range', 'createdAt'],
    ];
    for (const [name, change, code, path] of cases) {
      const header = structuredClone(parts.header);
      change(header);
      await expect(decodeShareLink(await close({ ...parts, header })), name).rejects.toMatchObject({ notice: { code, params: { path } } });
    }
  });

  it('lists every field of a real link in the table', () => {
    expect(allPaths(parts.header).filter((p) => classOf(SHARE_LINK_FIELDS, p) === null)).toEqual([]);
  });

  it('names only fields the decoder reads, and the decoder reads no field the table does not class', async () => {
    // The decoder, on a letter link with PriDe and a generation link: between them every part a link may hold.
    const header = structuredClone(parts.header);
    (header.config as Record<string, unknown>).pride = { share: 0.4, seed: 7, estimationCount: 2, estimationIdsHash: 'ab'.repeat(32) };
    // Both kinds of stop rule (issue 36): a run stopped at a precision, and one stopped once its sign against a baseline settled.
    (header.config as Record<string, unknown>).stopRule = { kind: 'precision', alpha: 0.05, halfWidth: 0.02 };
    const settled = structuredClone(header);
    (settled.config as Record<string, unknown>).stopRule = { kind: 'sign-settled', alpha: 0.05, baselineRunId: 'run-a' };
    const read = await shareLinkFieldsRead(async () => {
      await decodeShareLink(await close({ ...parts, header }));
      await decodeShareLink(await close({ ...parts, header: settled }));
      await decodeShareLink(await madeGenerationShareLink());
    });
    // A table path is read as its field: list positions ([*]) are the list's entries.
    const unread = Object.keys(SHARE_LINK_FIELDS).filter((key) => !read.has(key) && !read.has(key.replace(/(\[\*\])+$/, '')));
    expect(unread).toEqual([]);
    // An object read (config.model) is classed by its fields.
    const keys = Object.keys(SHARE_LINK_FIELDS);
    expect([...read].filter((p) => classOf(SHARE_LINK_FIELDS, p) === null && !keys.some((key) => key.startsWith(`${p}.`) || key.startsWith(`${p}[`)))).toEqual([]);
  });
});
