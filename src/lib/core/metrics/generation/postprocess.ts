// The post-processing every generation output goes through before it is scored. Kept small and
// literal on purpose: anything cleverer would score what we think the model meant rather than what
// it wrote. Changing a rule changes scores, so POSTPROCESS_VERSION goes up with it and into every
// signature (`post:N`).
//
// All tasks:
//  0. Set thinking apart (splitThinking): every complete <think>…</think> block, an unclosed
//     <think> to the end (a budget spent thinking), and before a lone </think> (a template that
//     opened the block itself) are not the answer. Qwen3 writes them; they name labels and titles.
//  1. Trim whitespace at both ends.
//  2. Drop one leading label: one of OUTPUT_LABELS followed by a colon (： or :), e.g. 类别：儒 → 儒,
//     出处：《史记》 → 《史记》, 答案：孔子 → 孔子; then trim again. Only at the start, only once.
// Retrieval, in addition (to outputs and references alike, see normalizeTitle):
//  3. Remove the title marks 《》〈〉 and all whitespace; write the middle-dot look-alikes ・•‧∙⋅･
//     (U+30FB U+2022 U+2027 U+2219 U+22C5 U+FF65) as ·, the level separator; drop one trailing 。 or .
import type { GenerationTask } from '../../benchmarks/types.ts';

export const POSTPROCESS_VERSION = 2;

/** Leading labels a model writes before its answer (the prompts' own field names and the usual synonyms). */
export const OUTPUT_LABELS: readonly string[] = ['答案', '类别', '分类', '出处', '实体', '命名实体', '译文', '翻译', '句读', '断句', '标点'];

// Longest first, so 命名实体 is tried before 实体 would leave 命名 behind.
const LABEL_PATTERN = new RegExp(
  `^(?:${[...OUTPUT_LABELS].sort((a, b) => b.length - a.length).join('|')})\\s*[：:]`,
  'u',
);

export interface SplitOutput {
  /** What the model wrote inside its think blocks, blocks joined by a blank line; null when none. */
  thinking: string | null;
  /** The output with the think blocks removed: what post-processing reads. */
  answer: string;
}

const OPEN = '<think>';
const CLOSE = '</think>';

/** Step 0: the output's thinking and its answer, apart. */
export function splitThinking(output: string): SplitOutput {
  const thoughts: string[] = [];
  let rest = output;
  // A close with no open before it: the template opened the block, so all before it was thinking.
  const firstClose = rest.indexOf(CLOSE);
  const firstOpen = rest.indexOf(OPEN);
  if (firstClose >= 0 && (firstOpen < 0 || firstClose < firstOpen)) {
    thoughts.push(rest.slice(0, firstClose));
    rest = rest.slice(firstClose + CLOSE.length);
  }
  let answer = '';
  for (;;) {
    const open = rest.indexOf(OPEN);
    if (open < 0) {
      answer += rest;
      break;
    }
    answer += rest.slice(0, open);
    const close = rest.indexOf(CLOSE, open + OPEN.length);
    if (close < 0) {
      // Unclosed: the generation stopped while thinking; none of it is an answer.
      thoughts.push(rest.slice(open + OPEN.length));
      break;
    }
    thoughts.push(rest.slice(open + OPEN.length, close));
    rest = rest.slice(close + CLOSE.length);
  }
  return { thinking: thoughts.length > 0 ? thoughts.map((t) => t.trim()).join('\n\n') : null, answer };
}

/** Steps 0 to 2: set thinking apart, trim and drop one leading label. */
export function cleanOutput(output: string): string {
  const trimmed = splitThinking(output).answer.trim();
  const label = LABEL_PATTERN.exec(trimmed);
  return label ? trimmed.slice(label[0].length).trim() : trimmed;
}

const TITLE_DROP = /[《》〈〉\s]/gu;
const DOT_VARIANTS = /[・•‧∙⋅･]/gu;

/** Step 3: a title as compared level by level (book·chapter…). */
export function normalizeTitle(title: string): string {
  return title.replace(TITLE_DROP, '').replace(DOT_VARIANTS, '·').replace(/[。.]$/u, '');
}

/** The scored form of an output for a task (steps 0–2, and 3 for retrieval). */
export function postprocessOutput(output: string, task: GenerationTask): string {
  const cleaned = cleanOutput(output);
  return task === 'retrieval' ? normalizeTitle(cleaned) : cleaned;
}
