// Published results, as reference rows with their citations. Data, not code: every number below is
// transcribed from the cited paper and is never recomputed or corrected here. Where a transcribed row
// does not add up (e.g. an average that is not the mean of its scores) the paper's value is kept and
// the discrepancy is listed in KNOWN_TRANSCRIPTION_NOTES.
//
// Label rule: these rows are shown only beside runs of the same benchmark (isPublishedFor), and always
// labelled as the paper's numbers (publishedLabel), never as a run of this site.

import type { DatasetId } from './types.ts';

export type PublishedBenchmark = 'c3bench' | 'ancientbench';

export interface PublishedCitation {
  paper: string;
  authors: string;
  year: number;
  url: string;
  /** Where in the paper the numbers are, e.g. 'Table 5'. */
  where: string;
}

export interface PublishedRow {
  benchmark: PublishedBenchmark;
  model: string;
  /** The evaluation setting as the paper states it, e.g. 'zero-shot'. */
  setting: string;
  /** Task or competency key → percent (C3Bench translation: BLEU). */
  scores: Record<string, number>;
  citation: PublishedCitation;
}

export interface PublishedNotes {
  notes: string[];
}

export interface TranscriptionNote {
  benchmark: PublishedBenchmark;
  model: string;
  key: string;
  /** The value printed in the paper, kept as is in the row. */
  paperValue: number;
  /** The value the row's other numbers imply (e.g. the mean of the five task scores). */
  impliedValue: number;
  note: string;
}

/** The score keys each benchmark's rows may use. */
export const PUBLISHED_SCORE_KEYS: Readonly<Record<PublishedBenchmark, readonly string[]>> = {
  c3bench: ['classification', 'retrieval', 'ner', 'punctuation', 'translation', 'average'],
  ancientbench: ['overall', 'glyph', 'pronunciation', 'meaning', 'context'],
};

/** The five C3Bench tasks whose mean is the 'average' column. */
export const C3BENCH_TASK_KEYS = ['classification', 'retrieval', 'ner', 'punctuation', 'translation'] as const;

export const C3BENCH_CITATION: PublishedCitation = {
  paper: 'C3Bench: A Comprehensive Classical Chinese Understanding Benchmark for Large Language Models',
  authors: 'Jiahuan Cao, Yongxin Shi, Dezhi Peng, Yang Liu, Lianwen Jin',
  year: 2024,
  url: 'https://arxiv.org/abs/2405.17732',
  where: 'Table 5',
};

export const ANCIENTBENCH_CITATION: PublishedCitation = {
  paper: 'AncientBench: Towards Comprehensive Evaluation on Excavated and Transmitted Chinese Corpora',
  authors: 'Zhihan Zhou, Daqian Shi, Rui Song, Lida Shi, Xiaolei Diao, Hao Xu',
  year: 2025,
  url: 'https://arxiv.org/abs/2512.17756',
  where: 'averages stated in the text',
};

// [model, classification, retrieval, ner, punctuation, translation, average], C3Bench Table 5.
const C3BENCH_TABLE_5: readonly (readonly [string, number, number, number, number, number, number])[] = [
  ['Bloom-7B-Chunhua', 39.62, 13.36, 34.7, 62.19, 11.27, 33.23],
  ['Baichuan2-7B-Chat', 37.0, 18.36, 63.25, 53.96, 13.7, 37.15],
  ['Baichuan2-13B-Chat', 44.26, 17.79, 46.67, 65.11, 12.45, 37.26],
  ['ChatGLM2-6B', 50.28, 9.03, 28.56, 28.48, 6.76, 24.62],
  ['Qwen-7B-Chat', 49.65, 13.92, 28.33, 69.61, 15.61, 35.42],
  ['Qwen-14B-Chat', 44.93, 25.9, 66.72, 71.83, 15.38, 44.95],
  ['LLaMA2-Chinese-7B-Chat', 18.78, 3.2, 12.62, 34.73, 4.24, 14.71],
  ['LLaMA2-Chinese-13B-Chat', 28.75, 2.27, 9.31, 47.27, 5.91, 18.7],
  ['Moss-moon-003-SFT', 15.07, 15.84, 28.9, 58.39, 13.35, 26.3],
  ['GPT-3.5-turbo', 50.65, 7.36, 63.83, 61.34, 11.94, 39.02],
  ['GPT-4', 53.88, 13.71, 63.87, 67.31, 12.09, 42.17],
  ['ERNIE-bot-turbo', 50.7, 21.22, 9.61, 65.29, 10.66, 31.5],
  ['Spark-v3', 51.61, 21.83, 53.81, 85.38, 34.58, 49.44],
  ['abab5-chat', 52.2, 15.53, 34.64, 65.42, 10.56, 35.67],
  ['ChatGLM_Turbo', 56.15, 20.49, 30.04, 69.72, 10.91, 37.46],
];

const C3BENCH_ROWS: PublishedRow[] = [
  ...C3BENCH_TABLE_5.map(([model, classification, retrieval, ner, punctuation, translation, average]): PublishedRow => ({
    benchmark: 'c3bench',
    model,
    setting: 'as reported (Table 5)',
    scores: { classification, retrieval, ner, punctuation, translation, average },
    citation: C3BENCH_CITATION,
  })),
  {
    benchmark: 'c3bench',
    model: 'supervised models',
    setting: 'supervised (task-specific models)',
    // Only the four tasks the paper reports for supervised models; translation is BLEU.
    scores: { classification: 82.66, ner: 73.73, punctuation: 82.48, translation: 52.02 },
    citation: C3BENCH_CITATION,
  },
];

const ANCIENTBENCH_ROWS: PublishedRow[] = [
  { benchmark: 'ancientbench', model: 'Qwen-14B-Chat', setting: 'zero-shot', scores: { overall: 51.0 }, citation: ANCIENTBENCH_CITATION },
  { benchmark: 'ancientbench', model: 'Baichuan2-13B-Chat', setting: 'zero-shot', scores: { overall: 49.3 }, citation: ANCIENTBENCH_CITATION },
  { benchmark: 'ancientbench', model: 'GLM4-9b-chat', setting: 'zero-shot', scores: { overall: 49.29, meaning: 69.71 }, citation: ANCIENTBENCH_CITATION },
  {
    benchmark: 'ancientbench',
    model: 'Yi1.5-9B-Ancient',
    setting: 'zero-shot',
    scores: { overall: 50.28, glyph: 50.77, pronunciation: 32.3, meaning: 67.12 },
    citation: ANCIENTBENCH_CITATION,
  },
  { benchmark: 'ancientbench', model: 'Yi1.5-9B-Chat', setting: 'five-shot', scores: { overall: 50.8 }, citation: ANCIENTBENCH_CITATION },
  { benchmark: 'ancientbench', model: 'Yi1.5-9B-Ancient', setting: 'five-shot', scores: { overall: 50.83 }, citation: ANCIENTBENCH_CITATION },
];

/** All published reference rows, C3Bench first, each benchmark in the paper's order. */
export const PUBLISHED_ROWS: readonly PublishedRow[] = Object.freeze(
  [...C3BENCH_ROWS, ...ANCIENTBENCH_ROWS].map((row) => Object.freeze({ ...row, scores: Object.freeze({ ...row.scores }), citation: Object.freeze({ ...row.citation }) })),
);

/** Statements from the papers that are not rows. */
export const PUBLISHED_NOTES: Readonly<Record<PublishedBenchmark, PublishedNotes>> = {
  c3bench: { notes: ['Supervised models are reported for classification, NER, punctuation and translation (BLEU) only; no retrieval or average.'] },
  ancientbench: { notes: ['human average 4.13 points above Qwen-14B-Chat'] },
};

/**
 * Rows whose printed numbers do not agree with each other, with the paper's value kept in the row.
 * C3Bench's average is the mean of its five task scores; a row is listed when the printed average is
 * more than 0.01 away from the mean of the printed (rounded) scores.
 */
export const KNOWN_TRANSCRIPTION_NOTES: readonly TranscriptionNote[] = [
  {
    benchmark: 'c3bench',
    model: 'Bloom-7B-Chunhua',
    key: 'average',
    paperValue: 33.23,
    impliedValue: 32.228,
    note: 'Table 5 prints 33.23; the mean of the five printed task scores is 32.228 (1.00 lower). Kept as printed.',
  },
  {
    benchmark: 'c3bench',
    model: 'Baichuan2-7B-Chat',
    key: 'average',
    paperValue: 37.15,
    impliedValue: 37.254,
    note: 'Table 5 prints 37.15; the mean of the five printed task scores is 37.254 (0.10 higher). Kept as printed.',
  },
];

/** The published rows of one benchmark, in the paper's order (a new array of the frozen rows). */
export function publishedRows(benchmark: PublishedBenchmark): PublishedRow[] {
  return PUBLISHED_ROWS.filter((row) => row.benchmark === benchmark);
}

/** Whether a dataset has published rows to show beside its runs: only C3Bench and AncientBench. */
export function isPublishedFor(datasetId: DatasetId | string): datasetId is PublishedBenchmark {
  return datasetId === 'c3bench' || datasetId === 'ancientbench';
}

/** Rows to show beside a run of this dataset: its own benchmark's rows, none for any other. */
export function publishedRowsFor(datasetId: DatasetId | string): PublishedRow[] {
  return isPublishedFor(datasetId) ? publishedRows(datasetId) : [];
}

/** The label a published row is shown with: the paper's, never the site's. */
export function publishedLabel(row: PublishedRow): string {
  return `${row.model} (${row.setting}), as published: ${row.citation.paper} (${row.citation.year}), ${row.citation.where}`;
}
