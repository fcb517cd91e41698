// The prefill rows a run used (q8 letter scores depend on them) survive an export and an import;
// a record without them (older) still imports, and a nonsense value is refused, naming the field.
import { describe, expect, it } from 'vitest';
import { runJson } from '../../../src/lib/core/formats/jiangu-run/export.ts';
import { RunImportError, parseRunFile } from '../../../src/lib/core/formats/import-record.ts';
import type { McRunRecord } from '../../../src/lib/core/record/run.ts';
import { makeMcRun } from '../../fixtures/run-records/build.ts';

describe('environment.prefillRows in run files', () => {
  for (const prefillRows of [32, null]) {
    it(`imports ${prefillRows} again, with no unknown-field warning`, async () => {
      const { run, results } = makeMcRun();
      const withRows: McRunRecord = { ...run, environment: { ...run.environment!, prefillRows } };
      const back = (await parseRunFile(runJson(withRows, results), 'mc.json')).run as McRunRecord;
      expect(back.environment?.prefillRows).toBe(prefillRows);
      expect(JSON.stringify(back.warnings)).not.toContain('import.unknown-fields');
    });
  }

  it('an older record without it imports without it', async () => {
    const { run, results } = makeMcRun();
    const back = (await parseRunFile(runJson(run, results), 'mc.json')).run as McRunRecord;
    expect(back.environment).toBeDefined();
    expect('prefillRows' in back.environment!).toBe(false);
  });

  it('refuses a row count that is not a positive integer', async () => {
    const { run, results } = makeMcRun();
    const file = JSON.parse(runJson(run, results));
    file.run.environment.prefillRows = 0.5;
    const error = await parseRunFile(JSON.stringify(file), 'mc.json').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RunImportError);
    expect((error as Error).message).toContain('run.environment.prefillRows');
  });
});
