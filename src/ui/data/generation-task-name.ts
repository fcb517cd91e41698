// How a generation item is scored (C3Bench's five kinds), as a short label. Pure (the locale is an
// argument) so it is tested in Node; task and group names come from ../i18n/names.ts.
import type { GenerationTask } from '../../lib/core/benchmarks/types.ts';
import type { Locale } from '../i18n/choose.ts';

const GENERATION_TASKS_ZH: Record<GenerationTask, string> = {
  classification: '分类',
  retrieval: '出处检索',
  ner: '命名实体识别',
  punctuation: '句读',
  translation: '翻译',
};

/**
 * The scoring kind's label. English shows the kind's own key ("punctuation"), the word the metrics'
 * signatures and the C3Bench mapping preview use.
 */
export function generationTaskName(kind: GenerationTask, locale: Locale): string {
  return locale === 'zh' ? GENERATION_TASKS_ZH[kind] : kind;
}
