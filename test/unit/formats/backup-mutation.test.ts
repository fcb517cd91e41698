// The backup format as untrusted input (issue 46, items 1 and 5): every field of every kind of entry
// (the scoring run kinds of run-files.ts, and a memorization run) changed once, through the backup's
// own door (importBackup into a store), is refused naming the field, or restored with every number the
// pages show equal to the untouched entry's, as the same change to a run file is (run-file-fields
// and memorization-mutation test the files' door); on a refusal the store is unchanged. The backup's
// own fields (format, version, date, lists) are changed too. Together: every check of the run-file
// reader fires through a backup.
import { beforeAll, describe, expect, it } from 'vitest';
import { BACKUP_FIELDS, BACKUP_RUN_ENTRY_FIELDS } from '../../../src/lib/core/formats/fields/backup.ts';
import { RunImportError, type Obj } from '../../../src/lib/core/formats/import-validate.ts';
import type { ProbeResult, ProbeRunRecord } from '../../../src/lib/core/record/probe-run.ts';
import type { ItemResult, RunRecord } from '../../../src/lib/core/record/run.ts';
import { importBackup } from '../../../src/lib/data/backup.ts';
import type { JianguDatabase } from '../../../src/lib/store/schema.ts';
import { loadResults } from '../../../src/lib/store/runs.ts';
import { loadProbeResults } from '../../../src/lib/store/probe-runs.ts';
import { freshDb } from '../store/helpers.ts';
import { RUN_FILE_KINDS, runFile } from './run-files.ts';
import { madeProbeRun } from './memorization-fixture.ts';
import { mutateMemorizationFile, shownProbe } from './memorization-mutate.ts';
import { RUN_FILE_NAMING, mutateAll, mutated, mutationsOf, pathOf, shown, type Json } from './mutate.ts';

const STORES = ['runs', 'results', 'probeRuns', 'probeResults'] as const;
const file = (backup: unknown) => new File([JSON.stringify(backup)], 'backup.json', { type: 'application/json' });
const backupWith = (kind: 'runs' | 'memorizationRuns', entry: unknown) => ({
  format: 'jiangu-backup',
  formatVersion: 1,
  exportedAt: '2026-12-01T00:00:00.000Z',
  runs: kind === 'runs' ? [entry] : [],
  memorizationRuns: kind === 'memorizationRuns' ? [entry] : [],
});

async function counts(db: JianguDatabase): Promise<number[]> {
  return Promise.all(STORES.map((s) => db.count(s)));
}

/**
 * Restores one entry into an empty store and reads back what was stored; a refused entry is thrown as
 * the refusal (as a run file's would be), after checking that nothing was stored. The store is emptied after.
 */
async function throughBackup<R, I>(db: JianguDatabase, kind: 'runs' | 'memorizationRuns', entry: unknown): Promise<{ run: R; results: I[] }> {
  const report = await importBackup(db, file(backupWith(kind, entry)));
  try {
    if (report.refused.length > 0) {
      expect(await counts(db)).toEqual([0, 0, 0, 0]);
      throw new RunImportError(report.refused[0].id, report.refused[0].problem);
    }
    expect(report.restored).toHaveLength(1);
    const id = report.restored[0];
    // In the order the pages read them (store/runs.ts, store/probe-runs.ts).
    if (kind === 'runs') return { run: (await db.get('runs', id)) as R, results: (await loadResults(db, id)) as I[] };
    return { run: (await db.get('probeRuns', id)) as R, results: (await loadProbeResults(db, id)) as I[] };
  } finally {
    const tx = db.transaction([...STORES], 'readwrite');
    await Promise.all([...STORES.map((s) => tx.objectStore(s).clear()), tx.done]);
  }
}

/** A run file's entry as a backup holds it: the stored record and results, no summary (an importer recomputes it). */
const entryOf = (text: string): Json => {
  const { summary: _summary, ...entry } = JSON.parse(text) as Obj;
  return entry as Json;
};

describe.each(RUN_FILE_KINDS)('a backup entry of a %s run, changed one field at a time', (kind) => {
  it('is refused naming the field with the store unchanged, or restored showing the untouched entry\'s numbers', async () => {
    const db = await freshDb();
    const { failures, refused, harmless } = await mutateAll({
      root: entryOf(runFile(kind)),
      table: BACKUP_RUN_ENTRY_FIELDS,
      naming: RUN_FILE_NAMING,
      place: pathOf,
      read: (next) => throughBackup<RunRecord, ItemResult>(db, 'runs', next),
      shown: (restored) => shown(restored as { run: RunRecord; results: ItemResult[] }),
      rawLength: (place) => place === 'results' || /^results\[\d+\]\.rotations$/.test(place),
    });
    expect(failures).toEqual([]);
    expect(refused).toBeGreaterThan(100);
    expect(harmless).toBeGreaterThan(0);
    db.close();
  }, 240_000);
});

describe('a backup entry of a memorization run, changed one field at a time', () => {
  it('is refused naming the field with the store unchanged, or restored as raw with the numbers recomputed from its raw fields', async () => {
    const made = await madeProbeRun();
    made.db.close();
    const root = JSON.parse(made.file) as Obj;
    const db = await freshDb();
    const untouched = await throughBackup<ProbeRunRecord, ProbeResult>(db, 'memorizationRuns', root);
    expect(shownProbe(untouched.run, untouched.results)).toEqual(shownProbe(made.run, made.results));
    const { wrong, tried, accepted } = await mutateMemorizationFile(root, (bad) => throughBackup<ProbeRunRecord, ProbeResult>(db, 'memorizationRuns', bad), (e) => (e instanceof RunImportError ? e.refusal : null));
    expect(wrong).toEqual([]);
    expect(tried).toBeGreaterThan(500);
    expect(accepted.filter((a) => /out of range/.test(a))).toEqual([]);
    expect(accepted).toContain('results[0].logprob[0] +1');
    db.close();
  }, 240_000);
});

describe('the backup\'s own fields', () => {
  let entry: Json;
  beforeAll(() => {
    entry = entryOf(runFile('letter-logits'));
  });

  it('each changed is refused naming it with nothing stored, or (the date it was made, which nothing reads) harmless', async () => {
    const db = await freshDb();
    const root = backupWith('runs', entry) as unknown as Json;
    const outcomes: string[] = [];
    for (const parts of [['format'], ['formatVersion'], ['exportedAt'], ['runs'], ['memorizationRuns']] as const) {
      const path = pathOf(parts);
      const field = BACKUP_FIELDS[path] ?? BACKUP_FIELDS[`${path}[*]`];
      expect(field, path).toBeDefined();
      const original = (root as Record<string, unknown>)[path];
      for (const mutation of mutationsOf(original)) {
        const tx = db.transaction([...STORES], 'readwrite');
        await Promise.all([...STORES.map((s) => tx.objectStore(s).clear()), tx.done]);
        const next = mutated(root, [...parts], mutation.value);
        const result = await importBackup(db, file(next)).then(
          (report) => ({ restored: report.restored.length, refused: report.refused.length }),
          (e: unknown) => e as RunImportError,
        );
        if (result instanceof RunImportError) {
          expect(await counts(db)).toEqual([0, 0, 0, 0]);
          const at = (result.refusal.params as { path?: string; key?: string }).path ?? (result.refusal.params as { key?: string }).key ?? (result.refusal.code === 'import.format-version' ? 'formatVersion' : null);
          outcomes.push(`${path} ${mutation.name}: refused at ${at}`);
          if (at !== path) throw new Error(`${path} ${mutation.name}: refused at ${at} (${result.message})`);
        } else {
          outcomes.push(`${path} ${mutation.name}: ${result.restored} restored`);
          // Only a field nothing reads may change without a refusal; a list of one other entry refuses that entry alone.
          if (field.class === 'raw' && field.check.startsWith('not read')) continue;
          if (Array.isArray(mutation.value) && result.refused === 1) continue;
          throw new Error(`${path} ${mutation.name}: imported (${JSON.stringify(result)})`);
        }
      }
    }
    expect(outcomes).toContain('format other text: refused at format');
    expect(outcomes).toContain('exportedAt number: 1 restored');
    db.close();
  });
});
