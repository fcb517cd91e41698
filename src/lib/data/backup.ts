// Exporting every stored run as one backup file and reading one back (issue 34): a browser's runs
// kept, or moved to another browser, with nothing lost. Export writes the records as stored (runs
// a page cannot show included: a backup loses nothing). Import checks each entry with the reader of
// its own file kind, the same checks a page makes before it shows a stored record
// (core/record/stored-check.ts for scoring runs, readMemorizationRun for memorization runs), and
// restores a record that passes as it was: its own id, dates, label and results, so the runs and
// the links built on their ids (Compare, classroom) work as before. One change: an imported run's
// key check (origin.keyCheck) is not taken from the file; its page checks the answers again against
// this browser's copy of the benchmark. A run whose id is stored here already is reported, not
// duplicated: "already stored" when its results are the same, "another run" when they differ.
import { backupJson, readBackup, BACKUP_MAX_BYTES } from '../core/formats/backup/backup.ts';
import { FieldProblem, RunImportError, describe, refusal, type Obj, type Refusal } from '../core/formats/import-validate.ts';
import { readMemorizationRun } from '../core/formats/memorization-run/import-memorization.ts';
import { storedRunRefusal } from '../core/record/stored-check.ts';
import type { ItemResult, RunRecord } from '../core/record/run.ts';
import type { ProbeResult, ProbeRunRecord } from '../core/record/probe-run.ts';
import type { JianguDatabase } from '../store/schema.ts';

/** What a backup's import did, per run: for the page to say. */
export interface BackupReport {
  restored: string[];
  /** Stored here already with the same results. */
  alreadyStored: string[];
  /** Another run with the same id is stored here: kept, the backup's left out. */
  conflicting: string[];
  /** Entries no page could show: named with the refusal, not stored. */
  refused: { id: string; problem: Refusal }[];
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

const refusalOf = (error: unknown): Refusal =>
  error instanceof FieldProblem ? error.refusal : refusal('import.unreadable', { detail: error instanceof Error ? `${error.name}: ${error.message}` : String(error) });

const entryId = (entry: Obj): string => {
  const run = entry.run as Obj | null | undefined;
  return typeof run?.id === 'string' ? run.id.slice(0, 80) : '?';
};

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
  const report: BackupReport = { restored: [], alreadyStored: [], conflicting: [], refused: [] };
  const importedAt = new Date().toISOString();

  for (const entry of entries.runs) {
    const id = entryId(entry);
    const results = Array.isArray(entry.results) ? (entry.results as unknown[]) : null;
    const problem = results === null ? refusal('import.field-wrong', { path: `runs[${entries.runs.indexOf(entry)}].results`, expected: 'list', ...describe(entry.results) }) : storedRunRefusal(entry.run, results);
    if (problem) {
      report.refused.push({ id, problem });
      continue;
    }
    const run = withoutKeyCheck(entry.run as RunRecord);
    await restore(db, report, 'runs', 'results', run, results as ItemResult[]);
  }
  for (const entry of entries.memorizationRuns) {
    const id = entryId(entry);
    try {
      await readMemorizationRun(entry, `backup ${id}`, importedAt);
    } catch (error) {
      report.refused.push({ id, problem: refusalOf(error) });
      continue;
    }
    await restore(db, report, 'probeRuns', 'probeResults', entry.run as ProbeRunRecord, entry.results as ProbeResult[]);
  }
  return report;
}

/** An imported run's key check is this browser's finding, not the file's: dropped, the run page makes it again. */
function withoutKeyCheck(run: RunRecord): RunRecord {
  if (!run.origin?.keyCheck) return run;
  const { keyCheck: _dropped, ...origin } = run.origin;
  return { ...run, origin };
}

async function restore(
  db: JianguDatabase,
  report: BackupReport,
  runStore: 'runs' | 'probeRuns',
  resultStore: 'results' | 'probeResults',
  run: RunRecord | ProbeRunRecord,
  results: readonly (ItemResult | ProbeResult)[],
): Promise<void> {
  const tx = db.transaction([runStore, resultStore], 'readwrite');
  const stored = await tx.objectStore(runStore).get(run.id);
  if (stored) {
    const theirs = await tx.objectStore(resultStore).index('by-run').getAll(run.id);
    await tx.done;
    if (stored.createdAt === run.createdAt && sameRecords(theirs, results)) report.alreadyStored.push(run.id);
    else report.conflicting.push(run.id);
    return;
  }
  await Promise.all([tx.objectStore(runStore).add(run as never), ...results.map((r) => tx.objectStore(resultStore).add(r as never)), tx.done]);
  report.restored.push(run.id);
}
