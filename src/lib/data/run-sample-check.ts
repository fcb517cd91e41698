// A run file's sample checked against this browser's copy of its benchmark (issue 36), before the run
// is stored: the recorded draw, seed and order over the tasks' items (each in file order) must give
// exactly the items the file lists, in its order. A file whose seed was edited (or whose items were)
// would otherwise be shown and shared as a random sample it is not. Where the benchmark is not stored
// here, or is stored from other files, there is nothing to draw from: the file's own consistency
// (jiangu-run/import-sampling.ts) is all that is checked, and the run page says its sample as recorded.
import { RunImportError, refusal } from '../core/formats/import-validate.ts';
import type { TaskItems } from '../core/protocols/run-sampling.ts';
import { firstDifference, populationMismatch, rebuiltItemIds } from '../core/protocols/sample-check.ts';
import type { RunRecord } from '../core/record/run.ts';
import { filesDifference } from '../engine/reproduce.ts';
import { getDataset, loadTaskItems } from '../store/datasets.ts';
import type { JianguDatabase } from '../store/schema.ts';

/**
 * @throws RunImportError ('import.sample-population', 'import.sample-not-drawn') naming the file.
 */
export async function checkRunSample(db: JianguDatabase, run: RunRecord): Promise<void> {
  const c = run.config;
  const sampling = c.sampling;
  if (!sampling) return;
  const dataset = await getDataset(db, run.datasetId);
  if (!dataset || filesDifference(dataset.files, c.datasetFiles) !== null) return;
  const fileName = run.origin?.fileName ?? 'The imported run';
  const kind = c.kind === 'multiple-choice' ? 'multiple-choice' : 'generation';
  // A run asks one split (test, or dev where it was asked for): the one its first item is in.
  const population = async (split: 'test' | 'dev'): Promise<TaskItems[]> => {
    const out: TaskItems[] = [];
    for (const task of c.tasks) out.push({ task, itemIds: (await loadTaskItems(db, run.datasetId, task, split)).filter((item) => item.kind === kind).map((item) => item.id) });
    return out;
  };
  let tasks = await population('test');
  if (c.itemIds.length > 0 && !tasks.some((t) => t.itemIds.includes(c.itemIds[0]))) {
    const dev = await population('dev');
    if (dev.some((t) => t.itemIds.includes(c.itemIds[0]))) tasks = dev;
  }
  const sizes = populationMismatch(tasks, sampling);
  if (sizes) throw new RunImportError(fileName, refusal('import.sample-population', sizes));
  const difference = firstDifference(c.itemIds, rebuiltItemIds(tasks, c));
  if (difference) throw new RunImportError(fileName, refusal('import.sample-not-drawn', { draw: sampling.draw, seed: sampling.seed, ...difference }));
}
