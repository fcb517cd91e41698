// A run's sample in words (issue 36), in both languages, wherever it is named: what a configuration's
// sample is (sample-description.ts: random n of N with its seed, the first n in file order, every
// item; records from before as the first n), its sentence and short forms (sample-text.ts), Compare's
// label facet and its note when compared runs asked different samples (run-label.ts), and the CSV's
// sample columns.
import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { predictionsCsv } from '../../../src/lib/core/formats/jiangu-run/export.ts';
import { newRunSampling } from '../../../src/lib/core/protocols/run-sampling.ts';
import { describeSample, sampleDifference, type SampledConfig } from '../../../src/lib/core/protocols/sample-description.ts';
import type { McRunConfig } from '../../../src/lib/core/record/run.ts';
import { runFacets, samplesNote, type DescribedRun, type LabelWords } from '../../../src/ui/compare/run-label.ts';
import { sampleDifferenceText, sampleShortText, sampleText, type SampleWords } from '../../../src/ui/evaluate/sample-text.ts';
import { makeMcRun } from '../../fixtures/run-records/build.ts';

const EN: SampleWords = { lang: 'en', count: (n) => n.toLocaleString('en-US') };
const ZH: SampleWords = { lang: 'zh', count: (n) => n.toLocaleString('zh-CN') };
const TASKS = ['古音学', '医古文'];

function config(limitPerTask: number | null, sizes: number[] | null, draw: 'random' | 'first' = 'random', seed = 4_000_000_001): SampledConfig {
  const population = sizes ? Object.fromEntries(TASKS.map((t, i) => [t, sizes[i]])) : null;
  const items = TASKS.reduce((n, _t, i) => n + Math.min(limitPerTask ?? Infinity, sizes?.[i] ?? limitPerTask ?? 0), 0);
  return { tasks: TASKS, limitPerTask, itemIds: Array.from({ length: items }, (_, i) => `i${i}`), ...(population ? { sampling: newRunSampling(draw, seed, population) } : {}) };
}

/** No English word left in a Chinese sentence. */
const english = (s: string) => s.match(/[A-Za-z]{2,}/g) ?? [];

describe('a sample in words', () => {
  it('a random sample: n of N per task with its seed (never grouped), in both languages', () => {
    const d = describeSample(config(50, [1200, 1200]));
    expect(d).toMatchObject({ draw: 'random', perTask: 50, items: 100, population: 2400, populationPerTask: 1200, seed: 4_000_000_001, order: 'shuffled' });
    expect(sampleText(d, EN)).toBe('a random sample of 50 of 1,200 items per task (seed 4000000001)');
    expect(sampleText(d, ZH)).toBe('每个任务 1,200 题中随机抽取 50 题（种子 4000000001）');
    expect(sampleShortText(d, EN)).toBe('random 50 per task, seed 4000000001');
    expect(english(sampleShortText(d, ZH))).toEqual([]);
  });

  it('tasks of different sizes say the whole; a limit no task reaches is every item', () => {
    const d = describeSample(config(50, [40, 300]));
    expect(d.draw).toBe('random');
    expect(sampleText(d, EN)).toBe('a random sample of 50 items per task, 90 of 340 in all (seed 4000000001)');
    expect(english(sampleText(d, ZH))).toEqual([]);
    const every = describeSample(config(500, [40, 300]));
    expect(every.draw).toBe('every');
    expect(sampleText(every, EN)).toBe('every item (340 in all)');
    expect(sampleShortText(describeSample(config(null, [40, 300])), ZH)).toBe('全部题目');
  });

  it('the first n in file order, and a record from before samples were recorded reads the same', () => {
    const first = describeSample(config(5, [40, 300], 'first'));
    expect(sampleText(first, EN)).toBe('the first 5 per task, in file order');
    expect(sampleText(first, ZH)).toBe('每个任务按文件顺序的前 5 题');
    const old = describeSample(config(5, null));
    expect(old).toMatchObject({ draw: 'first', seed: null, order: 'file', population: null });
    expect(sampleShortText(old, EN)).toBe('first 5 per task');
  });

  it('tells two samples apart: seed, draw, size, tasks; every item is every item', () => {
    expect(sampleDifference(config(50, [900, 900], 'random', 1), config(50, [900, 900], 'random', 1))).toBeNull();
    expect(sampleDifference(config(50, [900, 900], 'random', 1), config(50, [900, 900], 'random', 2))).toBe('seed');
    expect(sampleDifference(config(50, [900, 900], 'random', 1), config(50, [900, 900], 'first'))).toBe('draw');
    expect(sampleDifference(config(50, [900, 900]), config(60, [900, 900]))).toBe('size');
    expect(sampleDifference(config(50, [900, 900]), { ...config(50, [900, 900]), tasks: ['古音学'] })).toBe('tasks');
    expect(sampleDifference(config(null, [900, 900], 'random', 1), config(null, [900, 900], 'first', 2))).toBeNull();
    for (const d of ['tasks', 'size', 'draw', 'seed'] as const) expect(english(sampleDifferenceText(d, ZH))).toEqual([]);
  });
});

describe('Compare and the CSV say the sample', () => {
  const en: LabelWords = { lang: 'en', countOf: (n, one, many) => `${n} ${n === 1 ? one : many}`, dateTime: (iso) => iso };
  const described = (c: SampledConfig): DescribedRun => ({ config: { ...makeMcRun().run.config, ...c, tasks: [...c.tasks], itemIds: [...(c.itemIds ?? [])] } as McRunConfig, createdAt: '2026-12-01T09:00:00.000Z' });

  it('labels a sampled run by its sample and flags runs whose samples differ', () => {
    const a = described(config(50, [900, 900], 'random', 7));
    expect(runFacets(a, en).find((f) => f.key === 'limit')?.text).toBe('random 50 per task, seed 7');
    expect(samplesNote([a, described(config(50, [900, 900], 'random', 7))], en)).toBe('');
    expect(samplesNote([a, described(config(50, [900, 900], 'random', 8))], en)).toMatch(/different samples \(random samples drawn with different seeds\)/);
    expect(samplesNote([a, described(config(50, [900, 900], 'first'))], { lang: 'zh' })).toMatch(/样本不同/);
  });

  it('the predictions CSV carries the order asked, the sample and its seed on every row', () => {
    const { run, results } = makeMcRun();
    const sample = describeSample({ ...run.config, sampling: newRunSampling('random', 99, Object.fromEntries(run.config.tasks.map((t) => [t, 40]))) });
    const rows = Papa.parse<Record<string, string>>(predictionsCsv(results, sample), { header: true, skipEmptyLines: true }).data;
    expect(rows).toHaveLength(results.length);
    expect(rows.map((r) => r.asked)).toEqual(results.map((r) => String(r.index + 1)));
    expect(new Set(rows.map((r) => `${r.sample}|${r.sample_seed}`))).toEqual(new Set([`random ${run.config.limitPerTask} of 40 per task|99`]));
    // Without a run's sample (a file of predictions alone) the columns are as before.
    expect(Papa.parse(predictionsCsv(results), { header: true }).meta.fields).not.toContain('sample');
  });
});
