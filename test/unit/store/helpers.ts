// Shared fixtures for the store tests: a fresh database per test, small datasets whose primary-key
// order differs from file order, and a full snapshot of the two dataset stores.
import 'fake-indexeddb/auto';
import type { DatasetId, DatasetRecord, Item, Split, TaskCount } from '../../../src/lib/core/benchmarks/types.ts';
import { openJianguDb, type JianguDatabase } from '../../../src/lib/store/schema.ts';

let counter = 0;

/** Opens a database under a name no other test uses. */
export function freshDb(): Promise<JianguDatabase> {
  counter += 1;
  return openJianguDb(`jiangu-test-${counter}-${crypto.randomUUID()}`);
}

export interface TaskShape {
  task: string;
  dev: number;
  test: number;
}

/**
 * Builds the items of a dataset in file order. Ids count down, so sorting by primary key would
 * reverse file order; a test that forgets the order index fails.
 */
export function makeItems(datasetId: DatasetId, tasks: readonly TaskShape[], idPrefix = 'q'): Item[] {
  const total = tasks.reduce((n, t) => n + t.dev + t.test, 0);
  const items: Item[] = [];
  for (const shape of tasks) {
    for (const split of ['dev', 'test'] as const satisfies readonly Split[]) {
      for (let order = 0; order < shape[split]; order++) {
        const n = total - items.length;
        const id = `${idPrefix}${String(n).padStart(4, '0')}`;
        const source = { file: `data/${split}/${shape.task}.csv`, line: order + 2 };
        items.push(
          items.length % 3 === 2
            ? { id, datasetId, task: shape.task, split, order, source, kind: 'generation', generationTask: 'translation', input: `文${n}`, references: [`译${n}`] }
            : { id, datasetId, task: shape.task, split, order, source, kind: 'multiple-choice', question: `问${n}？`, options: ['甲', '乙', '丙', '丁'], answer: 'B' },
        );
      }
    }
  }
  return items;
}

/** The record that goes with `items`. */
export function makeRecord(id: DatasetId, items: readonly Item[], title = id.toUpperCase()): DatasetRecord {
  const tasks: Record<string, TaskCount> = {};
  for (const item of items) {
    tasks[item.task] ??= { dev: 0, test: 0 };
    tasks[item.task][item.split] += 1;
  }
  return {
    id,
    title,
    origin: 'catalog',
    source: `example/${id}`,
    commit: '0123456789abcdef0123456789abcdef01234567',
    files: [{ path: `data/${id}.csv`, sha256: 'ab'.repeat(32), bytes: 1234 }],
    license: 'CC BY-NC 4.0',
    attribution: `${title} authors`,
    itemCount: items.length,
    tasks,
    importedAt: '2025-01-01T00:00:00.000Z',
  };
}

/** A deterministic shuffle, so saves do not hand items over in file order. */
export function shuffled<T>(values: readonly T[]): T[] {
  const out = [...values];
  let seed = 7;
  for (let i = out.length - 1; i > 0; i--) {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    const j = seed % (i + 1);
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

/** Everything in the datasets and items stores. */
export async function snapshot(db: JianguDatabase): Promise<{ datasets: DatasetRecord[]; items: Item[] }> {
  return { datasets: await db.getAll('datasets'), items: await db.getAll('items') };
}
