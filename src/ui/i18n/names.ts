// Names of catalog things in the interface language. Task and group keys are the benchmark's own
// (often Chinese already); the catalog carries a Chinese and an English name for each.
import { findTask, getDataset } from '../../lib/core/benchmarks/catalog.ts';
import type { DatasetId } from '../../lib/core/benchmarks/types.ts';
import type { ModelSource } from '../../lib/core/models/model-types.ts';
import type { RunStatus } from '../../lib/core/record/run.ts';
import { locale } from './locale.svelte.ts';
import { modelLabel } from './model-label.ts';
import { titleIn } from './dataset-title.ts';

export { isFixtureModel } from './model-label.ts';

/** A task's name; an unknown key (from an imported file) is shown as it is. */
export function taskName(datasetId: DatasetId, key: string): string {
  const task = findTask(datasetId, key);
  if (!task) return key;
  return locale.current === 'zh' ? task.zh : task.en === task.zh ? task.en : `${task.en} · ${task.zh}`;
}

/** A group's (category, competency, domain) name. */
export function groupName(datasetId: DatasetId, key: string): string {
  const group = getDataset(datasetId).groups.find((g) => g.key === key);
  if (!group) return key;
  return locale.current === 'zh' ? group.zh : group.en;
}

/** The dataset's title in the interface language, where the catalog's title carries both. */
export function datasetTitle(datasetId: DatasetId): string {
  return titleIn(getDataset(datasetId).title, locale.current);
}

/**
 * A summary key (`overall`, `pooled`, `items`, `task:<key>`, and `rotations:<key>`, a circular lm-eval
 * import's task accuracy over every rotated doc) as a reader would call it.
 */
export function summaryKeyName(datasetId: DatasetId, key: string): string {
  if (key.startsWith('task:')) return taskName(datasetId, key.slice(5));
  if (key.startsWith('rotations:')) {
    const task = taskName(datasetId, key.slice('rotations:'.length));
    return locale.current === 'zh' ? `${task}（所有轮换）` : `${task}, over every rotation`;
  }
  const names: Record<string, [string, string]> = { overall: ['Overall', '总体'], pooled: ['Pooled', '合并'], items: ['Items', '题数'] };
  const pair = names[key];
  return pair ? (locale.current === 'zh' ? pair[1] : pair[0]) : key;
}

/** A model source as a reader would name it (see model-label.ts: one naming for every page). */
export function modelName(source: ModelSource): string {
  return modelLabel(source, locale.current);
}

const STATUS: Record<RunStatus, [string, string]> = {
  created: ['created', '未开始'],
  running: ['running', '运行中'],
  paused: ['paused', '已暂停'],
  completed: ['completed', '已完成'],
  failed: ['failed', '失败'],
  cancelled: ['cancelled', '已取消'],
};

/** A run's status in the interface language. */
export function runStatusName(status: RunStatus): string {
  const [en, zh] = STATUS[status] ?? [status, status];
  return locale.current === 'zh' ? zh : en;
}
