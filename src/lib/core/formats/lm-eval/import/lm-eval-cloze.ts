// The samples of a task Jiangu exported with option-text scoring (`metadata.jiangu.scoring: 'cloze'`,
// issue 25): `output_type: multiple_choice` whose choices are the item's option texts. They are read as
// the letter samples are (import-lm-eval.ts), and more strictly, because a cloze run keeps every
// option's numbers and switches rules on them:
//  - each request's continuation is the doc's option text (the export's target_delimiter is "");
//  - each response carries is_greedy (the harness writes [loglik, is_greedy] for every choice);
//  - the harness's own acc, acc_norm and acc_bytes, where the sample has them, equal the same rules
//    recomputed here (cloze-rules.ts) from the log-likelihoods and the option texts' lengths, as
//    ConfigurableTask.process_results computes them (lm_eval/api/task.py at 4e7e0d4: len(choice) and
//    len(choice.encode("utf-8")) of the choices themselves). A letter sample whose acc disagrees is
//    imported with a warning; a cloze sample is refused: its log-likelihoods are what every rule,
//    p(gold) and bits per byte are computed from, so numbers changed after the harness wrote them must
//    not pass as the harness's.
import type { OptionLetter } from '../../../benchmarks/types.ts';
import { clozePrediction, type ClozeRule } from '../../../metrics/cloze-rules.ts';
import { pythonLength, utf8Length } from '../../../protocols/encode-pair.ts';
import { OPTION_LETTERS } from '../../../protocols/multiple-choice.ts';
import type { ClozeScores } from '../../../record/run.ts';
import { fail, finite, lowestLogLikelihood, problem, type Obj } from '../../import-validate.ts';

/** The harness's metrics of a cloze task that a sample states and the import checks, in process_results' order. */
export const CLOZE_SAMPLE_METRICS = ['acc', 'acc_norm', 'acc_bytes'] as const satisfies readonly ClozeRule[];
type ClozeSampleMetric = (typeof CLOZE_SAMPLE_METRICS)[number];

/** What a cloze sample adds to a letter one. */
export interface ClozeSample {
  /** The option texts the harness scored (the doc's `options`, which doc_to_choice returns), in order. */
  options: string[];
  isGreedy: boolean[];
}

/** A cloze sample as readSample has read it so far. */
export interface ClozeSampleRead {
  /** `line 4:` or `samples.x[3]`: where the sample is. */
  base: string;
  doc: unknown;
  docId: number;
  logLiks: readonly number[];
  /** Per response, is_greedy as written, or null where the response was a bare number. */
  greedy: readonly (boolean | null)[];
  /** The responses as written, and where response i is (`line 4: filtered_resps[1]`). */
  responses: readonly unknown[];
  responsePath: (i: number) => string;
  gold: OptionLetter | null;
  /** The requests' continuations as written, null where the sample has no arguments. */
  continuations: readonly unknown[] | null;
  continuationPath: (i: number) => string;
  /** The sample's own acc, acc_norm and acc_bytes (null where it has none: bypass, --predict_only). */
  stated: Readonly<Record<ClozeSampleMetric, boolean | null>>;
}

/** `line 4: ` + field for JSON Lines, `samples.x[3].` + field for JSON. */
const at = (base: string, field: string): string => (base.endsWith(':') ? `${base} ${field}` : `${base}.${field}`);

/** The per-option numbers a run keeps; the counts are the option texts' (Python's len, UTF-8 bytes). */
export function clozeScoresOf(sample: ClozeSample, logLiks: readonly number[]): ClozeScores {
  // The harness writes no token counts nor the context's split, and makes no answer-cue-only requests
  // (so no PMI): those fields stay absent (ClozeScores says so).
  return { logLikelihoods: [...logLiks], charCounts: sample.options.map(pythonLength), byteCounts: sample.options.map(utf8Length), isGreedy: [...sample.isGreedy] };
}

/**
 * Checks a cloze sample and returns what it adds.
 *
 * @throws FieldProblem: a doc without its options, a continuation that is not its option's text, a
 *   response without is_greedy, or a stated acc, acc_norm or acc_bytes the log-likelihoods do not give
 *   (`import.lm-eval-cloze-disagrees`, naming the item and the metric).
 */
export function readClozeSample(read: ClozeSampleRead): ClozeSample {
  const n = read.logLiks.length;
  const doc = typeof read.doc === 'object' && read.doc !== null && !Array.isArray(read.doc) ? (read.doc as Obj) : null;
  const options = doc?.options;
  if (!Array.isArray(options) || options.length !== n || !options.every((o): o is string => typeof o === 'string')) {
    fail(at(read.base, 'doc.options'), { expected: 'per-letter', count: n, orNone: false }, options);
  }
  read.continuations?.forEach((c, i) => {
    if (c !== options[i]) fail(read.continuationPath(i), { expected: 'same-as', value: options[i], sameAs: `doc.options[${i}]` }, c);
  });
  const isGreedy = read.greedy.map((g, i) => (g === null ? fail(read.responsePath(i), { expected: 'loglik-greedy' }, read.responses[i]) : g));
  // An option's summed log-likelihood is at least its text's most tokens (one a byte and a few markers,
  // never more than a context holds: RAW_BOUNDS.contextTokens) times one token's lowest (import-validate.ts).
  read.logLiks.forEach((ll, i) => finite(ll, read.responsePath(i), lowestLogLikelihood(utf8Length(options[i])), 0));
  const sample: ClozeSample = { options, isGreedy };
  // Without a gold (a predictions-only export) the harness scored against its "no label": nothing to check.
  if (read.gold === null) return sample;
  const scores = clozeScoresOf(sample, read.logLiks);
  for (const metric of CLOZE_SAMPLE_METRICS) {
    const stated = read.stated[metric];
    if (stated === null) continue;
    const prediction = OPTION_LETTERS[clozePrediction(scores, metric)!];
    const right = prediction === read.gold;
    if (right !== stated) {
      const id = typeof doc?.jiangu_id === 'string' ? doc.jiangu_id.slice(0, 200) : `doc_id ${read.docId}`;
      throw problem('import.lm-eval-cloze-disagrees', { path: read.base.replace(/:$/, ''), itemId: id, metric, stated: stated ? 1 : 0, recomputed: right ? 1 : 0, prediction, gold: read.gold });
    }
  }
  return sample;
}
