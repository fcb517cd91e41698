// "A page never prints a number wider than its column" (issue 34, item 1): the widest values each
// format's bounds let through (RAW_BOUNDS, the cloze sums', the model check's, the links'), put
// through the formatters the pages print those fields with (number-format.ts as `fmt`, byte-size.ts,
// interval.ts), in both languages, must print within a stated width. A bound that lets a wider
// number through is to be tightened (with its reason), not the formatter; a field whose honest bound
// is still wider than its place (a log p under fp16 logits, an option text's sum, a t) prints through
// fmt.bounded, and the page is held to that call.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CELL_WIDTH, numberFormats, type NumberFormats } from '../../../src/ui/i18n/number-format.ts';
import { formattingTag } from '../../../src/ui/i18n/choose.ts';
import { byteSize } from '../../../src/ui/data/byte-size.ts';
import { withMinusSign } from '../../../src/ui/i18n/interval.ts';
import { RAW_BOUNDS, RUN_IMPORT_LIMITS, lowestLogLikelihood } from '../../../src/lib/core/formats/import-validate.ts';
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
  /** Where the page prints it through a width-bounded call: the file, and the call as written there (checked below, so a page that goes back to fmt.number fails). */
  printedBy?: { file: string; call: string };
}

/** A probe link's t: |t| < √shards × 10^12 (PROBE_LINK_BOUNDS), with more shards than any task has (2^24 items, two a shard). */
const T_MAX = Math.sqrt(2 ** 23) * PROBE_LINK_BOUNDS.tPerRootShard;
const INSPECTOR = 'src/ui/evaluate/ItemInspector.svelte';
const EXCHANGEABILITY = 'src/ui/memorization/ExchangeabilityResults.svelte';
const PROBE_LINK_PAGE = 'src/ui/memorization/ProbeLinkPage.svelte';

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
  // Fields whose honest bounds are wider than their place: printed through fmt.bounded, which keeps any finite number within the width.
  { field: 'results[*].logProbs[*] (letters)', where: 'ItemInspector, the log p column', width: CELL, values: [RAW_BOUNDS.tokenLogProb, -1e-5, 0], print: (x, f) => f.bounded(x, 4, CELL_WIDTH), printedBy: { file: INSPECTOR, call: 'fmt.bounded(r.logProbs[i], 4, CELL_WIDTH)' } },
  { field: 'results[*].logProbs[*] (option text sums)', where: 'ItemInspector, the log p column', width: CELL, values: [OPTION_LOG_PROB_MIN, lowestLogLikelihood(4 * RUN_IMPORT_LIMITS.textChars), 0], print: (x, f) => f.bounded(x, 4, CELL_WIDTH), printedBy: { file: INSPECTOR, call: 'fmt.bounded(r.logProbs[i], 4, CELL_WIDTH)' } },
  { field: 'files[*].statistic (probe link)', where: 'ProbeLinkPage, "t = …"', width: SENTENCE, values: [-T_MAX, -PROBE_LINK_BOUNDS.tPerRootShard, PROBE_LINK_BOUNDS.tPerRootShard, T_MAX], print: (x, f) => f.bounded(x, 2, CELL_WIDTH), printedBy: { file: PROBE_LINK_PAGE, call: "fmt.bounded(x, 2, CELL_WIDTH)" } },
  { field: 'a file\'s t (exchangeability test)', where: 'ExchangeabilityResults, the t column', width: CELL, values: [-T_MAX, T_MAX], print: (x, f) => f.bounded(x, 2, CELL_WIDTH), printedBy: { file: EXCHANGEABILITY, call: 'fmt.bounded(f.result.statistic, 2, CELL_WIDTH)' } },
  { field: 'a file\'s mean difference (exchangeability test)', where: 'ExchangeabilityResults, the mean difference column', width: CELL, values: [-PROBE_LINK_BOUNDS.meanDifference, PROBE_LINK_BOUNDS.meanDifference], print: (x, f) => f.bounded(x, 2, CELL_WIDTH), printedBy: { file: EXCHANGEABILITY, call: 'fmt.bounded(f.result.meanDifference, 2, CELL_WIDTH)' } },
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

  // The rows above put values through the call the page makes; this holds the page to that call.
  it.each(ROWS.filter((row) => row.printedBy).map((row) => [row.field, row.printedBy!] as const))('%s prints through its width-bounded call', (_field, { file, call }) => {
    const source = readFileSync(file, 'utf8');
    expect(source, `${file} prints with ${call}`).toContain(call);
    expect(source.match(/fmt\.number\([^)]*(logProbs|statistic|meanDifference)/g) ?? [], `${file} prints a wide field with fmt.number`).toEqual([]);
  });
});
