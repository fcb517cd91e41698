// The counts a DatasetRecord stores, computed from the items themselves (never from a catalog's
// expectations), and the record assembled from the catalog entry.
import { attributionText, getDataset } from './catalog.ts';
import type { DatasetFile, DatasetId, DatasetRecord, Item, TaskCount } from './types.ts';

export function summarizeItems(items: readonly Item[]): { itemCount: number; tasks: Record<string, TaskCount> } {
  const tasks: Record<string, TaskCount> = {};
  for (const item of items) {
    const count = (tasks[item.task] ??= { dev: 0, test: 0 });
    count[item.split]++;
  }
  return { itemCount: items.length, tasks };
}

export interface DatasetRecordInput {
  id: DatasetId;
  origin: 'catalog' | 'import';
  /** The files the items came from, with the sha256 the caller computed. */
  files: DatasetFile[];
  items: readonly Item[];
  /** ISO 8601. */
  importedAt: string;
  /** For imports: the URL or file name it came from (defaults to the file names). */
  source?: string;
  fieldMapping?: Record<string, string>;
  /** A catalog download through a data mirror: where the files came from. */
  mirror?: string;
}

/** A DatasetRecord with title, license and attribution from the catalog and counts from the items. */
export function buildDatasetRecord(input: DatasetRecordInput): DatasetRecord {
  const dataset = getDataset(input.id);
  const fromCatalog = input.origin === 'catalog';
  const record: DatasetRecord = {
    id: input.id,
    title: dataset.title,
    origin: input.origin,
    source: input.source ?? (fromCatalog && dataset.repository ? dataset.repository : input.files.map((file) => file.path).join(', ')),
    commit: fromCatalog ? dataset.commit : null,
    files: input.files,
    license: dataset.license,
    attribution: attributionText(input.id),
    ...summarizeItems(input.items),
    importedAt: input.importedAt,
  };
  if (input.fieldMapping) record.fieldMapping = input.fieldMapping;
  if (fromCatalog && input.mirror) record.mirror = input.mirror;
  return record;
}
