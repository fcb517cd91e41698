// The run fields added for issue 11 (thinking off, the decoding actually used, the letters' ids
// alone) survive an export and an import, and a tampered decoding option is refused, not kept.
import { describe, expect, it } from 'vitest';
import { runJson } from '../../../src/lib/core/formats/jiangu-run/export.ts';
import { RunImportError, parseRunFile } from '../../../src/lib/core/formats/import-record.ts';
import type { GenRunRecord, McRunRecord } from '../../../src/lib/core/record/run.ts';
import { decodingOptions } from '../../../src/lib/core/protocols/decoding.ts';
import { makeGenRun, makeMcRun } from '../../fixtures/run-records/build.ts';
import { decodeShareLink, encodeShareLink } from '../../../src/lib/core/formats/share-link/share-link.ts';

describe('run files with thinking, decoding options and letters alone', () => {
  it('a multiple-choice run imports them again, and warns of no unknown field', async () => {
    const { run, results } = makeMcRun();
    const withFields: McRunRecord = {
      ...run,
      config: { ...run.config, chatTemplate: true, thinking: 'off' },
      decodingOptions: decodingOptions(),
      letterTokens: run.letterTokens!.map((t) => ({ ...t, aloneTokenIds: [t.tokenId + 100] })),
    };
    const back = (await parseRunFile(runJson(withFields, results), 'mc.json')).run as McRunRecord;
    expect(back.config.thinking).toBe('off');
    expect(back.config).toEqual(withFields.config);
    expect(back.decodingOptions).toEqual(decodingOptions());
    expect(back.letterTokens).toEqual(withFields.letterTokens);
    expect(JSON.stringify(back.warnings)).not.toContain('import.unknown-fields');
  });

  it('a generation run imports sampling options again', async () => {
    const { run, results } = makeGenRun();
    const options = decodingOptions({ topK: 50, topP: 1, temperature: 1 });
    const withFields: GenRunRecord = { ...run, config: { ...run.config, chatTemplate: true, thinking: 'off' }, decodingOptions: options };
    const back = (await parseRunFile(runJson(withFields, results), 'gen.json')).run as GenRunRecord;
    expect(back.config.thinking).toBe('off');
    expect(back.decodingOptions).toEqual(options);
    expect(JSON.stringify(back.warnings)).not.toContain('import.unknown-fields');
  });

  it('refuses a recorded repetition_penalty this version never writes, naming the field', async () => {
    const { run, results } = makeGenRun();
    const file = JSON.parse(runJson({ ...run, decodingOptions: decodingOptions() }, results));
    file.run.decodingOptions.repetition_penalty = 1.1;
    const error = await parseRunFile(JSON.stringify(file), 'gen.json').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RunImportError);
    expect((error as Error).message).toContain('run.decodingOptions.repetition_penalty');
  });

  it('refuses a thinking mode other than off', async () => {
    const { run, results } = makeMcRun();
    const file = JSON.parse(runJson(run, results));
    file.run.config.thinking = 'on';
    const error = await parseRunFile(JSON.stringify(file), 'mc.json').catch((e: unknown) => e);
    expect((error as Error).message).toContain('run.config.thinking');
  });

  it('a share link of a thinking-off run opens with thinking off', async () => {
    const { run, results } = makeMcRun();
    const withThinking: McRunRecord = { ...run, config: { ...run.config, chatTemplate: true, thinking: 'off' } };
    const shared = await decodeShareLink(await encodeShareLink(withThinking, results, {}));
    expect(shared.config.thinking).toBe('off');
  });
});
