import { beforeAll, expect, it } from 'vitest';
import { adaptDataset } from '../../../src/lib/core/benchmarks/adapters/index.ts';
import type { MultipleChoiceItem } from '../../../src/lib/core/benchmarks/types.ts';
import { rowHash } from './helpers.ts';
import { describeWithSharedData, readCatalogFiles } from './shared-data.ts';

describeWithSharedData('CMMLU ancient_chinese adapter on the shared copy', (root) => {
  let items: MultipleChoiceItem[];
  beforeAll(() => {
    items = adaptDataset('cmmlu-ancient', readCatalogFiles(root, 'cmmlu-ancient')).items as MultipleChoiceItem[];
  });

  it('has 164 test and 5 dev items with answers and four options', () => {
    expect(items.filter((item) => item.split === 'test').length).toBe(164);
    expect(items.filter((item) => item.split === 'dev').length).toBe(5);
    expect(items.every((item) => item.task === 'ancient_chinese' && item.datasetId === 'cmmlu-ancient')).toBe(true);
    expect(items.every((item) => item.answer !== null && item.options.length === 4)).toBe(true);
  });

  it.each([
    // Hash of Question,A,B,C,D,Answer (without the leading index column) as read by Python's csv module.
    ['ancient_chinese/test/0', 2, 'e2254df5710a82be5628a00d30300813a743a1138f606bb94461fbd621d69e5e'],
    ['ancient_chinese/test/163', 165, 'b2328489d5390cd89f7ddcbfe336c3705b5fcad12cbd7007fbe87748f4c4ad53'],
  ])('%s (line %i) equals the raw row without its index column', (id, line, hash) => {
    const item = items.find((i) => i.id === id)!;
    expect(item.source).toEqual({ file: 'data/test/ancient_chinese.csv', line });
    expect(rowHash([item.question, ...item.options, item.answer ?? ''])).toBe(hash);
  });
});
