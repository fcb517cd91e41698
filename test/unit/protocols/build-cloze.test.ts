import { describe, expect, it } from 'vitest';
import { buildClozePrompt, buildMcPrompt, clozeTemplateText, getProtocol, listProtocols, templateText } from '../../../src/lib/core/protocols/index.ts';
import { devItems, mcItem } from './helpers.ts';

describe('buildClozePrompt', () => {
  const item = mcItem({ id: 'x', datasetId: 'aclue', task: '诗词', question: '“床前明月光”的作者是', options: ['李白', '杜甫', '王维', '白居易'], answer: 'A' });

  it('zero-shot: the instruction, the question without options and the cue; each option text a continuation', () => {
    const built = buildClozePrompt(getProtocol('aclue'), item, [], 0);
    expect(built.context).toBe('以下是关于诗词的问题，请直接给出正确答案。\n\n题目：“床前明月光”的作者是\n答案是：');
    expect(built.prefix).toBe('以下是关于诗词的问题，请直接给出正确答案。\n\n');
    expect(built.continuations).toEqual(['李白', '杜甫', '王维', '白居易']);
    expect(built.domainContext).toBe('答案是：');
    expect(built.letters).toEqual(['A', 'B', 'C', 'D']);
    // No option line of the letter prompt is left in the context.
    expect(built.context).not.toMatch(/A\. |B\. /u);
  });

  it('exemplars end with their gold option text, then the separator', () => {
    const dev = devItems('aclue', '诗词', 3); // answers A, B, C
    const built = buildClozePrompt(getProtocol('aclue'), item, dev, 2);
    expect(built.prefix).toBe('以下是关于诗词的问题，请直接给出正确答案。\n\n题目：q0\n答案是：a0\n\n题目：q1\n答案是：b1\n\n');
    expect(built.exemplarIds).toEqual(['诗词/dev/0', '诗词/dev/1']);
    expect(built.context.startsWith(built.prefix)).toBe(true);
  });

  it('AC-EVAL: its own few-shot instruction, numbered exemplars and `答案：`', () => {
    const acItem = mcItem({ id: 'y', datasetId: 'ac-eval', task: 'historical_facts', question: '秦统一六国在', options: ['前221年', '前206年'], answer: 'A' });
    const built = buildClozePrompt(getProtocol('ac-eval'), acItem, devItems('ac-eval', 'historical_facts', 2), 5);
    expect(built.context).toBe('以下是中国古代历史史实领域的问题。在查看这些示例之后，请直接给出接下来一道题目的正确答案。\n\n示例1：q0\n答案：a0\n\n示例2：q1\n答案：b1\n\n题目：秦统一六国在\n答案：');
    expect(built.continuations).toEqual(['前221年', '前206年']);
    expect(built.letters).toEqual(['A', 'B']);
  });

  it('drops the longest exemplar while context + the longest option is over the limit', () => {
    const dev = devItems('aclue', '诗词', 3);
    dev[1] = { ...dev[1], question: '长'.repeat(50) };
    const count = (text: string) => [...text].length;
    const full = buildClozePrompt(getProtocol('aclue'), item, dev, 3);
    const limit = count(full.context + '白居易') - 1;
    const fitted = buildClozePrompt(getProtocol('aclue'), item, dev, 3, { countTokens: count, contextLimit: limit });
    expect(fitted.droppedExemplarIds).toEqual(['诗词/dev/1']);
    expect(fitted.overLimit).toBe(false);
    expect(count(fitted.context + '白居易')).toBeLessThanOrEqual(limit);
    const tiny = buildClozePrompt(getProtocol('aclue'), item, dev, 3, { countTokens: count, contextLimit: 5 });
    expect(tiny.shotsUsed).toBe(0);
    expect(tiny.overLimit).toBe(true);
  });

  it('every protocol has a cloze layout whose hash text differs from its letter one, and names its source layout', () => {
    for (const protocol of listProtocols()) {
      const cloze = clozeTemplateText(protocol);
      expect(cloze).not.toBe(templateText(protocol));
      expect(cloze).toContain(JSON.stringify(protocol.cloze.instruction));
      expect(protocol.cloze.follows).toMatch(/OLMES/u);
      expect(protocol.cloze.departs).toMatch(/option/u);
      // The cloze instruction is its own text: the letter one asks for an option letter.
      expect(protocol.cloze.instruction).not.toBe(protocol.instruction);
      expect(protocol.cloze.answerCue).toBe(protocol.answerCue);
    }
    // A changed cloze field changes the text that is hashed.
    const p = getProtocol('cmmlu');
    expect(clozeTemplateText({ ...p, cloze: { ...p.cloze, exemplarSeparator: '\n' } })).not.toBe(clozeTemplateText(p));
  });

  it('leaves the letter prompt as it was', () => {
    const built = buildMcPrompt(getProtocol('aclue'), item, [], 0);
    expect(built.prompt).toBe('以下是关于诗词的单项选择题，请直接给出正确答案的选项。\n\n题目：“床前明月光”的作者是\nA. 李白\nB. 杜甫\nC. 王维\nD. 白居易\n答案是：');
  });
});
