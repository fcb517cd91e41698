import { describe, expect, it } from 'vitest';
import { C3_CATEGORIES, WENMIND_TOPIC_LABELS } from '../../../../src/lib/core/benchmarks/catalog-tasks.ts';
import { classificationCorpus, classificationItem } from '../../../../src/lib/core/metrics/generation/classification.ts';
import { cleanOutput, normalizeTitle, postprocessOutput } from '../../../../src/lib/core/metrics/generation/postprocess.ts';
import { retrievalCorpus, retrievalItem, titleLevels } from '../../../../src/lib/core/metrics/generation/retrieval.ts';

describe('post-processing', () => {
  it('trims and drops one leading label with either colon', () => {
    expect(cleanOutput('  类别：儒\n')).toBe('儒');
    expect(cleanOutput('答案: 孔子、孟子')).toBe('孔子、孟子');
    expect(cleanOutput('命名实体：孔子')).toBe('孔子');
    expect(cleanOutput('答案：类别：儒')).toBe('类别：儒');
    expect(cleanOutput('子曰：学而时习之')).toBe('子曰：学而时习之');
    expect(cleanOutput('')).toBe('');
  });

  it('for retrieval, strips 《》〈〉 and spaces and unifies the level dot', () => {
    expect(postprocessOutput('出处：《 史记 · 项羽本纪 》。', 'retrieval')).toBe('史记·项羽本纪');
    expect(normalizeTitle('《论语・学而》')).toBe('论语·学而');
    expect(postprocessOutput('出处：《史记》', 'translation')).toBe('《史记》');
  });
});

describe('classification', () => {
  it('is right when the output names exactly the reference label', () => {
    expect(classificationItem('儒', ['儒'], C3_CATEGORIES)).toEqual({ named: ['儒'], predicted: '儒', correct: true });
    expect(classificationItem('类别：兵', ['兵'], C3_CATEGORIES).correct).toBe(true);
    expect(classificationItem('这段文字属于史部。', ['史'], C3_CATEGORIES).correct).toBe(true);
    expect(classificationItem('诗', ['史'], C3_CATEGORIES)).toEqual({ named: ['诗'], predicted: '诗', correct: false });
  });

  it('an output naming several categories, or none, is wrong', () => {
    expect(classificationItem('儒道', ['儒'], C3_CATEGORIES)).toEqual({ named: ['儒', '道'], predicted: null, correct: false });
    expect(classificationItem('不知道', ['道'], C3_CATEGORIES).correct).toBe(true); // 道 is named, once: the rule is literal
    expect(classificationItem('', ['儒'], C3_CATEGORIES)).toEqual({ named: [], predicted: null, correct: false });
    expect(classificationItem('无从判断', ['儒'], C3_CATEGORIES)).toEqual({ named: [], predicted: null, correct: false });
    // Literal on purpose: 无法 names 法, and the per-item `named` list shows why.
    expect(classificationItem('无法判断', ['儒'], C3_CATEGORIES)).toEqual({ named: ['法'], predicted: '法', correct: false });
  });

  it('takes the label set as a parameter (WenMind has 集 子 易, not 农 法 兵)', () => {
    expect(classificationItem('集', ['集'], WENMIND_TOPIC_LABELS).correct).toBe(true);
    expect(classificationItem('集', ['集'], C3_CATEGORIES).predicted).toBeNull();
    expect(classificationItem('农', ['农'], WENMIND_TOPIC_LABELS).correct).toBe(false);
  });

  it('corpus: 2 of 5 right, one naming none and one naming several', () => {
    const score = classificationCorpus(
      [
        { output: '儒', references: ['儒'] },
        { output: '类别：医', references: ['医'] },
        { output: '诗史', references: ['诗'] },
        { output: '', references: ['佛'] },
        { output: '道', references: ['佛'] },
      ],
      C3_CATEGORIES,
    );
    expect(score).toMatchObject({ n: 5, correct: 2, accuracy: 0.4, noLabel: 1, severalLabels: 1 });
    expect(score.wilson!.low).toBeLessThan(0.4);
    expect(score.signature).toBe('acc|labels:诗史儒道佛农法艺医兵|rule:exactly-one-named|post:2|ci:wilson-95');
    expect(classificationCorpus([], C3_CATEGORIES)).toMatchObject({ n: 0, accuracy: null, wilson: null });
  });
});

describe('retrieval', () => {
  const ref = ['史记·项羽本纪'];

  it('levels with and without 《》', () => {
    expect(retrievalItem('《史记·项羽本纪》', ref)).toMatchObject({ levels: [true, true], exact: true });
    expect(retrievalItem('史记·项羽本纪', ['《史记·项羽本纪》'])).toMatchObject({ levels: [true, true], exact: true });
    expect(retrievalItem('《史记》', ref)).toMatchObject({ predicted: ['史记'], levels: [true, false], exact: false });
    expect(retrievalItem('史记', ref)).toMatchObject({ levels: [true, false], exact: false });
    expect(retrievalItem('出处：《史记》 · 〈项羽本纪〉', ref)).toMatchObject({ levels: [true, true], exact: true });
  });

  it('a deeper level counts only under the right book; extra levels spoil only the exact title', () => {
    expect(retrievalItem('汉书·项羽本纪', ref)).toMatchObject({ levels: [false, false], exact: false });
    expect(retrievalItem('史记·项羽本纪·上', ref)).toMatchObject({ levels: [true, true], exact: false });
    expect(retrievalItem('史记项羽本纪', ref)).toMatchObject({ levels: [false, false], exact: false });
    expect(retrievalItem('', ref)).toMatchObject({ predicted: [], levels: [false, false], exact: false });
  });

  it('uses the reference matching most levels', () => {
    expect(retrievalItem('庄子·逍遥游', ['史记·项羽本纪', '庄子·逍遥游'])).toMatchObject({ reference: ['庄子', '逍遥游'], exact: true });
    expect(titleLevels('《论语··学而》')).toEqual(['论语', '学而']);
  });

  it('corpus: level k over the items whose reference has k levels', () => {
    const score = retrievalCorpus([
      { output: '《史记·项羽本纪》', references: ['史记·项羽本纪'] },
      { output: '《史记》', references: ['史记·高祖本纪'] },
      { output: '论语', references: ['论语'] },
      { output: '孟子', references: ['庄子·逍遥游'] },
    ]);
    expect(score.levels.map((l) => [l.level, l.n, l.correct])).toEqual([
      [1, 4, 3],
      [2, 3, 1],
    ]);
    expect(score.levels[0].accuracy).toBe(0.75);
    expect(score.exact).toMatchObject({ n: 4, correct: 2, accuracy: 0.5 });
  });

  it('refuses an empty reference title, naming the item', () => {
    expect(() => retrievalCorpus([{ output: '史记', references: ['《》'] }])).toThrow(/retrieval item 1: the reference title "《》" has no level/);
  });
});
