// Every case of ../shared/golden/bleu-zh.json, computed by sacrebleu 2.6.0: tokenizer outputs and
// tokenized hypotheses/references exactly, corpus and sentence BLEU (score to 1e-9; counts, totals
// and lengths exactly), and the signature strings.
import { expect, it } from 'vitest';
import { bleuSignature, corpusBleu, sentenceBleu, SACREBLEU_VERSION, type BleuScore } from '../../../../src/lib/core/metrics/generation/bleu.ts';
import { tokenizeZh, tokensZh } from '../../../../src/lib/core/metrics/generation/bleu-tokenizer-zh.ts';
import { describeWithGolden, type GoldenScore } from './golden.ts';

function expectScore(actual: BleuScore, expected: GoldenScore, tolerance: number): void {
  expect(Math.abs(actual.score - expected.score)).toBeLessThanOrEqual(tolerance);
  expect(actual.counts).toEqual(expected.counts);
  expect(actual.totals).toEqual(expected.totals);
  expect(actual.sys_len).toBe(expected.sys_len);
  expect(actual.ref_len).toBe(expected.ref_len);
  expect(Math.abs(actual.bp - expected.bp)).toBeLessThanOrEqual(1e-12);
  actual.precisions.forEach((p, n) => expect(Math.abs(p - expected.precisions[n])).toBeLessThanOrEqual(tolerance));
}

describeWithGolden('BLEU against sacrebleu golden values', (golden) => {
  const tolerance = golden.settings.score_tolerance;

  it('covers the version the golden file was computed with', () => {
    expect(golden.sacrebleu_version).toBe(SACREBLEU_VERSION);
    expect(golden.cases.length).toBeGreaterThanOrEqual(14);
    expect(golden.tokenizer_cases.length).toBeGreaterThanOrEqual(40);
  });

  it.each(golden.tokenizer_cases.map((c, i) => [i, JSON.stringify(c.in), c] as const))('tokenizer case %i: %s', (_i, _label, c) => {
    expect(tokenizeZh(c.in)).toBe(c.out);
    expect(tokensZh(c.in)).toEqual(c.out === '' ? [] : c.out.split(' '));
  });

  for (const c of golden.cases) {
    it(`${c.name}: tokenized hypotheses and references`, () => {
      expect(c.hyps.map(tokenizeZh)).toEqual(c.tokenized_hyps);
      expect(c.refs.map((stream) => stream.map(tokenizeZh))).toEqual(c.tokenized_refs);
      // The fast path gives the same tokens.
      for (const text of [...c.hyps, ...c.refs.flat()]) {
        const line = tokenizeZh(text);
        expect(tokensZh(text)).toEqual(line === '' ? [] : line.split(' '));
      }
    });

    it(`${c.name}: corpus BLEU (${c.description})`, () => {
      expectScore(corpusBleu(c.hyps, c.refs), c.corpus, tolerance);
    });

    it(`${c.name}: sentence BLEU with effective order, ${c.hyps.length} sentences`, () => {
      c.hyps.forEach((hyp, i) => {
        expectScore(
          sentenceBleu(
            hyp,
            c.refs.map((stream) => stream[i]),
          ),
          c.sentence[i],
          tolerance,
        );
      });
    });

    it(`${c.name}: signatures`, () => {
      expect(bleuSignature({ nrefs: c.refs.length })).toBe(c.signature);
      expect(bleuSignature({ nrefs: c.refs.length, effectiveOrder: true })).toBe(c.sentence_signature);
    });
  }

  it('the file-level signatures', () => {
    expect(bleuSignature({ nrefs: 1 })).toBe(golden.signature);
    expect(bleuSignature({ nrefs: 2 })).toBe(golden.signature_two_refs);
    expect(bleuSignature({ nrefs: 1, effectiveOrder: true })).toBe(golden.sentence_signature);
  });
});
