// The Jiangu run file (format "jiangu-run", formatVersion 1): a run's record, every item's result and
// the summary, as JSON. Written here (runJson) and read by import-jiangu.ts, which treats it as
// untrusted; the two are its specification (README "Sharing, comparing, teaching"). This folder also
// writes the predictions CSV.
//
// A run's results as files: per-item predictions as CSV (AC-EVAL test predictions can only be
// submitted this way, its keys being unreleased), a generation run's outputs as CSV, and the whole
// run as JSON. An item that could not run has a row with its reason (`failed`), in English, and its
// code in `failed_code`: a spreadsheet has no interface language. Both CSVs go through csvDocument,
// which neutralises text cells that would start a formula (see csv-cell.ts). Exported from a run, each
// row also says the run's sample and the item's place in the order asked (sampleCells).
import { csvDocument, type CsvValue } from '../../csv-cell.ts';
import { runSummary } from '../../metrics/run-summary.ts';
import { continuousOf } from '../../metrics/continuous.ts';
import { CLOZE_RULES, clozePrediction } from '../../metrics/cloze-rules.ts';
import type { GenItemResult, ItemResult, McItemResult, RunRecord } from '../../record/run.ts';
import { renderNotice, type Notice } from '../../notices/index.ts';
import type { SampleDescription } from '../../protocols/sample-description.ts';

/**
 * The text with a UTF-8 byte order mark in front: without it Excel reads a CSV in the system's
 * legacy code page and shows Chinese as mojibake.
 */
export function withBom(csv: string): string {
  return csv.startsWith('\uFEFF') ? csv : `\uFEFF${csv}`;
}

const failedText = (failure: Notice | undefined) => (failure ? renderNotice(failure, 'en') : '');

const LETTERS = ['A', 'B', 'C', 'D'] as const;

/**
 * One row per item: id, task, the pick, the gold letter (empty when unreleased), each letter's
 * numbers, and the item's continuous scores (p_gold, logp_gold; empty where it has none: no key, a
 * failed item, a generated answer). A cloze run's file adds, per option, what its rules divide and
 * subtract by (characters, UTF-8 bytes, is_greedy, the sum after the answer cue alone) and each
 * rule's pick, so every number on its run page can be recomputed from the CSV; its logp_X are the
 * option texts' summed log-likelihoods.
 */
export function predictionsCsv(results: readonly McItemResult[], sample?: SampleDescription): string {
  const cloze = results.some((r) => r.cloze !== undefined);
  const rows = results.map((r) => {
    const row: Record<string, CsvValue> = {
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
    const continuous = continuousOf(r);
    row.p_gold = continuous?.pGold ?? '';
    row.logp_gold = continuous?.logPGold ?? '';
    if (cloze) Object.assign(row, clozeColumns(r, continuous?.bitsPerByte ?? null));
    row.prompt_sha256 = r.promptHash;
    // The exemplars this item's prompt held: fewer than the run's shots where the context limit cut them.
    row.shots_used = r.failure ? '' : r.shotsUsed;
    row.failed_code = r.failure?.code ?? '';
    row.failed = failedText(r.failure);
    if (sample) Object.assign(row, sampleCells(r.index, sample));
    return row;
  });
  const columns = [
    'item_id',
    'task',
    'prediction',
    'gold',
    'correct',
    ...LETTERS.flatMap((l) => [`p_${l}`, `logp_${l}`]),
    'p_gold',
    'logp_gold',
    ...(cloze ? CLOZE_COLUMNS : []),
    'prompt_sha256',
    'shots_used',
    'failed_code',
    'failed',
    ...(sample ? SAMPLE_COLUMNS : []),
  ];
  return csvDocument(columns, rows.map((row) => columns.map((c) => row[c])));
}

/**
 * What a run's sample is (issue 36), on every row so a spreadsheet filtered to some rows still says
 * it: `asked` the item's place in the order the run asked (1 first: a stopped run's rows are its first
 * ones), `sample` the sample in words ("random 50 of 200 per task", "first 50 per task in file
 * order", "every item"), `sample_seed` its seed (empty where none was recorded).
 */
const SAMPLE_COLUMNS = ['asked', 'sample', 'sample_seed'];

function sampleCells(index: number, d: SampleDescription): Record<string, CsvValue> {
  const of = d.populationPerTask !== null ? ` of ${d.populationPerTask}` : d.population !== null ? ` (${d.items} of ${d.population} in all)` : '';
  const words = d.draw === 'every' ? 'every item' : d.draw === 'first' ? `first ${d.perTask} per task in file order` : `random ${d.perTask}${of} per task`;
  return { asked: index + 1, sample: words, sample_seed: d.draw === 'random' && d.seed !== null ? d.seed : '' };
}

const OTHER_RULES = CLOZE_RULES.filter((rule) => rule !== 'acc');
const CLOZE_COLUMNS = [
  'bits_per_byte_gold',
  ...LETTERS.flatMap((l) => [`chars_${l}`, `bytes_${l}`, `greedy_${l}`, `logp_cue_${l}`]),
  ...OTHER_RULES.map((rule) => `prediction_${rule}`),
];

/** A cloze result's extra cells (empty for an item with no cloze numbers: a failed one). */
function clozeColumns(r: McItemResult, bitsPerByte: number | null): Record<string, CsvValue> {
  const row: Record<string, CsvValue> = { bits_per_byte_gold: bitsPerByte ?? '' };
  const c = r.cloze;
  for (const letter of LETTERS) {
    const k = r.letters.indexOf(letter);
    const has = c !== undefined && k >= 0;
    row[`chars_${letter}`] = has ? c.charCounts[k] : '';
    row[`bytes_${letter}`] = has ? c.byteCounts[k] : '';
    row[`greedy_${letter}`] = has ? (c.isGreedy[k] ? 1 : 0) : '';
    row[`logp_cue_${letter}`] = has && c.unconditional ? c.unconditional[k] : '';
  }
  for (const rule of OTHER_RULES) {
    const k = c ? clozePrediction(c, rule) : null;
    row[`prediction_${rule}`] = k === null ? '' : r.letters[k];
  }
  return row;
}

/** One row per generated item: id, task, the output, its references (joined by a blank line), how it stopped. */
export function generationCsv(results: readonly GenItemResult[], sample?: SampleDescription): string {
  const columns = ['item_id', 'task', 'generation_task', 'output', 'references', 'stopped_by', 'output_tokens', 'prompt_sha256', 'failed_code', 'failed', ...(sample ? SAMPLE_COLUMNS : [])];
  const data = results.map((r): CsvValue[] => [
    r.itemId,
    r.task,
    r.generationTask,
    r.output,
    r.references.join('\n\n'),
    r.failure ? '' : r.stoppedBy,
    r.failure ? '' : r.outputTokenIds.length,
    r.promptHash,
    r.failure?.code ?? '',
    failedText(r.failure),
    ...(sample ? SAMPLE_COLUMNS.map((c) => sampleCells(r.index, sample)[c]) : []),
  ]);
  return csvDocument(columns, data);
}

/**
 * The run record with its results, as one JSON document. The summary is the exporting page's own
 * numbers: an importer recomputes them from the results and lists any that differ, so a file whose
 * headline was edited by hand shows it. (Added within format version 1: readers treat it as optional.)
 */
export function runJson(run: RunRecord, results: readonly ItemResult[]): string {
  return `${JSON.stringify({ format: 'jiangu-run', formatVersion: 1, run, results, summary: runSummary(run, results) }, null, 2)}\n`;
}
