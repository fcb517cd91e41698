// Which graph scored a run (environment.logitsPath: native, Jiangu's checked rewrite, or chunked and
// why) survives an export and an import; an older record without it still imports, and a bad value
// is refused with the field's path.
import { describe, expect, it } from 'vitest';
import { runJson } from '../../../src/lib/core/formats/jiangu-run/export.ts';
import { RunImportError, parseRunFile } from '../../../src/lib/core/formats/import-record.ts';
import type { McRunRecord, RunEnvironment } from '../../../src/lib/core/record/run.ts';
import { makeMcRun } from '../../fixtures/run-records/build.ts';

const PATHS: NonNullable<RunEnvironment['logitsPath']>[] = [
  { kind: 'native' },
  { kind: 'rewritten', check: { tokens: 16, maxAbsDiff: 0 } },
  { kind: 'chunked', refusal: { code: 'model.logits-unrecognised', params: { code: 'head-not-recognised', detail: 'Einsum' } } },
  // Refusals with a reason (logits-rewrite.ts LogitsRewriteReason), flattened into plain values.
  { kind: 'chunked', refusal: { code: 'model.logits-unrecognised', params: { code: 'head-not-recognised', detail: 'logits come from Einsum node "/lm_head/Einsum"', reason: 'unknown-op', op: 'Einsum', node: '/lm_head/Einsum' } } },
  { kind: 'chunked', refusal: { code: 'model.logits-unrecognised', params: { code: 'no-logits-output', detail: 'no logits', reason: 'no-logits-output', outputs: ['scores', 'present.0.key'] } } },
  { kind: 'chunked', refusal: { code: 'model.logits-check-failed', params: { tokens: 16, maxAbsDiff: 0.25, tolerance: 1e-5 } }, check: { tokens: 16, maxAbsDiff: 0.25 } },
];

async function reimport(environment: RunEnvironment): Promise<McRunRecord> {
  const { run, results } = makeMcRun();
  return (await parseRunFile(runJson({ ...run, environment }, results), 'mc.json')).run as McRunRecord;
}

describe('environment.logitsPath in run files', () => {
  for (const logitsPath of PATHS) {
    it(`imports ${logitsPath.kind}${logitsPath.refusal ? ` (${logitsPath.refusal.code})` : ''} again, with no unknown-field warning`, async () => {
      const { run } = makeMcRun();
      const back = await reimport({ ...run.environment!, logitsPath });
      expect(back.environment?.logitsPath).toEqual(logitsPath);
      expect(JSON.stringify(back.warnings)).not.toContain('import.unknown-fields');
    });
  }

  it('an older record without it imports without it', async () => {
    const { run } = makeMcRun();
    const back = await reimport(run.environment!);
    expect('logitsPath' in back.environment!).toBe(false);
  });

  for (const [what, bad, field] of [
    ['an unknown kind', { kind: 'sliced' }, 'run.environment.logitsPath.kind'],
    ['a negative difference', { kind: 'rewritten', check: { tokens: 16, maxAbsDiff: -1 } }, 'run.environment.logitsPath.check.maxAbsDiff'],
    ['a refusal that is not a notice', { kind: 'chunked', refusal: 'because' }, 'run.environment.logitsPath.refusal'],
  ] as const) {
    it(`refuses ${what}, naming the field`, async () => {
      const { run, results } = makeMcRun();
      const file = JSON.parse(runJson(run, results));
      file.run.environment.logitsPath = bad;
      const error = await parseRunFile(JSON.stringify(file), 'mc.json').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RunImportError);
      expect((error as Error).message).toContain(field);
    });
  }
});
