// Synthetic ACLUE items for the circular lm-eval export and its round trip (no benchmark data).
import type { MultipleChoiceItem, OptionLetter } from '../../../src/lib/core/benchmarks/types.ts';
import { exportLmEval, type LmEvalExport } from '../../../src/lib/core/formats/lm-eval/export/folder.ts';

function mc(task: string, split: 'test' | 'dev', i: number, options: string[], answer: OptionLetter): MultipleChoiceItem {
  return { kind: 'multiple-choice', id: `${task}/${split}/${i}`, datasetId: 'aclue', task, split, question: `虚构题${task}${i}：下列哪一项正确？`, options, answer } as MultipleChoiceItem;
}

/** Two ACLUE tasks: a 4-, a 3- and a 2-option item in one, two 4-option items in the other, one exemplar each. */
export const CIRCULAR_ITEMS: MultipleChoiceItem[] = [
  mc('通假字', 'dev', 0, ['甲', '乙', '丙', '丁'], 'C'),
  mc('通假字', 'test', 0, ['一', '二', '三', '四'], 'B'),
  mc('通假字', 'test', 1, ['上', '中', '下'], 'C'),
  mc('通假字', 'test', 2, ['是', '否'], 'A'),
  mc('古文断句', 'dev', 0, ['春', '夏', '秋', '冬'], 'A'),
  mc('古文断句', 'test', 0, ['东', '南', '西', '北'], 'D'),
  mc('古文断句', 'test', 1, ['金', '木', '水', '火'], 'A'),
];
export const CIRCULAR_FILES = [{ path: 'data/test/通假字.csv', sha256: 'b'.repeat(64), bytes: 10 }];

export function exportCircular(circular = true): Promise<LmEvalExport> {
  return exportLmEval({ datasetId: 'aclue', items: CIRCULAR_ITEMS, files: CIRCULAR_FILES, shots: 1, appVersion: '0.1.0+test', circular });
}

