// A memorization run's label (issue 34, item 3): set and cleared in the store by the scoring runs'
// rule (checkedRunLabel: trimmed, at most RUN_LABEL_MAX, no invisible character), a refused one
// leaving the stored record as it was; carried by the run file and the backup and read back; a file
// whose label breaks the bound is refused naming `run.label`.
import { describe, expect, it } from 'vitest';
import { noticeOf } from '../../../src/lib/core/notices/index.ts';
import { FieldProblem, type Obj } from '../../../src/lib/core/formats/import-validate.ts';
import { memorizationRunJson } from '../../../src/lib/core/formats/memorization-run/export.ts';
import { readMemorizationRun } from '../../../src/lib/core/formats/memorization-run/import-memorization.ts';
import { RUN_LABEL_MAX } from '../../../src/lib/core/record/run.ts';
import { exportBackup, importBackup } from '../../../src/lib/data/backup.ts';
import { importProbeRunFile } from '../../../src/lib/data/import-probe-run.ts';
import { saveDataset } from '../../../src/lib/store/datasets.ts';
import { getProbeRun, loadProbeResults, setProbeRunLabel } from '../../../src/lib/store/probe-runs.ts';
import { freshDb, makeRecord } from './helpers.ts';
import { madeProbeRun, probeItems } from '../formats/memorization-fixture.ts';

const IMPORTED_AT = new Date().toISOString();

describe('a memorization run label', () => {
  it('is stored trimmed, refused over the bound or with an invisible character (the record kept), and cleared by empty text', async () => {
    const { db, run } = await madeProbeRun();
    const set = await setProbeRunLabel(db, run.id, '  tiny 复现  ');
    expect(set.label).toBe('tiny 复现');
    expect((await getProbeRun(db, run.id))!.label).toBe('tiny 复现');
    expect(set.updatedAt >= run.updatedAt).toBe(true);

    const long = await setProbeRunLabel(db, run.id, 'x'.repeat(RUN_LABEL_MAX + 1)).catch((e: unknown) => e);
    expect(noticeOf(long)).toMatchObject({ code: 'run.label-too-long', params: { max: RUN_LABEL_MAX, length: RUN_LABEL_MAX + 1 } });
    // The bound counts the trimmed label: spaces around a label of the most characters do not refuse it.
    expect((await setProbeRunLabel(db, run.id, ` ${'y'.repeat(RUN_LABEL_MAX)} `)).label).toBe('y'.repeat(RUN_LABEL_MAX));
    const hidden = await setProbeRunLabel(db, run.id, 'a\u202eb').catch((e: unknown) => e);
    expect(noticeOf(hidden)).toMatchObject({ code: 'run.label-control-character', params: { position: 1 } });
    expect((await getProbeRun(db, run.id))!.label).toBe('y'.repeat(RUN_LABEL_MAX));

    const cleared = await setProbeRunLabel(db, run.id, '   ');
    expect('label' in cleared).toBe(false);
    expect('label' in (await getProbeRun(db, run.id))!).toBe(false);
    await expect(setProbeRunLabel(db, 'no-such-run', 'x')).rejects.toMatchObject({ notice: { code: 'runs.not-stored' } });
  });

  it('goes with the run file into another browser, and with the backup', async () => {
    const { db, run } = await madeProbeRun();
    const labelled = await setProbeRunLabel(db, run.id, 'fp32 基线');
    const file = memorizationRunJson(labelled, await loadProbeResults(db, run.id));
    expect(JSON.parse(file).run.label).toBe('fp32 基线');

    const read = await readMemorizationRun(JSON.parse(file) as Obj, 'm.json', IMPORTED_AT);
    expect(read.run.label).toBe('fp32 基线');

    const elsewhere = await freshDb();
    await saveDataset(elsewhere, makeRecord('ancientbench', probeItems()), probeItems());
    const id = await importProbeRunFile(elsewhere, file, 'm.json');
    expect((await getProbeRun(elsewhere, id))!.label).toBe('fp32 基线');

    // The backup: every run of this browser, read back into an empty one with its label.
    const backup = await exportBackup(db);
    const restoredDb = await freshDb();
    await saveDataset(restoredDb, makeRecord('ancientbench', probeItems()), probeItems());
    const report = await importBackup(restoredDb, new File([backup], 'backup.json'));
    expect(report.restored).toEqual([run.id]);
    expect((await getProbeRun(restoredDb, run.id))!.label).toBe('fp32 基线');
  });

  it('is refused from a file naming run.label when it breaks the bound or hides a character; a file without one imports without one', async () => {
    const { file } = await madeProbeRun();
    const withLabel = (label: unknown) => {
      const root = JSON.parse(file) as { run: Obj };
      root.run.label = label;
      return readMemorizationRun(root as unknown as Obj, 'm.json', IMPORTED_AT);
    };
    const refusal = (label: unknown) => withLabel(label).then(() => null, (e: unknown) => (e instanceof FieldProblem ? e.refusal : e));
    expect(await refusal('x'.repeat(RUN_LABEL_MAX + 1))).toMatchObject({ code: 'import.too-long', params: { path: 'run.label', max: RUN_LABEL_MAX } });
    expect(await refusal('a\u200bb')).toMatchObject({ code: 'import.control-character', params: { path: 'run.label' } });
    expect(await refusal(42)).toMatchObject({ params: { path: 'run.label' } });
    expect((await withLabel('x'.repeat(RUN_LABEL_MAX))).run.label).toBe('x'.repeat(RUN_LABEL_MAX));
    expect('label' in (await readMemorizationRun(JSON.parse(file) as Obj, 'm.json', IMPORTED_AT)).run).toBe(false);
  });
});
