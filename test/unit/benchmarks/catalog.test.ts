import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  attributionText,
  DATASETS,
  downloadPlan,
  findTask,
  getDataset,
  groupOfTask,
  mirrorUrl,
  rawUrl,
} from '../../../src/lib/core/benchmarks/catalog.ts';
import { AC_EVAL_TASKS } from '../../../src/lib/core/benchmarks/catalog-tasks.ts';
import { describeWithSharedData } from './shared-data.ts';

describe('catalog', () => {
  it('has the six datasets with their task counts', () => {
    expect(DATASETS.map((d) => [d.id, d.tasks.length])).toEqual([
      ['aclue', 15],
      ['cmmlu-ancient', 1],
      ['ac-eval', 13],
      ['wenmind', 12],
      ['ancientbench', 10],
      ['c3bench', 5],
    ]);
  });

  it('puts every task in one of its dataset groups, and every group has tasks', () => {
    for (const dataset of DATASETS) {
      const groupKeys = dataset.groups.map((group) => group.key);
      for (const task of dataset.tasks) {
        if (dataset.groupKind === null) expect(task.group).toBeNull();
        else expect(groupKeys).toContain(task.group);
      }
      for (const key of groupKeys) expect(dataset.tasks.some((task) => task.group === key)).toBe(true);
      expect(new Set(dataset.tasks.map((task) => task.key)).size).toBe(dataset.tasks.length);
    }
  });

  it('groups ACLUE by category and AncientBench by competency', () => {
    expect(groupOfTask('aclue', '古文断句')?.en).toBe('Syntactic');
    expect(getDataset('aclue').tasks.filter((t) => t.group === 'Knowledge').map((t) => t.key)).toEqual(['古汉语知识', '国学常识', '医古文', '古代文学知识', '古音学']);
    const competency = (key: string) => groupOfTask('ancientbench', key)?.key;
    expect(['Radical', 'Radical Meaning'].map(competency)).toEqual(['glyph', 'glyph']);
    expect(['Pronunciation', 'Phonetic Radical', 'Homophone'].map(competency)).toEqual(['pronunciation', 'pronunciation', 'pronunciation']);
    expect(['ExcDoc Word', 'TraDoc Word'].map(competency)).toEqual(['meaning', 'meaning']);
    expect(['Cloze', 'Phonetic Loan Character', 'Translation'].map(competency)).toEqual(['context', 'context', 'context']);
    expect(findTask('ancientbench', 'Phonetic Loan Character')?.zh).toBe('通假字');
  });

  it('lists a dev and a test file for every ACLUE and AC-EVAL task', () => {
    for (const id of ['aclue', 'ac-eval'] as const) {
      const paths = getDataset(id).files.map((file) => file.path).sort();
      const expected = getDataset(id).tasks.flatMap((task) => [`data/dev/${task.key}.csv`, `data/test/${task.key}.csv`]).sort();
      expect(paths).toEqual(expected);
    }
  });

  it('marks the generation tasks, their labels and translation directions', () => {
    expect(getDataset('wenmind').tasks.filter((t) => t.kind === 'generation').map((t) => [t.key, t.generationTask])).toEqual([
      ['主题分类', 'classification'],
      ['命名实体识别', 'ner'],
      ['句读', 'punctuation'],
      ['文白翻译', 'translation'],
      ['白文翻译', 'translation'],
    ]);
    expect(findTask('wenmind', '白文翻译')?.direction).toBe('modern-to-classical');
    expect(findTask('c3bench', 'classification')?.labels).toEqual(['诗', '史', '儒', '道', '佛', '农', '法', '艺', '医', '兵']);
  });

  it('builds raw URLs at the pinned commit, percent-encoding each path segment', () => {
    expect(rawUrl('aclue', 'data/test/通假字.csv')).toBe(
      'https://raw.githubusercontent.com/isen-zhang/ACLUE/c05ab433d9b0709a77dfc2aeebdf1f0d0c615153/data/test/%E9%80%9A%E5%81%87%E5%AD%97.csv',
    );
    expect(rawUrl('c3bench', 'C3_bench.json')).toBe(
      'https://raw.githubusercontent.com/SCUT-DLVCLab/C3bench/49b1913dcd0f54bbf67578b2c4f491de21443c72/C3_bench.json',
    );
    expect(() => rawUrl('ancientbench', 'x.csv')).toThrow(/no public repository/);
  });

  it('builds mirror URLs from the mirror folder, which for CMMLU is not the id', () => {
    expect(mirrorUrl('https://m.example/data/', 'cmmlu-ancient', 'data/dev/ancient_chinese.csv')).toBe(
      'https://m.example/data/cmmlu-ancient_chinese/data/dev/ancient_chinese.csv',
    );
    expect(mirrorUrl('/mirror', 'aclue', 'data/dev/医古文.csv')).toBe('/mirror/aclue/data/dev/%E5%8C%BB%E5%8F%A4%E6%96%87.csv');
    expect(downloadPlan('cmmlu-ancient', '/m').map((f) => f.url)).toEqual([
      '/m/cmmlu-ancient_chinese/data/dev/ancient_chinese.csv',
      '/m/cmmlu-ancient_chinese/data/test/ancient_chinese.csv',
    ]);
    expect(downloadPlan('wenmind')[0].url).toBe(
      'https://raw.githubusercontent.com/SCUT-DLVCLab/WenMind/91e8c05ac796f4f31ffaadacecd68daa2928f7e1/WenMind_Benchmark/WenMind_ver1.json',
    );
  });

  it('pins no hash for C3Bench and no files for AncientBench', () => {
    expect(getDataset('c3bench').files).toEqual([{ path: 'C3_bench.json', sha256: null, bytes: null }]);
    expect(getDataset('ancientbench').files).toEqual([]);
    expect(getDataset('ancientbench').origins).toEqual(['import']);
  });

  it('says whom to credit and under what license', () => {
    expect(attributionText('ac-eval')).toMatch(/^Yuting Wei, .*arXiv:2403\.06574.*https:\/\/github\.com\/yuting-wei\/AC-EVAL\. License: CC BY-NC-SA 4\.0\.$/);
    expect(getDataset('ac-eval').testAnswers).toBe(false);
  });
});

describeWithSharedData('catalog against the shared data', (root) => {
  it('AC-EVAL tasks and supercategories equal subject_mapping.json', () => {
    const mapping = JSON.parse(readFileSync(join(root, 'ac-eval', 'subject_mapping.json'), 'utf8')) as Record<
      string,
      { English: string; Chinese: string; Supercategory: string }
    >;
    const fromFile = Object.entries(mapping).map(([key, v]) => ({ key, en: v.English, zh: v.Chinese, group: v.Supercategory }));
    const inCatalog = AC_EVAL_TASKS.map(({ key, en, zh, group }) => ({ key, en, zh, group }));
    expect(inCatalog).toEqual(fromFile);
  });

  it('lays out every catalog file where mirrorUrl expects it in a mirror shaped like the shared folder', () => {
    for (const dataset of DATASETS) {
      for (const file of dataset.files) {
        if (file.sha256 === null) continue;
        const url = mirrorUrl('', dataset.id, file.path);
        expect(existsSync(join(root, decodeURIComponent(url)))).toBe(true);
      }
    }
  });
});
