// AC-EVAL (yuting-wei/AC-EVAL): data/{dev,test}/<subject>.csv with a leading unnamed index column.
// Only dev has keys (,Question,A,B,C,D,Answer,Explanation); test (,Question,A,B,C,D) has none,
// because the authors score test submissions themselves: test items get answer null and can only
// be run for predictions.
import { AC_EVAL_TASKS } from '../catalog-tasks.ts';
import type { RawFile } from '../text.ts';
import type { Split } from '../types.ts';
import { adaptCsvMcq } from './csv-mcq.ts';
import type { AdaptResult } from './result.ts';

const DEV_HEADER = ['', 'Question', 'A', 'B', 'C', 'D', 'Answer', 'Explanation'] as const;
const TEST_HEADER = ['', 'Question', 'A', 'B', 'C', 'D'] as const;

export function adaptAcEval(files: readonly RawFile[]): AdaptResult {
  return adaptCsvMcq(files, {
    datasetId: 'ac-eval',
    title: 'AC-EVAL',
    tasks: AC_EVAL_TASKS.map((task) => task.key),
    header: (split: Split) => (split === 'dev' ? DEV_HEADER : TEST_HEADER),
    answerColumn: (split: Split) => (split === 'dev' ? 'Answer' : null),
    explanationColumn: (split: Split) => (split === 'dev' ? 'Explanation' : null),
  });
}
