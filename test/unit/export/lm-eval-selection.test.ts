// The lm-eval export of chosen items (issue 34): the Evaluate page's tasks and items per task, or a
// run's own items, become the docs; a task with none of them is left out; exemplars still come from
// the stored dev items; an id that is not a stored test item refuses the export, naming it.
import { describe, expect, it } from 'vitest';
import { exportLmEval, type LmEvalExport } from '../../../src/lib/core/formats/lm-eval/export/folder.ts';
import { JianguError } from '../../../src/lib/core/notices/index.ts';
import { CIRCULAR_FILES, CIRCULAR_ITEMS } from './circular-items.ts';

const exportOf = (itemIds?: string[], circular = false) =>
  exportLmEval({ datasetId: 'aclue', items: CIRCULAR_ITEMS, files: CIRCULAR_FILES, shots: 1, appVersion: '0.1.0+test', circular, itemIds });

const docIds = (exported: LmEvalExport): Record<string, string[]> =>
  Object.fromEntries(
    exported.tasks.map((task) => [
      task.task,
      exported.files.find((f) => f.path === `${task.name}.jsonl`)!.text.trimEnd().split('\n').map((line) => (JSON.parse(line) as { jiangu_id: string }).jiangu_id),
    ]),
  );

describe('exporting the items a user chose', () => {
  it('without a choice exports every test item of every task, as before', async () => {
    expect(docIds(await exportOf())).toEqual({ 通假字: ['通假字/test/0', '通假字/test/1', '通假字/test/2'], 古文断句: ['古文断句/test/0', '古文断句/test/1'] });
  });

  it('exports only the chosen items, leaves out a task with none of them, and keeps the exemplars', async () => {
    const exported = await exportOf(['通假字/test/2', '通假字/test/0']);
    expect(docIds(exported)).toEqual({ 通假字: ['通假字/test/0', '通假字/test/2'] });
    expect(exported.tasks.map((t) => t.task)).toEqual(['通假字']);
    expect(exported.tasks[0].docs).toBe(2);
    const doc = JSON.parse(exported.files.find((f) => f.path === `${exported.tasks[0].name}.jsonl`)!.text.split('\n')[0]) as { exemplars: { jiangu_id: string }[] };
    expect(doc.exemplars.map((e) => e.jiangu_id)).toEqual(['通假字/dev/0']);
    // The group lists only the task exported.
    expect(exported.files.some((f) => f.path.includes('古文断句'))).toBe(false);
    expect(exported.files.find((f) => f.path === 'README.md')!.text).not.toContain('古文断句');
  });

  it('a run’s items, circular: each chosen item once per rotation, nothing else', async () => {
    const exported = await exportOf(['古文断句/test/1'], true);
    expect(exported.tasks.map((t) => [t.task, t.items, t.docs])).toEqual([['古文断句', 1, 4]]);
  });

  it('refuses an id that is not a stored test item (a dev item, or one from another copy), naming it', async () => {
    for (const id of ['通假字/dev/0', '通假字/test/9']) {
      const refused = await exportOf(['通假字/test/0', id]).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(JianguError);
      expect((refused as JianguError).notice).toEqual({ code: 'export.items-not-stored', params: { dataset: 'aclue', missing: 1, first: id } });
    }
  });
});
