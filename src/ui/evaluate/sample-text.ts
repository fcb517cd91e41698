// A run's sample in words (core/protocols/sample-description.ts), in English and Chinese: "a random
// sample of 50 of 200 items per task (seed 12345)", "the first 50 per task, in file order", "every
// item". Pure: the page passes the language and its count format (fmt.count), so Node tests check
// both languages; run labels (Compare, classroom), the run page's header, the shared page and the
// published comparisons all word a sample here and nowhere else.
import type { Locale } from '../i18n/choose.ts';
import type { SampleDescription, SampleDifference } from '../../lib/core/protocols/sample-description.ts';

export interface SampleWords {
  lang: Locale;
  /** An integer count with the locale's grouping (fmt.count). */
  count: (n: number) => string;
}

// A seed is a name, not a quantity: never grouped ("seed 4294967295", not "4,294,967,295").
const seedText = (seed: number) => String(seed);

/** The sentence form, for the run page, the shared page and the published comparisons. */
export function sampleText(d: SampleDescription, words: SampleWords): string {
  const zh = words.lang === 'zh';
  const c = words.count;
  if (d.draw === 'every') return zh ? `全部题目（${c(d.items)} 题）` : `every item (${c(d.items)} in all)`;
  const n = d.perTask ?? 0;
  if (d.draw === 'first') return zh ? `每个任务按文件顺序的前 ${c(n)} 题` : `the first ${c(n)} per task, in file order`;
  const seed = d.seed === null ? '' : zh ? `（种子 ${seedText(d.seed)}）` : ` (seed ${seedText(d.seed)})`;
  if (d.populationPerTask !== null) {
    return zh ? `每个任务 ${c(d.populationPerTask)} 题中随机抽取 ${c(n)} 题${seed}` : `a random sample of ${c(n)} of ${c(d.populationPerTask)} items per task${seed}`;
  }
  const whole = d.population === null ? '' : zh ? `，共 ${c(d.population)} 题中的 ${c(d.items)} 题` : `, ${c(d.items)} of ${c(d.population)} in all`;
  return zh ? `每个任务随机抽取 ${c(n)} 题${whole}${seed}` : `a random sample of ${c(n)} items per task${whole}${seed}`;
}

/** The short form, for a label facet beside others (Compare, classroom). */
export function sampleShortText(d: SampleDescription, words: SampleWords): string {
  const zh = words.lang === 'zh';
  const n = words.count(d.perTask ?? 0);
  if (d.draw === 'every') return zh ? '全部题目' : 'all items';
  if (d.draw === 'first') return zh ? `每任务前 ${n} 题` : `first ${n} per task`;
  const seed = d.seed === null ? '' : zh ? `，种子 ${seedText(d.seed)}` : `, seed ${seedText(d.seed)}`;
  return zh ? `每任务随机 ${n} 题${seed}` : `random ${n} per task${seed}`;
}

/** Why two compared runs' numbers are over different items (sampleDifference), said once above them. */
export function sampleDifferenceText(difference: SampleDifference, words: SampleWords): string {
  const zh = words.lang === 'zh';
  const why = {
    tasks: zh ? '任务不同' : 'different tasks',
    size: zh ? '每个任务的题数不同' : 'different numbers of items per task',
    draw: zh ? '一个是随机样本，另一个是按文件顺序的前几题' : 'one a random sample, the other the first items in file order',
    seed: zh ? '随机样本的种子不同' : 'random samples drawn with different seeds',
  }[difference];
  return zh
    ? `这些评测的样本不同（${why}）：逐题比较只用双方都答过的题，各自的总分衡量的不是同一批题。`
    : `These runs asked different samples (${why}): item-by-item comparisons use only the items both asked, and their overall scores are over different items.`;
}
