// A "5-shot" run whose context limit cut exemplars from some prompts says so wherever its shots are
// named: the run summary a file and a link carry, the link's page, Compare's label, the CSV (issue 23:
// 8 of 30 items had 4 exemplars and only the item detail said it).
import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { shotShortfall, shortfallFromSummary } from '../../../src/lib/core/metrics/shots-used.ts';
import { runSummary, summaryMismatches } from '../../../src/lib/core/metrics/run-summary.ts';
import { predictionsCsv } from '../../../src/lib/core/formats/jiangu-run/export.ts';
import { decodeShareLink, encodeShareLink } from '../../../src/lib/core/formats/share-link/share-link.ts';
import type { McItemResult, McRunRecord } from '../../../src/lib/core/record/run.ts';
import { describedShared, describedStored, distinguishingLabels, type LabelWords } from '../../../src/ui/compare/run-label.ts';
import { shotsText } from '../../../src/ui/evaluate/shots-text.ts';
import { makeMcRun } from '../../fixtures/run-records/build.ts';

const en: LabelWords = { lang: 'en', countOf: (n, one, many) => `${n} ${n === 1 ? one : many}`, dateTime: (iso) => iso.slice(0, 16) };
const zh: LabelWords = { lang: 'zh', countOf: (n, _one, _many, word) => `${n} ${word}`, dateTime: (iso) => iso.slice(0, 16) };

/** makeMcRun as a 5-shot run whose items 1 and 3 had 4 exemplars, item 4 had 2. */
function shortRun(): { run: McRunRecord; results: McItemResult[] } {
  const { run, results } = makeMcRun('short');
  const used = [5, 4, 5, 4, 2];
  return { run: { ...run, config: { ...run.config, shots: 5 } }, results: results.map((r, i) => ({ ...r, shotsUsed: used[i] })) };
}

describe('shotShortfall', () => {
  it('counts the items with fewer exemplars than asked, by count, and none for a full or 0-shot run', () => {
    const { results } = shortRun();
    expect(shotShortfall(5, results)).toEqual({ shots: 5, fewer: 3, fewest: 2, byCount: [[4, 2], [2, 1]] });
    expect(shotShortfall(2, results)).toBeNull();
    expect(shotShortfall(0, results.map((r) => ({ ...r, shotsUsed: 0 })))).toBeNull();
    // A failed item ran no prompt: never counted as a short one.
    expect(shotShortfall(5, [{ shotsUsed: 0, failure: { code: 'run.item-too-long', params: {} } }])).toBeNull();
  });
});

describe('the shortfall beside the numbers', () => {
  it('is in the run summary (run file, share link) only when some item was short, and survives a link', async () => {
    const { run, results } = shortRun();
    const summary = runSummary(run, results);
    expect(summary['shots:fewer']).toBe(3);
    expect(summary['shots:fewest']).toBe(2);
    const full = makeMcRun('full');
    expect(Object.keys(runSummary(full.run, full.results)).some((k) => k.startsWith('shots:'))).toBe(false);
    const link = await decodeShareLink(await encodeShareLink(run, results, summary));
    expect(shortfallFromSummary(5, link.summary)).toEqual({ shots: 5, fewer: 3, fewest: 2 });
    // A link's letters alone cannot recompute exemplar counts: no false mismatch for the keys.
    const { 'shots:fewer': _f, 'shots:fewest': _w, ...lettersOnly } = summary;
    expect(summaryMismatches(summary, lettersOnly)).toEqual([]);
    expect(summaryMismatches(summary, { ...summary, 'shots:fewer': 1 })).toEqual([{ key: 'shots:fewer', stored: 3, recomputed: 1 }]);
  });

  it('is worded in both languages, with the context limit when known', () => {
    expect(shotsText(5, null, false)).toBe('5-shot');
    expect(shotsText(5, { fewer: 8, fewest: 4 }, false, 2048)).toBe('5-shot; 8 items with 4 exemplars: context limit 2,048 tokens');
    expect(shotsText(5, { fewer: 3, fewest: 2 }, false)).toBe('5-shot; 3 items with fewer exemplars (as few as 2): context limit');
    expect(shotsText(5, { fewer: 8, fewest: 4 }, true, 2048)).toBe('5 个示例；8 题只有 4 个示例：上下文上限 2,048 个词元');
  });

  it('is in Compare\'s labels, stored or shared', async () => {
    const { run, results } = shortRun();
    const full = { ...run, id: 'other', createdAt: '2026-01-03T00:00:00.000Z' };
    const labels = distinguishingLabels([describedStored(run, results), describedStored(full, results.map((r) => ({ ...r, shotsUsed: 5 })))], en);
    expect(labels[0].short).toContain('5-shot; 3 items with fewer exemplars (as few as 2)');
    expect(labels[1].short).not.toContain('fewer');
    const link = await decodeShareLink(await encodeShareLink(run, results, runSummary(run, results)));
    expect(distinguishingLabels([describedShared(link)], zh)[0].full).toContain('5 个示例；3 题示例较少（最少 2 个）');
  });

  it('is a column of the predictions CSV', () => {
    const { results } = shortRun();
    const parsed = Papa.parse<Record<string, string>>(predictionsCsv(results).replace(/^\uFEFF/, ''), { header: true, skipEmptyLines: true });
    expect(parsed.data.map((row) => row.shots_used)).toEqual(['5', '4', '5', '4', '2']);
  });
});
