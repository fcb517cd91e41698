import { describe, expect, it } from 'vitest';
import type { MultipleChoiceItem, OptionLetter } from '../../../src/lib/core/benchmarks/types.ts';
import {
  originalLetter,
  originalPosition,
  rotatedLetter,
  rotatedPosition,
  rotateItem,
  rotationCount,
} from '../../../src/lib/core/protocols/rotation.ts';

function mcItem(options: string[], answer: OptionLetter | null): MultipleChoiceItem {
  return {
    id: 'aclue/t/test/0',
    datasetId: 'aclue',
    task: 't',
    split: 'test',
    order: 0,
    source: { file: 't.csv', line: 2 },
    kind: 'multiple-choice',
    question: '問',
    options,
    answer,
  };
}

describe('rotationCount', () => {
  it('one rotation per option for 2–4 options, 1 below 2', () => {
    expect([0, 1, 2, 3, 4].map(rotationCount)).toEqual([1, 1, 2, 3, 4]);
  });
});

describe('rotateItem', () => {
  it('four options: ABCD, BCDA, CDAB, DABC (OpenCompass circular), gold moving with its option', () => {
    const item = mcItem(['甲', '乙', '丙', '丁'], 'C');
    const shown = [0, 1, 2, 3].map((k) => rotateItem(item, k));
    expect(shown.map((r) => r.options.join(''))).toEqual(['甲乙丙丁', '乙丙丁甲', '丙丁甲乙', '丁甲乙丙']);
    // 丙 (gold, C) is shown at C, B, A, D.
    expect(shown.map((r) => r.answer)).toEqual(['C', 'B', 'A', 'D']);
    for (const r of shown) expect(r.options['ABCD'.indexOf(r.answer!)]).toBe('丙');
    expect(shown.every((r) => r.id === item.id && r.question === item.question)).toBe(true);
  });

  it('three options: ABC, BCA, CAB', () => {
    const item = mcItem(['甲', '乙', '丙'], 'A');
    const shown = [0, 1, 2].map((k) => rotateItem(item, k));
    expect(shown.map((r) => r.options.join(''))).toEqual(['甲乙丙', '乙丙甲', '丙甲乙']);
    expect(shown.map((r) => r.answer)).toEqual(['A', 'C', 'B']);
  });

  it('two options: AB, BA', () => {
    const item = mcItem(['是', '否'], 'B');
    expect(rotateItem(item, 1).options).toEqual(['否', '是']);
    expect(rotateItem(item, 1).answer).toBe('A');
  });

  it('an item without a key stays without one, and the original is not changed', () => {
    const item = mcItem(['甲', '乙', '丙', '丁'], null);
    expect(rotateItem(item, 2).answer).toBeNull();
    expect(item.options).toEqual(['甲', '乙', '丙', '丁']);
    expect(rotateItem(item, 0)).toBe(item);
  });

  it('rejects rotations out of range', () => {
    const item = mcItem(['甲', '乙', '丙'], 'A');
    expect(() => rotateItem(item, 3)).toThrow(RangeError);
    expect(() => rotateItem(item, -1)).toThrow(RangeError);
    expect(() => rotateItem(item, 1.5)).toThrow(RangeError);
  });
});

describe('positions and letters', () => {
  it('originalPosition and rotatedPosition are inverse for every n, k and position', () => {
    for (const n of [2, 3, 4])
      for (let k = 0; k < n; k++)
        for (let j = 0; j < n; j++) {
          expect(rotatedPosition(originalPosition(j, k, n), k, n)).toBe(j);
          expect(originalPosition(j, k, n)).toBe((j + k) % n);
        }
  });

  it('a predicted letter under a rotation maps back to the benchmark letter', () => {
    // Under rotation 1 of four options, B shows the option originally at C.
    expect(originalLetter('B', 1, 4)).toBe('C');
    expect(rotatedLetter('C', 1, 4)).toBe('B');
    expect(originalLetter('A', 2, 3)).toBe('C');
    expect(rotatedLetter('A', 1, 2)).toBe('B');
    expect(originalLetter(null, 1, 4)).toBeNull();
    expect(rotatedLetter(null, 1, 4)).toBeNull();
  });
});
