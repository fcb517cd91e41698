// The paired sequence's words on Compare (core/metrics/compare-sequence.ts), in both languages:
// "B is better than A by 2 to 9 points, at any stopping time", or "not settled yet: −1 to +6".
import type { PairedOrderProblem, PairedSequence } from '../../lib/core/metrics/compare-sequence.ts';
import { fmt, locale, t } from '../i18n/locale.svelte.ts';
import { intervalText, signedText } from '../i18n/interval.ts';

const points = (x: number) => fmt.points(100 * x, 1);
const signed = (x: number) => signedText(x, points(x));

/** The sentence that says which run is better, and by how much, or that it is not settled. */
export function pairedVerdictText(seq: PairedSequence, baseline: string, other: string): string {
  const s = seq.estimate.sequence;
  if (seq.verdict === 'equal') return t(`${other} and ${baseline} have exactly the same score: every item is done.`, `${other} 与 ${baseline} 得分完全相同：所有题目均已完成。`);
  if (!s || seq.estimate.estimate === null) {
    return t(
      `Not settled yet: some task has no item both runs have scored.`,
      `尚未分出高下：有的任务还没有两次评测都已打分的题目。`,
    );
  }
  const lang = locale.current;
  if (seq.verdict === 'other-better') {
    const by = intervalText(points(s.low), points(s.high), lang);
    return t(`${other} is better than ${baseline} by ${by} points, at any stopping time.`, `${other} 比 ${baseline} 高 ${by} 个百分点，在任何时刻停止都成立。`);
  }
  if (seq.verdict === 'baseline-better') {
    const by = intervalText(points(-s.high), points(-s.low), lang);
    return t(`${baseline} is better than ${other} by ${by} points, at any stopping time.`, `${baseline} 比 ${other} 高 ${by} 个百分点，在任何时刻停止都成立。`);
  }
  const range = intervalText(signed(s.low), signed(s.high), lang);
  return t(`Not settled yet: ${other} − ${baseline} is ${range} points.`, `尚未分出高下：${other} − ${baseline} 为 ${range} 个百分点。`);
}

/** What the numbers are: pairs so far, the estimate, the fixed-n interval, and what they describe. */
export function pairedDetailText(seq: PairedSequence): string {
  const lang = locale.current;
  const e = seq.estimate;
  const level = fmt.number(100 * (1 - seq.alpha), 0);
  const estimate = e.estimate === null ? '—' : signed(e.estimate);
  const fixed = e.fixedN ? intervalText(signed(e.fixedN.low), signed(e.fixedN.high), lang) : '—';
  const of =
    seq.target === 'benchmark'
      ? t('the whole benchmark (its own rule: the same weights as its score)', '整个评测集（按其自身规则：与其得分相同的权重）')
      : t('the items chosen (the first ones in file order), not the whole benchmark', '所选题目（文件顺序中的前若干道），而不是整个评测集');
  return t(
    `${fmt.count(e.n)} items scored by both runs in their shared random order. Difference ${estimate} points, of ${of}. The range above is a ${level}% confidence sequence: valid whenever you stop looking, now or later. Had the sample size been fixed before the runs, the ${level}% interval would be ${fixed}.`,
    `两次评测按共同的随机顺序都已打分的题目 ${fmt.count(e.n)} 道。差值 ${estimate} 个百分点，针对${of}。上面的范围是 ${level}% 置信序列：无论何时停止查看（现在或以后）都有效。若样本量在评测前就已固定，${level}% 区间为 ${fixed}。`,
  );
}

/** Why two runs have no paired sequence, for a muted note. */
export function pairedProblemText(problem: PairedOrderProblem): string {
  switch (problem) {
    case 'no-sampling':
    case 'file-order':
      return t('Not asked in a random order: no paired sequence.', '不是按随机顺序提问的：没有配对序列。');
    case 'sampling-differs':
    case 'items-differ':
      return t('Another sample or order than the baseline: no paired sequence (run this model on the baseline’s sample for one).', '样本或顺序与基准不同：没有配对序列（可让该模型在基准的样本上运行以得到它）。');
    case 'sample-inconsistent':
      return t('A run’s results do not fit its recorded sample (more items in a task than the task has): no paired sequence.', '某次评测的结果与其记录的样本不符（某任务的题目多于该任务的题数）：没有配对序列。');
    default:
      return t('Not comparable item by item in one order.', '无法按同一顺序逐题比较。');
  }
}

/** The run page's note for a run the sign-settled rule ended (engine/stop-rule-paired.ts): how far it got, and why. */
export function signSettledStopText(p: { asked: string; items: string }, zh: boolean): string {
  return zh
    ? `在 ${p.items} 道题中问到第 ${p.asked} 道时自动停止：与基准评测的配对差值已分出正负（其置信序列不含 0，在任何时刻停止都有效）。在“比较”页选中这两次评测可看到差多少。`
    : `Stopped by itself after ${p.asked} of ${p.items} items: the paired difference with its baseline run is settled (its confidence sequence excludes 0, valid at any stopping time). Choose both runs on Compare to see by how much.`;
}
