// The user's own label of a run (issue 34): one rule for scoring and memorization runs, so a label
// that one kind of run takes the other takes too. Trimmed; empty means none; at most RUN_LABEL_MAX
// characters, none of them invisible or reordering text (text-safety.ts), since a label is shown
// in lists, Compare and file names where such a character would disguise it.
import { jianguError } from '../notices/index.ts';
import { nameProblem } from '../text-safety.ts';
import { RUN_LABEL_MAX } from './run.ts';

/**
 * The label as stored: `label` trimmed, or '' for none.
 * @throws JianguError run.label-too-long (over RUN_LABEL_MAX), run.label-control-character.
 */
export function checkedRunLabel(label: string): string {
  const trimmed = label.trim();
  const bad = nameProblem(trimmed, RUN_LABEL_MAX);
  if (bad?.kind === 'too-long') throw jianguError('run.label-too-long', { max: RUN_LABEL_MAX, length: trimmed.length });
  if (bad) throw jianguError('run.label-control-character', { position: bad.position });
  return trimmed;
}

/**
 * A label as part of a downloaded file's name: letters, digits and CJK kept, every other run of
 * characters one `-` (no path separators, no dots), at most 40 code points; '' when nothing is left.
 */
export function labelSlug(label: string | undefined): string {
  return [...(label ?? '').normalize('NFC').replace(/[^\p{L}\p{N}]+/gu, '-')].slice(0, 40).join('').replace(/^-+|-+$/g, '');
}
