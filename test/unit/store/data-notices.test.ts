// The store's errors as notices in both languages (the English unchanged as `.message`), and what
// a run is told when its questions are no longer stored: not stored, replaced (by which file, when),
// or some items missing. Also how many runs a replacement would affect.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DatasetRecord } from '../../../src/lib/core/benchmarks/types.ts';
import { noticeOf, renderNotice } from '../../../src/lib/core/notices/index.ts';
import { datasetUse, saveDataset, whyRunItemsAreMissing } from '../../../src/lib/store/datasets.ts';
import { DatasetNotFoundError, DatasetSaveError, DatasetValidationError, StorageFullError } from '../../../src/lib/store/errors.ts';
import type { JianguDatabase } from '../../../src/lib/store/schema.ts';
import { freshDb, makeItems, makeRecord } from './helpers.ts';

const items = makeItems('ancientbench', [{ task: 'Radical', dev: 1, test: 3 }]);
const first: DatasetRecord = { ...makeRecord('ancientbench', items, 'AncientBench'), origin: 'import', source: 'mine.csv', importedAt: '2026-11-30T08:00:00.000Z' };
const second: DatasetRecord = {
  ...first,
  source: 'theirs.csv',
  files: [{ path: 'theirs.csv', sha256: 'cd'.repeat(32), bytes: 99 }],
  importedAt: '2026-12-01T09:30:00.000Z',
};
const claim = (record: DatasetRecord, itemIds = items.map((item) => item.id)) => ({
  datasetId: record.id,
  datasetFiles: record.files.map(({ path, sha256 }) => ({ path, sha256 })),
  itemIds,
});

let db: JianguDatabase;
beforeEach(async () => {
  db = await freshDb();
});
afterEach(() => db.close());

describe('store errors as notices', () => {
  it('words a missing dataset in both languages', () => {
    const error = new DatasetNotFoundError('ac-eval');
    expect(error.message).toBe('Dataset ac-eval is not stored in this browser. Download or import it first.');
    expect(renderNotice(noticeOf(error), 'zh')).toBe('这个浏览器里没有存储数据集 ac-eval。请先下载或导入。');
    expect(error.name).toBe('DatasetNotFoundError');
  });

  it('words validation problems, a failed write and a full disk in both languages', () => {
    const [a, b] = items;
    const invalid = new DatasetValidationError('aclue', [{ kind: 'foreign', item: a }, { kind: 'duplicate', first: a, second: { ...b, id: a.id } }]);
    expect(invalid.message).toBe(
      `Dataset aclue was not saved: item ${a.id} (${a.source.file}, line ${a.source.line}) belongs to dataset ancientbench, not aclue; ` +
        `item id ${a.id} appears twice (${a.source.file} line ${a.source.line} and ${b.source.file} line ${b.source.line}). Nothing was written.`,
    );
    expect(renderNotice(invalid.notice, 'zh')).toBe(
      `数据集 aclue 没有保存：题目 ${a.id}（${a.source.file}，第 ${a.source.line} 行）属于数据集 ancientbench，不属于 aclue；` +
        `题目 ID ${a.id} 出现了两次（${a.source.file} 第 ${a.source.line} 行和 ${b.source.file} 第 ${b.source.line} 行）。没有写入任何内容。`,
    );

    const clone = new DOMException('could not be cloned', 'DataCloneError');
    const failed = new DatasetSaveError('aclue', a, clone);
    expect(failed.message).toBe(`Dataset aclue was not saved: item ${a.id} (${a.source.file}, line ${a.source.line}) could not be stored (it holds a value that cannot be stored, such as a function): DataCloneError: could not be cloned. The stored data is unchanged.`);
    expect(renderNotice(failed.notice, 'zh')).toBe(`数据集 aclue 没有保存：题目 ${a.id}（${a.source.file}，第 ${a.source.line} 行）无法存储（其中有无法存储的值，例如函数）：DataCloneError: could not be cloned。已存储的数据没有改变。`);

    const full = new StorageFullError({
      datasetId: 'aclue',
      title: 'ACLUE',
      neededBytes: 3 * 1024 * 1024,
      suggestions: [{ id: 'wenmind', title: 'WenMind', itemCount: 9, approxBytes: 2048 }],
      cause: null,
    });
    expect(full.message).toBe(
      'Not enough browser storage to save ACLUE (aclue): it needs about 3.0 MB (approximate: its JSON size as UTF-16). Delete a stored dataset to make room: WenMind (wenmind, about 2.0 KB). Nothing was saved; the stored data is unchanged.',
    );
    expect(renderNotice(full.notice, 'zh')).toBe(
      '浏览器存储空间不足，无法保存 ACLUE（aclue）：大约需要 3.0 MB（估计值：按 UTF-16 计的 JSON 大小）。请删除一个已存储的数据集来腾出空间：WenMind（wenmind，约 2.0 KB）。没有保存任何内容；已存储的数据没有改变。',
    );
  });
});

describe('why a run\'s items are not stored', () => {
  it('says nothing when they are, "not stored" without a copy, and "replaced by <file> on <date>" after another import', async () => {
    expect(await whyRunItemsAreMissing(db, claim(first))).toEqual({ code: 'store.dataset-not-stored', params: { dataset: 'ancientbench' } });
    await saveDataset(db, first, items);
    expect(await whyRunItemsAreMissing(db, claim(first))).toBeNull();

    await saveDataset(db, second, items);
    const replaced = await whyRunItemsAreMissing(db, claim(first));
    expect(replaced?.code).toBe('store.dataset-replaced');
    expect(renderNotice(replaced!, 'en')).toBe(
      "This run's questions are no longer stored: its AncientBench data was replaced by theirs.csv on Dec 1, 2026. Import the file the run used again to see them.",
    );
    expect(renderNotice(replaced!, 'zh')).toBe('这次评测的题目已不在本浏览器中：它用的 AncientBench 数据已于 2026年12月1日 被 theirs.csv 替换。请重新导入评测当时用的文件后再查看。');
  });

  it('counts items a run names that the same files do not hold (or a run that names no files)', async () => {
    await saveDataset(db, first, items);
    const missing = await whyRunItemsAreMissing(db, { ...claim(first, [items[0].id, 'gone-1', 'gone-2']), datasetFiles: [] });
    expect(missing).toEqual({ code: 'store.items-not-stored', params: { title: 'AncientBench', missing: 2, total: 3 } });
    expect(renderNotice(missing!, 'en')).toBe("2 of this run's 3 items are not in the stored AncientBench.");
  });

  it('counts the runs made on the stored files, for asking before a replacement', async () => {
    expect(await datasetUse(db, 'ancientbench')).toBeNull();
    await saveDataset(db, first, items);
    const run = (id: string, record: DatasetRecord) => ({ id, datasetId: record.id, createdAt: '2026-12-01T00:00:00.000Z', config: { datasetFiles: claim(record).datasetFiles } });
    const tx = db.transaction('runs', 'readwrite');
    // Only the fields datasetUse reads: the run store's full record type is the run page's concern.
    await Promise.all([tx.store.put(run('on-first', first) as never), tx.store.put(run('on-second', second) as never), tx.done]);
    const use = await datasetUse(db, 'ancientbench');
    expect(use?.record.source).toBe('mine.csv');
    expect(use?.runs).toBe(1);
  });
});
