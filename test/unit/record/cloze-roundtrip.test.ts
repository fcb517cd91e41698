// A cloze run's file: its export carries every option's numbers (the rules and continuous scores are
// computed from them), imports again with all of them, a harness-made file without token counts is
// read, and a file whose cloze numbers disagree with its own results, or that puts them in a letter
// run, is refused with an import.* notice naming the field. The local key check takes character and
// byte counts from this browser's options, whatever the file said.
import { describe, expect, it } from 'vitest';
import { runJson } from '../../../src/lib/core/formats/jiangu-run/export.ts';
import { parseRunFile } from '../../../src/lib/core/formats/import-record.ts';
import { RunImportError } from '../../../src/lib/core/formats/import-validate.ts';
import { checkAgainstLocalKey } from '../../../src/lib/core/record/key-check.ts';
import { renderNotice } from '../../../src/lib/core/notices/index.ts';
import type { MultipleChoiceItem } from '../../../src/lib/core/benchmarks/types.ts';
import type { McItemResult, McRunRecord, RunOrigin } from '../../../src/lib/core/record/run.ts';
import { makeMcRun } from '../../fixtures/run-records/build.ts';

/** makeMcRun as a cloze run: its log-probabilities become option sums, with made-up counts. */
function clozeRun(): { run: McRunRecord; results: McItemResult[] } {
  const { run, results } = makeMcRun('cloze-1');
  return {
    run: { ...run, config: { ...run.config, scoring: 'cloze', protocolVersion: 1 }, letterTokens: undefined },
    results: results.map((r) => ({
      ...r,
      tokenIds: [],
      cloze: {
        logLikelihoods: [...r.logProbs],
        tokenCounts: r.letters.map((_, k) => k + 1),
        charCounts: r.letters.map((_, k) => k + 2),
        byteCounts: r.letters.map((_, k) => 3 * (k + 2)),
        isGreedy: r.letters.map((_, k) => k === 0),
        unconditional: r.logProbs.map((x) => x - 1),
        contextTokens: 30,
        contextIsPrefix: r.letters.map(() => true),
      },
    })),
  };
}

async function refusal(file: string): Promise<RunImportError> {
  const error = await parseRunFile(file, 'cloze.json').then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(RunImportError);
  return error as RunImportError;
}

describe('a cloze run file', () => {
  it('carries every option\'s numbers and imports again with all of them', async () => {
    const { run, results } = clozeRun();
    const imported = await parseRunFile(runJson(run, results), 'cloze.json');
    expect(imported.run.config.kind === 'multiple-choice' && imported.run.config.scoring).toBe('cloze');
    expect((imported.results as McItemResult[]).map((r) => r.cloze)).toEqual(results.map((r) => r.cloze));
    expect(imported.run.origin?.summaryMismatches).toEqual([]);
    expect(imported.run.warnings.filter((w) => typeof w !== 'string' && w.code === 'import.unknown-fields')).toEqual([]);
  });

  it('reads a file without token counts or the context split (a harness import exported again)', async () => {
    const { run, results } = clozeRun();
    for (const r of results) {
      delete r.cloze!.tokenCounts;
      delete r.cloze!.contextTokens;
      delete r.cloze!.contextIsPrefix;
      delete r.cloze!.unconditional;
    }
    const imported = await parseRunFile(runJson(run, results), 'cloze.json');
    expect((imported.results as McItemResult[])[0].cloze).toEqual(results[0].cloze);
  });

  const tampered: [string, (f: { run: McRunRecord; results: McItemResult[] }) => void, RegExp][] = [
    ['a cloze result without its numbers', (f) => delete f.results[1].cloze, /results\[1\]\.cloze/],
    ['a sum that is not the result\'s own log-probability', (f) => (f.results[2].cloze!.logLikelihoods[1] = -0.1), /results\[2\]\.cloze\.logLikelihoods\[1\]: expected "-1" \(results\[2\]\.logProbs\[1\]\), got -0\.1/],
    ['a positive sum', (f) => {
      f.results[0].cloze!.logLikelihoods[0] = 0.5;
      f.results[0].logProbs[0] = 0.5;
    }, /results\[0\]\.(cloze\.logLikelihoods|logProbs|probs|prediction)/],
    ['counts for fewer options than letters', (f) => f.results[0].cloze!.charCounts.pop(), /results\[0\]\.cloze\.charCounts/],
    ['a zero byte count (bits per byte would divide by it)', (f) => (f.results[4].cloze!.byteCounts[0] = 0), /results\[4\]\.cloze\.byteCounts\[0\]/],
    ['is_greedy not a boolean', (f) => ((f.results[0].cloze!.isGreedy as unknown[])[0] = 1), /results\[0\]\.cloze\.isGreedy\[0\]/],
    ['a circular cloze run', (f) => (f.run.config.circular = true), /run\.config\.scoring/],
    ['cloze numbers in a letter run', (f) => (f.run.config.scoring = 'letter-logits'), /results\[0\]\.cloze: option-text \(cloze\) scores belong to a cloze run/],
  ];
  for (const [what, tamper, message] of tampered) {
    it(`refuses ${what}, naming the field`, async () => {
      const f = clozeRun();
      tamper(f);
      const error = await refusal(runJson(f.run, f.results));
      expect(error.detail).toMatch(message);
      expect(error.notice.code).toMatch(/^import\./);
      expect(renderNotice(error.notice, 'zh')).toMatch(/results|run\.config|完形/);
    });
  }

  it('takes characters and bytes from this browser\'s options when it holds the benchmark', async () => {
    const { run, results } = clozeRun();
    const imported = await parseRunFile(runJson(run, results), 'cloze.json');
    const first = results[0];
    // The local options of the first item: 1, 2, 3 and 4 characters, with an Ext-B character (one code point, four bytes).
    const options = ['之', '乎者', '也矣哉', '𠀀三字'];
    const items = new Map(
      (imported.results as McItemResult[]).map((r): [string, MultipleChoiceItem] => [
        r.itemId,
        { kind: 'multiple-choice', id: r.itemId, datasetId: 'aclue', task: r.task, split: 'test', order: r.index, source: { file: 'f', line: 1 }, question: 'q', options: r.itemId === first.itemId ? options : r.letters.map((l) => l), answer: r.gold },
      ]),
    );
    const checked = checkAgainstLocalKey(imported.run as McRunRecord & { origin: RunOrigin }, imported.results, { items, files: run.config.datasetFiles }, null);
    const cloze = (checked.results[0] as McItemResult).cloze!;
    expect(cloze.charCounts).toEqual([1, 2, 3, 3]);
    expect(cloze.byteCounts).toEqual([3, 6, 9, 10]);
    expect(cloze.logLikelihoods).toEqual(first.cloze!.logLikelihoods);
  });
});
