// Why Auto chose WASM is stored twice: in English (fallbackReason, for anyone reading the file) and
// as a notice the page words in its language. Both survive an export and an import; a damaged
// notice is refused, naming the field.
import { describe, expect, it } from 'vitest';
import { notice, renderNotice } from '../../../src/lib/core/notices/index.ts';
import { runJson } from '../../../src/lib/core/formats/jiangu-run/export.ts';
import { RunImportError, parseRunFile } from '../../../src/lib/core/formats/import-record.ts';
import type { McRunRecord } from '../../../src/lib/core/record/run.ts';
import { makeMcRun } from '../../fixtures/run-records/build.ts';

describe('environment.backendInfo.fallbackNotice in run files', () => {
  const why = notice('model.fallback-no-shader-f16', { dtype: 'q4f16' });

  it('imports again, reworded in either language, with no unknown-field warning', async () => {
    const { run, results } = makeMcRun();
    const backendInfo = { ...run.environment!.backendInfo, backend: 'wasm' as const, fallbackReason: renderNotice(why, 'en'), fallbackNotice: why };
    const withWhy: McRunRecord = { ...run, environment: { ...run.environment!, backendInfo } };
    const back = (await parseRunFile(runJson(withWhy, results), 'mc.json')).run as McRunRecord;
    expect(back.environment?.backendInfo.fallbackNotice).toEqual(why);
    expect(renderNotice(back.environment!.backendInfo.fallbackNotice!, 'zh')).toBe('这块 GPU 没有 shader-f16 功能，而 q4f16 在 WebGPU 上需要它');
    expect(back.environment?.backendInfo.fallbackReason).toBe('this GPU has no shader-f16, which q4f16 needs on WebGPU');
    expect(JSON.stringify(back.warnings)).not.toContain('import.unknown-fields');
  });

  it('refuses a fallback notice that is not a notice', async () => {
    const { run, results } = makeMcRun();
    const file = JSON.parse(runJson(run, results));
    file.run.environment.backendInfo.fallbackNotice = 42;
    const error = await parseRunFile(JSON.stringify(file), 'mc.json').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RunImportError);
    expect((error as Error).message).toContain('run.environment.backendInfo.fallbackNotice');
  });
});
