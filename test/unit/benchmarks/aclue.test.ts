// ACLUE against the shared copy: counts from its SOURCE.md, rows compared with Python's csv module
// (as sha256 of the fields, so no data is copied here), lines checked against the raw text.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { adaptAclue, adaptDataset } from '../../../src/lib/core/benchmarks/adapters/index.ts';
import type { MultipleChoiceItem } from '../../../src/lib/core/benchmarks/types.ts';
import { rowHash } from './helpers.ts';
import { describeWithSharedData, readCatalogFiles, readShared } from './shared-data.ts';

// data/test/<task>.csv record counts, SOURCE.md.
const TEST_COUNTS: Record<string, number> = {
  医古文: 211,
  古代文学知识: 160,
  古文单字多义: 500,
  古文断句: 500,
  古文阅读理解: 101,
  古汉语命名体识别: 500,
  古汉语知识: 249,
  古诗词上下句预测: 500,
  古诗词曲鉴赏: 103,
  古诗词质量评估: 406,
  古音学: 100,
  国学常识: 136,
  对联: 500,
  诗词情感分类: 500,
  通假字: 500,
};

describeWithSharedData('ACLUE adapter on the shared copy', (root) => {
  let items: MultipleChoiceItem[];
  beforeAll(() => {
    items = adaptDataset('aclue', readCatalogFiles(root, 'aclue')).items as MultipleChoiceItem[];
  });
  const find = (id: string) => items.find((item) => item.id === id)!;

  it('has 4,966 test items (per file as in SOURCE.md) and 5 dev exemplars per task', () => {
    const test = items.filter((item) => item.split === 'test');
    expect(test.length).toBe(4966);
    for (const [task, count] of Object.entries(TEST_COUNTS)) {
      expect(test.filter((item) => item.task === task).length, task).toBe(count);
      expect(items.filter((item) => item.task === task && item.split === 'dev').length, task).toBe(5);
    }
    expect(items.length).toBe(4966 + 75);
  });

  it('has the test answer distribution of SOURCE.md, four options each', () => {
    const counts: Record<string, number> = {};
    for (const item of items.filter((i) => i.split === 'test')) counts[item.answer ?? 'null'] = (counts[item.answer ?? 'null'] ?? 0) + 1;
    expect(counts).toEqual({ A: 1259, B: 1206, C: 1236, D: 1265 });
    expect(items.every((item) => item.kind === 'multiple-choice' && item.options.length === 4)).toBe(true);
  });

  it('gives ids <task>/<split>/<order> with order in file order', () => {
    expect(find('通假字/dev/0').order).toBe(0);
    expect(find('通假字/dev/4').source).toEqual({ file: 'data/dev/通假字.csv', line: 6 });
    expect(new Set(items.map((item) => item.id)).size).toBe(items.length);
  });

  it.each([
    // id, start line, hash of Question,A,B,C,D,Answer as read by Python's csv module
    ['古文阅读理解/test/0', 2, 'eaa185e227936176d173ca807caa0414095243e6f007f9ae75f828075472528f'], // newlines
    ['古文阅读理解/test/11', 24, '0b08186f4dd41ba3fbc42e3b42d717dbea29ea50edb85dcf2d59f66ee2bcaf11'], // newlines and commas
    ['古文阅读理解/test/100', 201, '63cf5ed8551c6a30ee03ad31db66a7613fbab8efbe0a1a26842e047455cd0dff'], // newlines and quotes
    ['古文单字多义/test/16', 18, '83e63a2c0be9699b4c26d0f4b1ea627a9113d475695eda622180fddcb11d6cc5'], // commas and quotes
  ])('%s (line %i) equals the raw row', (id, line, hash) => {
    const item = find(id);
    expect(item.source.line).toBe(line);
    expect(rowHash([item.question, ...item.options, item.answer ?? ''])).toBe(hash);
  });

  it('points every multi-line 古文阅读理解 item at the raw line where its row starts', () => {
    const path = 'data/test/古文阅读理解.csv';
    const lines = readFileSync(join(root, 'aclue', path), 'utf8').split('\n');
    const rowItems = items.filter((item) => item.source.file === path);
    expect(rowItems.filter((item) => item.question.includes('\n')).length).toBeGreaterThan(90);
    for (const item of rowItems) {
      const raw = lines[item.source.line - 1].replace(/^"/, '').replaceAll('""', '"');
      expect(raw.startsWith(item.question.split('\n')[0]), item.id).toBe(true);
    }
  });

  it('accepts any subset of its files on its own, and refuses files that are not ACLUE tasks', () => {
    expect(adaptAclue([readShared(root, 'aclue', 'data/dev/古音学.csv')]).items.length).toBe(5);
    const stray = { ...readShared(root, 'aclue', 'data/dev/古音学.csv'), path: 'data/dev/古音.csv' };
    expect(() => adaptAclue([stray])).toThrow('data/dev/古音.csv: not one of the ACLUE files: expected data/dev/<task>.csv or data/test/<task>.csv for one of its 15 tasks');
  });
});
