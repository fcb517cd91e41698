// Synthetic ACLUE items (no benchmark data) for the cloze lm-eval export and its round trip through the
// harness stand-in, with made-up per-option log-likelihoods worked out by hand under the harness's three
// rules: acc (largest sum), acc_norm (sum ÷ characters, Python's len: code points) and acc_bytes (sum ÷
// UTF-8 bytes), ties to the first option. The option texts are chosen so the rules disagree, tie, and
// tell code points from UTF-16 units (𠀀 is one character, two UTF-16 units, four bytes).
import type { MultipleChoiceItem, OptionLetter } from '../../../src/lib/core/benchmarks/types.ts';
import { exportLmEval, type LmEvalExport } from '../../../src/lib/core/formats/lm-eval/export/folder.ts';

function mc(task: string, split: 'test' | 'dev', order: number, options: string[], answer: OptionLetter): MultipleChoiceItem {
  return {
    kind: 'multiple-choice',
    id: `${task}/${split}/${order}`,
    datasetId: 'aclue',
    task,
    split,
    order,
    source: { file: `data/${split}/${task}.csv`, line: order + 2 },
    question: `虚构题（${task}${order}）：下列哪一项正确？`,
    options,
    answer,
  };
}

/** One test item, its made-up responses ([log-likelihood, is_greedy] per option) and each rule's prediction, by hand. */
export interface ClozeCase {
  item: MultipleChoiceItem;
  responses: [number, boolean][];
  acc: OptionLetter;
  accNorm: OptionLetter;
  accBytes: OptionLetter;
}

const CASES: ClozeCase[] = [
  // chars [1, 3, 6, 1], bytes [3, 9, 6, 3]: acc A (−2); norm [−2, −1, −0.75, −2.5] → C; bytes [−0.67, −0.33, −0.75, −0.83] → B.
  { item: mc('通假字', 'test', 0, ['甲', '乙乙乙', 'abcdef', '丁'], 'B'), responses: [[-2, true], [-3, false], [-4.5, false], [-2.5, false]], acc: 'A', accNorm: 'C', accBytes: 'B' },
  // chars [1, 2, 3], bytes [3, 6, 9]: acc A (−1.5); norm [−1.5, −1, −1] and bytes [−0.5, −0.33, −0.33] tie B and C → B (the gold is C).
  { item: mc('通假字', 'test', 1, ['上', '中中', '下下下'], 'C'), responses: [[-1.5, false], [-2, true], [-3, true]], acc: 'A', accNorm: 'B', accBytes: 'B' },
  // chars [1, 2] (UTF-16 units [2, 2]), bytes [4, 6]: acc A; norm [−2, −1.5] → B; bytes [−0.5, −0.5] tie → A.
  { item: mc('通假字', 'test', 2, ['𠀀', '是否'], 'B'), responses: [[-2, false], [-3, false]], acc: 'A', accNorm: 'B', accBytes: 'A' },
  // A leading space counts (AC-EVAL's options have them): chars [1, 2, 2, 1], bytes [3, 4, 6, 3]; acc A; norm B (−1); bytes C (−0.367).
  { item: mc('古文断句', 'test', 0, ['东', ' 南', '西西', '北'], 'B'), responses: [[-1.2, true], [-2, false], [-2.2, false], [-1.25, false]], acc: 'A', accNorm: 'B', accBytes: 'C' },
  // Every rule ties on all four options: A.
  { item: mc('古文断句', 'test', 1, ['金', '木', '水', '火'], 'A'), responses: [[-1, false], [-1, false], [-1, false], [-1, false]], acc: 'A', accNorm: 'A', accBytes: 'A' },
];

export const CLOZE_CASES: readonly ClozeCase[] = CASES;

/** The test items and one exemplar per task (its gold option's text ends the exemplar in the context). */
export const CLOZE_ITEMS: MultipleChoiceItem[] = [mc('通假字', 'dev', 0, ['甲例', '乙例', '丙例', '丁例'], 'C'), mc('古文断句', 'dev', 0, ['春', '夏', '秋', '冬'], 'A'), ...CASES.map((c) => c.item)];

export const CLOZE_FILES = [{ path: 'data/test/通假字.csv', sha256: 'e'.repeat(64), bytes: 10 }];

/** LOGLIKS for the harness stand-in: "<jiangu_id>#0" → [log-likelihood, is_greedy] per option. */
export const CLOZE_RESPONSES: Record<string, [number, boolean][]> = Object.fromEntries(CASES.map((c) => [`${c.item.id}#0`, c.responses]));

export function exportCloze(scoring: 'cloze' | 'letter-logits' = 'cloze'): Promise<LmEvalExport> {
  return exportLmEval({ datasetId: 'aclue', items: CLOZE_ITEMS, files: CLOZE_FILES, shots: 1, appVersion: '0.1.0+test', scoring });
}
