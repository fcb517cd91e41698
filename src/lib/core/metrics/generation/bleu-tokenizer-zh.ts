// sacrebleu's `tokenize='zh'` (TokenizerZh, sacrebleu 2.6.0), reproduced as it behaves rather than as
// its comments intend, because BLEU scores are only comparable when the tokens are identical.
// Checked against ../shared/golden/bleu-zh.json (tokenizer cases and every tokenized hypothesis and
// reference). What the Python code really does:
//  1. `line.strip()` with Python's whitespace set (below), not JavaScript's \s.
//  2. Each "Chinese" character is wrapped in spaces. The test is a string comparison against range
//     literals, so the literal `'\u20000'` (meant as U+20000) is the two characters U+2000 '0': every
//     code point in U+2001..U+2A6D counts as Chinese (— … “ ” ← ★ ① zero-width space…), and
//     Extension B..G (astral) never does, nor does anything else outside the Basic Multilingual Plane.
//     The same slip turns U+2F800..U+2FA1D into U+2F81..U+2FA1, already inside the Kangxi range.
//     U+9FBC..U+9FFF (newer unified ideographs) are outside its ranges too.
//  3. The 13a-like regular expressions of TokenizerRegexp (not the 13a &amp;/<skipped> unescaping:
//     TokenizerZh does not call Tokenizer13a).
//  4. `' '.join(line.split())`, again with Python's whitespace set.

/**
 * Python's `str.isspace()` set, which `str.split()` and `str.strip()` use: it includes U+001C..U+001F
 * and U+0085, which JavaScript's \s lacks, and excludes U+FEFF, which \s includes.
 */
const PY_WHITESPACE =
  '\t\n\u000b\u000c\r\u001c\u001d\u001e\u001f \u0085\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000';
const PY_WHITESPACE_RUN = new RegExp(`[${PY_WHITESPACE}]+`, 'u');
const PY_WHITESPACE_EDGES = new RegExp(`^[${PY_WHITESPACE}]+|[${PY_WHITESPACE}]+$`, 'gu');

/** Python's `' '.join(text.split())`: whitespace runs become one space, none at the ends. */
export function pySplitJoin(text: string): string {
  return text
    .split(PY_WHITESPACE_RUN)
    .filter((token) => token !== '')
    .join(' ');
}

/** Python's `text.split()`: the tokens between whitespace runs. */
export function pySplit(text: string): string[] {
  return text.split(PY_WHITESPACE_RUN).filter((token) => token !== '');
}

/** Python's `text.strip()`. */
export function pyStrip(text: string): string {
  return text.replace(PY_WHITESPACE_EDGES, '');
}

/**
 * The code point ranges TokenizerZh treats as Chinese, as its comparisons actually evaluate
 * (inclusive). Listed in sacrebleu's order; the two 5-digit literals are shown as they behave.
 */
const CHINESE_RANGES: readonly (readonly [number, number])[] = [
  [0x3400, 0x4db5], // CJK Extension A
  [0x4e00, 0x9fa5], // CJK Unified Ideographs (1.1)
  [0x9fa6, 0x9fbb], // CJK Unified Ideographs (4.1)
  [0xf900, 0xfa2d], // CJK Compatibility Ideographs
  [0xfa30, 0xfa6a],
  [0xfa70, 0xfad9],
  [0x2001, 0x2a6d], // written '\u20000'..'\u2a6d6' (meant: Extension B); behaves as U+2001..U+2A6D
  [0x2f81, 0x2fa1], // written '\u2f800'..'\u2fa1d' (meant: Compatibility Supplement)
  [0xff00, 0xffef], // full-width ASCII and punctuation, half-width kana and Hangul
  [0x2e80, 0x2eff], // CJK Radicals Supplement
  [0x3000, 0x303f], // CJK punctuation
  [0x31c0, 0x31ef], // CJK strokes
  [0x2f00, 0x2fdf], // Kangxi radicals
  [0x2ff0, 0x2fff], // ideographic description characters
  [0x3100, 0x312f], // Bopomofo
  [0x31a0, 0x31bf], // Bopomofo extended
  [0xfe10, 0xfe1f],
  [0xfe30, 0xfe4f],
  [0x2600, 0x26ff],
  [0x2700, 0x27bf],
  [0x3200, 0x32ff],
  [0x3300, 0x33ff],
];

/** A 64K-entry table: the test runs once per character of every sentence. Astral code points are never Chinese. */
const CHINESE_BMP = (() => {
  const table = new Uint8Array(0x10000);
  for (const [start, end] of CHINESE_RANGES) table.fill(1, start, end + 1);
  return table;
})();

/** Whether TokenizerZh's `_is_chinese_char` is true for this code point. */
export function isSacrebleuChineseChar(codePoint: number): boolean {
  return codePoint < 0x10000 && CHINESE_BMP[codePoint] === 1;
}

// TokenizerRegexp (sacrebleu/tokenizers/tokenizer_re.py), in order. Python's character class
// [\{-\~\[-\` -\&\(-\+\:-\@\/] is {|}~ [\]^_` space!"#$%& ()*+ :;<=>?@ and /: hyphen, apostrophe,
// period, comma, digits and letters stay. With the u flag a lone astral character is one match
// unit, as in Python.
const REGEXP_STEPS: readonly (readonly [RegExp, string])[] = [
  [/([{-~[-` -&(-+:-@/])/gu, ' $1 '],
  // period and comma split off unless preceded by a digit…
  [/([^0-9])([.,])/gu, '$1 $2 '],
  // …or unless followed by one
  [/([.,])([^0-9])/gu, ' $1 $2'],
  // a dash after a digit
  [/([0-9])(-)/gu, '$1 $2 '],
];

/** Spaces around each Chinese character, other characters as they are. */
function separateChinese(line: string): string {
  let out = '';
  let plainStart = 0;
  let i = 0;
  // Walk UTF-16 units: a surrogate is never Chinese, so astral characters pass through untouched.
  while (i < line.length) {
    const unit = line.charCodeAt(i);
    if (CHINESE_BMP[unit] === 1) {
      out += line.slice(plainStart, i) + ' ' + line[i] + ' ';
      plainStart = i + 1;
    }
    i++;
  }
  return plainStart === 0 ? line : out + line.slice(plainStart);
}

/**
 * sacrebleu's TokenizerZh: the tokenized line, tokens joined by one space. Identical output to
 * `sacrebleu.tokenizers.tokenizer_zh.TokenizerZh()(text)` for every golden case.
 */
export function tokenizeZh(text: string): string {
  let line = separateChinese(pyStrip(text));
  for (const [pattern, replacement] of REGEXP_STEPS) line = line.replace(pattern, replacement);
  return pySplitJoin(line);
}

/** Whitespace code points of PY_WHITESPACE, as a lookup table over the BMP (all of them are in it). */
const PY_WHITESPACE_BMP = (() => {
  const table = new Uint8Array(0x10000);
  for (const char of PY_WHITESPACE) table[char.charCodeAt(0)] = 1;
  return table;
})();

/** Printable ASCII other than space: the only characters the regular-expression steps act on. */
const REGEXP_RELEVANT = /[!-~]/u;

/**
 * `tokenizeZh(text).split(' ')` (no tokens for an empty line), faster for text without printable
 * ASCII, the usual case for Chinese: there the regular-expression steps change nothing but spacing,
 * so one pass makes each Chinese character a token and splits the rest at whitespace.
 */
export function tokensZh(text: string): string[] {
  if (REGEXP_RELEVANT.test(text)) {
    const line = tokenizeZh(text);
    return line === '' ? [] : line.split(' ');
  }
  const tokens: string[] = [];
  let start = -1;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (CHINESE_BMP[unit] === 1 || PY_WHITESPACE_BMP[unit] === 1) {
      if (start >= 0) tokens.push(text.slice(start, i));
      start = -1;
      // A character that is both (U+2001..U+200A, U+2028..U+205F, U+3000) is whitespace in the end.
      if (PY_WHITESPACE_BMP[unit] !== 1) tokens.push(text[i]);
    } else if (start < 0) {
      start = i;
    }
  }
  if (start >= 0) tokens.push(text.slice(start));
  return tokens;
}
