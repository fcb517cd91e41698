// What a list shows of a stored scoring run (issue 46, item 3): a few small fields, kept beside the
// record in the store's run index (store/run-index.ts) and written with it, so a page that lists
// 10,000 runs reads 10,000 of these, never 10,000 whole records (a record can hold 200,000 item ids,
// an environment, warnings), and checks none of them as it lists: each record was checked, as the
// run-file reader checks a file (stored-check.ts), when its entry was written. A record no page can
// show has an entry that says so (`unreadable`), listed apart with export and delete, as before.
import type { DatasetId } from '../benchmarks/types.ts';
import type { Notice } from '../notices/index.ts';
import type { McRunConfig, RunModel, RunOrigin, RunRecord, RunStatus } from './run.ts';
import { recordName, storedRunRefusal, unreadableNotice } from './stored-check.ts';

/** The kind of a row, in the words a list tells runs apart by (the scoring decides what the numbers mean). */
export type RunListKind = 'letters' | 'option-text' | 'generated-letter' | 'generation';

export interface RunListEntry {
  id: string;
  createdAt: string;
  updatedAt: string;
  datasetId: DatasetId;
  status: RunStatus;
  kind: 'multiple-choice' | 'generation';
  listKind: RunListKind;
  scoring: McRunConfig['scoring'] | null;
  model: RunModel;
  /** The backend the run used (its environment's), when it recorded one. */
  backend: 'webgpu' | 'wasm' | null;
  /** Multiple-choice runs: exemplars per item; null for generation. */
  shots: number | null;
  /** Items the run asks (config.itemIds.length). */
  items: number;
  label?: string;
  /** An imported run's file, its kind, and (lm-eval) what ran the model: what the row says of it. */
  origin?: Pick<RunOrigin, 'kind' | 'fileName' | 'harnessBackend'>;
}

/** A stored record no page can show, as a list names it (its key, its date where it states one, and what is wrong). */
export interface UnreadableListEntry {
  id: string;
  createdAt: string | null;
  unreadable: Notice;
}

export type IndexEntry = RunListEntry | UnreadableListEntry;

export const isUnreadableEntry = (e: IndexEntry): e is UnreadableListEntry => 'unreadable' in e;

/** The kind of a run, as a list names it. */
export function listKindOf(run: Pick<RunRecord, 'config'>): RunListKind {
  if (run.config.kind === 'generation') return 'generation';
  if (run.config.scoring === 'cloze') return 'option-text';
  return run.config.scoring === 'generate-extract' ? 'generated-letter' : 'letters';
}

/** The entry of a record that passed the stored check. */
export function listEntryOf(run: RunRecord): RunListEntry {
  const c = run.config;
  return {
    id: run.id,
    createdAt: run.createdAt,
    updatedAt: run.updatedAt,
    datasetId: run.datasetId,
    status: run.status,
    kind: c.kind,
    listKind: listKindOf(run),
    scoring: c.kind === 'multiple-choice' ? c.scoring : null,
    model: { source: c.model.source, dtype: c.model.dtype, backend: c.model.backend },
    backend: run.environment?.backendInfo.backend ?? null,
    shots: c.kind === 'multiple-choice' ? c.shots : null,
    items: c.itemIds.length,
    ...(run.label !== undefined ? { label: run.label } : {}),
    ...(run.origin ? { origin: { kind: run.origin.kind, fileName: run.origin.fileName, ...(run.origin.harnessBackend ? { harnessBackend: run.origin.harnessBackend } : {}) } } : {}),
  };
}

/**
 * The entry of whatever the runs store holds under `key`: the record is checked first (its results
 * are not read: a list does not show them), and one that fails is an unreadable entry naming why.
 */
export function indexEntryOf(value: unknown, key: string): IndexEntry {
  const refused = storedRunRefusal(value, null);
  if (refused) return { ...recordName(value, key), unreadable: unreadableNotice(key, refused) };
  return listEntryOf(value as RunRecord);
}
