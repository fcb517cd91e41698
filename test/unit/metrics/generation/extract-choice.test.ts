import { describe, expect, it } from 'vitest';
import { choiceExtractionSignature, extractChoice, extractChoiceDetailed } from '../../../../src/lib/core/metrics/generation/extract-choice.ts';

const ABCD = ['A', 'B', 'C', 'D'];

describe('extractChoice, rule by rule', () => {
  it.each([
    ['答案是B', 'B', 'answer-is'],
    ['正确答案是：C。', 'C', 'answer-is'],
    ['答案为（D）', 'D', 'answer-is'],
    ['答案选A，因为……', 'A', 'answer-is'],
    ['我认为答案应该是 B', 'B', 'answer-is'],
    ['答案是选项C', 'C', 'answer-is'],
    ['答案：D', 'D', 'answer-colon'],
    ['答案: A', 'A', 'answer-colon'],
    ['选项B正确。', 'B', 'option-word'],
    ['故选C', 'C', 'option-word'],
    ['B', 'B', 'lone-letter'],
    ['（C）', 'C', 'lone-letter'],
    [' D。\n', 'D', 'lone-letter'],
    ['Ｂ', 'B', 'lone-letter'],
    ['B．晋文公', 'B', 'letter-mark'],
    ['C、孔子', 'C', 'letter-mark'],
    ['A) 秦', 'A', 'letter-mark'],
    ['(D) 汉', 'D', 'letter-mark'],
    ['D.汉武帝', 'D', 'letter-mark'],
  ])('%s → %s (%s)', (output, letter, rule) => {
    expect(extractChoiceDetailed(output, ABCD)).toEqual({ letter, rule, ambiguous: false });
  });

  it('earlier rules win: an explicit answer beats a listed option', () => {
    expect(extractChoiceDetailed('A．不对。答案是C', ABCD)).toMatchObject({ letter: 'C', rule: 'answer-is' });
    expect(extractChoiceDetailed('答案是B。选项A错在……', ABCD)).toMatchObject({ letter: 'B', rule: 'answer-is' });
  });

  it('the option text itself, when it matches exactly one option', () => {
    const options = ['孔子', '孟子', '荀子', '老子'];
    expect(extractChoiceDetailed('孟子。', ABCD, options)).toEqual({ letter: 'B', rule: 'option-text', ambiguous: false });
    expect(extractChoice('这句话出自荀子。', ABCD, options)).toBe('C');
    expect(extractChoice('孔子和孟子', ABCD, options)).toBeNull();
    // Equality first: 孔子弟子 also contains 孔子.
    expect(extractChoice('孔子弟子', ABCD, ['孔子', '孔子弟子', '颜回', '曾子'])).toBe('B');
  });
});

describe('extractChoice, nothing to extract', () => {
  it('returns null rather than guess', () => {
    expect(extractChoice('', ABCD)).toBeNull();
    expect(extractChoice('我不知道', ABCD)).toBeNull();
    expect(extractChoice('这道题很难，需要仔细思考。', ABCD, ['甲', '乙', '丙', '丁'])).toBeNull();
    expect(extractChoice('b', ABCD)).toBeNull(); // lower case is not a letter answer
    expect(extractChoice('答案是Apple', ABCD)).toBeNull();
    expect(extractChoice('E', ABCD)).toBeNull(); // not an option letter
    expect(extractChoice('D', ['A', 'B', 'C'])).toBeNull(); // a three-option item
  });

  it('conflicting letters within the deciding rule are ambiguous, not the first', () => {
    expect(extractChoiceDetailed('答案是A。不，答案是B', ABCD)).toEqual({ letter: null, rule: 'answer-is', ambiguous: true });
    expect(extractChoiceDetailed('A．对\nB．错', ABCD)).toEqual({ letter: null, rule: 'letter-mark', ambiguous: true });
    expect(extractChoice('答案是A。所以答案是A。', ABCD)).toBe('A');
  });

  it('refuses letters that are not single capitals, and states its rules', () => {
    expect(() => extractChoice('A', ['a'])).toThrow(/single capitals/);
    expect(choiceExtractionSignature()).toBe('choice|rules:answer-is>answer-colon>option-word>lone-letter>letter-mark>option-text|ambiguous:none|version:1');
  });
});
