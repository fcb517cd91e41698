// The memorization run file as untrusted input (issue 34, item 1): a real export (a run made by the
// project's own code, exported by the page's exporter) imports back with the numbers the page shows
// equal to the original's; then each field is mutated one at a time (out of range, off by a little,
// of another kind, removed), and each mutation is either refused naming the field (or a field the
// table says is computed from it or checked against it), or imported with the table calling the field
// raw and the page's numbers (probeRunSummary) equal to their recomputation from the file's raw fields.
// And the table is complete: every field of a real file is in it, every entry is a field the reader reads.
import { beforeAll, describe, expect, it } from 'vitest';
import { MEMORIZATION_EXPORT_FIELDS } from '../../../src/lib/core/formats/fields/memorization-export.ts';
import { FieldProblem, FieldReader, RunImportError, type Obj } from '../../../src/lib/core/formats/import-validate.ts';
import { readMemorizationRun } from '../../../src/lib/core/formats/memorization-run/import-memorization.ts';
import { probeRunSummary } from '../../../src/lib/core/metrics/memorization/index.ts';
import { importProbeRunFile } from '../../../src/lib/data/import-probe-run.ts';
import { getProbeRun, listProbeRuns, loadProbeResults } from '../../../src/lib/store/probe-runs.ts';
import { saveDataset } from '../../../src/lib/store/datasets.ts';
import type { MultipleChoiceItem } from '../../../src/lib/core/benchmarks/types.ts';
import { freshDb, makeRecord } from '../store/helpers.ts';
import { allPaths, classOf, general } from './mutate.ts';
import { mutateMemorizationFile } from './memorization-mutate.ts';
import { madeProbeRun, probeItems, type MadeProbeRun } from './memorization-fixture.ts';

const IMPORTED_AT = new Date().toISOString();

describe('memorization run file', () => {
  let made: MadeProbeRun;
  let root: Obj;
  beforeAll(async () => {
    made = await madeProbeRun();
    root = JSON.parse(made.file) as Obj;
  });

  it('imports back through the import path in another browser with every number the page shows equal to the original run\'s; in its own, says it is stored already', async () => {
    // Its own browser holds the run: nothing new is stored, and the refusal names the stored copy.
    await expect(importProbeRunFile(made.db, made.file, 'memorization.json')).rejects.toMatchObject({ notice: { code: 'run.already-stored', params: { runId: made.run.id } } });
    expect((await listProbeRuns(made.db, Infinity)).runs.map((r) => r.id)).toEqual([made.run.id]);
    // Another browser: the benchmark stored there too.
    const db = await freshDb();
    await saveDataset(db, makeRecord('ancientbench', probeItems()), probeItems());
    const id = await importProbeRunFile(db, made.file, 'memorization.json');
    const run = (await getProbeRun(db, id))!;
    const results = await loadProbeResults(db, id);
    // Imported twice, the second time says the first import is the stored copy.
    await expect(importProbeRunFile(db, made.file, 'memorization.json')).rejects.toMatchObject({ notice: { code: 'run.already-stored', params: { runId: id } } });
    expect(run.origin).toMatchObject({ kind: 'jiangu-file', fileName: 'memorization.json', originalRunId: made.run.id });
    expect(results.every((r) => r.runId === id)).toBe(true);
    const original = probeRunSummary(made.run, made.results);
    expect(probeRunSummary(run, results)).toEqual(original);
    // The run has what the test is about: scored items, and a finished file-order test in both files.
    expect(original.items.length).toBe(14);
    expect(original.exchangeability.map((f) => [f.task, f.shardsDone, f.result?.pValue !== null])).toEqual([['Radical', 4, true], ['Cloze', 2, true]]);
  });

  it('stores a copy of a stored run with other results beside it, saying so; a file of another run says nothing', async () => {
    const db = await freshDb();
    await saveDataset(db, makeRecord('ancientbench', probeItems()), probeItems());
    const first = await importProbeRunFile(db, made.file, 'memorization.json');
    const other = (change: number) => {
      const edited = structuredClone(root) as { results: { kind: string; logprob?: number[] }[] };
      const item = edited.results.find((r) => r.kind === 'item')!;
      item.logprob![0] -= change;
      return JSON.stringify(edited);
    };
    const codes = async (id: string) => ((await getProbeRun(db, id))!.warnings as { code?: string; params?: Record<string, unknown> }[]).filter((w) => w.code === 'run.stored-with-other-results');
    expect(await codes(first)).toEqual([]);
    const second = await importProbeRunFile(db, other(0.25), 'edited.json');
    expect(second).not.toBe(first);
    expect(await codes(second)).toMatchObject([{ params: { copies: 1, firstAt: (await getProbeRun(db, first))!.origin!.importedAt } }]);
    // A third with yet other results counts both copies stored before it.
    expect(await codes(await importProbeRunFile(db, other(0.5), 'edited-again.json'))).toMatchObject([{ params: { copies: 2 } }]);
    // The edited file again is the second copy: already stored, nothing new.
    await expect(importProbeRunFile(db, other(0.25), 'edited.json')).rejects.toMatchObject({ notice: { code: 'run.already-stored', params: { runId: second } } });
    // Another run (another id) is no copy.
    const elsewhere = structuredClone(root) as { run: { id: string }; results: { runId: string }[] };
    elsewhere.run.id = 'another-run';
    for (const r of elsewhere.results) r.runId = 'another-run';
    expect(await codes(await importProbeRunFile(db, JSON.stringify(elsewhere), 'another.json'))).toEqual([]);
    expect((await listProbeRuns(db, Infinity)).runs).toHaveLength(4);
    // Where the run was made: the edited file is a copy of the run made here, dated when it was made.
    const beside = await importProbeRunFile(made.db, other(0.25), 'edited.json');
    expect((await getProbeRun(made.db, beside))!.warnings).toContainEqual(expect.objectContaining({ code: 'run.stored-with-other-results', params: { copies: 1, firstAt: made.run.createdAt } }));
  });

  it('checks the items against the benchmark where this browser stores it: an item under another task, or a file of no stored item, is refused; nothing is stored', async () => {
    const elsewhere = async (change: (items: MultipleChoiceItem[]) => MultipleChoiceItem[]) => {
      const db = await freshDb();
      const all = change(probeItems());
      await saveDataset(db, makeRecord('ancientbench', all), all);
      await expect(importProbeRunFile(db, made.file, 'memorization.json')).rejects.toBeInstanceOf(RunImportError);
      expect((await listProbeRuns(db, Infinity)).runs).toEqual([]);
      return importProbeRunFile(db, made.file, 'memorization.json').catch((e: RunImportError) => e.refusal);
    };
    // Radical/test/0 stored here under Cloze: the file puts it on Radical.
    const moved = await elsewhere((items) => items.map((item) => (item.id === 'Radical/test/0' ? { ...item, task: 'Cloze' } : item)));
    expect(moved).toMatchObject({ code: 'import.field-wrong', params: { path: 'run.config.itemIds[0]', expected: 'stored-item' } });
    // Another copy, whose ids are none of the file's.
    const other = await elsewhere((items) => items.map((item) => ({ ...item, id: `other-${item.id}` })));
    expect(other).toMatchObject({ code: 'import.no-item-in-local-copy' });
  });

  it('refuses each mutated field naming it, or imports it as raw with the numbers recomputed from the raw fields', async () => {
    const { wrong, tried, accepted } = await mutateMemorizationFile(root, (bad) => readMemorizationRun(bad, 'bad.json', IMPORTED_AT), (e) => (e instanceof FieldProblem ? e.refusal : null));
    expect(wrong).toEqual([]);
    expect(tried).toBeGreaterThan(500);
    // Out-of-range numbers are never accepted: every huge value was refused.
    expect(accepted.filter((a) => /out of range/.test(a))).toEqual([]);
    // What a file may change and still import is raw and bounded: log p within its range, names.
    expect(accepted).toContain('results[0].logprob[0] +1');
    expect(accepted).not.toContain('results[0].index +1');
  });

  it('lists every field of a real file in the table, and every entry is a field the reader reads', async () => {
    const withOrigin = { ...root, run: { ...(root.run as Obj), origin: { kind: 'jiangu-file', fileName: 'a.json', importedAt: IMPORTED_AT, originalRunId: 'r' } } };
    const missing = allPaths(withOrigin).filter((p) => classOf(MEMORIZATION_EXPORT_FIELDS, p) === null);
    expect(missing).toEqual([]);
    const reader = new FieldReader();
    await readMemorizationRun(withOrigin, 'a.json', IMPORTED_AT, reader);
    // The reader records `file.format` for the root's fields and `x.y` for the rest; a list's entries (`[*]`) are read as its values.
    const known = new Set([...reader.known].map((p) => p.replace(/^file\./, '')));
    // A `.*` entry (the model check's texts) is the object the reader reads: its path without the tail.
    const field = (key: string) => general(key).replace(/\.\*$/, '').replace(/(\[\*\])+$/, '');
    const unknown = Object.keys(MEMORIZATION_EXPORT_FIELDS).filter((key) => !known.has(key.replace(/\[\*\]$/, '')) && !known.has(field(key)));
    expect(unknown).toEqual([]);
  });
});
