// Punctuation (句读): the reference is the original punctuated text, the input the same text with
// C3_PUNCTUATION and whitespace removed (stripPunctuation, the adapters' own rule). Both texts are
// read as characters and gaps: gap 0 is before the first character, gap k after the k-th; a gap's
// mark is all the punctuation written there, in order (so 。” or ：“ is one mark). The output's
// non-punctuation characters are aligned to the input's (align.ts: identity when the model kept
// the text, else a longest-common-subsequence alignment), and each output gap's mark lands on the
// input gap after the last aligned character before it (marks after added characters join the
// same gap). A prediction is a (gap, mark) pair with a non-empty mark. Micro over all gaps of all
// items: a mark is right when the gap's mark equals the reference's; a wrong mark is one false
// alarm and one miss. Position-only: a break anywhere the reference has one, whatever the mark.
// The end gap counts like any other. ASCII and full-width look-alikes (, ; : ? ! ( ) . ．・) are
// compared as the Chinese mark they stand for, in output and reference alike.
import { C3_PUNCTUATION } from '../../benchmarks/adapters/c3bench-values.ts';
import { alignCharacters } from './align.ts';
import { bootstrapIntervals, bootstrapSignature, type BootstrapInterval, type BootstrapOptions } from './bootstrap.ts';
import { cleanOutput, POSTPROCESS_VERSION } from './postprocess.ts';
import { f1FromCounts, precisionRecallF1, type MatchCounts, type PrecisionRecallF1 } from './prf.ts';
import { firstReference, type GenerationPair } from './types.ts';

const PUNCTUATION = new Set(C3_PUNCTUATION);
const WHITESPACE = /\s/u;

/** Marks compared as one: the look-alike on the left counts as the mark on the right. */
export const MARK_EQUIVALENTS: Readonly<Record<string, string>> = {
  ',': '，',
  ';': '；',
  ':': '：',
  '?': '？',
  '!': '！',
  '(': '（',
  ')': '）',
  '.': '。',
  '．': '。',
  '・': '·',
};

export type GapStatus = 'none' | 'correct' | 'wrong' | 'missing' | 'spurious';

export interface PunctuationGap {
  /** 0 = before the first input character, k = after the k-th. */
  position: number;
  /** The reference's mark here ('' = none). */
  reference: string;
  /** The output's mark here, as aligned ('' = none). */
  predicted: string;
  status: GapStatus;
}

export interface PunctuationItemResult {
  /** The input's characters (the reference without punctuation or whitespace). */
  chars: string[];
  /** chars.length + 1 gaps, in order. */
  gaps: PunctuationGap[];
  /** (gap, mark) matches. */
  mark: MatchCounts;
  /** Gap-only matches: a break where the reference has one. */
  position: MatchCounts;
  /** Whether the output's characters differ from the input's (so the alignment was needed). */
  changed: boolean;
}

export interface PunctuationScore {
  n: number;
  /** Mark F1 (the task's score in the overall average), micro. */
  mark: PrecisionRecallF1 & { f1Interval: BootstrapInterval | null };
  /** Position-only F1, micro. */
  position: PrecisionRecallF1 & { f1Interval: BootstrapInterval | null };
  /** Items whose output changed the characters. */
  changed: number;
  signature: string;
}

/** A punctuated text as characters and the (normalized) mark in each of its gaps. */
export function segmentPunctuated(text: string): { chars: string[]; marks: string[] } {
  const chars: string[] = [];
  const marks: string[] = [''];
  for (const char of text) {
    if (PUNCTUATION.has(char)) marks[chars.length] += MARK_EQUIVALENTS[char] ?? char;
    else if (!WHITESPACE.test(char)) {
      chars.push(char);
      marks.push('');
    }
  }
  return { chars, marks };
}

function sameChars(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((char, i) => char === b[i]);
}

function gapStatus(reference: string, predicted: string): GapStatus {
  if (reference === '') return predicted === '' ? 'none' : 'spurious';
  if (predicted === '') return 'missing';
  return predicted === reference ? 'correct' : 'wrong';
}

/** Aligns one output to its reference and lists, for each gap, the reference mark and the predicted mark. */
export function punctuationItem(output: string, reference: string): PunctuationItemResult {
  const gold = segmentPunctuated(reference);
  const produced = segmentPunctuated(cleanOutput(output));
  const changed = !sameChars(gold.chars, produced.chars);
  const predicted = new Array<string>(gold.chars.length + 1).fill('');
  if (!changed) {
    produced.marks.forEach((mark, gap) => (predicted[gap] = mark));
  } else {
    const alignment = alignCharacters(gold.chars, produced.chars);
    let inputGap = 0;
    produced.marks.forEach((mark, gap) => {
      // Output gap `gap` follows output character gap − 1.
      if (gap > 0 && alignment[gap - 1] >= 0) inputGap = alignment[gap - 1] + 1;
      predicted[inputGap] += mark;
    });
  }
  const mark = { tp: 0, fp: 0, fn: 0 };
  const position = { tp: 0, fp: 0, fn: 0 };
  const gaps = gold.marks.map((referenceMark, gap): PunctuationGap => {
    const status = gapStatus(referenceMark, predicted[gap]);
    if (status === 'correct' || status === 'wrong') position.tp++;
    if (status === 'correct') mark.tp++;
    if (status === 'wrong' || status === 'spurious') mark.fp++;
    if (status === 'wrong' || status === 'missing') mark.fn++;
    if (status === 'missing') position.fn++;
    if (status === 'spurious') position.fp++;
    return { position: gap, reference: referenceMark, predicted: predicted[gap], status };
  });
  return { chars: gold.chars, gaps, mark, position, changed };
}

/** `punct-f1|avg:micro|unit:gap|align:lcs|marks:c3-punctuation|equiv:ascii-fullwidth|post:1|bs:…`. */
export function punctuationSignature(options: BootstrapOptions = {}): string {
  return `punct-f1|avg:micro|unit:gap|align:lcs|marks:c3-punctuation|equiv:ascii-fullwidth|post:${POSTPROCESS_VERSION}|${bootstrapSignature(options)}`;
}

/** Micro mark and position-only precision, recall and F1, each F1 with a 95% bootstrap interval over items. */
export function punctuationCorpus(pairs: readonly GenerationPair[], options: BootstrapOptions = {}): PunctuationScore {
  const rows = new Float64Array(pairs.length * 6);
  const mark = { tp: 0, fp: 0, fn: 0 };
  const position = { tp: 0, fp: 0, fn: 0 };
  let changed = 0;
  pairs.forEach((pair, i) => {
    const item = punctuationItem(pair.output, firstReference(pair, i));
    rows.set([item.mark.tp, item.mark.fp, item.mark.fn, item.position.tp, item.position.fp, item.position.fn], 6 * i);
    mark.tp += item.mark.tp;
    mark.fp += item.mark.fp;
    mark.fn += item.mark.fn;
    position.tp += item.position.tp;
    position.fp += item.position.fp;
    position.fn += item.position.fn;
    if (item.changed) changed++;
  });
  const [markInterval, positionInterval] = bootstrapIntervals(
    rows,
    6,
    [(s) => f1FromCounts(s[0], s[1], s[2]), (s) => f1FromCounts(s[3], s[4], s[5])],
    options,
  );
  return {
    n: pairs.length,
    mark: { ...precisionRecallF1(mark), f1Interval: markInterval },
    position: { ...precisionRecallF1(position), f1Interval: positionInterval },
    changed,
    signature: punctuationSignature(options),
  };
}
