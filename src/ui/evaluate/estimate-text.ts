// The run page's words for the whole benchmark's estimate and the precision stop, in both
// languages (numbers come in already formatted: the page's fmt). Kept apart from the component so
// that a unit test reads exactly what the page says.
import type { EstimateMeasure, EstimateTarget, EstimateUnavailable } from '../../lib/core/metrics/benchmark-estimate.ts';
import type { OverallRule } from '../../lib/core/metrics/mc-aggregate.ts';

const pick = (zh: boolean, en: string, cn: string) => (zh ? cn : en);

/** The measure's name in a table row. */
export function measureName(measure: EstimateMeasure, cloze: boolean, zh: boolean): string {
  switch (measure) {
    case 'accuracy':
      return cloze ? pick(zh, 'Accuracy (acc) %', '准确率（acc）%') : pick(zh, 'Accuracy %', '准确率 %');
    case 'acc_norm':
      return pick(zh, 'Accuracy (acc_norm) %', '准确率（acc_norm）%');
    case 'acc_bytes':
      return pick(zh, 'Accuracy (acc_bytes) %', '准确率（acc_bytes）%');
    case 'pmi':
      return pick(zh, 'Accuracy (PMI) %', '准确率（PMI）%');
    case 'pGold':
      return pick(zh, 'p(gold) %', 'p(正确项) %');
    case 'bitsPerByte':
      return pick(zh, 'Bits per byte (lower is better)', '每字节比特数（越低越好）');
  }
}

/** The benchmark's own rule, in words. */
export function ruleText(rule: OverallRule, zh: boolean): string {
  return rule === 'mean-of-groups'
    ? pick(zh, 'the mean of its competencies, each the mean of its tasks', '各能力的平均，每项能力为其各任务的平均')
    : pick(zh, 'the mean of its tasks', '各任务的平均');
}

/**
 * What the numbers describe, by how the run chose and ordered its items. `scored`, `population`,
 * `limit` are formatted counts; `done`: every item of the run asked.
 */
export function basisText(target: EstimateTarget, p: { scored: string; population: string; limit: string | null; rule: string; done: boolean; everyItem: boolean }, zh: boolean): string {
  if (target === 'benchmark')
    return pick(
      zh,
      `Estimated from ${p.scored} scored items. The run asks a random sample of each task in a random order, so the items scored at any moment are a random sample of the benchmark's ${p.population} items; the score is the benchmark's own, ${p.rule}.`,
      `由已评分的 ${p.scored} 道题估计。本次评测从每个任务随机抽题，并按随机顺序提问，所以任何时候已评分的题目都是整个基准 ${p.population} 道题的随机样本；得分按基准自己的规则：${p.rule}。`,
    );
  if (target === 'chosen-items')
    return pick(
      zh,
      `Estimated from ${p.scored} scored items of the first ${p.limit} of each task in file order (${p.population} items), asked in a random order. The intervals describe the score on those items, not the whole benchmark: the first items of a file are not a random sample of it. The score is ${p.rule}.`,
      `由已评分的 ${p.scored} 道题估计，它们取自每个任务文件中的前 ${p.limit} 题（共 ${p.population} 题），按随机顺序提问。区间说的是这些题上的得分，而不是整个基准：文件里的前几题不是它的随机样本。得分为${p.rule}。`,
    );
  if (p.done && p.everyItem)
    return pick(
      zh,
      'This run asked every item, task by task in file order: the score above is the benchmark’s exact score.',
      '本次评测按文件顺序逐个任务问了全部题目：上面的得分就是整个基准的确切得分。',
    );
  return pick(
    zh,
    'This run asked its items task by task in file order (it was recorded before runs drew random samples). The numbers above are the score of the items asked so far, not an estimate of the whole benchmark: a prefix in file order is no sample of it, so no interval for the benchmark is given.',
    '本次评测按文件顺序逐个任务提问（记录于评测开始随机抽样之前）。上面的数字只是已问题目的得分，不是整个基准的估计：按文件顺序的前一部分不是基准的样本，所以不给出关于整个基准的区间。',
  );
}

/** Which interval is which, said plainly. */
export function legendText(zh: boolean): { fixedN: string; sequence: string; both: string } {
  return {
    fixedN: pick(
      zh,
      '(a) if you fixed the sample size before starting: a 95% interval with the finite-population correction, right only at the size you chose in advance.',
      '(a) 适用于开始前就定好样本量的情形：带有限总体校正的 95% 区间，只在你事先定好的样本量上成立。',
    ),
    sequence: pick(
      zh,
      '(b) valid whenever you stop: a 95% confidence sequence for sampling without replacement (Waudby-Smith and Ramdas, 2020) that holds at every moment at once, so watching it and stopping when it looks good keeps it honest. Being valid at any time makes it wider.',
      '(b) 无论何时停下都成立：针对不放回抽样的 95% 置信序列（Waudby-Smith 与 Ramdas，2020），它在每个时刻同时成立，所以边看边在觉得合适时停下，它仍然可信。随时有效的代价是更宽。',
    ),
    both: pick(zh, 'Both shrink to the exact score when every item is done.', '全部题目做完时，两者都收缩为确切得分。'),
  };
}

export function unboundedText(zh: boolean): string {
  return pick(
    zh,
    'Bits per byte has no upper bound, so it gets (a) only: a confidence sequence needs values between known bounds.',
    '每字节比特数没有上界，所以只给出 (a)：置信序列需要取值在已知界限之内。',
  );
}

export function exactText(zh: boolean): string {
  return pick(zh, 'Every item is done: the estimate is the exact score, and both intervals have shrunk to it.', '全部题目已完成：估计就是确切得分，两个区间都已收缩到这一点。');
}

/** A run its precision rule stopped: how far it got and why. Numbers formatted; `reached` null when not known. */
export function stoppedText(p: { asked: string; items: string; halfWidth: string; reached: string | null }, zh: boolean): string {
  return p.reached === null
    ? pick(
        zh,
        `Stopped by itself after ${p.asked} of ${p.items} items, as asked: once the benchmark’s score was known within ±${p.halfWidth} points (95% confidence sequence).`,
        `按设定在 ${p.items} 题中的第 ${p.asked} 题后自动停止：此时整个基准的得分已确定在 ±${p.halfWidth} 个百分点之内（95% 置信序列）。`,
      )
    : pick(
        zh,
        `Stopped by itself after ${p.asked} of ${p.items} items, as asked: the benchmark’s score was known within ±${p.reached} points (asked for ±${p.halfWidth}; 95% confidence sequence, valid at any stopping time).`,
        `按设定在 ${p.items} 题中的第 ${p.asked} 题后自动停止：整个基准的得分已确定在 ±${p.reached} 个百分点之内（设定为 ±${p.halfWidth}；95% 置信序列，任何时候停止都成立）。`,
      );
}

/**
 * Why a record gives no estimate (EstimateUnavailable): said in place of the numbers, the rest of the
 * run page shown as usual. `task`: the task's name as the page writes it; `population` formatted.
 */
export function unavailableText(u: EstimateUnavailable, p: { task: string; population: string }, zh: boolean): string {
  if (u.code === 'more-results-than-items')
    return pick(
      zh,
      `The benchmark’s score cannot be estimated from this record: task ${p.task} has more scored results than the ${p.population} items its sample records, so the results are no sample of that task (the record was edited or is damaged). The results themselves are shown as stored.`,
      `无法根据这条记录估计整个基准的得分：任务 ${p.task} 的已评分结果多于其样本记录的 ${p.population} 道题，这些结果不是该任务的样本（记录被改过或已损坏）。结果本身照存储的样子显示。`,
    );
  if (u.code === 'task-not-in-run')
    return pick(
      zh,
      `The benchmark’s score cannot be estimated from this record: it has results of task ${p.task}, which the run does not list (the record was edited or is damaged). The results themselves are shown as stored.`,
      `无法根据这条记录估计整个基准的得分：其中有任务 ${p.task} 的结果，而这次评测并未列出该任务（记录被改过或已损坏）。结果本身照存储的样子显示。`,
    );
  return pick(
    zh,
    `The benchmark’s score cannot be estimated from this record: computing it failed (${u.detail}). The results themselves are shown as stored.`,
    `无法根据这条记录估计整个基准的得分：计算失败（${u.detail}）。结果本身照存储的样子显示。`,
  );
}
