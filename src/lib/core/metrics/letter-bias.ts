// Letter bias: does the model read the question, or does it like a letter? Per task and overall
// (overall pools every item of every task). Rules:
//  - Items counted (n): not failed, with a prediction and a gold letter. A generated answer that named
//    no letter, and an item without a key, say nothing about which letter is liked.
//  - `letters`: the option letters seen in the part's results (A..D, in that order), so a letter the
//    model never chose still shows with 0.
//  - table[g][c]: the counted items with gold letter g whose predicted letter is c (over `letters`).
//  - fit: the Stuart–Maxwell test of marginal homogeneity of that table, marginal-homogeneity.ts
//    (exact permutation within items, else chi-square): are the letters chosen distributed as the
//    letters right, on the same items? (The name is from version 1, a goodness of fit of the chosen
//    counts against the gold counts taken as exact, which gave X² = ∞ on 3 items and df 0 on golds
//    of one letter.) Null when n = 0 or the table cannot be tested; `untestable` says why.
//  - constantBaseline: the accuracy of always answering the letter that is most often gold (ties: the
//    first letter), on the same n items.
//  - entropyBits: Shannon entropy of the predicted letters, log2; maxEntropyBits = log2(#letters).
//  - top: the most predicted letter (ties: the first), its share of the predictions and the share of
//    the items whose gold it is ("the model chose C for 61% of the questions; C is right for 27%").
//  - n = 0: fit, constantBaseline, entropyBits and top are null (shown as "—").
import type { OptionLetter } from '../benchmarks/types.ts';
import { OPTION_LETTERS } from '../protocols/multiple-choice.ts';
import { homogeneitySignature, stuartMaxwell, type StuartMaxwell, type Untestable } from './marginal-homogeneity.ts';

export const LETTER_BIAS_VERSION = 2;

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
  /** table[g][c] over `letters`: gold letter g, predicted letter c. */
  table: number[][];
  /** The letter-bias test (Stuart–Maxwell); null when n = 0 or `untestable`. */
  fit: StuartMaxwell | null;
  /** Why there is no test though n > 0: one letter in both margins, or no item whose letters differ. */
  untestable: Untestable | null;
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

/** e.g. `letter-bias|test:stuart-maxwell(…)|p:exact-permutation-within-items<=50000-arrangements-else-chi-square|v1|table:gold-x-predicted|…|version:2`. */
export function letterBiasSignature(): string {
  return `letter-bias|test:${homogeneitySignature()}|table:gold-x-predicted|baseline:most-frequent-gold|entropy:bits|version:${LETTER_BIAS_VERSION}`;
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
  const table = letters.map(() => letters.map(() => 0));
  let n = 0;
  for (const r of results) {
    if (!counted(r)) continue;
    n++;
    predicted[r.prediction!]++;
    gold[r.gold!]++;
    table[letters.indexOf(r.gold!)][letters.indexOf(r.prediction!)]++;
  }
  const maxEntropyBits = letters.length > 0 ? Math.log2(letters.length) : 0;
  if (n === 0) return { key, n, letters, predicted, gold, table, fit: null, untestable: null, constantBaseline: null, entropyBits: null, maxEntropyBits, top: null };

  const first = (count: Record<string, number>): OptionLetter =>
    letters.reduce((best, l) => (count[l] > count[best] ? l : best), letters[0]);
  const baselineLetter = first(gold);
  const topLetter = first(predicted);
  let entropyBits = 0;
  for (const l of letters) {
    const p = predicted[l] / n;
    if (p > 0) entropyBits -= p * Math.log2(p);
  }
  const test = stuartMaxwell(table);
  return {
    key,
    n,
    letters,
    predicted,
    gold,
    table,
    fit: 'untestable' in test ? null : test,
    untestable: 'untestable' in test ? test.untestable : null,
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
