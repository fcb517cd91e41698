// A run with items that could not run (too long for the model) and a recorded context limit: its
// export imports again with the same failed items, limit and notice error, and its share link opens.
import { describe, expect, it } from 'vitest';
import { runJson } from '../../../src/lib/core/formats/jiangu-run/export.ts';
import { parseRunFile } from '../../../src/lib/core/formats/import-record.ts';
import { decodeShareLink, encodeShareLink } from '../../../src/lib/core/formats/share-link/share-link.ts';
import { runSummary } from '../../../src/lib/core/metrics/run-summary.ts';
import { notice } from '../../../src/lib/core/notices/index.ts';
import type { McItemResult, McRunRecord } from '../../../src/lib/core/record/run.ts';
import { makeMcRun } from '../../fixtures/run-records/build.ts';

function withFailedItem(): { run: McRunRecord; results: McItemResult[] } {
  const { run, results } = makeMcRun('with-failed');
  const failed: McItemResult = {
    ...results[1],
    prompt: '',
    promptHash: '',
    tokenCount: 2400,
    shotsUsed: 0,
    exemplarIds: [],
    tokenIds: [],
    logProbs: [],
    probs: [],
    prediction: null,
    correct: null,
    reusedPrefixTokens: 0,
    forwardMs: 0,
    failure: notice('run.item-too-long', { itemId: results[1].itemId, tokens: 2400, limit: 2048 }),
  };
  return {
    run: { ...run, contextLimit: { tokens: 2048, from: 'config.max_position_embeddings', asked: 'default', modelPositions: 2048 }, warnings: [...run.warnings, notice('run.items-failed', { count: 1 })] },
    results: results.map((r, i) => (i === 1 ? failed : r)),
  };
}

describe('runs with failed items', () => {
  it('export and import again with the failed item, its reason and the context limit', async () => {
    const { run, results } = withFailedItem();
    const imported = await parseRunFile(runJson(run, results), 'failed.json');
    expect(imported.results[1]).toMatchObject({ prediction: null, correct: null, failure: { code: 'run.item-too-long', params: { tokens: 2400, limit: 2048 } } });
    expect(imported.run.contextLimit).toEqual(run.contextLimit);
    expect(imported.run.origin!.summaryMismatches).toEqual([]);
    expect(runSummary(imported.run, imported.results)).toEqual(runSummary(run, results));
  });

  it('refuses a failed item that claims a prediction', async () => {
    const { run, results } = withFailedItem();
    const forged = results.map((r, i): McItemResult => (i === 1 ? { ...r, prediction: 'A' } : r));
    await expect(parseRunFile(runJson(run, forged), 'forged.json')).rejects.toThrow(/results\[1\]\.prediction/);
  });

  it('shares a run with a failed item, the item travelling as without a result', async () => {
    const { run, results } = withFailedItem();
    const shared = await decodeShareLink(await encodeShareLink(run, results, runSummary(run, results)));
    expect(shared.kind).toBe('multiple-choice');
    if (shared.kind !== 'multiple-choice') return;
    expect(shared.predictions[1]).toBeNull();
    expect(shared.predictions[0]).toBe(results[0].prediction);
  });
});
