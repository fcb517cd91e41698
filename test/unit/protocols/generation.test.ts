import { describe, expect, it } from 'vitest';
import type { GenerationItem } from '../../../src/lib/core/benchmarks/types.ts';
import { buildGenerationPrompt, generationTemplateHash } from '../../../src/lib/core/protocols/generation.ts';

const item = (over: Partial<GenerationItem>): GenerationItem => ({
  kind: 'generation',
  id: '0/ner',
  datasetId: 'c3bench',
  task: 'ner',
  split: 'test',
  order: 0,
  source: { file: 'C3_bench.json', line: 0 },
  generationTask: 'ner',
  input: '子曰学而时习之',
  references: ['子'],
  ...over,
});

describe('C3Bench prompts (the paper, Table 4)', () => {
  it.each([
    ['classification', '不需要解释，直接从“诗、史、儒、道、佛、农、法、艺、医、兵”中选择一个类别输出，判断下列文言文的类别：子曰学而时习之'],
    ['retrieval', '不需要解释，直接给出下列文言文出处书名：子曰学而时习之'],
    ['ner', '找出下列文言文中的命名实体。若无实体，输出“无”；若有实体，直接输出实体，多个实体之间用“、”分隔：子曰学而时习之'],
    ['punctuation', '不需要解释，直接输出下列文言文添加标点符号后的结果：子曰学而时习之'],
    ['translation', '不需要解释，直接输出下列文言文的白话文翻译：子曰学而时习之'],
  ] as const)('%s', (task, expected) => {
    expect(buildGenerationPrompt(item({ task, generationTask: task }))).toBe(expected);
  });

  it("lists WenMind's own labels and mirrors the prompt for its modern-to-classical 白文翻译", () => {
    expect(buildGenerationPrompt(item({ datasetId: 'wenmind', task: '主题分类', generationTask: 'classification' }))).toBe(
      '不需要解释，直接从“佛、史、诗、集、子、易、艺、医、道、儒”中选择一个类别输出，判断下列文言文的类别：子曰学而时习之',
    );
    expect(buildGenerationPrompt(item({ datasetId: 'wenmind', task: '白文翻译', generationTask: 'translation', input: '孔子说' }))).toBe(
      '不需要解释，直接输出下列白话文的文言文翻译：孔子说',
    );
    expect(buildGenerationPrompt(item({ datasetId: 'wenmind', task: '文白翻译', generationTask: 'translation' }))).toMatch(/的白话文翻译：/);
  });

  it('has a pinned template hash: any change to a prompt changes it, and must be deliberate', async () => {
    expect(await generationTemplateHash()).toBe('9ab6d2b8f06d08f72170931502e02df21ce5b4f8feb5530a47d2d1b2614981bd');
  });
});
