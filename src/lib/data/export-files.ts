// What leaves the site as a file or a link, built from the store off the page's thread (issue 22: a
// 28,707-item run's JSON took the page 5.8 s, its share link 5.2 s, its CSV 1.5 s, ACLUE's lm-eval
// zip 3.1 s). Runs in workers/export.worker.ts: it reads the run and its results (or a benchmark's
// items) from IndexedDB itself, so nothing large crosses from the page.
import { exportBackup } from './backup.ts';
import { labelSlug } from '../core/record/run-label.ts';
import { strToU8, zipSync } from 'fflate';
import type { DatasetId } from '../core/benchmarks/types.ts';
import { exportLmEval, type LmEvalSample, type LmEvalScoring } from '../core/formats/lm-eval/export/folder.ts';
import { runExportSample } from '../core/formats/lm-eval/export/run-sample.ts';
import { describeSample } from '../core/protocols/sample-description.ts';
import { runSummary } from '../core/metrics/index.ts';
import { jianguError } from '../core/notices/index.ts';
import { generationCsv, predictionsCsv, runJson, withBom } from '../core/formats/jiangu-run/export.ts';
import type { GenItemResult, McItemResult } from '../core/record/run.ts';
import { encodeShareLink } from '../core/formats/share-link/share-link.ts';
import { APP_VERSION } from '../core/version.ts';
import { getDataset, loadItems } from '../store/datasets.ts';
import { getRun, loadResults } from '../store/runs.ts';
import type { JianguDatabase } from '../store/schema.ts';

export type ExportRequest =
  | { kind: 'run-json' | 'results-csv' | 'share-link'; runId: string }
  /** Every stored run as one backup file (backup.ts), built here off the page's thread: 10,000 runs are one long JSON.stringify. */
  | { kind: 'backup'; exportedAt: string }
  /**
   * `runId`: a run's own export, its sample read here from the stored run and its results (in place
   * of `sample`), so a run its rule stopped exports the items it asked and where it stopped (issue 44).
   */
  | { kind: 'lm-eval'; datasetId: DatasetId; shots: number; maxNewTokens: number; circular: boolean; scoring: LmEvalScoring; itemIds?: string[]; sample?: LmEvalSample; runId?: string };

/** A file to download, or a share link's payload (the page puts it after its own address). */
export type ExportResult = { kind: 'file'; name: string; type: string; bytes: Uint8Array } | { kind: 'link'; payload: string };

const utf8 = (text: string) => new TextEncoder().encode(text);

/**
 * `jiangu-<dataset>-<first 8 of the id>`, then the user's label when the run has one (labelSlug), so a folder of
 * downloads is told apart the way the run list tells the runs apart.
 */
export function runFileStem(datasetId: string, runId: string, label?: string): string {
  const stem = `jiangu-${datasetId}-${runId.slice(0, 8)}`;
  const slug = labelSlug(label);
  return slug ? `${stem}-${slug}` : stem;
}

/** A stored run's sample for its lm-eval export (run-sample.ts): undefined for a run without one. */
async function storedRunSample(db: JianguDatabase, runId: string): Promise<LmEvalSample | undefined> {
  const run = await getRun(db, runId);
  if (!run) throw jianguError('run.not-stored', { runId });
  return runExportSample(run, await loadResults(db, runId)) ?? undefined;
}

/** @throws JianguError run.not-stored, export.no-items, export.stop-point, export.stop-not-drawn. */
export async function buildExport(db: JianguDatabase, request: ExportRequest): Promise<ExportResult> {
  if (request.kind === 'backup') return { kind: 'file', name: `jiangu-backup-${request.exportedAt.slice(0, 10)}.json`, type: 'application/json', bytes: utf8(await exportBackup(db, request.exportedAt)) };
  if (request.kind === 'lm-eval') {
    const record = await getDataset(db, request.datasetId);
    if (!record) throw jianguError('export.no-items', { dataset: request.datasetId });
    const items = await loadItems(db, request.datasetId);
    const { datasetId, shots, maxNewTokens, circular, scoring, itemIds } = request;
    const sample = request.runId ? await storedRunSample(db, request.runId) : request.sample;
    const exported = await exportLmEval({ datasetId, items, files: record.files, shots, maxNewTokens, appVersion: APP_VERSION, circular, scoring, itemIds, ...(sample ? { sample } : {}) });
    // One top folder in the zip, named after the group, so unzipping never scatters files.
    const zip = zipSync(Object.fromEntries(exported.files.map((file) => [`${exported.group}/${file.path}`, strToU8(file.text)])));
    return { kind: 'file', name: `${exported.group}.zip`, type: 'application/zip', bytes: zip };
  }
  const run = await getRun(db, request.runId);
  if (!run) throw jianguError('run.not-stored', { runId: request.runId });
  const results = await loadResults(db, request.runId);
  const stem = runFileStem(run.datasetId, run.id, run.label);
  switch (request.kind) {
    case 'run-json':
      return { kind: 'file', name: `${stem}.json`, type: 'application/json', bytes: utf8(runJson(run, results)) };
    case 'results-csv':
      return run.config.kind === 'multiple-choice'
        ? { kind: 'file', name: `${stem}-predictions.csv`, type: 'text/csv;charset=utf-8', bytes: utf8(withBom(predictionsCsv(results as McItemResult[], describeSample(run.config)))) }
        : { kind: 'file', name: `${stem}-outputs.csv`, type: 'text/csv;charset=utf-8', bytes: utf8(withBom(generationCsv(results as GenItemResult[], describeSample(run.config)))) };
    case 'share-link':
      return { kind: 'link', payload: await encodeShareLink(run, results, runSummary(run, results)) };
  }
}
