// WenMind multiple-choice items carry their options inside the question text, in several layouts:
//   "…的用法是：\nA、动词，做  B、动词，成为  C、动词，担任"   (two spaces between options, 3 options)
//   "…的是（）\n A、… B、… C、… D、…"                             (one space)
//   "…的一项是 （    ） A．… B．… C．… D．…"                     (full-width dot, same line)
//   "…是哪位诗人？（）A杜甫B苏轼C李白"                             (no separator at all)
// and 13 items go on to E (some to F). This finds the run of option markers A, B, C, … that ends the
// question and splits there.

export interface InlineOptions {
  /** The question without its options, trimmed. */
  stem: string;
  /** Option texts in letter order, trimmed; may be more than four (the caller decides). */
  options: string[];
}

const LETTERS = 'ABCDEF';

// A capital A–F not inside a Latin-script word (pinyin options such as "Dàyuān" must not split at
// the D), then optional spaces and an optional separator (、 . ． : ：). Option text is otherwise
// Chinese, so a lone capital letter is a marker.
const MARKER = /(?<!\p{Script=Latin})([A-F])(?!\p{Script=Latin})[ \t]*[、.．:：]?/gu;

/**
 * Splits `question` into stem and options, or returns null when no run of markers A, B, C, …
 * (consecutive, at least two, nothing but option text after it) ends the question, or when the stem
 * or an option would be empty.
 */
export function splitInlineOptions(question: string): InlineOptions | null {
  const markers = [...question.matchAll(MARKER)].map((match) => ({
    letter: match[1],
    start: match.index,
    end: match.index + match[0].length,
  }));
  // The first A from which the remaining markers read exactly A, B, C, …: a stray capital in the stem
  // is skipped over, one inside an option text breaks the run and the item is refused.
  for (let first = 0; first < markers.length; first++) {
    const run = markers.slice(first);
    if (run.length < 2 || run.length > LETTERS.length) continue;
    if (!run.every((marker, k) => marker.letter === LETTERS[k])) continue;
    const stem = question.slice(0, run[0].start).trim();
    const options = run.map((marker, k) => question.slice(marker.end, run[k + 1]?.start ?? question.length).trim());
    if (stem === '' || options.some((option) => option === '')) return null;
    return { stem, options };
  }
  return null;
}
