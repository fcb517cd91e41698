import { describe, expect, it } from 'vitest';
import type { McRunConfig } from '../../../src/lib/core/record/run.ts';
import { distinguishingLabels, sharedDescription, type DescribedRun, type LabelWords } from '../../../src/ui/compare/run-label.ts';
import { isFixtureModel, modelLabel } from '../../../src/ui/i18n/model-label.ts';
import { titleIn } from '../../../src/ui/i18n/dataset-title.ts';

const en: LabelWords = { lang: 'en', countOf: (n, one, many) => `${n} ${n === 1 ? one : many}`, dateTime: (iso) => iso.slice(0, 16) };
const zh: LabelWords = { lang: 'zh', countOf: (n, _one, _many, word) => `${n} ${word}`, dateTime: (iso) => iso.slice(0, 16) };

function mc(change: Partial<McRunConfig> = {}, createdAt = '2026-12-01T09:00:00.000Z', backendUsed: string | null = null): DescribedRun {
  const config: McRunConfig = {
    kind: 'multiple-choice',
    model: { source: { kind: 'site', name: 'jiangu-tiny' }, dtype: 'fp32', backend: 'wasm' },
    protocolId: 'cmmlu',
    protocolVersion: 1,
    templateHash: 'h',
    scoring: 'letter-logits',
    shots: 0,
    contextLimit: 2048,
    chatTemplate: false,
    prefixReuse: true,
    datasetId: 'aclue',
    datasetFiles: [],
    tasks: ['古音学', '医古文', '诗词'],
    limitPerTask: null,
    itemIds: [],
    appVersion: 'test',
    ...change,
  };
  return { config, createdAt, backendUsed };
}

describe('distinguishingLabels', () => {
  it('labels runs that differ only in backend by the backend, the rest on hover', () => {
    const runs = [mc({}, '2026-12-01T09:00:00Z', 'wasm'), mc({ model: { source: { kind: 'site', name: 'jiangu-tiny' }, dtype: 'fp32', backend: 'webgpu' } }, '2026-12-01T10:00:00Z', 'webgpu')];
    const labels = distinguishingLabels(runs, en);
    expect(labels.map((l) => l.short)).toEqual(['WASM', 'WebGPU']);
    expect(labels[0].full).toContain("jiangu-tiny (test model, random weights)");
    expect(labels[0].full).toContain('0-shot');
    expect(labels[1].full).toContain('WebGPU');
  });

  it('shows every facet that differs (shots, task subset, limit) and none that is shared', () => {
    const runs = [mc(), mc({ shots: 5, tasks: ['古音学'], limitPerTask: 20 })];
    expect(distinguishingLabels(runs, en).map((l) => l.short)).toEqual(['0-shot · 3 tasks · all items', '5-shot · 1 task: 古音学 · first 20 per task']);
    expect(distinguishingLabels(runs, zh).map((l) => l.short)).toEqual(['0 个示例 · 3 个任务 · 全部题目', '5 个示例 · 1 个任务：古音学 · 每任务前 20 题']);
    expect(sharedDescription(runs, en)).toBe("jiangu-tiny (test model, random weights) · fp32 · WASM · letter log-probs · benchmark order · plain prompt");
  });

  it('falls back to the date for runs alike in everything else, and to a number when the dates match too', () => {
    expect(distinguishingLabels([mc({}, '2026-12-01T09:00:00Z'), mc({}, '2026-12-02T09:00:00Z')], en).map((l) => l.short)).toEqual(['2026-12-01T09:00', '2026-12-02T09:00']);
    expect(distinguishingLabels([mc(), mc()], en).map((l) => l.short)).toEqual(['#1', '#2']);
  });

  it('tells a circular run, a PriDe run and a plain run of the same items apart by how their options were ordered', () => {
    const pride = { share: 0.05, seed: 7, estimationItemIds: ['x'] };
    const runs = [mc({ circular: true, pride }), mc({ pride }), mc()];
    expect(distinguishingLabels(runs, en).map((l) => l.short)).toEqual(['circular', 'PriDe', 'benchmark order']);
    expect(distinguishingLabels(runs, zh).map((l) => l.short)).toEqual(['循环评测', 'PriDe 去偏', '原选项顺序']);
  });

  it('labels seven runs that read the same before (same model, dtype and shots) apart', () => {
    const variants: Partial<McRunConfig>[] = [{}, { scoring: 'generate-extract' }, { chatTemplate: true }, { tasks: ['古音学'] }, { tasks: ['医古文'] }, { limitPerTask: 10 }, { limitPerTask: 40 }];
    const shorts = distinguishingLabels(variants.map((v) => mc(v)), en).map((l) => l.short);
    expect(new Set(shorts).size).toBe(7);
  });
});

describe('one model naming', () => {
  it('names the fixture models as random-weight test models, other site folders and hub ids as such', () => {
    expect(isFixtureModel({ kind: 'site', name: 'jiangu-tiny' })).toBe(true);
    expect(isFixtureModel({ kind: 'site', name: 'qwen-converted' })).toBe(false);
    expect(isFixtureModel({ kind: 'hub', id: 'jiangu-tiny' })).toBe(false);
    expect(modelLabel({ kind: 'site', name: 'jiangu-tiny' }, 'zh')).toBe('jiangu-tiny（测试模型，随机权重）');
    expect(modelLabel({ kind: 'site', name: 'qwen-converted' }, 'en')).toBe("qwen-converted (this site's model)");
    expect(modelLabel({ kind: 'hub', id: 'Qwen/Qwen2.5-0.5B-Instruct', revision: 'main' }, 'en')).toBe('Qwen/Qwen2.5-0.5B-Instruct@main');
    expect(modelLabel({ kind: 'hub', id: 'a/b', host: 'https://mirror.example' }, 'en')).toBe('a/b (https://mirror.example)');
  });
});

describe('titleIn', () => {
  it('gives each language its half of a bilingual catalog title, and other titles as they are', () => {
    expect(titleIn('CMMLU 古汉语 (ancient_chinese)', 'zh')).toBe('CMMLU 古汉语');
    expect(titleIn('CMMLU 古汉语 (ancient_chinese)', 'en')).toBe('CMMLU (ancient_chinese)');
    expect(titleIn('C³Bench', 'zh')).toBe('C³Bench');
    expect(titleIn('ACLUE', 'en')).toBe('ACLUE');
  });
});
