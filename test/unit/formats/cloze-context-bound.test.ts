// An option's continuation is scored inside one context, so its token count, and with it its summed
// log-likelihood's lowest, is bounded by the largest context (RAW_BOUNDS.contextTokens, 2^17), not by
// any count a file may write (issue 34: the sum's bound was one token's lowest × 2^24, 2.2 × 10^12 nats).
import { describe, expect, it } from 'vitest';
import { runJson } from '../../../src/lib/core/formats/jiangu-run/export.ts';
import { parseRunFile } from '../../../src/lib/core/formats/import-record.ts';
import { OPTION_LOG_PROB_MIN } from '../../../src/lib/core/formats/jiangu-run/import-cloze.ts';
import { RAW_BOUNDS, RunImportError, lowestLogLikelihood } from '../../../src/lib/core/formats/import-validate.ts';
import { renormalize } from '../../../src/lib/core/logprobs.ts';
import type { McItemResult } from '../../../src/lib/core/record/run.ts';
import { makeMcRun } from '../../fixtures/run-records/build.ts';

const CONTEXT = RAW_BOUNDS.contextTokens;

/**
 * A cloze run file whose first result's least likely option has the summed log-likelihood `sum`, and
 * `tokens` tokens (no token counts at all when null, as a harness import has) and `bytes` bytes.
 */
function clozeFile(sum: number, tokens: number | null, bytes: number): { file: string; k: number } {
  const { run, results } = makeMcRun('cloze-context');
  const mc: McItemResult[] = results.map((r) => ({
    ...r,
    tokenIds: [],
    cloze: { logLikelihoods: [...r.logProbs], tokenCounts: r.letters.map(() => 3), charCounts: r.letters.map(() => 2), byteCounts: r.letters.map(() => 6), isGreedy: r.letters.map(() => false) },
  }));
  const r = mc[0];
  const k = r.logProbs.indexOf(Math.min(...r.logProbs));
  // The least likely option only: the prediction stays, and probs are recomputed as the export does.
  r.logProbs[k] = sum;
  r.probs = renormalize(r.logProbs);
  r.cloze!.logLikelihoods = [...r.logProbs];
  r.cloze!.charCounts[k] = bytes;
  r.cloze!.byteCounts[k] = bytes;
  if (tokens === null) delete r.cloze!.tokenCounts;
  else r.cloze!.tokenCounts![k] = tokens;
  return { file: runJson({ ...run, config: { ...run.config, scoring: 'cloze', protocolVersion: 1 }, letterTokens: undefined }, mc), k };
}

async function refusal(file: string): Promise<string> {
  const error = await parseRunFile(file, 'cloze.json').then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(RunImportError);
  return (error as RunImportError).detail;
}

describe('an option text\'s tokens and sum, bounded by the largest context', () => {
  it('states the context and the sums it allows', () => {
    expect(CONTEXT).toBe(131_072);
    expect(OPTION_LOG_PROB_MIN).toBe(RAW_BOUNDS.tokenLogProb * CONTEXT);
    // A harness file's continuation: one token a byte and a few markers, never more than a context holds.
    expect(lowestLogLikelihood(100)).toBe(RAW_BOUNDS.tokenLogProb * 116);
    expect(lowestLogLikelihood(4_000_000)).toBe(RAW_BOUNDS.tokenLogProb * CONTEXT);
  });

  it('reads an option of a whole context\'s tokens at the lowest sum they can have', async () => {
    const { file, k } = clozeFile(RAW_BOUNDS.tokenLogProb * CONTEXT, CONTEXT, 1_000_000);
    const imported = await parseRunFile(file, 'cloze.json');
    expect((imported.results as McItemResult[])[0].cloze!.tokenCounts![k]).toBe(CONTEXT);
  });

  it('refuses an option of more tokens than the largest context, naming the count', async () => {
    const { file, k } = clozeFile(-1, CONTEXT + 1, 1_000_000);
    expect(await refusal(file)).toMatch(new RegExp(`results\\[0\\]\\.cloze\\.tokenCounts\\[${k}\\]`));
  });

  it('without token counts, refuses a sum below a context\'s lowest, however many bytes the option has', async () => {
    // Bytes + 16 tokens would allow −1.3 × 10^11 nats here; a context allows −1.7 × 10^10.
    expect(await refusal(clozeFile(RAW_BOUNDS.tokenLogProb * CONTEXT - 1_000, null, 1_000_000).file)).toMatch(/results\[0\]\.(logProbs|cloze\.logLikelihoods)\[\d\]/);
    await expect(parseRunFile(clozeFile(RAW_BOUNDS.tokenLogProb * CONTEXT, null, 1_000_000).file, 'cloze.json')).resolves.toBeDefined();
  });
});
