// The CMMLU-style zero-shot prompt used by the playground. The full protocols (exemplars, subjects,
// template hashes) build on this in the evaluation issue.

export const OPTION_LETTERS = ['A', 'B', 'C', 'D'] as const;

export interface MultipleChoiceQuestion {
  question: string;
  options: string[];
}

/** `题目：…\nA. …\n…答案是：` as in the official CMMLU code, without a trailing answer. */
export function formatQuestion(item: MultipleChoiceQuestion): string {
  const lines = item.options.map((option, i) => `${OPTION_LETTERS[i]}. ${option}`);
  return `题目：${item.question}\n${lines.join('\n')}\n答案是：`;
}

/** The CMMLU instruction followed by one question, zero-shot. */
export function zeroShotPrompt(subject: string, item: MultipleChoiceQuestion): string {
  if (item.options.length < 2 || item.options.length > OPTION_LETTERS.length) {
    throw new RangeError(`a question needs 2 to ${OPTION_LETTERS.length} options, got ${item.options.length}`);
  }
  return `以下是关于${subject}的单项选择题，请直接给出正确答案的选项。\n\n${formatQuestion(item)}`;
}
