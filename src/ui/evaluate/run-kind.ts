// What kind of run a row is, in a word a list can show: the scoring decides what its numbers mean,
// so two runs of one benchmark and model are told apart by it first (issue 34).
import type { RunListKind } from '../../lib/core/record/run-list-entry.ts';
import { t } from '../i18n/locale.svelte.ts';

export type RunKind = RunListKind;

export function runKindName(kind: RunKind | 'memorization'): string {
  switch (kind) {
    case 'letters':
      return t('letters', '字母');
    case 'option-text':
      return t('option text', '选项文本');
    case 'generated-letter':
      return t('generated letter', '生成字母');
    case 'generation':
      return t('generation', '生成');
    case 'memorization':
      return t('memorization', '记忆检测');
  }
}
