// The post-processing every generation output goes through before it is scored. Kept small and
// literal on purpose: anything cleverer would score what we think the model meant rather than what
// it wrote. Changing a rule changes scores, so POSTPROCESS_VERSION goes up with it and into every
// signature (`post:N`).
//
// All tasks:
//  1. Trim whitespace at both ends.
//  2. Drop one leading label: one of OUTPUT_LABELS followed by a colon (： or :), e.g. 类别：儒 → 儒,
//     出处：《史记》 → 《史记》, 答案：孔子 → 孔子; then trim again. Only at the start, only once.
// Retrieval, in addition (to outputs and references alike, see normalizeTitle):
//  3. Remove the title marks 《》〈〉 and all whitespace; write the middle-dot look-alikes ・•‧∙⋅･
//     (U+30FB U+2022 U+2027 U+2219 U+22C5 U+FF65) as ·, the level separator; drop one trailing 。 or .
import type { GenerationTask } from '../../benchmarks/types.ts';

export const POSTPROCESS_VERSION = 1;

/** Leading labels a model writes before its answer (the prompts' own field names and the usual synonyms). */
export const OUTPUT_LABELS: readonly string[] = ['答案', '类别', '分类', '出处', '实体', '命名实体', '译文', '翻译', '句读', '断句', '标点'];

// Longest first, so 命名实体 is tried before 实体 would leave 命名 behind.
const LABEL_PATTERN = new RegExp(
  `^(?:${[...OUTPUT_LABELS].sort((a, b) => b.length - a.length).join('|')})\\s*[：:]`,
  'u',
);

/** Steps 1 and 2: trim and drop one leading label. */
export function cleanOutput(output: string): string {
  const trimmed = output.trim();
  const label = LABEL_PATTERN.exec(trimmed);
  return label ? trimmed.slice(label[0].length).trim() : trimmed;
}

const TITLE_DROP = /[《》〈〉\s]/gu;
const DOT_VARIANTS = /[・•‧∙⋅･]/gu;

/** Step 3: a title as compared level by level (book·chapter…). */
export function normalizeTitle(title: string): string {
  return title.replace(TITLE_DROP, '').replace(DOT_VARIANTS, '·').replace(/[。.]$/u, '');
}

/** The scored form of an output for a task (steps 1–2, and 3 for retrieval). */
export function postprocessOutput(output: string, task: GenerationTask): string {
  const cleaned = cleanOutput(output);
  return task === 'retrieval' ? normalizeTitle(cleaned) : cleaned;
}
