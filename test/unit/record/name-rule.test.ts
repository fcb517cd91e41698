// The run importer's name rule is the benchmark importers' (text-safety.ts, issue 23 item 8): a run
// file whose ids hold an invisible character is refused, not only one with a direction override, and
// a run the site made from another tool's file (lm-eval) exports a file it reads back.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runJson } from '../../../src/lib/core/formats/jiangu-run/export.ts';
import { parseRunFile, RunImportError } from '../../../src/lib/core/formats/import-record.ts';
import { renderNotice } from '../../../src/lib/core/notices/index.ts';
import { makeMcRun } from '../../fixtures/run-records/build.ts';

const fixture = (path: string): string => readFileSync(new URL(`../../fixtures/${path}`, import.meta.url), 'utf8');

async function refusal(text: string): Promise<RunImportError> {
  const error = await parseRunFile(text, 'run.json').then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(RunImportError);
  return error as RunImportError;
}

describe('the run importer’s id rule', () => {
  it('refuses zero-width characters, word joiners and BOMs in item ids and task keys, naming the field', async () => {
    for (const [char, label] of [['\u200B', 'U+200B'], ['\u2060', 'U+2060'], ['\uFEFF', 'U+FEFF'], ['\u200E', 'U+200E']]) {
      const { run, results } = makeMcRun();
      const file = JSON.parse(runJson(run, results));
      file.run.config.itemIds[0] = `古文单字多义${char}/test/0`;
      const error = await refusal(JSON.stringify(file));
      expect(error.refusal).toEqual({ code: 'import.control-character', params: { path: 'run.config.itemIds[0]', codePoint: label, position: 6 } });
      expect(renderNotice(error.notice, 'en')).toContain('run.config.itemIds[0]: contains the invisible or control character');
    }
    const { run, results } = makeMcRun();
    const file = JSON.parse(runJson(run, results));
    file.run.config.tasks[1] = '通假字\u200B';
    expect((await refusal(JSON.stringify(file))).refusal.params).toMatchObject({ path: 'run.config.tasks[1]', codePoint: 'U+200B' });
  });

  it('takes the invisible characters out of names from an lm-eval file, so the run it makes exports and reads back', async () => {
    const file = JSON.parse(fixture('lm-eval/aclue-two-tasks.json'));
    file.config.model_args = 'pretrained=Qwen/Qwen\u200B2.5-0.5B\u2060,dtype=float16';
    const imported = await parseRunFile(JSON.stringify(file), 'lm-eval.json');
    expect(imported.run.config.model.source).toMatchObject({ kind: 'hub', id: 'Qwen/Qwen2.5-0.5B' });
    const again = await parseRunFile(runJson(imported.run, imported.results), 'exported.json');
    expect(again.run.config.model.source).toEqual(imported.run.config.model.source);
  });
});
