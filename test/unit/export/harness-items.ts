// Synthetic items (no benchmark data) for the runs of issue 21 through the harness stand-in
// (test/fixtures/lm-eval/harness.py): AC-EVAL-shaped tasks without keys, a WenMind-shaped benchmark
// with multiple-choice and generation tasks, and ACLUE tasks of four-option items for a circular run.
import type { DatasetId, GenerationItem, GenerationTask, MultipleChoiceItem, OptionLetter, Split } from '../../../src/lib/core/benchmarks/types.ts';

const OPTIONS = ['甲', '乙', '丙', '丁'];

function mc(datasetId: DatasetId, task: string, split: Split, order: number, answer: OptionLetter | null, options = OPTIONS): MultipleChoiceItem {
  return {
    kind: 'multiple-choice',
    id: `${task}/${split}/${order}`,
    datasetId,
    task,
    split,
    order,
    source: { file: `data/${split}/${task}.csv`, line: order + 2 },
    question: `虚构题（${task}${split === 'dev' ? '例' : ''}${order}）：下列哪一项正确？`,
    options: options.map((o) => `${o}${order}`),
    answer,
  };
}

function gen(task: string, generationTask: GenerationTask, order: number, input: string, reference: string): GenerationItem {
  return { kind: 'generation', id: `${task}/test/${order}`, datasetId: 'wenmind', task, split: 'test', order, source: { file: 'WenMind.json', line: order }, generationTask, input, references: [reference] };
}

const LETTERS: OptionLetter[] = ['A', 'B', 'C', 'D'];

/**
 * Two AC-EVAL tasks, three test items each with no key (the benchmark keeps its test answers), and
 * five dev items each with one, so a 5-shot prompt has its exemplars (summarization_and_analysis is
 * capped at one by the protocol).
 */
export const KEYLESS_ITEMS: MultipleChoiceItem[] = ['historical_facts', 'summarization_and_analysis'].flatMap((task) => [
  ...Array.from({ length: 5 }, (_, i) => mc('ac-eval', task, 'dev', i, LETTERS[i % 4])),
  ...Array.from({ length: 3 }, (_, i) => mc('ac-eval', task, 'test', i, null)),
]);

/** Two WenMind multiple-choice tasks (two items each, one with three options) and two generation tasks. */
export const WENMIND_ITEMS = [
  mc('wenmind', '虚词', 'test', 0, 'A'),
  mc('wenmind', '虚词', 'test', 1, 'C', ['甲', '乙', '丙']),
  mc('wenmind', '通假字', 'test', 0, 'B'),
  mc('wenmind', '通假字', 'test', 1, 'A'),
  gen('句读', 'punctuation', 0, '学而时习之不亦说乎', '学而时习之，不亦说乎？'),
  gen('句读', 'punctuation', 1, '有朋自远方来不亦乐乎', '有朋自远方来，不亦乐乎？'),
  gen('主题分类', 'classification', 0, '子曰：温故而知新。', '儒'),
];

/**
 * Two ACLUE tasks of three four-option items each (gold B, C, D in turn), so a model that always
 * says A is wrong on every item's own order but right on one rotation of each: rotation 0's accuracy
 * (0) and the mean over every rotated doc (25%) differ.
 */
export const ROTATED_ITEMS: MultipleChoiceItem[] = ['通假字', '古文断句'].flatMap((task) =>
  Array.from({ length: 3 }, (_, i) => mc('aclue', task, 'test', i, LETTERS[1 + (i % 3)])),
);

export const HARNESS_FILES = [{ path: 'data/test/synthetic.csv', sha256: 'c'.repeat(64), bytes: 10 }];
