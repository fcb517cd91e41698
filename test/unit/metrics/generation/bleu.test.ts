// Hand-computed BLEU cases that run without the golden file, and the tokenizer quirks spelled out.
import { describe, expect, it } from 'vitest';
import { bleuFromStats, bleuSignature, corpusBleu, corpusBleuStats, sentenceBleu, sumBleuStats } from '../../../../src/lib/core/metrics/generation/bleu.ts';
import { isSacrebleuChineseChar, pySplit, pyStrip, tokenizeZh, tokensZh } from '../../../../src/lib/core/metrics/generation/bleu-tokenizer-zh.ts';
import { translationCorpus, translationItem } from '../../../../src/lib/core/metrics/generation/translation.ts';

describe('tokenizeZh', () => {
  it('splits Chinese characters and full-width marks, keeps numbers together', () => {
    expect(tokenizeZh('公元前221年，秦统一。')).toBe('公 元 前 221 年 ， 秦 统 一 。');
    expect(tokenizeZh('3.14 和 1,000')).toBe('3.14 和 1,000');
    expect(tokenizeZh('U.S.A.')).toBe('U . S . A .');
  });

  it("reproduces the '\\u20000' range: U+2001..U+2A6D are Chinese, U+2000 and Extension B are not", () => {
    expect(isSacrebleuChineseChar(0x2000)).toBe(false);
    expect(isSacrebleuChineseChar(0x2001)).toBe(true);
    expect(isSacrebleuChineseChar(0x2014)).toBe(true); // —
    expect(isSacrebleuChineseChar(0x2a6d)).toBe(true);
    expect(isSacrebleuChineseChar(0x2a6e)).toBe(false);
    expect(isSacrebleuChineseChar(0x20000)).toBe(false); // 𠀀
    expect(isSacrebleuChineseChar(0x9fbb)).toBe(true);
    expect(isSacrebleuChineseChar(0x9fbc)).toBe(false);
    expect(tokenizeZh('破折号——在这里')).toBe('破 折 号 — — 在 这 里');
    expect(tokenizeZh('abc𠀀def 猫𠀀狗')).toBe('abc𠀀def 猫 𠀀 狗');
  });

  it("uses Python's whitespace: U+001F and U+0085 split, U+FEFF does not", () => {
    expect(pySplit('a\u0085b\u001fc\ufeffd')).toEqual(['a', 'b', 'c\ufeffd']);
    expect(pyStrip('\u001c 猫 \u3000')).toBe('猫');
    expect(tokenizeZh('\ufeff猫')).toBe('\ufeff 猫');
    expect(tokensZh('a\u0085b\u001fc')).toEqual(['a', 'b', 'c']);
  });

  it('gives no tokens for empty or blank text', () => {
    expect(tokenizeZh('')).toBe('');
    expect(tokensZh(' \t\n')).toEqual([]);
  });
});

describe('corpusBleu and sentenceBleu (hand-computed)', () => {
  it('identical text scores 100 (up to rounding)', () => {
    const score = corpusBleu(['猫坐在垫子上'], [['猫坐在垫子上']]);
    expect(score.score).toBeCloseTo(100, 10);
    expect(score.counts).toEqual([6, 5, 4, 3]);
    expect(score.bp).toBe(1);
  });

  it("exp smoothing: 甲乙丙丁 vs 甲乙戊丁 → precisions 75, 33.3, 100/(2·2), 100/(4·1); BLEU = 1562500^(1/4)", () => {
    const score = corpusBleu(['甲乙丙丁'], [['甲乙戊丁']]);
    expect(score.counts).toEqual([3, 1, 0, 0]);
    expect(score.totals).toEqual([4, 3, 2, 1]);
    expect(score.precisions[2]).toBe(25);
    expect(score.precisions[3]).toBe(25);
    expect(score.score).toBeCloseTo(Math.pow(75 * (100 / 3) * 25 * 25, 1 / 4), 10);
  });

  it('no 4-grams: corpus BLEU is 0 (log 0 floored), sentence BLEU averages the orders present', () => {
    // hyp 猫坐 (2 tokens), ref 猫坐在垫子上 (6): counts [2, 1, 0, 0], totals [2, 1, 0, 0], bp = e^(1 − 3).
    const corpus = corpusBleu(['猫坐'], [['猫坐在垫子上']]);
    expect(corpus.score).toBe(0);
    expect(corpus.bp).toBeCloseTo(Math.exp(-2), 15);
    const sentence = sentenceBleu('猫坐', ['猫坐在垫子上']);
    expect(sentence.score).toBeCloseTo(100 * Math.exp(-2), 10);
  });

  it('closest reference length, the shorter on a tie; n-gram counts clipped by the max over references', () => {
    // hyp 4 tokens; refs 3 and 5 tokens are equally close: ref_len 3.
    const score = corpusBleu(['甲甲乙乙'], [['甲乙丙'], ['甲甲乙丙丁']]);
    expect(score.ref_len).toBe(3);
    // 甲: min(2, max(1, 2)) = 2; 乙: min(2, max(1, 1)) = 1.
    expect(score.counts[0]).toBe(3);
  });

  it('an empty hypothesis scores 0 with bp 0', () => {
    const score = corpusBleu([''], [['甲乙']]);
    expect(score).toMatchObject({ score: 0, sys_len: 0, ref_len: 2, bp: 0 });
  });

  it('corpus BLEU is BLEU of the summed sentence statistics', () => {
    const hyps = ['甲乙丙丁', '猫坐在垫子上'];
    const refs = [['甲乙戊丁', '猫坐在垫上']];
    expect(bleuFromStats(sumBleuStats(corpusBleuStats(hyps, refs)))).toEqual(corpusBleu(hyps, refs));
  });

  it('refuses reference streams of the wrong length', () => {
    expect(() => corpusBleu(['甲', '乙'], [['甲']])).toThrow(/reference stream 1 has 1 sentences, the hypotheses 2/);
  });
});

describe('translationCorpus', () => {
  const pairs = [
    { output: '译文：甲乙丙丁', references: ['甲乙戊丁'] },
    { output: '猫坐在垫子上', references: ['猫坐在垫上'] },
    { output: '我不忍心看着它们遭难！', references: ['我不忍心看着它们遭难！'] },
  ];

  it('post-processes outputs (drops 译文：) and adds a seeded interval and its signature', () => {
    const a = translationCorpus(pairs);
    expect(a.bleu!.score).toBeCloseTo(corpusBleu(['甲乙丙丁', '猫坐在垫子上', '我不忍心看着它们遭难！'], [pairs.map((p) => p.references[0])]).score, 12);
    expect(a.interval!.low).toBeLessThanOrEqual(a.bleu!.score);
    expect(a.interval!.high).toBeGreaterThanOrEqual(a.bleu!.score);
    expect(a.signature).toBe('nrefs:1|bs:1000|seed:12345|ci:percentile-95|rng:mulberry32|resample:items|case:mixed|eff:no|tok:zh|smooth:exp|version:2.6.0');
    expect(translationCorpus(pairs)).toEqual(a);
    expect(translationItem('译文：甲乙丙丁', ['甲乙戊丁']).score).toBeCloseTo(sentenceBleu('甲乙丙丁', ['甲乙戊丁']).score, 12);
  });

  it('says nrefs:var when items have different numbers of references, and has no score when empty', () => {
    expect(translationCorpus([pairs[0], { output: '甲', references: ['甲', '乙'] }]).signature).toMatch(/^nrefs:var\|/);
    expect(translationCorpus([])).toMatchObject({ n: 0, bleu: null, interval: null });
    expect(bleuSignature({ nrefs: 2 })).toBe('nrefs:2|case:mixed|eff:no|tok:zh|smooth:exp|version:2.6.0');
  });
});
