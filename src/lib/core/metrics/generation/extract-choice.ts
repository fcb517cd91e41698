// Multiple choice by generation (chat models, as AC-EVAL's and OpenCompass's gen mode): which
// option letter a free-text answer chose. Rules are tried in order, strongest evidence first; the
// first rule that matches decides. Within a rule every match must name the same letter: if one
// rule finds two letters (答案是A……答案是B, or a listed "A．… B．…"), the answer is ambiguous and
// nothing is extracted, rather than letting a weaker rule or chance decide. An answer nothing can
// be extracted from is null, counted apart from wrong answers by the caller; never a random letter.
// Before matching: trim, and full-width Ａ–Ｚ read as A–Z. Letters are matched in upper case only
// (a lone "a" is too often the English article), and never when followed by another Latin letter.
//
//  1. answer-is    答案是 / 答案为 / 答案选 / 答案应该是 … X  (also 正确答案是X, 答案是：选项（X）)
//  2. answer-colon 答案：X / 答案:X
//  3. option-word  选项X / 选择X / 选X  (as in 故选B)
//  4. lone-letter  the whole answer is one letter, perhaps bracketed, perhaps with a final mark: B  (B)  B。
//  5. letter-mark  a line starting with a letter followed by 、 ． . ） or ) : "B．晋文公"
//  6. option-text  the answer (without spaces and final 。.!！) equals exactly one option's text, or
//                  else contains the text of exactly one option of two or more characters.

export type ChoiceRule = 'answer-is' | 'answer-colon' | 'option-word' | 'lone-letter' | 'letter-mark' | 'option-text';

export const CHOICE_RULES: readonly ChoiceRule[] = ['answer-is', 'answer-colon', 'option-word', 'lone-letter', 'letter-mark', 'option-text'];

export const CHOICE_EXTRACTION_VERSION = 1;

export interface ChoiceExtraction {
  /** The extracted letter, or null. */
  letter: string | null;
  /** The rule that decided (matched), or null when none matched. */
  rule: ChoiceRule | null;
  /** True when the deciding rule found different letters (letter is then null). */
  ambiguous: boolean;
}

/** `choice|rules:answer-is>answer-colon>option-word>lone-letter>letter-mark>option-text|ambiguous:none|version:1`. */
export function choiceExtractionSignature(): string {
  return `choice|rules:${CHOICE_RULES.join('>')}|ambiguous:none|version:${CHOICE_EXTRACTION_VERSION}`;
}

const OPEN = String.raw`[（(【\[「『“"‘'〔]?\s*`;
const CLOSE = String.raw`[）)】\]」』”"’'〕]?`;

function letterRules(letters: readonly string[]): { rule: ChoiceRule; pattern: RegExp }[] {
  const l = `([${letters.join('')}])(?![A-Za-z])`;
  return [
    { rule: 'answer-is', pattern: new RegExp(String.raw`答案(?:应该|应当|应|就|只能|当)?(?:是|为|选择|选)\s*[：:]?\s*(?:选项)?\s*${OPEN}${l}`, 'gu') },
    { rule: 'answer-colon', pattern: new RegExp(String.raw`答案\s*[：:]\s*(?:选项)?\s*${OPEN}${l}`, 'gu') },
    { rule: 'option-word', pattern: new RegExp(String.raw`(?:选项|选择|选)\s*${OPEN}${l}`, 'gu') },
    { rule: 'lone-letter', pattern: new RegExp(String.raw`^${OPEN}${l}\s*${CLOSE}\s*[。．.，,、：:！!]?$`, 'gu') },
    { rule: 'letter-mark', pattern: new RegExp(String.raw`^[ \t]*${OPEN}${l}\s*[、．.）)]`, 'gmu') },
  ];
}

const FULL_WIDTH_UPPER = /[Ａ-Ｚ]/gu;
const toAscii = (char: string): string => String.fromCharCode(char.charCodeAt(0) - 0xff21 + 0x41);
const TEXT_NOISE = /\s/gu;
const TEXT_END = /[。.!！]+$/u;
const normalizeText = (text: string): string => text.replace(TEXT_NOISE, '').replace(TEXT_END, '');

function checkLetters(letters: readonly string[]): void {
  if (letters.length === 0 || letters.some((letter) => !/^[A-Z]$/u.test(letter))) {
    throw new RangeError(`option letters must be single capitals A–Z, got ${JSON.stringify(letters)}`);
  }
}

function fromOptionText(text: string, letters: readonly string[], options: readonly string[]): ChoiceExtraction | null {
  const answer = normalizeText(text);
  if (answer === '') return null;
  const texts = options.slice(0, letters.length).map(normalizeText);
  const equal = texts.flatMap((option, i) => (option !== '' && option === answer ? [letters[i]] : []));
  const found = equal.length > 0 ? equal : texts.flatMap((option, i) => (option.length >= 2 && answer.includes(option) ? [letters[i]] : []));
  if (found.length === 0) return null;
  const distinct = new Set(found);
  return distinct.size === 1 ? { letter: found[0], rule: 'option-text', ambiguous: false } : { letter: null, rule: 'option-text', ambiguous: true };
}

/**
 * The letter an answer chose and the rule that decided it. `letters` are the item's option letters
 * (e.g. A–D, or A–C for three options); `options` their texts, in the same order, for rule 6.
 */
export function extractChoiceDetailed(output: string, letters: readonly string[], options: readonly string[] = []): ChoiceExtraction {
  checkLetters(letters);
  const text = output.trim().replace(FULL_WIDTH_UPPER, toAscii);
  for (const { rule, pattern } of letterRules(letters)) {
    const found = new Set<string>();
    for (const match of text.matchAll(pattern)) found.add(match[1]);
    if (found.size === 1) return { letter: [...found][0], rule, ambiguous: false };
    if (found.size > 1) return { letter: null, rule, ambiguous: true };
  }
  return fromOptionText(text, letters, options) ?? { letter: null, rule: null, ambiguous: false };
}

/** The letter an answer chose, or null when none can be extracted (see extractChoiceDetailed). */
export function extractChoice(output: string, letters: readonly string[], options: readonly string[] = []): string | null {
  return extractChoiceDetailed(output, letters, options).letter;
}
