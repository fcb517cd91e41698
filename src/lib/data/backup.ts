// Exporting every stored run as one backup file and reading one back (issue 34): a browser's runs
// kept, or moved to another browser, with nothing lost. Export writes the records as stored (runs
// a page cannot show included: a backup loses nothing). Import reads each entry alone with the reader
// of its own file kind, in its 'stored' mode (core/formats/backup/backup-entry.ts, issue 46): the
// same field checks and recomputations a run file gets, the record rebuilt from the fields the
// reader knows (the others dropped and named in the report), and the same sample check against this
// browser's copy of the benchmark (run-sample-check.ts). A record that passes is restored as it was:
// its own id, dates, status, label, origin and results, so the runs and the links built on their ids
// (Compare, classroom) work as before. One change: an imported run's key check (origin.keyCheck) is
// not taken from the file; its page checks the answers again against this browser's copy of the
// benchmark. A run whose id is stored here already is reported, not duplicated: "already stored"
// when its results are the same, "another run" when they differ; an id the same backup holds twice,
// "repeated" (the first entry is the one read).
import { backupJson, readBackup, BACKUP_MAX_BYTES } from '../core/formats/backup/backup.ts';
import { entryName, readMemorizationEntry, readRunEntry, refusalOf, type BackupEntryKind, type ReadEntry } from '../core/formats/backup/backup-entry.ts';
import { RunImportError, refusal, type Refusal } from '../core/formats/import-validate.ts';
import type { ItemResult, RunRecord } from '../core/record/run.ts';
import type { ProbeResult, ProbeRunRecord } from '../core/record/probe-run.ts';
import { isQuotaError } from '../store/errors.ts';
import { INDEX_STORES, type JianguDatabase } from '../store/schema.ts';
import { transactionEnd } from '../store/transaction-end.ts';
import { indexRun } from '../store/run-index.ts';
import { checkRunSample } from './run-sample-check.ts';

/** What a backup's import did, per run: for the page to say. */
export interface BackupReport {
  restored: string[];
  /** Stored here already with the same results. */
  alreadyStored: string[];
  /** Another run with the same id is stored here: kept, the backup's left out. */
  conflicting: string[];
  /** Ids the backup holds more than once: the first entry was read, the later ones left out. */
  repeated: string[];
  /** Entries no page could show: named with the refusal, not stored. */
  refused: { id: string; problem: Refusal }[];
  /** Restored entries that had fields this version does not know: the fields, left out. */
  dropped: { id: string; fields: string[] }[];
  /**
   * Set when the browser's storage ran out: the entry being stored then and those after it were not
   * stored (`notStored` of them); every run restored before it, and everything stored before, stays.
   */
  storageFull?: { at: string; notStored: number };
}

/** Every run and memorization run stored here, with their results, as a backup file's text. */
export async function exportBackup(db: JianguDatabase, exportedAt = new Date().toISOString()): Promise<string> {
  const tx = db.transaction(['runs', 'results', 'probeRuns', 'probeResults']);
  const [runs, results, probeRuns, probeResults] = await Promise.all([
    tx.objectStore('runs').getAll(),
    tx.objectStore('results').getAll(),
    tx.objectStore('probeRuns').getAll(),
    tx.objectStore('probeResults').getAll(),
    tx.done,
  ]);
  const byRun = <T extends { runId: string }>(list: T[]) => {
    const map = new Map<string, T[]>();
    for (const r of list) map.set(r.runId, [...(map.get(r.runId) ?? []), r]);
    return map;
  };
  const resultsOf = byRun(results);
  const probeResultsOf = byRun(probeResults);
  const byCreated = (a: { createdAt: unknown }, b: { createdAt: unknown }) => String(a.createdAt).localeCompare(String(b.createdAt));
  return backupJson(
    runs.sort(byCreated).map((run) => ({ run, results: (resultsOf.get(run.id) ?? []).sort((a, b) => a.index - b.index) })),
    probeRuns.sort(byCreated).map((run) => ({ run, results: probeResultsOf.get(run.id) ?? [] })),
    exportedAt,
  );
}

const sameRecords = (a: readonly unknown[], b: readonly unknown[]) => {
  const key = (v: unknown) => canonical(v);
  const x = a.map(key).sort();
  const y = b.map(key).sort();
  return x.length === y.length && x.every((k, i) => k === y[i]);
};

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    return `{${Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** An error the store threw when the browser's storage was full. */
class StorageFull extends Error {}

/**
 * Restores the runs of a backup file; returns what happened to each. Each run is stored with its
 * results in one transaction (a run is whole or absent); runs already stored are left as they are.
 * @throws RunImportError naming the file when it is not a backup (nothing is stored then).
 */
export async function importBackup(db: JianguDatabase, file: File): Promise<BackupReport> {
  if (file.size > BACKUP_MAX_BYTES) throw new RunImportError(file.name, refusal('import.backup-too-large', { mib: (file.size / 2 ** 20).toFixed(1), limitMib: BACKUP_MAX_BYTES / 2 ** 20 }));
  let entries: ReturnType<typeof readBackup>;
  try {
    entries = readBackup(await file.text());
  } catch (error) {
    throw new RunImportError(file.name, refusalOf(error), { cause: error });
  }
  const report: BackupReport = { restored: [], alreadyStored: [], conflicting: [], repeated: [], refused: [], dropped: [] };
  const seen = new Set<string>();
  const total = entries.runs.length + entries.memorizationRuns.length;
  let done = 0;

  const take = async <R extends RunRecord | ProbeRunRecord, I>(kind: BackupEntryKind, entry: unknown, index: number, read: () => Promise<ReadEntry<R, I>>, check?: (run: R) => Promise<void>) => {
    const name = entryName(entry, kind, index);
    let got: ReadEntry<R, I>;
    try {
      got = await read();
      await check?.(got.run);
    } catch (error) {
      report.refused.push({ id: name, problem: error instanceof RunImportError ? error.refusal : refusalOf(error) });
      return;
    }
    const key = `${kind} ${got.run.id}`;
    if (seen.has(key)) return void report.repeated.push(got.run.id);
    seen.add(key);
    if (await restore(db, report, kind === 'runs' ? 'runs' : 'probeRuns', kind === 'runs' ? 'results' : 'probeResults', got.run, got.results as never[])) {
      if (got.dropped.length > 0) report.dropped.push({ id: got.run.id, fields: got.dropped });
    }
  };

  try {
    for (const [i, entry] of entries.runs.entries()) {
      // A recorded sample must be what its seed draws from this browser's copy, as a run file's must.
      await take('runs', entry, i, async () => readRunEntry(entry, i), (run) => checkRunSample(db, run as RunRecord));
      done++;
    }
    for (const [i, entry] of entries.memorizationRuns.entries()) {
      await take('memorizationRuns', entry, i, () => readMemorizationEntry(entry, i));
      done++;
    }
  } catch (error) {
    if (!(error instanceof StorageFull)) throw error;
    report.storageFull = { at: error.message, notStored: total - done };
  }
  return report;
}

/**
 * Stores one record with its results in one transaction, unless its id is stored: then says whether
 * the stored one is the same. True when it was stored.
 * @throws StorageFull when the browser's storage is full (nothing of this record is stored then).
 */
async function restore(
  db: JianguDatabase,
  report: BackupReport,
  runStore: 'runs' | 'probeRuns',
  resultStore: 'results' | 'probeResults',
  run: RunRecord | ProbeRunRecord,
  results: readonly (ItemResult | ProbeResult)[],
): Promise<boolean> {
  // A scoring run's list entry (store/run-index.ts) is written with it.
  const tx = db.transaction([runStore, resultStore, ...INDEX_STORES], 'readwrite');
  const end = transactionEnd(tx);
  const stored = await tx.objectStore(runStore).get(run.id);
  if (stored) {
    const theirs = await tx.objectStore(resultStore).index('by-run').getAll(run.id);
    await end;
    if (stored.createdAt === run.createdAt && sameRecords(theirs, results)) report.alreadyStored.push(run.id);
    else report.conflicting.push(run.id);
    return false;
  }
  // Each request's failure also ends the transaction: its cause is read from the end.
  const writes = [tx.objectStore(runStore).add(run as never), ...(runStore === 'runs' ? [indexRun(tx, run)] : []), ...results.map((r) => tx.objectStore(resultStore).add(r as never))];
  for (const w of writes) w.catch(() => undefined);
  const ended = await end;
  if (ended.committed) {
    report.restored.push(run.id);
    return true;
  }
  if (isQuotaError(ended.error)) throw new StorageFull(run.id);
  // Any other failure refuses this entry alone, named with what the browser said.
  const detail = ended.error ? `${ended.error.name}: ${ended.error.message}` : 'the transaction was aborted';
  report.refused.push({ id: run.id, problem: refusal('import.store-failed', { itemId: null, detail }) });
  return false;
}
