// The bench's CMMLU-style prompts: one multiple-choice item in the "以下是关于…的单项选择题" shape,
// about 60 tokens under each fixture model's tokenizer.
import { encodeFixture } from '../fixtures/reference.ts';
import type { ModelName } from '../fixtures/specs.ts';

/** The options scored as the next token. */
export const CANDIDATES: readonly string[] = ['A', 'B', 'C', 'D'];

/**
 * jiangu-tiny has one token per character and maps characters outside its small vocabulary to
 * <unk> (id 0), so its prompt uses only characters it knows (checked by `checkTinyPrompt`).
 */
const TINY_PROMPT =
  '以下是关于古汉语的单项选择题，请直接给出正确答案的选项。\n\n' +
  '题目：不亦说乎之说意为\nA. 言\nB. 乐\nC. 释\nD. 教\n答案是：';

/** jiangu-large uses the real Qwen3 tokenizer (about 1.5 characters per token for this text). */
const LARGE_PROMPT =
  '以下是关于古汉语的单项选择题，请直接给出正确答案的选项。\n\n' +
  '题目：“学而时习之，不亦说乎？”一句中，“说”字的意思是\n' +
  'A. 说话\nB. 喜悦\nC. 解说\nD. 劝说\n答案是：';

export const PROMPTS: Readonly<Record<ModelName, string>> = { 'jiangu-tiny': TINY_PROMPT, 'jiangu-large': LARGE_PROMPT };

/** Throws when the tiny prompt holds a character jiangu-tiny does not know (it would become <unk>). */
export function checkTinyPrompt(prompt: string = TINY_PROMPT): number {
  const ids = encodeFixture(prompt);
  const unknown = [...prompt].filter((_, i) => ids[i] === 0);
  if (unknown.length > 0) throw new Error(`The jiangu-tiny bench prompt has characters outside its vocabulary: ${unknown.join(' ')}`);
  return ids.length;
}
