// The Reading page's words for a class (issue 45 §2): what a bit of surprise, a chance and bits per
// character mean, said with the numbers on screen. Every sentence is computed from the reading's own
// log-probabilities; nothing here is a stored figure.
//
// The arithmetic a class is told:
//   surprise s = −log₂ p bits; p = 2^−s: s bits is "as unexpected as s fair coin flips all coming up
//   heads" (each flip halves the chance), said with s rounded to a whole number of flips;
//   a chance under 1 in 1,000 is said as "1 in N", N = 1/p rounded to two significant figures;
//   b bits per character ≈ "choosing among 2^b equally likely characters each time" (the perplexity
//   per character), said to two significant figures as a chance is.
import { fmt, t } from '../i18n/locale.svelte.ts';

/** 1/p to two significant figures (5,800; 56,000; 12), never below 1. */
export function oneIn(p: number): number {
  const n = 1 / p;
  if (!Number.isFinite(n)) return Number.POSITIVE_INFINITY;
  if (n < 100) return Math.max(1, Math.round(n));
  const scale = 10 ** (Math.floor(Math.log10(n)) - 1);
  return Math.round(n / scale) * scale;
}

/** A probability as a class reads it: "47.5 %", "0.12 %", or "1 in 5,800" below 1 in 1,000. */
export function chanceText(p: number): string {
  if (p >= 0.001) return `${fmt.fraction(p, p >= 0.1 ? 1 : 2)}%`;
  const n = oneIn(p);
  if (!Number.isFinite(n)) return t('less than 1 in a trillion', '不到万亿分之 1');
  return t(`1 in ${fmt.count(n)}`, `${fmt.count(n)} 分之 1`);
}

/** "as unexpected as 12 coin flips all coming up heads" for 12.4 bits (at least one flip). */
export function coinFlips(bits: number): string {
  const flips = Math.max(1, Math.round(bits));
  return flips === 1
    ? t('as unexpected as one coin flip coming up heads', '相当于抛一次硬币得到正面')
    : t(`as unexpected as ${fmt.count(flips)} coin flips all coming up heads`, `相当于连抛 ${fmt.count(flips)} 次硬币全是正面`);
}

/** The example sentence for one token: its surprise, the coin flips, its chance, and the model's favourite there. */
export function tokenExample(token: { text: string; bits: number; logprob: number }, favourite: { text: string; logprob: number } | null): string {
  const p = Math.exp(token.logprob);
  const head = t(
    `“${token.text}” cost ${fmt.number(token.bits, 1)} bits: ${coinFlips(token.bits)}; the model gave it a chance of ${chanceText(p)}.`,
    `“${token.text}”的意外程度是 ${fmt.number(token.bits, 1)} 比特：${coinFlips(token.bits)}；模型给它的机会是 ${chanceText(p)}。`,
  );
  if (!favourite || favourite.text === token.text) return head;
  return `${head}${t(` Its favourite there was “${favourite.text}” (${chanceText(Math.exp(favourite.logprob))}).`, `模型在那里最看好的是“${favourite.text}”（${chanceText(Math.exp(favourite.logprob))}）。`)}`;
}

/** What b bits per character means: "like guessing each character among about 9 equally likely ones" (2^b, two significant figures). */
export function perCharacterMeaning(perCharacter: number): string {
  const among = oneIn(2 ** -perCharacter);
  return t(
    `On average that is like guessing each character among about ${fmt.count(among)} equally likely ones (2^${fmt.number(perCharacter, 1)}); lower means the model found the text less surprising.`,
    `平均而言，好比每个字都要在约 ${fmt.count(among)} 个同样可能的字里猜中一个（2^${fmt.number(perCharacter, 1)}）；数值越低，模型越不觉得意外。`,
  );
}
