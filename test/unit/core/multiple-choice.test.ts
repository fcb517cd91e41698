import { describe, expect, it } from 'vitest';
import { zeroShotPrompt } from '../../../src/lib/core/protocols/multiple-choice.ts';
import { hasPrefix } from '../../../src/lib/core/token-prefix.ts';

describe('zeroShotPrompt', () => {
  it('is the CMMLU template, character for character', () => {
    const prompt = zeroShotPrompt('古汉语', { question: '“说”的意思是', options: ['说话', '喜悦', '解说', '劝说'] });
    expect(prompt).toBe(
      '以下是关于古汉语的单项选择题，请直接给出正确答案的选项。\n\n题目：“说”的意思是\nA. 说话\nB. 喜悦\nC. 解说\nD. 劝说\n答案是：',
    );
  });

  it('lays out three options as A to C', () => {
    expect(zeroShotPrompt('虚词', { question: 'q', options: ['x', 'y', 'z'] })).toMatch(/\nC\. z\n答案是：$/);
  });

  it('refuses one option or five', () => {
    expect(() => zeroShotPrompt('s', { question: 'q', options: ['x'] })).toThrow(RangeError);
    expect(() => zeroShotPrompt('s', { question: 'q', options: ['1', '2', '3', '4', '5'] })).toThrow(RangeError);
  });
});

describe('hasPrefix', () => {
  it('compares token by token', () => {
    expect(hasPrefix([1, 2, 3], [1, 2])).toBe(true);
    expect(hasPrefix([1, 2, 3], [])).toBe(true);
    expect(hasPrefix([1, 2, 3], [1, 3])).toBe(false);
    expect(hasPrefix([1], [1, 2])).toBe(false);
  });
});
