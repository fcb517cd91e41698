// The typed messages between the page and workers/import.worker.ts. The worker adapts a file and
// holds the items, so a 50 MB import never parses on the page's thread; it stores them only when the
// page says so (after the user agreed to replace what is stored), or drops them.
import type { C3Mapping } from '../core/benchmarks/adapters/c3bench.ts';
import type { DatasetId, DatasetRecord } from '../core/benchmarks/types.ts';
import type { Notice } from '../core/notices/index.ts';
import type { IdenticalOptions } from '../core/benchmarks/identical-options.ts';
import type { CheckedFile } from './import-dataset.ts';

export type ImportRequest =
  | {
      type: 'prepare';
      id: DatasetId;
      files: CheckedFile[];
      origin: 'catalog' | 'import';
      source?: string;
      c3Mapping?: C3Mapping;
      /** A catalog download through a data mirror: its address. */
      mirror?: string;
    }
  /** Stores what was prepared, in the database of that name, all or nothing. */
  | { type: 'store'; dbName: string };

export type ImportReply =
  /** `identical`: items imported whose options repeat one another, said to the user (identical-options.ts). */
  | { type: 'prepared'; record: DatasetRecord; skipped: number; identical: IdenticalOptions }
  | { type: 'stored' }
  /** Every notice of the failure, headline first (a file with several problems lists them all). */
  | { type: 'failed'; notices: Notice[] };
