// A run's results as files: per-item predictions as CSV (AC-EVAL test predictions can only be
// submitted this way, its keys being unreleased) and the whole run as JSON.
import Papa from 'papaparse';
import { runSummary } from '../metrics/run-summary.ts';
import type { ItemResult, McItemResult, RunRecord } from './run.ts';

const LETTERS = ['A', 'B', 'C', 'D'] as const;

/** One row per item: id, task, the pick, the gold letter (empty when unreleased), and each letter's numbers. */
export function predictionsCsv(results: readonly McItemResult[]): string {
  const rows = results.map((r) => {
    const row: Record<string, string | number> = {
      item_id: r.itemId,
      task: r.task,
      prediction: r.prediction ?? '',
      gold: r.gold ?? '',
      correct: r.correct === null ? '' : r.correct ? 1 : 0,
    };
    for (const letter of LETTERS) {
      const k = r.letters.indexOf(letter);
      row[`p_${letter}`] = k >= 0 ? r.probs[k] : '';
      row[`logp_${letter}`] = k >= 0 ? r.logProbs[k] : '';
    }
    row.prompt_sha256 = r.promptHash;
    return row;
  });
  const columns = ['item_id', 'task', 'prediction', 'gold', 'correct', ...LETTERS.flatMap((l) => [`p_${l}`, `logp_${l}`]), 'prompt_sha256'];
  return Papa.unparse({ fields: columns, data: rows.map((row) => columns.map((c) => row[c])) }, { newline: '\n' });
}

/**
 * The run record with its results, as one JSON document. The summary is the exporting page's own
 * numbers: an importer recomputes them from the results and lists any that differ, so a file whose
 * headline was edited by hand shows it. (Added within format version 1: readers treat it as optional.)
 */
export function runJson(run: RunRecord, results: readonly ItemResult[]): string {
  return `${JSON.stringify({ format: 'jiangu-run', formatVersion: 1, run, results, summary: runSummary(run, results) }, null, 2)}\n`;
}
