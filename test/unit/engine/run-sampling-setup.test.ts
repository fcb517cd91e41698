// A new run's sample and order as createMcRun and createGenRun record them (NewMcRun.sampling), what
// "Run on WASM instead" carries, and that the scheduler asks, and a resume goes on in, that order.
import { describe, expect, it } from 'vitest';
import type { Item } from '../../../src/lib/core/benchmarks/types.ts';
import type { McItemResult, McRunRecord } from '../../../src/lib/core/record/run.ts';
import { JianguError } from '../../../src/lib/core/notices/index.ts';
import { sampleRun } from '../../../src/lib/core/protocols/run-sampling.ts';
import { ModelError, type ModelClient } from '../../../src/lib/engine/model-client.ts';
import { modelError } from '../../../src/lib/engine/model-errors.ts';
import type { LoadResult, ScoreItemParams } from '../../../src/lib/engine/messages.ts';
import { createGenRun, createMcRun, wasmRerunRequest, type NewMcRun } from '../../../src/lib/engine/run-setup.ts';
import { executeRun } from '../../../src/lib/engine/run-scheduler.ts';
import { saveDataset } from '../../../src/lib/store/datasets.ts';
import { loadResults } from '../../../src/lib/store/runs.ts';
import { freshDb, makeRecord } from '../store/helpers.ts';
import { fakeLoadResult } from './fake-load.ts';

const TASKS = { Radical: 30, Cloze: 12, Poetry: 25 } as const;

/** Multiple-choice test and dev items of TASKS in file order, plus a few generation items, so the kind filter counts. */
function items(): Item[] {
  const out: Item[] = [];
  for (const [task, n] of Object.entries(TASKS)) {
    for (const split of ['dev', 'test'] as const) {
      for (let order = 0; order < (split === 'dev' ? 5 : n); order++) {
        out.push({ kind: 'multiple-choice', id: `${task}/${split}/${order}`, datasetId: 'ancientbench', task, split, order, source: { file: 'sample.csv', line: order + 2 }, question: `${task} ${order}`, options: ['甲', '乙', '丙', '丁'], answer: 'A' });
      }
    }
  }
  return out;
}

async function dataset() {
  const db = await freshDb();
  const all = items();
  await saveDataset(db, makeRecord('ancientbench', all), all);
  return db;
}

const request = (extra: Partial<NewMcRun> = {}): NewMcRun => ({
  model: { source: { kind: 'site', name: 'jiangu-tiny' }, dtype: 'fp32', backend: 'auto' },
  datasetId: 'ancientbench',
  tasks: Object.keys(TASKS),
  shots: 5,
  limitPerTask: 8,
  chatTemplate: false,
  ...extra,
});

/** The tasks' test items in file order, as the store gives them. */
const population = () => Object.entries(TASKS).map(([task, n]) => ({ task, itemIds: Array.from({ length: n }, (_, i) => `${task}/test/${i}`) }));

describe('createMcRun and its sample', () => {
  it('records the draw, the seed, the order and each task’s population, and asks itemIds in that order', async () => {
    const db = await dataset();
    const run = await createMcRun(db, request({ sampling: { draw: 'random', seed: 4242 } }));
    expect(run.config.sampling).toEqual({ draw: 'random', seed: 4242, order: 'shuffled', block: 4, growth: 2, maxBlock: 64, population: { Radical: 30, Cloze: 12, Poetry: 25 } });
    expect(run.config.itemIds).toEqual(sampleRun(population(), 8, run.config.sampling).itemIds);
    expect(run.config.itemIds).toHaveLength(24);
    // The first round asks 4 of each task, in the order the tasks are listed.
    expect(run.config.itemIds.slice(0, 12).map((id) => id.split('/')[0])).toEqual(['Radical', 'Radical', 'Radical', 'Radical', 'Cloze', 'Cloze', 'Cloze', 'Cloze', 'Poetry', 'Poetry', 'Poetry', 'Poetry']);
    // The same seed again: the same items in the same order; another seed: another sample.
    expect((await createMcRun(db, request({ sampling: { draw: 'random', seed: 4242 } }))).config.itemIds).toEqual(run.config.itemIds);
    const other = await createMcRun(db, request({ sampling: { draw: 'random', seed: 4243 } }));
    expect(new Set(other.config.itemIds)).not.toEqual(new Set(run.config.itemIds));
  });

  it('draws at random by a fresh seed when the request names no sampling', async () => {
    const db = await dataset();
    const a = await createMcRun(db, request());
    const b = await createMcRun(db, request());
    expect(a.config.sampling).toMatchObject({ draw: 'random', order: 'shuffled' });
    expect(Number.isInteger(a.config.sampling!.seed) && a.config.sampling!.seed >= 0 && a.config.sampling!.seed <= 0xffffffff).toBe(true);
    // Two fresh 32-bit seeds agree once in 4 billion.
    expect(a.config.sampling!.seed).not.toBe(b.config.sampling!.seed);
    expect(a.config.itemIds).toEqual(sampleRun(population(), 8, a.config.sampling).itemIds);
  });

  it("'first' takes each task's first limitPerTask in file order, asked in the seeded order", async () => {
    const db = await dataset();
    const run = await createMcRun(db, request({ sampling: { draw: 'first', seed: 9 } }));
    expect(run.config.sampling).toMatchObject({ draw: 'first', seed: 9, order: 'shuffled' });
    expect([...run.config.itemIds].sort()).toEqual(population().flatMap((t) => t.itemIds.slice(0, 8)).sort());
    expect(run.config.itemIds).toEqual(sampleRun(population(), 8, run.config.sampling).itemIds);
  });

  it('refuses a seed outside 0 … 2^32 − 1 with a notice', async () => {
    const db = await dataset();
    for (const seed of [-1, 2 ** 32, 1.5, Number.NaN]) {
      await expect(createMcRun(db, request({ sampling: { draw: 'random', seed } }))).rejects.toSatisfy((e: unknown) => e instanceof JianguError && e.notice.code === 'run.sampling-seed');
    }
  });

  it('records the same for a generation run', async () => {
    const db = await freshDb();
    const gen: Item[] = Array.from({ length: 20 }, (_, order) => ({ kind: 'generation', id: `g/${order}`, datasetId: 'c3bench', task: 'translation', split: 'test', order, source: { file: 'c3.json', line: order + 1 }, generationTask: 'translation', input: `文${order}`, references: [`译${order}`] }));
    await saveDataset(db, makeRecord('c3bench', gen), gen);
    const run = await createGenRun(db, { model: request().model, datasetId: 'c3bench', tasks: ['translation'], limitPerTask: 5, chatTemplate: false, maxNewTokens: 8, decoding: { kind: 'greedy' }, sampling: { draw: 'random', seed: 77 } });
    expect(run.config.sampling).toMatchObject({ draw: 'random', seed: 77, order: 'shuffled', population: { translation: 20 } });
    expect(run.config.itemIds).toEqual(sampleRun([{ task: 'translation', itemIds: gen.map((g) => g.id) }], 5, run.config.sampling).itemIds);
  });

  it('"Run on WASM instead" asks the same sample in the same order; for a record without sampling, the first N task by task', async () => {
    const db = await dataset();
    const run = await createMcRun(db, request({ sampling: { draw: 'random', seed: 31 } }));
    const again = await createMcRun(db, wasmRerunRequest(run));
    expect(again.config.itemIds).toEqual(run.config.itemIds);
    expect(again.config.sampling).toEqual(run.config.sampling);
    const older = { ...run, config: { ...run.config, sampling: undefined, itemIds: population().flatMap((t) => t.itemIds.slice(0, 8)) } } as McRunRecord;
    expect(wasmRerunRequest(older).sampling).toMatchObject({ draw: 'first', order: 'file' });
    expect((await createMcRun(db, wasmRerunRequest(older))).config.itemIds).toEqual(older.config.itemIds);
  });
});

describe('the scheduler and the order', () => {
  function client(onScore?: (asked: string[]) => void) {
    const asked: string[] = [];
    const c = {
      async load(): Promise<LoadResult> {
        return fakeLoadResult('wasm');
      },
      async scoreItem(params: ScoreItemParams, options?: { signal?: AbortSignal }) {
        asked.push(params.item.id);
        onScore?.(asked);
        if (options?.signal?.aborted) throw new ModelError(modelError('cancelled', 'model.cancelled', []));
        return {
          prompt: 'p', prefix: '', shotsUsed: 0, exemplarIds: [], droppedExemplarIds: [], overLimit: false,
          score: { inputIds: [1], candidates: ['A', 'B', 'C', 'D'].map((text, k) => ({ text, tokenId: k, tokenCount: 1, logProb: -1 - k, mergesWithPrompt: false })), reusedPrefixTokens: 0, logitsCopied: 1, forwardPasses: 1, text: 'p', forwardMs: 1 },
        };
      },
      terminate() {},
    };
    return { client: c as unknown as ModelClient, asked };
  }

  it('asks the items in itemIds order, and a resumed run goes on in that order from where it stopped', async () => {
    const db = await dataset();
    const run = await createMcRun(db, request({ sampling: { draw: 'random', seed: 2026 } }));
    const abort = new AbortController();
    // Cancelled while the 7th item is in flight: 6 stored, the 7th runs again on resume.
    const first = client((asked) => asked.length === 7 && abort.abort());
    expect((await executeRun(db, run.id, first.client, { signal: abort.signal })).status).toBe('paused');
    expect(first.asked).toEqual(run.config.itemIds.slice(0, 7));
    const second = client();
    expect((await executeRun(db, run.id, second.client)).status).toBe('completed');
    expect(second.asked).toEqual(run.config.itemIds.slice(6));
    const results = (await loadResults(db, run.id)) as McItemResult[];
    // Each result's index is its place in the order, before and after the resume.
    expect(results.map((r) => [r.index, r.itemId])).toEqual(run.config.itemIds.map((id, i) => [i, id]));
    // The first round (4 of each task) spans every task, so a run stopped after it holds every task.
    expect(new Set(run.config.itemIds.slice(0, 12).map((id) => id.split('/')[0])).size).toBe(3);
  });
});
