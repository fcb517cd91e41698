// WenMind against the shared copy. Records are read back with JSON.parse to compare items with the
// raw questions; option parsing is checked by rebuilding the raw question from stem and options.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { adaptDataset, stripPunctuation, type AdaptResult } from '../../../src/lib/core/benchmarks/adapters/index.ts';
import { WENMIND_TOPIC_LABELS } from '../../../src/lib/core/benchmarks/catalog-tasks.ts';
import { summarizeItems } from '../../../src/lib/core/benchmarks/summary.ts';
import type { GenerationItem, Item, MultipleChoiceItem } from '../../../src/lib/core/benchmarks/types.ts';
import { describeWithSharedData, readCatalogFiles } from './shared-data.ts';

interface Raw {
  id: number;
  question_format: string;
  coarse_grained_task_zh: string;
  question: string;
  answer: string;
}

describeWithSharedData('WenMind adapter on the shared copy', (root) => {
  let result: AdaptResult;
  let raw: Map<string, Raw>;
  beforeAll(() => {
    result = adaptDataset('wenmind', readCatalogFiles(root, 'wenmind'));
    const records = JSON.parse(readFileSync(join(root, 'wenmind/WenMind_Benchmark/WenMind_ver1.json'), 'utf8')) as Raw[];
    raw = new Map(records.map((record) => [String(record.id), record]));
  });
  const item = (id: string): Item => result.items.find((i) => i.id === id)!;
  const mcq = (id: string) => item(id) as MultipleChoiceItem;

  it('accounts for all 4,875 records: imported or skipped with a reason', () => {
    const skipped = result.skipped.reduce((sum, group) => sum + group.count, 0);
    expect(result.items.length + skipped).toBe(4875);
    expect(raw.size).toBe(4875);
  });

  it('imports 703 of the 917 MCQ items and says why the other 214 are left out', () => {
    const choice = result.items.filter((i) => i.kind === 'multiple-choice');
    expect(choice.length).toBe(703);
    expect(summarizeItems(choice).tasks).toEqual({
      虚词: { dev: 0, test: 100 },
      单字多义: { dev: 0, test: 200 },
      通假字: { dev: 0, test: 200 },
      句式: { dev: 0, test: 50 },
      国学常识问答: { dev: 0, test: 16 },
      古汉语音韵: { dev: 0, test: 100 },
      古诗词赏析: { dev: 0, test: 37 },
    });
    const notImported = result.skipped.filter((g) => g.reason !== 'task-not-imported');
    expect(notImported.map(({ task, reason, count }) => [task, reason, count])).toEqual([
      ['国学常识问答', 'more-than-four-options', 1],
      ['情感分类', 'answer-not-a-letter', 200],
      ['古诗词赏析', 'multiple-answers', 13],
    ]);
    expect(notImported[0].examples).toEqual(['1054']);
  });

  it('skips the 2,958 QA and FB items outside the five generation tasks', () => {
    const groups = result.skipped.filter((g) => g.reason === 'task-not-imported');
    expect(groups.reduce((sum, g) => sum + g.count, 0)).toBe(2958);
    expect(groups.find((g) => g.task === '句式')?.count).toBe(50); // its 50 QA items; its 50 MCQ are imported
  });

  it('imports 200 items for each generation task', () => {
    const generation = result.items.filter((i): i is GenerationItem => i.kind === 'generation');
    expect(summarizeItems(generation).tasks).toEqual({
      白文翻译: { dev: 0, test: 200 },
      命名实体识别: { dev: 0, test: 200 },
      句读: { dev: 0, test: 200 },
      文白翻译: { dev: 0, test: 200 },
      主题分类: { dev: 0, test: 200 },
    });
  });

  it('parses options separated by two spaces after a newline (id 0)', () => {
    const { question, options, answer } = mcq('0');
    expect(options.length).toBe(4);
    expect(`${question}\n${options.map((o, k) => `${'ABCD'[k]}、${o}`).join('  ')}`).toBe(raw.get('0')!.question);
    expect(answer).toBe(raw.get('0')!.answer);
  });

  it('parses the eight three-option 虚词 items', () => {
    const three = result.items.filter((i): i is MultipleChoiceItem => i.kind === 'multiple-choice' && i.task === '虚词' && i.options.length === 3);
    expect(three.map((i) => i.id)).toEqual(['3', '9', '16', '29', '45', '54', '67', '80']);
    for (const { id, question, options } of three) {
      expect(`${question}\n${options.map((o, k) => `${'ABC'[k]}、${o}`).join('  ')}`).toBe(raw.get(id)!.question);
    }
  });

  it('parses two options on the question line (id 969) and options without separators (id 1057)', () => {
    const two = mcq('969');
    expect(`${two.question} A、${two.options[0]} B、${two.options[1]}`).toBe(raw.get('969')!.question);
    const bare = mcq('1057');
    expect(`${bare.question}A${bare.options[0]}B${bare.options[1]}C${bare.options[2]}`).toBe(raw.get('1057')!.question);
    expect(bare.answer).toBe('C');
  });

  it('does not split pinyin options at their capital letters (id 1983)', () => {
    const { question, options } = mcq('1983');
    expect(options.length).toBe(4);
    expect(options.every((option) => /^[\p{Script=Latin} ]+$/u.test(option))).toBe(true);
    expect(raw.get('1983')!.question.startsWith(question)).toBe(true);
  });

  it('keeps upstream ids and record indexes', () => {
    expect(mcq('1057').source).toEqual({ file: 'WenMind_Benchmark/WenMind_ver1.json', line: 1057 });
    expect(new Set(result.items.map((i) => i.id)).size).toBe(result.items.length);
    expect(result.items.every((i) => i.split === 'test')).toBe(true);
  });

  it('takes the text after the instruction line as the input of generation items', () => {
    for (const i of result.items) {
      if (i.kind !== 'generation') continue;
      const [instruction, text, ...rest] = raw.get(i.id)!.question.split('\n');
      expect(rest).toEqual([]);
      expect(instruction.length).toBeGreaterThan(0);
      expect(i.input).toBe(text);
    }
  });

  it('joins NER answers with 、 and drops the empty entries of two answers', () => {
    const ner = result.items.filter((i): i is GenerationItem => i.kind === 'generation' && i.generationTask === 'ner');
    for (const i of ner) {
      const entities = raw.get(i.id)!.answer.split('，').filter((e) => e !== '');
      expect(i.references).toEqual([entities.join('、')]);
    }
    expect(ner.filter((i) => raw.get(i.id)!.answer.includes('，，')).length).toBe(2);
  });

  it('stores topic labels in one-character form, from WenMind’s own ten', () => {
    const topics = result.items.filter((i): i is GenerationItem => i.kind === 'generation' && i.generationTask === 'classification');
    for (const i of topics) {
      expect(`${i.references[0]}藏`).toBe(raw.get(i.id)!.answer);
      expect(WENMIND_TOPIC_LABELS).toContain(i.references[0]);
    }
    expect(new Set(topics.map((i) => i.references[0])).size).toBe(10);
  });

  it('has punctuation inputs equal to their references with C3_PUNCTUATION removed, but for one upstream slip', () => {
    const punctuation = result.items.filter((i): i is GenerationItem => i.kind === 'generation' && i.generationTask === 'punctuation');
    const mismatched = punctuation.filter((i) => stripPunctuation(i.references[0]) !== i.input).map((i) => i.id);
    // Upstream drops one character (㮈, U+3B88) from the end of the input of item 4071; the reference has it.
    expect(mismatched).toEqual(['4071']);
    const slip = item('4071') as GenerationItem;
    expect(stripPunctuation(slip.references[0])).toBe(`${slip.input}㮈`);
  });

  it('keeps the direction of 白文翻译: modern input, classical reference', () => {
    const i = item('600') as GenerationItem;
    expect([i.task, i.generationTask]).toEqual(['白文翻译', 'translation']);
    expect(`把白话文翻译为文言文：\n${i.input}`).toBe(raw.get('600')!.question);
    expect(i.references).toEqual([raw.get('600')!.answer]);
  });
});
