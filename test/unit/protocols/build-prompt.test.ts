import { describe, expect, it } from 'vitest';
import { buildMcPrompt } from '../../../src/lib/core/protocols/build-prompt.ts';
import { getProtocol, protocolForDataset, shotsFor } from '../../../src/lib/core/protocols/mc-protocols.ts';
import { zeroShotPrompt } from '../../../src/lib/core/protocols/multiple-choice.ts';
import { devItems, mcItem } from './helpers.ts';

const cmmlu = getProtocol('cmmlu');
const acEval = getProtocol('ac-eval');
const wenmind = getProtocol('wenmind-mc');

const cmmluItem = mcItem({
  id: 'ancient_chinese/test/0',
  datasetId: 'cmmlu-ancient',
  task: 'ancient_chinese',
  question: '“之”在句中的用法是',
  options: ['代词', '助词', '动词', '介词'],
  answer: 'B',
});

/** Shuffled on purpose: exemplars are chosen by `order`, not by array position. */
const shuffle = <T>(items: T[]): T[] => [items[3], items[5], items[0], items[4], items[2], items[1]];

describe('cmmlu', () => {
  it('zero-shot, character for character', () => {
    const built = buildMcPrompt(cmmlu, cmmluItem, [], 0);
    expect(built.prompt).toBe(
      '以下是关于古汉语的单项选择题，请直接给出正确答案的选项。\n\n题目：“之”在句中的用法是\nA. 代词\nB. 助词\nC. 动词\nD. 介词\n答案是：',
    );
    expect(built.prefix).toBe('以下是关于古汉语的单项选择题，请直接给出正确答案的选项。\n\n');
    expect(built).toMatchObject({ subject: '古汉语', shotsPlanned: 0, shotsUsed: 0, exemplarIds: [], droppedExemplarIds: [], letters: ['A', 'B', 'C', 'D'], overLimit: false });
  });

  it('agrees with the playground zeroShotPrompt', () => {
    expect(buildMcPrompt(cmmlu, cmmluItem, [], 0).prompt).toBe(zeroShotPrompt('古汉语', cmmluItem));
  });

  it('five-shot: the first five dev items by order, each with its answer and a blank line', () => {
    const dev = shuffle(devItems('cmmlu-ancient', 'ancient_chinese', 6));
    const built = buildMcPrompt(cmmlu, cmmluItem, dev, 5);
    const prefix =
      '以下是关于古汉语的单项选择题，请直接给出正确答案的选项。\n\n' +
      '题目：q0\nA. a0\nB. b0\nC. c0\nD. d0\n答案是：A\n\n' +
      '题目：q1\nA. a1\nB. b1\nC. c1\nD. d1\n答案是：B\n\n' +
      '题目：q2\nA. a2\nB. b2\nC. c2\nD. d2\n答案是：C\n\n' +
      '题目：q3\nA. a3\nB. b3\nC. c3\nD. d3\n答案是：D\n\n' +
      '题目：q4\nA. a4\nB. b4\nC. c4\nD. d4\n答案是：A\n\n';
    const itemPart = '题目：“之”在句中的用法是\nA. 代词\nB. 助词\nC. 动词\nD. 介词\n答案是：';
    expect(built.prefix).toBe(prefix);
    expect(built.prompt).toBe(prefix + itemPart);
    expect(built.shotsUsed).toBe(5);
    expect(built.exemplarIds).toEqual(['ancient_chinese/dev/0', 'ancient_chinese/dev/1', 'ancient_chinese/dev/2', 'ancient_chinese/dev/3', 'ancient_chinese/dev/4']);
  });

  it('takes the first k by order even when k < 5', () => {
    const built = buildMcPrompt(cmmlu, cmmluItem, shuffle(devItems('cmmlu-ancient', 'ancient_chinese', 6)), 2);
    expect(built.exemplarIds).toEqual(['ancient_chinese/dev/0', 'ancient_chinese/dev/1']);
  });

  it('sorts by order, not by id or array position', () => {
    // Ids that sort the other way round from `order`.
    const dev = devItems('cmmlu-ancient', 'ancient_chinese', 6).map((d) => ({ ...d, id: `dev-${'zyxwvu'[d.order]}` }));
    const built = buildMcPrompt(cmmlu, cmmluItem, shuffle(dev), 3);
    expect(built.exemplarIds).toEqual(['dev-z', 'dev-y', 'dev-x']);
    expect(built.prefix).toMatch(/^[^]*题目：q0[^]*题目：q1[^]*题目：q2\n[^]*答案是：C\n\n$/);
  });

  it('uses what there is when the dev split is shorter than the shots', () => {
    const built = buildMcPrompt(cmmlu, cmmluItem, devItems('cmmlu-ancient', 'ancient_chinese', 3), 5);
    expect(built).toMatchObject({ shotsPlanned: 5, shotsUsed: 3, droppedExemplarIds: [] });
  });

  it('gives every item of a task the same prefix', () => {
    const dev = devItems('cmmlu-ancient', 'ancient_chinese', 5);
    const other = mcItem({ id: 'ancient_chinese/test/1', datasetId: 'cmmlu-ancient', task: 'ancient_chinese', question: '另一题', options: ['甲', '乙'] });
    const a = buildMcPrompt(cmmlu, cmmluItem, dev, 5);
    const b = buildMcPrompt(cmmlu, other, dev, 5);
    expect(b.prefix).toBe(a.prefix);
    expect(b.prompt).toBe(`${a.prefix}题目：另一题\nA. 甲\nB. 乙\n答案是：`);
    expect(b.letters).toEqual(['A', 'B']);
  });

  it('leaves braces in dataset text alone', () => {
    const item = mcItem({ id: 'x', datasetId: 'cmmlu-ancient', task: 'ancient_chinese', question: '{options}{subject}', options: ['{n}', '{letter}'] });
    expect(buildMcPrompt(cmmlu, item, [], 0).prompt).toBe(
      '以下是关于古汉语的单项选择题，请直接给出正确答案的选项。\n\n题目：{options}{subject}\nA. {n}\nB. {letter}\n答案是：',
    );
  });
});

describe('ac-eval', () => {
  const item = mcItem({
    id: 'historical_facts/test/0',
    datasetId: 'ac-eval',
    task: 'historical_facts',
    question: '秦统一六国在哪一年？',
    options: ['前221年', '前206年', '前202年', '前230年'],
    answer: null,
  });

  it('zero-shot: its own instruction and 答案：', () => {
    const built = buildMcPrompt(acEval, item, [], 0);
    expect(built.prompt).toBe(
      '以下是中国古代历史史实领域的单项选择题，请直接给出正确答案对应的选项。\n\n题目：秦统一六国在哪一年？\nA. 前221年\nB. 前206年\nC. 前202年\nD. 前230年\n答案：',
    );
    expect(built.subject).toBe('历史史实');
  });

  it('five-shot: prompt_few and numbered 示例 exemplars, as the AC-EVAL code', () => {
    const dev = shuffle(devItems('ac-eval', 'historical_facts', 6));
    const built = buildMcPrompt(acEval, item, dev, 5);
    const prefix =
      '以下是中国古代历史史实领域的单项选择题。在查看这些示例之后，请直接给出接下来一道题目的正确答案所对应的选项。\n\n' +
      '示例1：q0\nA. a0\nB. b0\nC. c0\nD. d0\n答案：A\n\n' +
      '示例2：q1\nA. a1\nB. b1\nC. c1\nD. d1\n答案：B\n\n' +
      '示例3：q2\nA. a2\nB. b2\nC. c2\nD. d2\n答案：C\n\n' +
      '示例4：q3\nA. a3\nB. b3\nC. c3\nD. d3\n答案：D\n\n' +
      '示例5：q4\nA. a4\nB. b4\nC. c4\nD. d4\n答案：A\n\n';
    expect(built.prefix).toBe(prefix);
    expect(built.prompt).toBe(`${prefix}题目：秦统一六国在哪一年？\nA. 前221年\nB. 前206年\nC. 前202年\nD. 前230年\n答案：`);
    expect(built.shotsUsed).toBe(5);
  });

  it('caps long-text tasks as the AC-EVAL code does (3, and 1 for summarization)', () => {
    expect(shotsFor(acEval, 'translation', 5)).toBe(3);
    expect(shotsFor(acEval, 'summarization_and_analysis', 5)).toBe(1);
    expect(shotsFor(acEval, 'geography', 5)).toBe(5);
    expect(shotsFor(acEval, 'translation', 0)).toBe(0);
    const translation = mcItem({ id: 't', datasetId: 'ac-eval', task: 'translation' });
    const built = buildMcPrompt(acEval, translation, devItems('ac-eval', 'translation', 5), 5);
    expect(built).toMatchObject({ subject: '古文翻译', shotsPlanned: 3, shotsUsed: 3 });
    expect(built.prefix).toMatch(/示例3：q2[^]*答案：C\n\n$/);
  });
});

describe('wenmind-mc', () => {
  const item = mcItem({
    id: '1024',
    datasetId: 'wenmind',
    task: '虚词',
    question: '“而”在“学而时习之”中的用法是：',
    options: ['表顺承', '表转折', '表修饰'],
    answer: 'A',
  });

  it('a three-option item lays out A to C only', () => {
    const built = buildMcPrompt(wenmind, item, [], 0);
    expect(built.prompt).toBe(
      '以下是关于虚词的单项选择题，请直接给出正确答案的选项。\n\n题目：“而”在“学而时习之”中的用法是：\nA. 表顺承\nB. 表转折\nC. 表修饰\n答案是：',
    );
    expect(built.letters).toEqual(['A', 'B', 'C']);
  });

  it('is zero-shot only', () => {
    expect(() => buildMcPrompt(wenmind, item, [], 1)).toThrow(/0 to 0 shots/);
  });
});

describe('aclue and ancientbench', () => {
  it('aclue: the subject is the file name (the task key)', () => {
    const item = mcItem({ id: 'a', datasetId: 'aclue', task: '通假字', question: 'q', options: ['x', 'y', 'z', 'w'] });
    expect(buildMcPrompt(getProtocol('aclue'), item, [], 0).prompt).toBe(
      '以下是关于通假字的单项选择题，请直接给出正确答案的选项。\n\n题目：q\nA. x\nB. y\nC. z\nD. w\n答案是：',
    );
  });

  it('ancientbench: the subject is the task name in Chinese, 0 or 5 shots', () => {
    const item = mcItem({ id: 'r', datasetId: 'ancientbench', task: 'Radical', question: '“江”的部首是', options: ['氵', '工', '水', '口'] });
    const zero = buildMcPrompt(getProtocol('ancientbench'), item, [], 0);
    expect(zero.prompt).toBe('以下是关于部首的单项选择题，请直接给出正确答案的选项。\n\n题目：“江”的部首是\nA. 氵\nB. 工\nC. 水\nD. 口\n答案是：');
    const five = buildMcPrompt(getProtocol('ancientbench'), item, devItems('ancientbench', 'Radical', 5), 5);
    expect(five.prompt.startsWith('以下是关于部首的单项选择题，请直接给出正确答案的选项。\n\n题目：q0\nA. a0\n')).toBe(true);
    expect(five.prompt).toBe(five.prefix + '题目：“江”的部首是\nA. 氵\nB. 工\nC. 水\nD. 口\n答案是：');
  });

  it('refuses a task the catalog does not know when the subject comes from it', () => {
    const item = mcItem({ id: 'u', datasetId: 'ancientbench', task: 'Unknown' });
    expect(() => buildMcPrompt(getProtocol('ancientbench'), item, [], 0)).toThrow(/not in the ancientbench catalog/);
  });
});

describe('protocolForDataset', () => {
  it('maps every multiple-choice dataset and refuses C3Bench', () => {
    expect(protocolForDataset('cmmlu-ancient').id).toBe('cmmlu');
    expect(protocolForDataset('aclue').id).toBe('aclue');
    expect(protocolForDataset('ac-eval').id).toBe('ac-eval');
    expect(protocolForDataset('wenmind').id).toBe('wenmind-mc');
    expect(protocolForDataset('ancientbench').id).toBe('ancientbench');
    expect(() => protocolForDataset('c3bench')).toThrow(RangeError);
  });
});

describe('the context limit', () => {
  // countTokens = characters. Instruction 30, item part 30; exemplar texts 33 (e0), 37 (e1), 35 (e2),
  // 37 (e3): 31 fixed characters plus the question. Four shots: 30 + 142 + 30 = 202.
  const mk = (id: string, order: number, question: string) =>
    mcItem({ id, datasetId: 'cmmlu-ancient', task: 'ancient_chinese', split: 'dev', order, question, options: ['a', 'b', 'c', 'd'], answer: 'A' });
  const dev = [mk('e2', 2, 'cccc'), mk('e0', 0, 'aa'), mk('e3', 3, 'dddddd'), mk('e1', 1, 'bbbbbb')];
  const item = mcItem({ id: 't0', datasetId: 'cmmlu-ancient', task: 'ancient_chinese', question: 'QQ', options: ['a', 'b', 'c', 'd'] });
  const chars = (text: string) => text.length;
  const build = (contextLimit: number) => buildMcPrompt(cmmlu, item, dev, 4, { countTokens: chars, contextLimit });

  it('keeps every exemplar when the prompt fits (limit inclusive)', () => {
    const built = build(202);
    expect(built.prompt).toHaveLength(202);
    expect(built).toMatchObject({ shotsUsed: 4, exemplarIds: ['e0', 'e1', 'e2', 'e3'], droppedExemplarIds: [], overLimit: false });
  });

  it('drops the longest exemplar, the later one on a tie', () => {
    const built = build(201);
    expect(built.prompt).toHaveLength(165);
    expect(built).toMatchObject({ shotsUsed: 3, exemplarIds: ['e0', 'e1', 'e2'], droppedExemplarIds: ['e3'], overLimit: false });
  });

  it('drops one at a time until it fits', () => {
    const built = build(164);
    expect(built.prompt).toHaveLength(128);
    expect(built).toMatchObject({ shotsUsed: 2, exemplarIds: ['e0', 'e2'], droppedExemplarIds: ['e3', 'e1'], overLimit: false });
    expect(built.prompt).toBe(
      '以下是关于古汉语的单项选择题，请直接给出正确答案的选项。\n\n题目：aa\nA. a\nB. b\nC. c\nD. d\n答案是：A\n\n题目：cccc\nA. a\nB. b\nC. c\nD. d\n答案是：A\n\n题目：QQ\nA. a\nB. b\nC. c\nD. d\n答案是：',
    );
  });

  it('returns the zero-shot prompt flagged overLimit when even that is too long', () => {
    const fits = build(60);
    expect(fits).toMatchObject({ shotsUsed: 0, droppedExemplarIds: ['e3', 'e1', 'e2', 'e0'], overLimit: false });
    const over = build(59);
    expect(over).toMatchObject({ shotsUsed: 0, droppedExemplarIds: ['e3', 'e1', 'e2', 'e0'], overLimit: true });
    expect(over.prompt).toBe('以下是关于古汉语的单项选择题，请直接给出正确答案的选项。\n\n题目：QQ\nA. a\nB. b\nC. c\nD. d\n答案是：');
    expect(over.prefix + '题目：QQ\nA. a\nB. b\nC. c\nD. d\n答案是：').toBe(over.prompt);
  });

  it('defaults to 2048 and is not checked without countTokens', () => {
    const long = [mk('L', 0, '长'.repeat(3000))];
    expect(buildMcPrompt(cmmlu, item, long, 1).shotsUsed).toBe(1);
    expect(buildMcPrompt(cmmlu, item, long, 1, { countTokens: chars })).toMatchObject({ shotsUsed: 0, droppedExemplarIds: ['L'] });
  });

  it('AC-EVAL drops back to its zero-shot instruction when no exemplar is left', () => {
    const acItem = mcItem({ id: 'h', datasetId: 'ac-eval', task: 'geography', question: 'Q' });
    const built = buildMcPrompt(acEval, acItem, devItems('ac-eval', 'geography', 2), 2, { countTokens: chars, contextLimit: 70 });
    expect(built.shotsUsed).toBe(0);
    expect(built.prompt).toBe('以下是中国古代古代地理领域的单项选择题，请直接给出正确答案对应的选项。\n\n题目：Q\nA. a\nB. b\nC. c\nD. d\n答案：');
  });
});

describe('refusals', () => {
  it('an exemplar without an answer', () => {
    const dev = devItems('cmmlu-ancient', 'ancient_chinese', 2);
    dev[1] = { ...dev[1], answer: null };
    expect(() => buildMcPrompt(cmmlu, cmmluItem, dev, 2)).toThrow(/has no answer/);
    expect(() => buildMcPrompt(cmmlu, cmmluItem, dev, 1)).not.toThrow();
  });

  it('an exemplar from another task or from the test split', () => {
    expect(() => buildMcPrompt(cmmlu, cmmluItem, devItems('cmmlu-ancient', 'other', 1), 1)).toThrow(/from task "other"/);
    const test = devItems('cmmlu-ancient', 'ancient_chinese', 1).map((d) => ({ ...d, split: 'test' as const }));
    expect(() => buildMcPrompt(cmmlu, cmmluItem, test, 1)).toThrow(/dev split/);
  });

  it('more shots than the protocol allows, or a fractional count', () => {
    expect(() => buildMcPrompt(cmmlu, cmmluItem, [], 6)).toThrow(RangeError);
    expect(() => buildMcPrompt(cmmlu, cmmluItem, [], 1.5)).toThrow(RangeError);
    expect(() => buildMcPrompt(cmmlu, cmmluItem, [], -1)).toThrow(RangeError);
  });

  it('one option or five', () => {
    expect(() => buildMcPrompt(cmmlu, { ...cmmluItem, options: ['x'] }, [], 0)).toThrow(/1 options/);
    expect(() => buildMcPrompt(cmmlu, { ...cmmluItem, options: ['1', '2', '3', '4', '5'] }, [], 0)).toThrow(/5 options/);
  });
});
