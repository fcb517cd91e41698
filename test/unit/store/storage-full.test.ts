// A full storage quota said clearly (issue 46): isQuotaError tells the browser's refusal however it
// comes (the DOMException itself, or an error of the site's that carries it as its cause), and each
// store write a user starts (a run, a memorization run, a result, a label) turns it into a notice
// that says what was not saved and what is safe, in English and Chinese, with everything stored
// before left as it was. Chromium's own refusal has an empty message: shown as it was, the page said
// "Something went wrong inside Jiangu: " and nothing more.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { JianguError, catalog, jianguError, noticeOf, renderNotice, type Notice } from '../../../src/lib/core/notices/index.ts';
import { RunImportError, refusal } from '../../../src/lib/core/formats/import-validate.ts';
import { StorageFullError, isQuotaError, unlessStorageFull } from '../../../src/lib/store/errors.ts';
import { createRun, getRun, saveResult, setRunLabel, updateRun } from '../../../src/lib/store/runs.ts';
import { createProbeRun, getProbeRun, saveProbeResult, setProbeRunLabel } from '../../../src/lib/store/probe-runs.ts';
import type { ItemResult, McRunRecord } from '../../../src/lib/core/record/run.ts';
import type { ProbeResult, ProbeRunRecord } from '../../../src/lib/core/record/probe-run.ts';
import type { JianguDatabase } from '../../../src/lib/store/schema.ts';
import { freshDb } from './helpers.ts';
import { fillStorage, refusing } from './full-storage.ts';

const chromeQuota = () => new DOMException('', 'QuotaExceededError');

afterEach(() => vi.restoreAllMocks());

describe('isQuotaError', () => {
  it('tells the browser’s quota error, by name, in any browser’s spelling', () => {
    expect(isQuotaError(chromeQuota())).toBe(true);
    expect(isQuotaError(new DOMException('', 'NS_ERROR_DOM_QUOTA_REACHED'))).toBe(true);
    // A plain object with the name, as a worker's structured clone of the error arrives.
    expect(isQuotaError({ name: 'QuotaExceededError', message: '' })).toBe(true);
  });

  it('tells an error of the site’s that carries one as its cause, a few causes deep', () => {
    expect(isQuotaError(new JianguError({ code: 'run.storage-full-start', params: {} }, { cause: chromeQuota() }))).toBe(true);
    expect(isQuotaError(new RunImportError('run.json', refusal('import.storage-full', { results: 3 }), { cause: chromeQuota() }))).toBe(true);
    expect(isQuotaError(new StorageFullError({ datasetId: 'aclue', title: 'ACLUE', neededBytes: 10, suggestions: [], cause: chromeQuota() }))).toBe(true);
    expect(isQuotaError(new Error('outer', { cause: new Error('middle', { cause: chromeQuota() }) }))).toBe(true);
  });

  it('is false for every other failure, and for a cycle of causes that holds none', () => {
    for (const other of [new DOMException('', 'AbortError'), new DOMException('', 'DataCloneError'), new Error('QuotaExceededError'), jianguError('internal', { detail: 'x' }), 'QuotaExceededError', null, undefined, 22]) {
      expect(isQuotaError(other), String(other)).toBe(false);
    }
    const a = new Error('a') as Error & { cause?: unknown };
    const b = new Error('b', { cause: a });
    a.cause = b;
    expect(isQuotaError(a)).toBe(false);
  });

  it('unlessStorageFull says the notice for a quota error, the browser’s error kept as its cause, and lets anything else through', async () => {
    const full: Notice = { code: 'run.label-storage-full', params: {} };
    const quota = chromeQuota();
    const said = await unlessStorageFull(() => Promise.reject(quota), full).catch((e: unknown) => e);
    expect(said).toBeInstanceOf(JianguError);
    expect((said as JianguError).notice).toEqual(full);
    expect((said as JianguError).cause).toBe(quota);
    const other = new DOMException('', 'DataCloneError');
    await expect(unlessStorageFull(() => Promise.reject(other), full)).rejects.toBe(other);
    await expect(unlessStorageFull(() => Promise.resolve(7), full)).resolves.toBe(7);
  });
});

describe('the notices, in both languages', () => {
  const cases: [Notice, string, string][] = [
    [
      { code: 'run.storage-full-start', params: {} },
      'Not enough browser storage to start this run: nothing was stored, and your stored runs and benchmarks are unchanged. Delete old runs (Evaluate page) or datasets (Data page) to make room, then start it again.',
      '浏览器存储空间不足，无法开始这次评测：没有保存任何内容，已存储的评测和数据集都没有改变。请删除旧的评测（“评测”页）或数据集（“数据”页）腾出空间，然后重新开始。',
    ],
    [
      { code: 'run.storage-full', params: { itemId: 'Radical/test/3' } },
      'Not enough browser storage to save the result of item Radical/test/3: the run stopped there and that result was not saved. Every result saved before it is kept, and your other runs and benchmarks are unchanged. Delete old runs (Evaluate page) or datasets (Data page) to make room, then Resume goes on from there.',
      '浏览器存储空间不足，无法保存题目 Radical/test/3 的结果：评测在此停止，这一结果没有保存。之前保存的结果都还在，其他评测和数据集也没有改变。请删除旧的评测（“评测”页）或数据集（“数据”页）腾出空间，然后点“继续”从那里接着运行。',
    ],
    [
      { code: 'run.storage-full', params: { itemId: null } },
      'Not enough browser storage to save this run’s progress: the run stopped there and that was not saved. Every result saved before it is kept, and your other runs and benchmarks are unchanged. Delete old runs (Evaluate page) or datasets (Data page) to make room, then Resume goes on from there.',
      '浏览器存储空间不足，无法保存这次评测的进度：评测在此停止，这一进度没有保存。之前保存的结果都还在，其他评测和数据集也没有改变。请删除旧的评测（“评测”页）或数据集（“数据”页）腾出空间，然后点“继续”从那里接着运行。',
    ],
    [
      { code: 'run.label-storage-full', params: {} },
      'Not enough browser storage to save the label: the label was not saved, and the run and its results are unchanged. Delete old runs (Evaluate page) or datasets (Data page) to make room, then save it again.',
      '浏览器存储空间不足，无法保存标签：标签没有保存，这次评测及其结果都没有改变。请删除旧的评测（“评测”页）或数据集（“数据”页）腾出空间，然后再保存一次。',
    ],
    [
      { code: 'run.resume-elsewhere', params: {} },
      'This run is running in another tab or window: Resume is possible here once it stops there.',
      '这个评测正在另一个标签页或窗口中运行：等它在那里停下后，才能在这里继续。',
    ],
  ];
  it.each(cases)('%o', (n, en, zh) => {
    expect(Object.hasOwn(catalog, n.code)).toBe(true);
    expect(renderNotice(n, 'en')).toBe(en);
    expect(renderNotice(n, 'zh')).toBe(zh);
  });
});

const RUN: McRunRecord = {
  id: 'run-1',
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  datasetId: 'ancientbench',
  status: 'running',
  warnings: [],
  config: {
    kind: 'multiple-choice',
    model: { source: { kind: 'site', name: 'jiangu-tiny' }, dtype: 'fp32', backend: 'wasm' },
    protocolId: 'ancientbench',
    protocolVersion: 1,
    templateHash: 'a'.repeat(64),
    scoring: 'letter-logits',
    shots: 0,
    contextLimit: 2048,
    chatTemplate: false,
    prefixReuse: false,
    datasetId: 'ancientbench',
    datasetFiles: [],
    tasks: ['Radical'],
    limitPerTask: null,
    itemIds: ['Radical/test/0', 'Radical/test/1'],
    appVersion: 'test',
  },
};

const RESULT = { runId: 'run-1', itemId: 'Radical/test/0', task: 'Radical', index: 0 } as unknown as ItemResult;

/** Everything stored in the run stores, to compare before and after a refused write. */
async function stores(db: JianguDatabase) {
  return { runs: await db.getAll('runs'), results: await db.getAll('results'), probeRuns: await db.getAll('probeRuns'), probeResults: await db.getAll('probeResults') };
}

/** What `write` threw, as a notice; fails the test when it threw nothing. */
async function refusedWith(write: () => Promise<unknown>): Promise<Notice> {
  const error = await write().then(
    () => null,
    (e: unknown) => e,
  );
  expect(error, 'refused, but not in words of its own').toBeInstanceOf(JianguError);
  expect(isQuotaError(error)).toBe(true);
  return noticeOf(error);
}

describe('store writes with the storage full', () => {
  it('a new run, a result, a run’s progress and a label are each refused with their own notice, nothing stored changing', async () => {
    const db = await freshDb();
    await createRun(db, RUN);
    await saveResult(db, RESULT);
    const before = await stores(db);

    fillStorage(refusing(['runs', 'results']));
    expect(await refusedWith(() => createRun(db, { ...RUN, id: 'run-2' }))).toEqual({ code: 'run.storage-full-start', params: {} });
    expect(await refusedWith(() => saveResult(db, { ...RESULT, itemId: 'Radical/test/1', index: 1 }))).toEqual({ code: 'run.storage-full', params: { itemId: 'Radical/test/1' } });
    expect(await refusedWith(() => updateRun(db, RUN.id, { status: 'paused' }))).toEqual({ code: 'run.storage-full', params: { itemId: null } });
    expect(await refusedWith(() => setRunLabel(db, RUN.id, 'mine'))).toEqual({ code: 'run.label-storage-full', params: {} });
    vi.restoreAllMocks();
    expect(await stores(db)).toEqual(before);

    // Room again: the same writes go through.
    expect((await setRunLabel(db, RUN.id, 'mine')).label).toBe('mine');
    expect((await getRun(db, RUN.id))?.label).toBe('mine');
    db.close();
  });

  it('a memorization run, its result and its label likewise', async () => {
    const db = await freshDb();
    const probe = { ...RUN, id: 'probe-1', config: { ...RUN.config, kind: 'memorization' } } as unknown as ProbeRunRecord;
    await createProbeRun(db, probe);
    const before = await stores(db);

    fillStorage(refusing(['probeRuns', 'probeResults']));
    expect(await refusedWith(() => createProbeRun(db, { ...probe, id: 'probe-2' }))).toEqual({ code: 'run.storage-full-start', params: {} });
    expect(await refusedWith(() => saveProbeResult(db, { kind: 'item', runId: 'probe-1', itemId: 'Radical/test/0', index: 0 } as unknown as ProbeResult))).toEqual({ code: 'run.storage-full', params: { itemId: 'Radical/test/0' } });
    expect(await refusedWith(() => setProbeRunLabel(db, probe.id, 'mine'))).toEqual({ code: 'run.label-storage-full', params: {} });
    vi.restoreAllMocks();
    expect(await stores(db)).toEqual(before);
    expect((await getProbeRun(db, probe.id))?.label).toBeUndefined();
    db.close();
  });

  it('a write refused for another reason is not said as a full storage', async () => {
    const db = await freshDb();
    await createRun(db, RUN);
    // The same id again: a ConstraintError, which says nothing about room.
    const error = await createRun(db, RUN).catch((e: unknown) => e);
    expect(isQuotaError(error)).toBe(false);
    expect((error as DOMException).name).toBe('ConstraintError');
    db.close();
  });
});
