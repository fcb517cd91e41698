// A circular run's file: its export carries every rotation and config.circular/pride, imports again
// with all of them, and a file whose rotations or PriDe set were tampered with is refused with an
// import.* notice naming the item's result and the field.
import { describe, expect, it } from 'vitest';
import { runJson } from '../../../src/lib/core/formats/jiangu-run/export.ts';
import { parseRunFile } from '../../../src/lib/core/formats/import-record.ts';
import { RunImportError } from '../../../src/lib/core/formats/import-validate.ts';
import { scoreLetters } from '../../../src/lib/core/protocols/mc-scoring.ts';
import { rotatedLetter } from '../../../src/lib/core/protocols/rotation.ts';
import { drawEstimationSet } from '../../../src/lib/core/protocols/estimation-set.ts';
import type { McItemResult, McRotationResult, McRunRecord } from '../../../src/lib/core/record/run.ts';
import { makeMcRun } from '../../fixtures/run-records/build.ts';
import { renderNotice } from '../../../src/lib/core/notices/index.ts';

const HASH = 'cd'.repeat(32);

/** Each item's other rotations, consistent as the engine writes them (a made-up model that prefers position 0). */
function circularRun(): { run: McRunRecord; results: McItemResult[] } {
  const { run, results } = makeMcRun('circular-1');
  const seed = 12345;
  const withRotations = results.map((r): McItemResult => {
    const n = r.letters.length;
    const rotations = Array.from({ length: n - 1 }, (_, i): McRotationResult => {
      const k = i + 1;
      const logProbs = r.letters.map((_, j) => -0.5 - j - 0.1 * k);
      const gold = rotatedLetter(r.gold, k, n);
      const scored = scoreLetters(r.letters, logProbs, gold);
      return { rotation: k, promptHash: HASH, tokenCount: r.tokenCount, letters: r.letters, tokenIds: r.tokenIds, logProbs: scored.logProbs, probs: scored.letterProbs, prediction: scored.prediction, gold, correct: scored.correct, reusedPrefixTokens: 12, forwardMs: 3, completedAt: r.completedAt };
    });
    return { ...r, rotations };
  });
  const pride = { share: 0.4, seed, estimationItemIds: drawEstimationSet(run.config.itemIds, 0.4, seed) };
  return { run: { ...run, config: { ...run.config, circular: true, pride } }, results: withRotations };
}

async function refusal(file: string): Promise<RunImportError> {
  const error = await parseRunFile(file, 'circular.json').then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(RunImportError);
  return error as RunImportError;
}

describe('a circular run file', () => {
  it('carries every rotation and the circular and PriDe settings, and imports again with all of them', async () => {
    const { run, results } = circularRun();
    const file = runJson(run, results);
    expect(JSON.parse(file).results[0].rotations).toHaveLength(3);
    const imported = await parseRunFile(file, 'circular.json');
    const config = imported.run.config as McRunRecord['config'];
    expect(config.circular).toBe(true);
    expect(config.pride).toEqual(run.config.pride);
    expect((imported.results as McItemResult[]).map((r) => r.rotations)).toEqual(results.map((r) => r.rotations));
    // Nothing was dropped as unknown.
    expect(imported.run.warnings.filter((w) => typeof w !== 'string' && w.code === 'import.unknown-fields')).toEqual([]);
  });

  it('reads older files without the fields as before', async () => {
    const { run, results } = makeMcRun();
    const imported = await parseRunFile(runJson(run, results), 'plain.json');
    expect((imported.run.config as McRunRecord['config']).circular).toBeUndefined();
    expect((imported.results as McItemResult[]).every((r) => r.rotations === undefined)).toBe(true);
  });

  const tampered: [string, (f: { run: McRunRecord; results: McItemResult[] }) => void, RegExp][] = [
    ['a rotation out of order', (f) => ([f.results[0].rotations![0], f.results[0].rotations![1]] = [f.results[0].rotations![1], f.results[0].rotations![0]]), /results\[0\]\.rotations\[0\]\.rotation: expected 1 \(the rotations of 古文单字多义\/test\/0 are numbered/],
    ['a rotation number past the options', (f) => (f.results[3].rotations![1].rotation = 3), /results\[3\]\.rotations\[1\]\.rotation: expected an integer from 1 to 2/],
    ['more rotations than options', (f) => f.results[3].rotations!.push({ ...f.results[3].rotations![1], rotation: 3 }), /results\[3\]\.rotations/],
    ['a gold letter that did not move', (f) => {
      const r = f.results[1].rotations![0];
      r.gold = f.results[1].gold;
      r.correct = r.prediction === r.gold;
    }, /results\[1\]\.rotations\[0\]\.gold: expected B \(the item's gold letter moved by rotation 1\)/],
    ['a prediction that is not the highest letter', (f) => (f.results[2].rotations![2].prediction = 'D'), /results\[2\]\.rotations\[2\]\.prediction/],
    ['a wrong correct', (f) => (f.results[2].rotations![0].correct = !f.results[2].rotations![0].correct), /results\[2\]\.rotations\[0\]\.correct/],
    ['a non-finite log-probability', (f) => (f.results[0].rotations![1].logProbs[0] = Number.NaN), /results\[0\]\.rotations\[1\]\.logProbs\[0\]/],
    ['a PriDe set its seed does not draw', (f) => (f.run.config.pride!.estimationItemIds = [f.run.config.itemIds[0], f.run.config.itemIds[1]].filter((id) => !f.run.config.pride!.estimationItemIds.includes(id)).concat(f.run.config.pride!.estimationItemIds).slice(0, 2).sort()), /run\.config\.pride\.estimationItemIds: expected the items seed 12345 draws at share 0\.4/],
    ['a PriDe seed out of range', (f) => (f.run.config.pride!.seed = -1), /run\.config\.pride\.seed/],
    ['circular not a boolean', (f) => ((f.run.config as unknown as Record<string, unknown>).circular = 'yes'), /run\.config\.circular: expected true or false/],
  ];
  for (const [what, tamper, message] of tampered) {
    it(`refuses ${what}, naming the field`, async () => {
      const f = circularRun();
      tamper(f);
      const error = await refusal(runJson(f.run, f.results));
      expect(error.detail).toMatch(message);
      expect(error.notice.code).toMatch(/^import\./);
      // Worded in Chinese too, with the same place.
      expect(renderNotice(error.notice, 'zh')).toMatch(/rotations|pride|circular/);
    });
  }
});
