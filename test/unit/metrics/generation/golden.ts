// The sacrebleu golden file, read from <repo>/../shared/golden (never copied into the project: its
// text is WenMind's, CC BY-NC-SA). Locally the golden tests are skipped when the file is missing; in
// CI (CI set) they fail, saying so, so a broken checkout cannot pass silently.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'vitest';

/** This file is <repo>/test/unit/metrics/generation/golden.ts. */
const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..');
export const GOLDEN_BLEU = resolve(REPO_ROOT, '../shared/golden/bleu-zh.json');

export interface GoldenScore {
  score: number;
  counts: number[];
  totals: number[];
  precisions: number[];
  bp: number;
  sys_len: number;
  ref_len: number;
}

export interface GoldenCase {
  name: string;
  description: string;
  hyps: string[];
  refs: string[][];
  corpus: GoldenScore;
  sentence: GoldenScore[];
  tokenized_hyps: string[];
  tokenized_refs: string[][];
  signature: string;
  sentence_signature: string;
}

export interface GoldenBleu {
  sacrebleu_version: string;
  signature: string;
  signature_two_refs: string;
  sentence_signature: string;
  settings: { score_tolerance: number };
  cases: GoldenCase[];
  tokenizer_cases: { in: string; out: string }[];
}

/** describe() whose tests need the golden file; `body` gets it parsed. */
export function describeWithGolden(name: string, body: (golden: GoldenBleu) => void): void {
  if (existsSync(GOLDEN_BLEU)) {
    const golden = JSON.parse(readFileSync(GOLDEN_BLEU, 'utf8')) as GoldenBleu;
    describe(name, () => body(golden));
  } else if (process.env.CI) {
    describe(name, () => {
      it('has the sacrebleu golden file', () => {
        throw new Error(`sacrebleu golden values are missing: expected ${GOLDEN_BLEU} (the ../shared checkout beside the repository)`);
      });
    });
  } else {
    describe.skip(`${name} (no golden file at ${GOLDEN_BLEU})`, () => {
      it('needs the golden file', () => {});
    });
  }
}
