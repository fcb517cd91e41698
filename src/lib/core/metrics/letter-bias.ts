// Letter bias: does the model read the question, or does it like a letter? Per task and overall
// (overall pools every item of every task). Rules:
//  - Items counted (n): not failed, with a prediction and a gold letter. A generated answer that named
//    no letter, and an item without a key, say nothing about which letter is liked.
//  - `letters`: the option letters seen in the part's results (A..D, in that order), so a letter the
//    model never chose still shows with 0.
//  - fit: the predicted letters' counts against the gold letters' distribution on the same items
//    (expected_L = n·gold_L/n = gold_L), goodness-of-fit.ts (exact multinomial, else chi-square).
//  - constantBaseline: the accuracy of always answering the letter that is most often gold (ties: the
//    first letter), on the same n items.
//  - entropyBits: Shannon entropy of the predicted letters, log2; maxEntropyBits = log2(#letters).
//  - top: the most predicted letter (ties: the first), its share of the predictions and the share of
//    the items whose gold it is ("the model chose C for 61% of the questions; C is right for 27%").
//  - n = 0: fit, constantBaseline, entropyBits and top are null (shown as "—").
import type { OptionLetter } from '../benchmarks/types.ts';
import { OPTION_LETTERS } from '../protocols/multiple-choice.ts';
import { EXACT_COMPOSITION_LIMIT, goodnessOfFit, GOODNESS_OF_FIT_VERSION, type GoodnessOfFit } from './goodness-of-fit.ts';

export const LETTER_BIAS_VERSION = 1;

export interface LetterBiasInput {
  task: string;
  letters: readonly OptionLetter[];
  prediction: OptionLetter | null;
  gold: OptionLetter | null;
  failure?: unknown;
}

export interface LetterBiasPart {
  /** 'overall' or the task. */
  key: string;
  n: number;
  letters: OptionLetter[];
  predicted: Record<string, number>;
  gold: Record<string, number>;
  fit: GoodnessOfFit | null;
  constantBaseline: { letter: OptionLetter; correct: number; n: number; accuracy: number } | null;
  entropyBits: number | null;
  maxEntropyBits: number;
  top: { letter: OptionLetter; share: number; goldShare: number } | null;
}

export interface LetterBias {
  overall: LetterBiasPart;
  tasks: LetterBiasPart[];
  signature: string;
}

/** e.g. `letter-bias|fit:exact-multinomial<=50000-compositions-else-pearson-chi-square.v1|…|version:1`. */
export function letterBiasSignature(): string {
  return `letter-bias|fit:exact-multinomial<=${EXACT_COMPOSITION_LIMIT}-compositions-else-pearson-chi-square.v${GOODNESS_OF_FIT_VERSION}|expected:gold-letters|baseline:most-frequent-gold|entropy:bits|version:${LETTER_BIAS_VERSION}`;
}

const counted = (r: LetterBiasInput): boolean => r.failure === undefined && r.prediction !== null && r.gold !== null;

function part(key: string, results: readonly LetterBiasInput[]): LetterBiasPart {
  const seen = new Set<string>();
  for (const r of results) {
    if (r.failure !== undefined) continue;
    for (const l of r.letters) seen.add(l);
    if (r.prediction !== null) seen.add(r.prediction);
    if (r.gold !== null) seen.add(r.gold);
  }
  const letters = OPTION_LETTERS.filter((l) => seen.has(l));
  const predicted: Record<string, number> = Object.fromEntries(letters.map((l) => [l, 0]));
  const gold: Record<string, number> = Object.fromEntries(letters.map((l) => [l, 0]));
  let n = 0;
  for (const r of results) {
    if (!counted(r)) continue;
    n++;
    predicted[r.prediction!]++;
    gold[r.gold!]++;
  }
  const maxEntropyBits = letters.length > 0 ? Math.log2(letters.length) : 0;
  if (n === 0) return { key, n, letters, predicted, gold, fit: null, constantBaseline: null, entropyBits: null, maxEntropyBits, top: null };

  const first = (count: Record<string, number>): OptionLetter =>
    letters.reduce((best, l) => (count[l] > count[best] ? l : best), letters[0]);
  const baselineLetter = first(gold);
  const topLetter = first(predicted);
  let entropyBits = 0;
  for (const l of letters) {
    const p = predicted[l] / n;
    if (p > 0) entropyBits -= p * Math.log2(p);
  }
  return {
    key,
    n,
    letters,
    predicted,
    gold,
    fit: goodnessOfFit(
      letters.map((l) => predicted[l]),
      letters.map((l) => gold[l]),
    ),
    constantBaseline: { letter: baselineLetter, correct: gold[baselineLetter], n, accuracy: gold[baselineLetter] / n },
    entropyBits,
    maxEntropyBits,
    top: { letter: topLetter, share: predicted[topLetter] / n, goldShare: gold[topLetter] / n },
  };
}

/** Letter bias overall and per task (tasks in the order they first appear in `results`). */
export function letterBias(results: readonly LetterBiasInput[]): LetterBias {
  const byTask = new Map<string, LetterBiasInput[]>();
  for (const r of results) {
    const list = byTask.get(r.task);
    if (list) list.push(r);
    else byTask.set(r.task, [r]);
  }
  return {
    overall: part('overall', results),
    tasks: [...byTask].map(([task, list]) => part(task, list)),
    signature: letterBiasSignature(),
  };
}
