import { describe, expect, it } from 'vitest';
import {
  C3BENCH_TASK_KEYS,
  isPublishedFor,
  KNOWN_TRANSCRIPTION_NOTES,
  PUBLISHED_NOTES,
  PUBLISHED_ROWS,
  PUBLISHED_SCORE_KEYS,
  publishedLabel,
  publishedRows,
  publishedRowsFor,
} from '../../../src/lib/core/benchmarks/published-results.ts';

const c3 = publishedRows('c3bench');
const ancient = publishedRows('ancientbench');
const llmRows = c3.filter((r) => r.model !== 'supervised models');
const meanOfTasks = (scores: Record<string, number>): number => C3BENCH_TASK_KEYS.reduce((s, k) => s + scores[k], 0) / C3BENCH_TASK_KEYS.length;

describe('published rows: counts and keys', () => {
  it('C3Bench: 15 models plus the supervised row; AncientBench: 6 rows', () => {
    expect(llmRows).toHaveLength(15);
    expect(c3).toHaveLength(16);
    expect(ancient).toHaveLength(6);
    expect(PUBLISHED_ROWS).toHaveLength(22);
  });

  it('every score key is one of its benchmark keys, and every score a finite percent', () => {
    for (const row of PUBLISHED_ROWS) {
      const keys = Object.keys(row.scores);
      expect(keys.length).toBeGreaterThan(0);
      for (const key of keys) {
        expect(PUBLISHED_SCORE_KEYS[row.benchmark]).toContain(key);
        expect(Number.isFinite(row.scores[key])).toBe(true);
        expect(row.scores[key]).toBeGreaterThanOrEqual(0);
        expect(row.scores[key]).toBeLessThanOrEqual(100);
      }
    }
  });

  it('C3Bench model rows carry all six keys; the supervised row only its four', () => {
    for (const row of llmRows) expect(Object.keys(row.scores).sort()).toEqual([...PUBLISHED_SCORE_KEYS.c3bench].sort());
    const supervised = c3.find((r) => r.model === 'supervised models');
    expect(supervised?.scores).toEqual({ classification: 82.66, ner: 73.73, punctuation: 82.48, translation: 52.02 });
  });

  it('spot checks against the brief', () => {
    expect(c3.find((r) => r.model === 'Spark-v3')?.scores).toEqual({ classification: 51.61, retrieval: 21.83, ner: 53.81, punctuation: 85.38, translation: 34.58, average: 49.44 });
    expect(ancient.find((r) => r.model === 'Yi1.5-9B-Ancient' && r.setting === 'zero-shot')?.scores).toEqual({ overall: 50.28, glyph: 50.77, pronunciation: 32.3, meaning: 67.12 });
    expect(ancient.find((r) => r.model === 'Yi1.5-9B-Ancient' && r.setting === 'five-shot')?.scores).toEqual({ overall: 50.83 });
    expect(ancient.find((r) => r.model === 'Yi1.5-9B-Chat')).toMatchObject({ setting: 'five-shot', scores: { overall: 50.8 } });
  });

  it('model and setting identify a row', () => {
    const ids = PUBLISHED_ROWS.map((r) => `${r.benchmark}|${r.model}|${r.setting}`);
    expect(new Set(ids).size).toBe(ids.length);
  });
});

describe('C3Bench transcription check: average = mean of the five task scores', () => {
  const listed = new Set(KNOWN_TRANSCRIPTION_NOTES.filter((n) => n.benchmark === 'c3bench' && n.key === 'average').map((n) => n.model));

  it.each(llmRows.map((r) => [r.model, r] as const))('%s', (model, row) => {
    const mean = meanOfTasks(row.scores);
    // 0.01 is the worst case of rounding five scores and their mean to two decimals; 1e-9 absorbs float error.
    if (Math.abs(mean - row.scores.average) <= 0.01 + 1e-9) {
      expect(listed.has(model)).toBe(false);
    } else {
      expect(listed.has(model)).toBe(true);
    }
  });

  it('every known mismatch keeps the paper value in its row and states the implied mean', () => {
    expect(KNOWN_TRANSCRIPTION_NOTES.map((n) => n.model).sort()).toEqual(['Baichuan2-7B-Chat', 'Bloom-7B-Chunhua']);
    for (const note of KNOWN_TRANSCRIPTION_NOTES) {
      const row = publishedRows(note.benchmark).find((r) => r.model === note.model);
      expect(row).toBeDefined();
      expect(row!.scores[note.key]).toBe(note.paperValue);
      expect(meanOfTasks(row!.scores)).toBeCloseTo(note.impliedValue, 9);
      expect(Math.abs(note.impliedValue - note.paperValue)).toBeGreaterThan(0.01);
    }
  });
});

describe('citations and notes', () => {
  it('every row has a complete citation', () => {
    for (const row of PUBLISHED_ROWS) {
      const { paper, authors, year, url, where } = row.citation;
      for (const text of [paper, authors, url, where]) expect(text.trim().length).toBeGreaterThan(0);
      expect(Number.isInteger(year)).toBe(true);
      expect(year).toBeGreaterThanOrEqual(2024);
      expect(url).toMatch(/^https:\/\/arxiv\.org\/abs\/\d{4}\.\d{5}$/);
      expect(row.setting.trim().length).toBeGreaterThan(0);
    }
    expect(c3[0].citation).toMatchObject({ year: 2024, url: 'https://arxiv.org/abs/2405.17732', where: 'Table 5' });
    expect(ancient[0].citation).toMatchObject({ year: 2025, url: 'https://arxiv.org/abs/2512.17756', where: 'averages stated in the text' });
  });

  it('AncientBench notes the human average', () => {
    expect(PUBLISHED_NOTES.ancientbench.notes).toContain('human average 4.13 points above Qwen-14B-Chat');
    expect(Array.isArray(PUBLISHED_NOTES.c3bench.notes)).toBe(true);
  });

  it('rows are frozen', () => {
    expect(Object.isFrozen(PUBLISHED_ROWS)).toBe(true);
    expect(Object.isFrozen(c3[0].scores)).toBe(true);
  });
});

describe('label rule', () => {
  it('published rows only beside runs of their own benchmark', () => {
    expect(isPublishedFor('c3bench')).toBe(true);
    expect(isPublishedFor('ancientbench')).toBe(true);
    for (const id of ['aclue', 'cmmlu-ancient', 'ac-eval', 'wenmind', 'nonsense']) {
      expect(isPublishedFor(id)).toBe(false);
      expect(publishedRowsFor(id)).toEqual([]);
    }
    expect(publishedRowsFor('c3bench').every((r) => r.benchmark === 'c3bench')).toBe(true);
    expect(publishedRowsFor('ancientbench').every((r) => r.benchmark === 'ancientbench')).toBe(true);
  });

  it("labelled as the paper's", () => {
    const label = publishedLabel(c3[0]);
    expect(label).toContain('as published');
    expect(label).toContain('Table 5');
    expect(label).toContain('C3Bench');
  });
});
