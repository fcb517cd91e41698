// The run page's headline in words, in both languages (issue 44): which interval it shows and why,
// what the score covers, and what a precision stop saved. Numbers come in already formatted (the
// page's fmt); kept apart from the component so that a unit test reads exactly what the page says.
import type { EstimateTarget } from '../../lib/core/metrics/benchmark-estimate.ts';
import type { HeadlineWhy } from './run-headline.ts';

const pick = (zh: boolean, en: string, cn: string) => (zh ? cn : en);

/** The interval's name and why it is the one shown; `interval` formatted ("21.8 to 28.0"), `asked`/`planned` counts. */
export function intervalText(why: HeadlineWhy, p: { interval: string; asked: string; planned: string }, zh: boolean): string {
  switch (why) {
    case 'every-item':
      return pick(zh, 'Exact: every item is done, so there is nothing left to estimate.', '确切得分：全部题目都已完成，没有需要估计的了。');
    case 'finished':
      return pick(
        zh,
        `95% interval ${p.interval}, for a sample size fixed before the run: it asked all ${p.planned} items it planned, so its size never depended on its results.`,
        `95% 区间 ${p.interval}，适用于事先定好的样本量：本次评测问完了计划的全部 ${p.planned} 题，样本量从未取决于结果。`,
      );
    case 'stop-rule':
      return pick(
        zh,
        `95% confidence sequence ${p.interval}, valid at any stopping time: the run stopped by its own rule after ${p.asked} items, a stop that depends on its results, which a fixed-size interval does not allow for.`,
        `95% 置信序列 ${p.interval}，任何时候停止都成立：本次评测在 ${p.asked} 题后按自己的规则停止，这种停止取决于结果，固定样本量的区间不适用。`,
      );
    case 'stopped-early':
      return pick(
        zh,
        `95% confidence sequence ${p.interval}, valid at any stopping time: the run stopped at ${p.asked} of its ${p.planned} items, earlier than planned, and a fixed-size interval holds only at a size chosen in advance.`,
        `95% 置信序列 ${p.interval}，任何时候停止都成立：本次评测在计划的 ${p.planned} 题中的第 ${p.asked} 题停下，早于计划，而固定样本量的区间只在事先定好的样本量上成立。`,
      );
    case 'running':
      return pick(
        zh,
        `95% confidence sequence ${p.interval}, valid at any stopping time: the run is still going, and may be stopped whenever you like.`,
        `95% 置信序列 ${p.interval}，任何时候停止都成立：评测仍在进行，可以随时停下。`,
      );
    case 'not-sampled':
      return pick(
        zh,
        'No interval: this run asked its items task by task in file order, which is no random sample of the benchmark, so no interval can say where its score lies.',
        '没有区间：本次评测按文件顺序逐个任务提问，这不是整个基准的随机样本，所以没有区间能说明其得分所在。',
      );
    case 'unavailable':
      return pick(zh, 'No interval: the estimate cannot be made from this record (the reason is below).', '没有区间：无法根据这条记录作出估计（原因见下文）。');
    case 'waiting':
      return pick(
        zh,
        'The score needs a value from every task; it comes once each has one (a run asks every task early).',
        '得分需要每个任务都有结果；每个任务都有结果后才给出（评测会很早就问到每个任务）。',
      );
  }
}

/**
 * What the score covers. `dataset`: its title; `population`, `scored`, `limit` formatted counts;
 * `rule`: the benchmark's rule in words (estimate-text.ts ruleText).
 */
export function coversText(target: EstimateTarget | null, p: { dataset: string; population: string; scored: string; limit: string | null; rule: string }, zh: boolean): string {
  if (target === 'benchmark')
    return pick(
      zh,
      `${p.dataset}’s score over all ${p.population} items of the tasks run, ${p.rule}, estimated from ${p.scored} scored items drawn at random.`,
      `${p.dataset} 在所评测任务全部 ${p.population} 道题上的得分（${p.rule}），由随机抽取的 ${p.scored} 道已评分题目估计。`,
    );
  if (target === 'chosen-items')
    return pick(
      zh,
      `The score on the ${p.population} items chosen (the first ${p.limit} of each task in file order), ${p.rule}: not ${p.dataset}’s, since the first items of a file are no random sample of it.`,
      `所选 ${p.population} 道题（每个任务文件中的前 ${p.limit} 题）上的得分（${p.rule}）：不是 ${p.dataset} 的得分，因为文件里的前几题不是它的随机样本。`,
    );
  return pick(zh, `The score of the ${p.scored} items asked, ${p.rule}.`, `已问的 ${p.scored} 道题的得分（${p.rule}）。`);
}

/**
 * What a precision stop saved: "Known within ±3.0 points after 1,180 items (24% of ACLUE’s 4,966),
 * about 16 min on this device; all 4,966 would take about 66 min." `of`: whose items (the dataset's
 * title, or null for the items chosen); `spent`/`whole` durations (pace-text.ts durationText), null
 * without a pace; `before`: said before the run, of a plan ("about … items", the pace measured here).
 */
export function savedText(
  p: { halfWidth: string; asked: string; share: string; of: string | null; population: string; spent: string | null; whole: string | null; before: boolean },
  zh: boolean,
): string {
  const items = zh
    ? p.of === null
      ? `所选 ${p.population} 题的 ${p.share}`
      : `${p.of} ${p.population} 题的 ${p.share}`
    : p.of === null
      ? `${p.share} of the ${p.population} items chosen`
      : `${p.share} of ${p.of}’s ${p.population}`;
  const time =
    p.spent === null || p.whole === null
      ? pick(zh, '; its time is known once a pace is measured here', '；在这里测出速度后即可知道耗时')
      : p.before
        ? pick(zh, `, ${p.spent} at the pace measured on this device; all ${p.population} would take ${p.whole}`, `，按本设备测得的速度${p.spent}；全部 ${p.population} 题需${p.whole}`)
        : pick(zh, `, ${p.spent} on this device; all ${p.population} would take ${p.whole}`, `，在本设备上用时${p.spent}；全部 ${p.population} 题需${p.whole}`);
  return p.before
    ? pick(zh, `Known within ±${p.halfWidth} points after about ${p.asked} items (${items})${time}.`, `约 ${p.asked} 题后可确定在 ±${p.halfWidth} 个百分点之内（${items}）${time}。`)
    : pick(zh, `Known within ±${p.halfWidth} points after ${p.asked} items (${items})${time}.`, `${p.asked} 题后已确定在 ±${p.halfWidth} 个百分点之内（${items}）${time}。`);
}

/** Beside a row of the task table that has no (a): why. */
export function noFixedText(none: 'not-sampled' | 'unavailable' | 'pending', zh: boolean): string {
  if (none === 'pending') return pick(zh, 'Computing the intervals…', '正在计算区间…');
  if (none === 'unavailable') return pick(zh, 'No intervals: the estimate cannot be made from this record (the reason is below).', '没有区间：无法根据这条记录作出估计（原因见下文）。');
  return pick(
    zh,
    'No intervals: this run asked its items task by task in file order, which is no random sample, so no interval can say where the scores lie.',
    '没有区间：本次评测按文件顺序逐个任务提问，这不是随机样本，所以没有区间能说明得分所在。',
  );
}
