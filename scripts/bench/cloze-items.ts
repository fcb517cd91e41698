// The items of `npm run bench`'s cloze part: real benchmark text, CMMLU 古汉语 (one task, 164 test
// items, 5 dev items) or ACLUE, read from the public copies in <repo>/../shared/data or JIANGU_DATA
// (never copied into the project: the data is CC BY-NC-SA) and adapted in Node with the project's
// own adapters.
// Test items are scored; the dev items of the same task are their exemplars. Plain JSON, so they
// can be handed to the page as they are.
import { existsSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { adaptDataset } from '../../src/lib/core/benchmarks/adapters/index.ts';
import { getDataset } from '../../src/lib/core/benchmarks/catalog.ts';
import type { DatasetId, MultipleChoiceItem } from '../../src/lib/core/benchmarks/types.ts';
import { protocolForDataset, type McProtocolId } from '../../src/lib/core/protocols/index.ts';
import { dataMirrorRoot, projectRoot } from '../site-routes.ts';

export type ClozeBenchDataset = Extract<DatasetId, 'cmmlu-ancient' | 'aclue'>;
export const CLOZE_BENCH_DATASETS: readonly ClozeBenchDataset[] = ['cmmlu-ancient', 'aclue'];

export interface ClozeBenchItems {
  datasetId: ClozeBenchDataset;
  protocolId: McProtocolId;
  /** Test items in file order (task by task, as a run scores them), only `task`'s when one was asked. */
  items: MultipleChoiceItem[];
  /** Dev items per task, in file order: the exemplars the protocol takes the first `shots` of. */
  exemplars: Record<string, MultipleChoiceItem[]>;
  tasks: string[];
  /** Where they were read from, for the report. */
  source: string;
}

/** The dataset's catalog files from ../shared/data, or an error that says what is missing. */
export function loadSharedItems(datasetId: ClozeBenchDataset, task?: string): ClozeBenchItems {
  const dataset = getDataset(datasetId);
  const root = dataMirrorRoot();
  const folder = root === null ? null : join(root, dataset.mirrorFolder);
  if (folder === null || !existsSync(folder)) {
    throw new Error(`No copy of ${dataset.title}: the cloze bench reads it from ../shared/data/${dataset.mirrorFolder} beside the checkout (or JIANGU_DATA), never from the network.`);
  }
  const files = dataset.files.map((file) => {
    const bytes = readFileSync(join(folder, file.path));
    return { path: file.path, bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength) };
  });
  const { items: all } = adaptDataset(datasetId, files);
  const mc = all.filter((item): item is MultipleChoiceItem => item.kind === 'multiple-choice');
  const exemplars: Record<string, MultipleChoiceItem[]> = {};
  for (const item of mc) if (item.split === 'dev') (exemplars[item.task] ??= []).push(item);
  for (const list of Object.values(exemplars)) list.sort((a, b) => a.order - b.order);
  let items = mc.filter((item) => item.split === 'test' && item.answer !== null);
  const known = [...new Set(items.map((item) => item.task))];
  if (task !== undefined) {
    if (!known.includes(task)) throw new Error(`--task ${task}: ${dataset.title} has no such task; it has ${known.join(', ')}`);
    items = items.filter((item) => item.task === task);
  }
  return {
    datasetId,
    protocolId: protocolForDataset(datasetId).id,
    items,
    exemplars,
    tasks: [...new Set(items.map((item) => item.task))],
    source: relative(projectRoot, folder),
  };
}
