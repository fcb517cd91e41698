// A stored benchmark of two ACLUE-like tasks and a run sampled from it by a seed (issue 36): for the
// tests of every door a sampled run comes in by (a run file, a share link, a backup entry).
import type { MultipleChoiceItem } from '../../../src/lib/core/benchmarks/types.ts';
import { newRunSampling, sampleRun, type RunSampling } from '../../../src/lib/core/protocols/run-sampling.ts';
import type { McRunRecord } from '../../../src/lib/core/record/run.ts';
import { makeMcRun } from '../../fixtures/run-records/build.ts';
import { makeRecord } from '../store/helpers.ts';

export const TASKS = ['古文单字多义', '通假字'];
export const N = 9;
export const ITEMS: MultipleChoiceItem[] = TASKS.flatMap((task) =>
  Array.from({ length: N }, (_, i) => ({
    kind: 'multiple-choice' as const,
    id: `${task}/test/${i}`,
    datasetId: 'aclue' as const,
    task,
    split: 'test' as const,
    order: i,
    source: { file: `data/test/${task}.csv`, line: i + 2 },
    question: `问${task}${i}？`,
    options: ['甲', '乙', '丙', '丁'],
    answer: 'B' as const,
  })),
);
export const RECORD = makeRecord('aclue', ITEMS);
export const POPULATION = TASKS.map((task) => ({ task, itemIds: ITEMS.filter((i) => i.task === task).map((i) => i.id) }));

/** A run of 3 items per task: sampled by `seed`, or (null) as before issue 36, the first 3 in file order, task by task. */
export function runWith(seed: number | null): McRunRecord {
  const { run } = makeMcRun();
  const sampling: RunSampling | undefined = seed === null ? undefined : newRunSampling('random', seed, { [TASKS[0]]: N, [TASKS[1]]: N });
  const config = {
    ...run.config,
    tasks: TASKS,
    limitPerTask: 3,
    datasetFiles: RECORD.files.map(({ path, sha256 }) => ({ path, sha256 })),
    itemIds: sampleRun(POPULATION, 3, sampling).itemIds,
    ...(sampling ? { sampling, stopRule: { kind: 'precision' as const, halfWidth: 0.05, alpha: 0.05 } } : {}),
  };
  return { ...run, status: 'paused', config };
}
