// The prompts the jiangu-tiny family's parity tests score (hub-shapes, gqa, float16): one of two
// tokens, a 0-shot CMMLU-shaped item, a longer line, and a 1-shot prefix with two items after it,
// all in the fixture tokenizer's vocabulary. Shared so every graph shape is compared on the same text.
import { encodeFixture } from '../../scripts/fixtures/reference.ts';

export const LETTERS = ['A', 'B', 'C', 'D'];
/** The letters' ids in the fixture tokenizer (each is one character, one token). */
export const letterIds = LETTERS.map((l) => encodeFixture(l)[0]);
export const PROMPTS = [
  '子曰',
  '以下是关于古汉语的单项选择题，请直接给出正确答案的选项。\n\n题目：学而时习之，不亦说乎？\nA. 说话\nB. 喜悦\nC. 解说\nD. 劝说\n答案是：',
  '子曰：温故而知新，可以为师矣。有朋自远方来，不亦乐乎？人不知而不愠，不亦君子乎？答案是：',
];
export const PREFIX = '以下是关于古汉语的单项选择题，请直接给出正确答案的选项。\n\n题目：有朋自远方来\nA. 天\nB. 地\nC. 人\nD. 之\n答案是：C\n\n';
export const SUFFIXES = ['题目：学而时习之\nA. 学\nB. 习\nC. 时\nD. 之\n答案是：', '题目：温故而知新\nA. 温\nB. 故\nC. 知\nD. 新\n答案是：'];
