import type { DatasetId, MultipleChoiceItem, OptionLetter, Split } from '../../../src/lib/core/benchmarks/types.ts';

/** A multiple-choice item with short defaults; override what the test is about. */
export function mcItem(fields: Partial<MultipleChoiceItem> & { id: string; datasetId: DatasetId; task: string }): MultipleChoiceItem {
  return {
    kind: 'multiple-choice',
    split: 'test' as Split,
    order: 0,
    source: { file: 'test.csv', line: 2 },
    question: 'q',
    options: ['a', 'b', 'c', 'd'],
    answer: 'A' as OptionLetter,
    ...fields,
  };
}

/** Dev exemplars q0…q{count-1} with options a0…d0 and answers cycling A, B, C, D. */
export function devItems(datasetId: DatasetId, task: string, count: number): MultipleChoiceItem[] {
  const letters: OptionLetter[] = ['A', 'B', 'C', 'D'];
  return Array.from({ length: count }, (_, i) =>
    mcItem({
      id: `${task}/dev/${i}`,
      datasetId,
      task,
      split: 'dev',
      order: i,
      question: `q${i}`,
      options: [`a${i}`, `b${i}`, `c${i}`, `d${i}`],
      answer: letters[i % 4],
    }),
  );
}
