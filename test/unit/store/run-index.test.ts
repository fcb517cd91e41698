// The run index (issue 46, item 3): built by the upgrade from the runs stored before it (an
// unreadable record listed as such), kept by every write of the runs store in the same transaction
// (each write checked against the index built afresh from the records), and built again when a
// record was written behind its back. Its buckets (run-list-buckets.ts), what a whole list reads,
// hold the same entries, each in the bucket its id hashes to.
import 'fake-indexeddb/auto';
import { openDB } from 'idb';
import { describe, expect, it } from 'vitest';
import { indexEntryOf, labelConfigOf, type RunListEntry } from '../../../src/lib/core/record/run-list-entry.ts';
import { exportBackup, importBackup } from '../../../src/lib/data/backup.ts';
import { indexRun, listIndexedRuns, readNewestRuns, readRunListEarly } from '../../../src/lib/store/run-index.ts';
import { bucketOf, RUN_LIST_BUCKETS } from '../../../src/lib/store/run-list-buckets.ts';
import { createRun, deleteRuns, importRun, saveResult, setRunLabel, setRunStatus, updateRun } from '../../../src/lib/store/runs.ts';
import { INDEX_STORES, openJianguDb, type JianguDatabase } from '../../../src/lib/store/schema.ts';
import type { IndexEntry } from '../../../src/lib/core/record/run-list-entry.ts';
import { makeGenRun, makeMcRun } from '../../fixtures/run-records/build.ts';
import { freshDb } from './helpers.ts';

/** The index as the records say it should be: one entry per record, each from the record as stored. */
async function expectIndexTrue(db: JianguDatabase): Promise<void> {
  const records = await db.getAll('runs');
  const keys = await db.getAllKeys('runs');
  const expected = records.map((r, i) => indexEntryOf(r, String(keys[i])));
  expect(await db.getAll('runIndex')).toEqual(expected);
  // The buckets: the same entries, each once, in the bucket of its id.
  const buckets = await db.getAllKeys('runListBuckets');
  const inBuckets = (await db.getAll('runListBuckets')).flatMap((entries, i) => entries.map((e) => ({ bucket: buckets[i], e })));
  expect(inBuckets.every(({ bucket, e }) => bucket === bucketOf(e.id) && bucket < RUN_LIST_BUCKETS)).toBe(true);
  const byId = (a: IndexEntry, b: IndexEntry) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
  expect(inBuckets.map(({ e }) => e).sort(byId)).toEqual([...expected].sort(byId));
}

/** Writes `entry` in the index and its bucket, or takes `id` out of both, behind the store's back (as a hand in the browser's tools would). */
async function putEntry(db: JianguDatabase, entry: IndexEntry): Promise<void> {
  const bucket = bucketOf(entry.id);
  const held = (await db.get('runListBuckets', bucket)) ?? [];
  await db.put('runListBuckets', [...held.filter((e) => e.id !== entry.id), entry], bucket);
  await db.put('runIndex', entry);
}
async function dropEntry(db: JianguDatabase, id: string): Promise<void> {
  const bucket = bucketOf(id);
  await db.put('runListBuckets', ((await db.get('runListBuckets', bucket)) ?? []).filter((e) => e.id !== id), bucket);
  await db.delete('runIndex', id);
}

describe('the run index', () => {
  it('is built by the upgrade from the runs a version-2 database holds, an unreadable one named', async () => {
    const name = `upgrade-${crypto.randomUUID()}`;
    // The version-2 schema, as the ladder built it before the index.
    const old = await openDB(name, 2, {
      upgrade(db) {
        const runs = db.createObjectStore('runs', { keyPath: 'id' });
        runs.createIndex('by-dataset', 'datasetId');
        runs.createIndex('by-created', 'createdAt');
        db.createObjectStore('results', { keyPath: ['runId', 'itemId'] }).createIndex('by-run', 'runId');
        db.createObjectStore('datasets', { keyPath: 'id' });
        db.createObjectStore('items', { keyPath: ['datasetId', 'id'] });
        db.createObjectStore('probeRuns', { keyPath: 'id' }).createIndex('by-created', 'createdAt');
        db.createObjectStore('probeResults', { keyPath: ['runId', 'itemId'] }).createIndex('by-run', 'runId');
      },
    });
    const mc = makeMcRun('mc');
    await old.put('runs', mc.run);
    await old.put('runs', { ...makeGenRun('gen').run, label: '基线' });
    await old.put('runs', { ...makeMcRun('broken').run, config: { kind: 'multiple-choice', shots: 'many' } });
    old.close();

    const db = await openJianguDb(name);
    await expectIndexTrue(db);
    const { runs, unreadable } = await listIndexedRuns(db);
    expect(runs.map((r) => [r.id, r.listKind, r.items, r.label ?? null])).toEqual([
      ['gen', 'generation', makeGenRun().run.config.itemIds.length, '基线'],
      ['mc', 'letters', mc.run.config.itemIds.length, null],
    ]);
    expect(unreadable.map((u) => [u.id, u.problem.params.path])).toEqual([['broken', 'run.config.model']]);
    db.close();
  });

  it('is kept by every write of the runs store, in the same transaction', async () => {
    const db = await freshDb();
    const mc = makeMcRun('a');
    await createRun(db, mc.run);
    await expectIndexTrue(db);
    for (const r of mc.results) await saveResult(db, r);
    await setRunStatus(db, 'a', 'paused');
    await expectIndexTrue(db);
    await updateRun(db, 'a', { status: 'completed' });
    await setRunLabel(db, 'a', 'q8 基线');
    await expectIndexTrue(db);
    expect((await listIndexedRuns(db)).runs[0]).toMatchObject({ id: 'a', status: 'completed', label: 'q8 基线' });
    const imported = await importRun(db, { run: { ...makeGenRun('g').run, origin: { kind: 'jiangu-file', fileName: 'g.json', importedAt: '2026-12-01T00:00:00.000Z', originalRunId: 'g', storedSummary: null, summaryMismatches: [] } }, results: makeGenRun('g').results });
    await expectIndexTrue(db);
    expect((await listIndexedRuns(db)).runs.find((r) => r.id === imported.id)?.origin).toEqual({ kind: 'jiangu-file', fileName: 'g.json' });
    const text = await exportBackup(db);
    const other = await freshDb();
    await importBackup(other, new File([text], 'b.json'));
    await expectIndexTrue(other);
    await deleteRuns(db, ['a', imported.id]);
    await expectIndexTrue(db);
    expect(await db.count('runIndex')).toBe(0);
    db.close();
    other.close();
  });

  it('is built again when a record was written behind its back', async () => {
    const db = await freshDb();
    await createRun(db, makeMcRun('kept').run);
    await createRun(db, makeMcRun('listed').run);
    // As an older version in another tab would, or a hand in the browser's tools.
    await db.put('runs', makeMcRun('behind').run);
    await dropEntry(db, 'kept');
    // Listed from the index as it is, then checked against the records' keys: found short, built
    // again, and the caller told to list again (the pages do, run-state and compare-state).
    const first = await listIndexedRuns(db);
    expect(first.runs.map((r) => r.id)).toEqual(['listed']);
    expect(await first.checked).toBe(false);
    await expectIndexTrue(db);
    const again = await listIndexedRuns(db);
    expect(again.runs.map((r) => r.id).sort()).toEqual(['behind', 'kept', 'listed']);
    expect(await again.checked).toBe(true);
    // The index and its buckets disagreeing (an entry gone from one only) is found too.
    await db.delete('runIndex', 'kept');
    const uneven = await listIndexedRuns(db);
    expect(uneven.runs.map((r) => r.id).sort()).toEqual(['behind', 'kept', 'listed']);
    expect(await uneven.checked).toBe(false);
    await expectIndexTrue(db);
    db.close();
  });

  it('is built again when an entry is of an older shape (written before the label config)', async () => {
    const db = await freshDb();
    const run = makeMcRun('old-shape').run;
    await createRun(db, run);
    // The entry stop 54's version wrote: no version, no label config.
    const { v: _v, labelConfig: _l, ...older } = indexEntryOf(run, run.id) as RunListEntry;
    await putEntry(db, older as unknown as RunListEntry);
    const { runs } = await listIndexedRuns(db);
    expect(runs[0].labelConfig).toEqual(labelConfigOf(run.config));
    await expectIndexTrue(db);
    db.close();
  });

  it('is read from its buckets whatever the ids, written many to a bucket in one transaction, and checked against the records\' keys after', async () => {
    const db = await freshDb();
    // ~33 runs a bucket, all written in one transaction (each bucket's changes one after another, none
    // lost): the site's ids (UUIDs) and keys of any other shape a backup may restore.
    const ids = [...Array.from({ length: 2100 }, () => crypto.randomUUID()), 'Z-upper', 'shared/x', '中文', '!bang'].sort();
    const tx = db.transaction(['runs', ...INDEX_STORES], 'readwrite');
    for (const id of ids) {
      const run = { ...makeMcRun(id).run, id };
      void tx.objectStore('runs').put(run);
      void indexRun(tx, run);
    }
    await tx.done;
    await expectIndexTrue(db);
    const listed = await listIndexedRuns(db);
    expect(listed.runs.map((r) => r.id).sort()).toEqual(ids);
    expect(await listed.checked).toBe(true);
    // An entry whose record is gone, before the first key and after the last: listed as read, then
    // found by the check, and the index built again without it.
    for (const stray of [' before', '\uffffafter']) {
      await putEntry(db, indexEntryOf(makeMcRun(stray).run, stray));
      const first = await listIndexedRuns(db);
      expect(first.runs.map((r) => r.id).sort()).toEqual([...ids, stray].sort());
      expect(await first.checked).toBe(false);
      expect(await db.count('runIndex')).toBe(ids.length);
      await expectIndexTrue(db);
      expect((await listIndexedRuns(db)).runs.map((r) => r.id).sort()).toEqual(ids);
    }
    db.close();
  });

  it('is checked before it is listed when it is empty, so a store of runs never lists as none', async () => {
    const db = await freshDb();
    await createRun(db, makeMcRun('one').run);
    await db.clear('runIndex');
    await db.clear('runListBuckets');
    const listed = await listIndexedRuns(db);
    expect(listed.runs.map((r) => r.id)).toEqual(['one']);
    expect(await listed.checked).toBe(true);
    db.close();
  });

  it('gives a long list\'s newest runs first, in the whole list\'s order, with the index\'s count, and them to the page before the whole list', async () => {
    const db = await freshDb();
    const at = (day: number) => `2026-03-${String(day).padStart(2, '0')}T00:00:00.000Z`;
    // Stored in another order than their dates; two on the same date (the whole list puts the smaller key first).
    for (const [id, day] of [['c', 3], ['a', 9], ['e', 5], ['b', 9], ['d', 1]] as const) await createRun(db, { ...makeMcRun(id).run, createdAt: at(day) });
    // A record no page can show, dated newest: counted, never listed among the rows.
    await db.put('runs', { ...makeMcRun('bad').run, createdAt: at(20), config: { kind: 'multiple-choice', shots: 'many' } } as never);
    await listIndexedRuns(db).then((l) => l.checked);
    const whole = (await listIndexedRuns(db)).runs.map((r) => r.id);
    expect(whole).toEqual(['a', 'b', 'e', 'c', 'd']);
    const newest = (await readNewestRuns(db, 3))!;
    expect(newest.runs.map((r) => r.id)).toEqual(whole.slice(0, 3));
    expect(newest.total).toBe(6);
    // Given to the page while the whole list is read, never after it: asked for with the whole list
    // here, the newest come first only when the whole list is slower (in Chromium, at 10,000 runs).
    const shown: string[][] = [];
    let whileReading = true;
    const listed = await listIndexedRuns(db, { count: 2, show: (first) => whileReading && shown.push(first.runs.map((r) => r.id)) });
    whileReading = false;
    expect(listed.runs.map((r) => r.id)).toEqual(whole);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(shown.length === 0 || JSON.stringify(shown) === JSON.stringify([['a', 'b']])).toBe(true);
    // An entry of an older shape: no newest rows (the whole listing builds the index again).
    const { v: _v, ...older } = (await db.get('runIndex', 'd'))!;
    await putEntry(db, older as never);
    expect(await readNewestRuns(db, 10)).toBeNull();
    db.close();
  });

  it('read early for Compare, gives the newest runs first, then the whole list', async () => {
    const db = await openJianguDb();
    for (const [id, day] of [['old', 1], ['new', 3], ['mid', 2]] as const) await createRun(db, { ...makeMcRun(id).run, createdAt: `2026-04-0${day}T00:00:00.000Z` });
    // At start-up the newest are asked for first, and the whole list only once they have come.
    readRunListEarly(2);
    const order: string[] = [];
    const listed = await listIndexedRuns(db, { count: 2, show: (first) => order.push(`newest ${first.runs.map((r) => r.id).join(' ')} of ${first.total}`) });
    order.push(`whole ${listed.runs.map((r) => r.id).join(' ')}`);
    expect(order).toEqual(['newest new mid of 3', 'whole new mid old']);
    await deleteRuns(db, ['old', 'new', 'mid']);
    db.close();
  });

  it('is read early at start-up for the first listing only, and not once the tab has written a run since', async () => {
    // readRunListEarly opens the site's own database ('jiangu'), as main.ts does.
    const db = await openJianguDb();
    await createRun(db, makeMcRun('first').run);
    readRunListEarly();
    expect((await listIndexedRuns(db)).runs.map((r) => r.id)).toEqual(['first']);
    readRunListEarly();
    await createRun(db, { ...makeMcRun('written-since').run, createdAt: '2026-02-01T00:00:00.000Z' });
    expect((await listIndexedRuns(db)).runs.map((r) => r.id)).toEqual(['written-since', 'first']);
    await deleteRuns(db, ['written-since', 'first']);
    db.close();
    await new Promise<void>((resolve) => {
      const request = indexedDB.deleteDatabase('jiangu');
      request.onsuccess = request.onerror = request.onblocked = () => resolve();
    });
  });
});
