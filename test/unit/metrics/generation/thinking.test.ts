// <think>…</think> is set apart before post-processing: Qwen3 writes it, and its labels and titles
// would otherwise be scored as the answer.
import { describe, expect, it } from 'vitest';
import { classificationItem, cleanOutput, postprocessOutput, retrievalItem, splitThinking } from '../../../../src/lib/core/metrics/index.ts';
import { C3_CATEGORIES } from '../../../../src/lib/core/benchmarks/catalog-tasks.ts';

describe('splitThinking', () => {
  it('an output with no think block is all answer', () => {
    expect(splitThinking('类别：儒')).toEqual({ thinking: null, answer: '类别：儒' });
  });

  it('removes a complete block and keeps what follows', () => {
    expect(splitThinking('<think>\n想一想：诗？儒？\n</think>\n\n儒')).toEqual({ thinking: '想一想：诗？儒？', answer: '\n\n儒' });
  });

  it('removes every complete block, the empty one of thinking-off included', () => {
    expect(splitThinking('<think>\n\n</think>\n\n答：<think>甲</think>乙')).toEqual({ thinking: '\n\n甲', answer: '\n\n答：乙' });
  });

  it('an unclosed block (stopped at max tokens) is thinking to the end', () => {
    expect(splitThinking('<think>\n先看诗、史、儒、道')).toEqual({ thinking: '先看诗、史、儒、道', answer: '' });
    expect(splitThinking('前<think>后')).toEqual({ thinking: '后', answer: '前' });
  });

  it('a close with no open (the template opened the block) ends the thinking', () => {
    expect(splitThinking('诗还是儒\n</think>\n\n儒')).toEqual({ thinking: '诗还是儒', answer: '\n\n儒' });
  });
});

describe('post-processing reads the answer only', () => {
  const thinking = '<think>\n这段话讲仁义，可能是诗、史、儒、道中的儒。\n</think>\n\n儒';

  it('a correct 儒 after a think block naming four labels scores correct', () => {
    expect(cleanOutput(thinking)).toBe('儒');
    const c = classificationItem(thinking, ['儒'], C3_CATEGORIES);
    expect(c.named).toEqual(['儒']);
    expect(c.correct).toBe(true);
  });

  it('a retrieval answer after thinking is read from after the block', () => {
    expect(postprocessOutput('<think>《论语》还是《孟子》？</think>《孟子·梁惠王上》', 'retrieval')).toBe('孟子·梁惠王上');
    expect(retrievalItem('<think>《论语》</think>《孟子·梁惠王上》', ['《孟子·梁惠王上》']).exact).toBe(true);
  });

  it('a budget spent thinking leaves no answer', () => {
    expect(classificationItem('<think>诗、史、儒', ['儒'], C3_CATEGORIES).correct).toBe(false);
    expect(cleanOutput('<think>诗、史、儒')).toBe('');
  });
});
