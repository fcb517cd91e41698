// "A page never prints a number wider than its column" (issue 34, item 1): the widest values each
// format's bounds let through (RAW_BOUNDS, the cloze sums', the model check's, the links'), put
// through the formatters the pages print those fields with (number-format.ts as `fmt`, byte-size.ts,
// interval.ts), in both languages, must print within a stated width. A bound that lets a wider
// number through is to be tightened (with its reason), not the formatter.
import { describe, expect, it } from 'vitest';
import { numberFormats, type NumberFormats } from '../../../src/ui/i18n/number-format.ts';
import { formattingTag } from '../../../src/ui/i18n/choose.ts';
import { byteSize } from '../../../src/ui/data/byte-size.ts';
import { withMinusSign } from '../../../src/ui/i18n/interval.ts';
import { RAW_BOUNDS } from '../../../src/lib/core/formats/import-validate.ts';
import { OPTION_LOG_PROB_MIN } from '../../../src/lib/core/formats/jiangu-run/import-cloze.ts';
import { MODEL_CHECK_NUMBERS } from '../../../src/lib/core/models/model-check-read.ts';
import { SHARE_LIMITS } from '../../../src/lib/core/formats/share-link/share-types.ts';
import { SHARE_LINK_BOUNDS } from '../../../src/lib/core/formats/share-link/share-check.ts';
import { PROBE_LINK_BOUNDS } from '../../../src/lib/core/formats/probe-link/probe-link-check.ts';

/** A table cell (run page, Compare, the item inspector): twelve characters, a right-aligned number column's width. */
const CELL = 12;
/** A number in running text (a sentence wraps around it): twenty characters, a third of a 375 px phone's line. */
const SENTENCE = 20;

interface Printed {
  field: string;
  where: string;
  width: number;
  /** The field's bounds, as the readers hold them. */
  values: readonly number[];
  print: (x: number, f: NumberFormats) => string;
}

const modelCheckRows: Printed[] = Object.entries(MODEL_CHECK_NUMBERS).map(([key, b]) => ({
  field: `run.modelCheck.${key}`,
  where: 'ModelCheck.svelte (a sentence or a list)',
  width: SENTENCE,
  values: [b.min, b.max],
  // Bytes through byteSize, the backend checks' differences as toExponential(1), the rest as counts.
  print: (x, f) => (/Bytes$|\.bytes$/.test(key) ? byteSize(x, (y, d) => f.number(y, d)) : /maxAbsDiff$/.test(key) ? x.toExponential(1) : /params/.test(key) ? f.number(x) : f.count(x)),
}));

const ROWS: Printed[] = [
  { field: 'results[*].probs[*]', where: 'ItemInspector, the % column', width: CELL, values: [0, 1], print: (x, f) => `${f.fraction(x, 1)}%` },
  { field: 'results[*].forwardMs', where: 'ItemInspector, "… ms"', width: SENTENCE, values: [0, RAW_BOUNDS.ms], print: (x, f) => f.number(x, 0) },
  { field: 'results[*].ms (generation)', where: 'GenItemDetail, "… ms"', width: SENTENCE, values: [0, RAW_BOUNDS.ms], print: (x, f) => f.number(x, 0) },
  { field: 'results[*].tokenCount', where: 'ItemInspector, "… tokens"', width: SENTENCE, values: [0, RAW_BOUNDS.tokens], print: (x, f) => f.count(x) },
  { field: 'run.origin.storedSummary.*', where: 'RunPage, "file … , items …"', width: CELL, values: [0, RAW_BOUNDS.summaryValue], print: (x, f) => f.points(x) },
  { field: 'run.origin.harnessLimit', where: 'RunPage, "lm-eval\'s --limit …"', width: SENTENCE, values: [0.5, RAW_BOUNDS.harnessNumber], print: (x, f) => (x < 1 ? f.number(x, 2) : f.number(x)) },
  { field: 'summary.* (share link, a percent)', where: 'SharedPage, the summary cells', width: CELL, values: [0, SHARE_LINK_BOUNDS.percentMax], print: (x, f) => f.points(x, 2) },
  { field: 'summary.items (share link)', where: 'SharedPage, the summary cells', width: CELL, values: [0, SHARE_LIMITS.predictions], print: (x, f) => f.count(x) },
  ...modelCheckRows,
];

/**
 * Fields whose bound lets a number wider than its place through, found by this test and not settled:
 * no bound with an honest reason is narrower (reported on issue 34). Widest today, in both languages:
 * a letter's log p −131,072.0000 (13; one token's lowest under fp16 logits, RAW_BOUNDS.tokenLogProb);
 * an option text's summed log-likelihood −2,199,023,255,552.0000 (23; that bound times 2^24 tokens);
 * a probe link's t −1,000,000,000,000.00 (21; exchangeability-test.ts gives a t down to a spread of
 * 10^−12, PROBE_LINK_BOUNDS.tPerRootShard). Each case below passes only while its field is too wide:
 * when a bound is tightened (or the place widened), it fails, and its row moves up to ROWS.
 */
const TOO_WIDE: Printed[] = [
  { field: 'results[*].logProbs[*] (letters)', where: 'ItemInspector, the log p column', width: CELL, values: [RAW_BOUNDS.tokenLogProb, 0], print: (x, f) => f.number(x, 4) },
  { field: 'results[*].logProbs[*] (option text sums)', where: 'ItemInspector, the log p column', width: CELL, values: [OPTION_LOG_PROB_MIN, 0], print: (x, f) => f.number(x, 4) },
  { field: 'files[*].statistic (probe link)', where: 'ProbeLinkPage, "t = …"', width: SENTENCE, values: [-PROBE_LINK_BOUNDS.tPerRootShard, PROBE_LINK_BOUNDS.tPerRootShard], print: (x, f) => f.number(x, 2) },
];

const LANGUAGES = ['en', 'zh'] as const;
const widest = (row: Printed) =>
  LANGUAGES.flatMap((lang) => {
    const f = numberFormats(() => formattingTag(lang, []));
    return row.values.map((x) => withMinusSign(row.print(x, f)));
  }).reduce((a, b) => ([...b].length > [...a].length ? b : a));

describe('the widest number each bound lets through, as the pages print it', () => {
  it.each(ROWS.map((row) => [row.field, row] as const))('%s fits its place', (_field, row) => {
    const printed = widest(row);
    expect([...printed].length, `${row.field} in ${row.where}: "${printed}"`).toBeLessThanOrEqual(row.width);
  });

  // Known too wide (TOO_WIDE): each fails its width today.
  it.fails.each(TOO_WIDE.map((row) => [row.field, row] as const))('%s fits its place (known too wide)', (_field, row) => {
    expect([...widest(row)].length).toBeLessThanOrEqual(row.width);
  });
});
