import { beforeAll, expect, it } from 'vitest';
import { adaptDataset } from '../../../src/lib/core/benchmarks/adapters/index.ts';
import type { MultipleChoiceItem } from '../../../src/lib/core/benchmarks/types.ts';
import { rowHash } from './helpers.ts';
import { describeWithSharedData, readCatalogFiles } from './shared-data.ts';

// data/test/<subject>.csv record counts, SOURCE.md.
const TEST_COUNTS: Record<string, number> = {
  allusions_and_idioms: 206,
  art_and_cultural_heritage: 195,
  event_extraction: 185,
  geography: 197,
  historical_facts: 199,
  lexical_pragmatics_analysis: 198,
  philosophy_and_religion: 196,
  poetry_appreciation: 201,
  sentence_pauses: 202,
  social_customs: 202,
  summarization_and_analysis: 598,
  translation: 199,
  word_sense_disambiguation: 402,
};

describeWithSharedData('AC-EVAL adapter on the shared copy', (root) => {
  let items: MultipleChoiceItem[];
  beforeAll(() => {
    items = adaptDataset('ac-eval', readCatalogFiles(root, 'ac-eval')).items as MultipleChoiceItem[];
  });
  const find = (id: string) => items.find((item) => item.id === id)!;

  it('has 3,180 test items without answers, per subject as in SOURCE.md', () => {
    const test = items.filter((item) => item.split === 'test');
    expect(test.length).toBe(3180);
    expect(test.every((item) => item.answer === null && item.explanation === undefined)).toBe(true);
    for (const [task, count] of Object.entries(TEST_COUNTS)) expect(test.filter((item) => item.task === task).length, task).toBe(count);
  });

  it('has 65 dev items, 5 per subject, each with an answer letter and an explanation', () => {
    const dev = items.filter((item) => item.split === 'dev');
    expect(dev.length).toBe(65);
    for (const task of Object.keys(TEST_COUNTS)) expect(dev.filter((item) => item.task === task).length).toBe(5);
    expect(dev.every((item) => item.answer !== null && ['A', 'B', 'C', 'D'].includes(item.answer))).toBe(true);
    expect(dev.every((item) => (item.explanation ?? '').length > 0)).toBe(true);
  });

  it.each([
    // Hash as read by Python's csv module: test rows Question,A–D; the dev row adds Answer, Explanation.
    ['translation/test/16', 18, 'b862a3915ededdaac8604c718b3d09139d8a5d27a1b116d783db40f24f7c4461'],
    ['translation/test/123', 130, '115f5e1a960734eb9ce0b745892d2146ce0e43a678bb83dd50a1b5e833b57800'],
    ['geography/test/96', 98, 'd8a1a23f0ff0e6f241a9b3a08a0de6f486557d109c9ed39a78ba71ad5cc89814'],
  ])('%s (line %i, a multi-line row) equals the raw row', (id, line, hash) => {
    const item = find(id);
    expect(item.source.line).toBe(line);
    expect(rowHash([item.question, ...item.options])).toBe(hash);
  });

  it('keeps the answer and explanation of a multi-line dev row', () => {
    const item = find('social_customs/dev/4');
    expect(item.source.line).toBe(6);
    expect(rowHash([item.question, ...item.options, item.answer ?? '', item.explanation ?? ''])).toBe(
      'a5f626e9b8fee96fcf72382c5cebc730da43eccb9fb0936c0883a9b3117c3b43',
    );
  });
});
