// The items of `npm run bench`'s multiple-choice throughput part: the AncientBench sample the site
// ships (public/samples/ancientbench-sample.csv), adapted in Node with the project's own adapter.
// Test items are scored; the dev items of the same task are their exemplars. Plain JSON, so they
// can be handed to the page as they are.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { adaptDataset } from '../../src/lib/core/benchmarks/adapters/index.ts';
import type { MultipleChoiceItem } from '../../src/lib/core/benchmarks/types.ts';
import { projectRoot } from '../site-routes.ts';

export const SAMPLE_PATH = join('public', 'samples', 'ancientbench-sample.csv');

export interface BenchItems {
  /** Test items in file order (task by task, as a run scores them). */
  items: MultipleChoiceItem[];
  /** Dev items per task, in file order: the exemplars the protocol takes the first `shots` of. */
  exemplars: Record<string, MultipleChoiceItem[]>;
  tasks: string[];
}

export function loadSampleItems(): BenchItems {
  const bytes = new Uint8Array(readFileSync(join(projectRoot, SAMPLE_PATH)));
  const { items: all } = adaptDataset('ancientbench', [{ path: 'ancientbench-sample.csv', bytes }]);
  const mc = all.filter((item): item is MultipleChoiceItem => item.kind === 'multiple-choice');
  const exemplars: Record<string, MultipleChoiceItem[]> = {};
  for (const item of mc) {
    if (item.split === 'dev') (exemplars[item.task] ??= []).push(item);
  }
  for (const list of Object.values(exemplars)) list.sort((a, b) => a.order - b.order);
  const items = mc.filter((item) => item.split === 'test');
  const tasks = [...new Set(items.map((item) => item.task))];
  return { items, exemplars, tasks };
}
