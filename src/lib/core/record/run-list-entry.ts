// What a list shows of a stored scoring run (issue 46, item 3): a few small fields, kept beside the
// record in the store's run index (store/run-index.ts) and written with it, so a page that lists
// 10,000 runs reads 10,000 of these, never 10,000 whole records (a record can hold 200,000 item ids,
// an environment, warnings), and checks none of them as it lists: each record was checked, as the
// run-file reader checks a file (stored-check.ts), when its entry was written. A record no page can
// show has an entry that says so (`unreadable`), listed apart with export and delete, as before.
import type { DatasetId } from '../benchmarks/types.ts';
import type { Notice } from '../notices/index.ts';
import type { GenRunConfig, McRunConfig, PrideConfig, RunModel, RunOrigin, RunRecord, RunStatus } from './run.ts';
import { recordName, storedRunRefusal, unreadableNotice } from './stored-check.ts';

/**
 * The shape of an entry. An entry written by an older version (without a field a list now reads) is
 * not this one: the index is then built again from the records (store/run-index.ts).
 */
export const INDEX_ENTRY_VERSION = 2;

/**
 * What a run's label is made of in its configuration (ui/compare/run-label.ts, runFacets; the sample's
 * description, describeSample): the configuration without its item ids, which it replaces by their
 * count, as a share link does. Small: a list of 10,000 runs labels each of them from its entry.
 */
export type LabelConfig =
  | (Pick<McRunConfig, 'kind' | 'model' | 'shots' | 'scoring' | 'chatTemplate' | 'tasks' | 'limitPerTask' | 'sampling' | 'circular'> & { itemCount: number; pride?: Pick<PrideConfig, 'share' | 'seed'> })
  | (Pick<GenRunConfig, 'kind' | 'model' | 'decoding' | 'chatTemplate' | 'tasks' | 'limitPerTask' | 'sampling'> & { itemCount: number });

/** The kind of a row, in the words a list tells runs apart by (the scoring decides what the numbers mean). */
export type RunListKind = 'letters' | 'option-text' | 'generated-letter' | 'generation';

export interface RunListEntry {
  v: typeof INDEX_ENTRY_VERSION;
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
  /** An imported run's file, its kind, and (lm-eval) what ran the model and its --limit: what the row and the label say of it. */
  origin?: Pick<RunOrigin, 'kind' | 'fileName' | 'harnessBackend' | 'harnessLimit'>;
  /** What its label on Compare is made of. */
  labelConfig: LabelConfig;
}

/** A stored record no page can show, as a list names it (its key, its date where it states one, and what is wrong). */
export interface UnreadableListEntry {
  v: typeof INDEX_ENTRY_VERSION;
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
    v: INDEX_ENTRY_VERSION,
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
    ...(run.origin ? { origin: originOf(run.origin) } : {}),
    labelConfig: labelConfigOf(c),
  };
}

function originOf(o: RunOrigin): NonNullable<RunListEntry['origin']> {
  return {
    kind: o.kind,
    fileName: o.fileName,
    ...(o.harnessBackend ? { harnessBackend: o.harnessBackend } : {}),
    ...(o.harnessLimit !== undefined ? { harnessLimit: o.harnessLimit } : {}),
  };
}

/** The configuration less its item ids (and PriDe's), named field by field: nothing else of a record rides along. */
export function labelConfigOf(c: RunRecord['config']): LabelConfig {
  const common = { model: { source: c.model.source, dtype: c.model.dtype, backend: c.model.backend }, chatTemplate: c.chatTemplate, tasks: c.tasks, limitPerTask: c.limitPerTask, itemCount: c.itemIds.length, ...(c.sampling ? { sampling: c.sampling } : {}) };
  if (c.kind === 'generation') return { kind: 'generation', ...common, decoding: c.decoding };
  return {
    kind: 'multiple-choice',
    ...common,
    shots: c.shots,
    scoring: c.scoring,
    ...(c.circular !== undefined ? { circular: c.circular } : {}),
    ...(c.pride ? { pride: { share: c.pride.share, seed: c.pride.seed } } : {}),
  };
}

/**
 * The entry of whatever the runs store holds under `key`: the record is checked first (its results
 * are not read: a list does not show them), and one that fails is an unreadable entry naming why.
 */
export function indexEntryOf(value: unknown, key: string): IndexEntry {
  const refused = storedRunRefusal(value, null);
  if (refused) return { v: INDEX_ENTRY_VERSION, ...recordName(value, key), unreadable: unreadableNotice(key, refused) };
  return listEntryOf(value as RunRecord);
}
