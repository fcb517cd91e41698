// The names an export gives its tasks and groups (the contract with the harness import):
// `jiangu_<dataset>_<n>shot_<slug>` per task, `jiangu_<dataset>_<n>shot` per benchmark. ACLUE's slugs
// are the harness's own (LM_EVAL_TASKS, without its `aclue_` prefix), so the two read alike. A circular
// export's multiple-choice names end their group part in `_circular`, a cloze export's in `_cloze`, so
// neither can pass for the letter export's (the harness would take one folder's task for the other's).
import { getDataset } from '../../../benchmarks/catalog.ts';
import type { DatasetId } from '../../../benchmarks/types.ts';
import { LM_EVAL_TASKS } from '../import/import-lm-eval.ts';

/** `aclue`, `cmmlu_ancient`, `ac_eval`: the dataset id as a harness name part. */
export function datasetPart(datasetId: DatasetId): string {
  return datasetId.replace(/-/g, '_');
}

/**
 * How an export asks its multiple-choice items: the letters once (`letters`), the letters under every
 * rotation of the options (`circular`), or the option texts as continuations (`cloze`).
 */
export type ExportForm = 'letters' | 'circular' | 'cloze';

const FORM_SUFFIX: Readonly<Record<ExportForm, string>> = { letters: '', circular: '_circular', cloze: '_cloze' };

/** `jiangu_aclue_5shot`, `…_5shot_circular`, `…_5shot_cloze`. */
export function groupName(datasetId: DatasetId, shots: number, form: ExportForm = 'letters'): string {
  return `jiangu_${datasetPart(datasetId)}_${shots}shot${FORM_SUFFIX[form]}`;
}

/** A stable ASCII slug of a task: ACLUE's from the harness's names, the others from the task's English name. */
export function taskSlug(datasetId: DatasetId, taskKey: string): string {
  if (datasetId === 'aclue') {
    const harness = Object.entries(LM_EVAL_TASKS).find(([, t]) => t.datasetId === 'aclue' && t.task === taskKey);
    if (!harness) throw new RangeError(`ACLUE task "${taskKey}" has no lm-evaluation-harness name`);
    return harness[0].replace(/^aclue_/, '');
  }
  const task = getDataset(datasetId).tasks.find((t) => t.key === taskKey);
  if (!task) throw new RangeError(`task "${taskKey}" is not in the ${datasetId} catalog`);
  const slug = (/^[A-Za-z0-9 _-]+$/.test(task.key) ? task.key : task.en)
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
  if (!slug) throw new RangeError(`task "${taskKey}" of ${datasetId} has no ASCII name to make a slug from`);
  return slug;
}

export function taskName(datasetId: DatasetId, shots: number, taskKey: string, form: ExportForm = 'letters'): string {
  return `${groupName(datasetId, shots, form)}_${taskSlug(datasetId, taskKey)}`;
}
