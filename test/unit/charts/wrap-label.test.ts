import { describe, expect, it } from 'vitest';
import { estimateTextWidth, wrapLabel } from '../../../src/ui/charts/geometry.ts';

/** Every line is made of whole words of the label (an ellipsis aside), so nothing was cut mid-word. */
function wholeWords(label: string, lines: string[]): boolean {
  const words = new Set(label.split(/\s+/));
  return lines.every((line) => line.replace(/…$/, '').split(/\s+/).filter(Boolean).every((w) => words.has(w)));
}

describe('wrapLabel', () => {
  it('keeps a short label on one line as it is', () => {
    expect(wrapLabel('Cloze', 170, 12)).toEqual({ lines: ['Cloze'], shortened: false });
    expect(wrapLabel('', 170, 12)).toEqual({ lines: [], shortened: false });
  });

  it('breaks an English label between words, each line within the width', () => {
    const label = 'Phonetic Loan Character';
    const { lines, shortened } = wrapLabel(label, 100, 12);
    expect(shortened).toBe(false);
    expect(lines).toEqual(['Phonetic Loan', 'Character']);
    for (const line of lines) expect(estimateTextWidth(line, 12)).toBeLessThanOrEqual(100);
    expect(lines.join(' ')).toBe(label);
  });

  it('shortens a label that needs more lines at a word boundary, with an ellipsis', () => {
    const label = 'Classical Chinese Reading Comprehension and Poetry Appreciation';
    const { lines, shortened } = wrapLabel(label, 110, 12, 2);
    expect(shortened).toBe(true);
    expect(lines).toHaveLength(2);
    expect(lines[1].endsWith('…')).toBe(true);
    expect(wholeWords(label, lines)).toBe(true);
    for (const line of lines) expect(estimateTextWidth(line, 12)).toBeLessThanOrEqual(110);
  });

  it('never cuts a word wider than the line: it gets a line of its own, whole', () => {
    const { lines } = wrapLabel('Supercalifragilistic words', 60, 12);
    expect(lines[0]).toBe('Supercalifragilistic');
    expect(wholeWords('Supercalifragilistic words', lines)).toBe(true);
  });

  it('breaks Chinese between characters and keeps closing punctuation with its character', () => {
    const { lines } = wrapLabel('古代汉语词汇语义理解与古诗词鉴赏', 72, 12, 3);
    expect(lines).toEqual(['古代汉语词汇', '语义理解与古', '诗词鉴赏']);
    expect(wrapLabel('古文，今文', 48, 12).lines).toEqual(['古文，今', '文']);
  });

  it('keeps spaces between words and none between Chinese characters in mixed labels', () => {
    expect(wrapLabel('Radical · 部首', 400, 12).lines).toEqual(['Radical · 部首']);
    expect(wrapLabel('AncientBench 古文 test', 400, 12).lines).toEqual(['AncientBench 古文 test']);
  });
});
