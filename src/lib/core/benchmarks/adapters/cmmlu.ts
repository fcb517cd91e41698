// CMMLU, ancient_chinese subject only (haonan-li/CMMLU): data/{dev,test}/ancient_chinese.csv with a
// leading unnamed index column (pandas' to_csv), header ,Question,A,B,C,D,Answer. The index is not
// used: ids are <task>/<split>/<order> like the other CSV sources.
import { CMMLU_ANCIENT_TASKS } from '../catalog-tasks.ts';
import type { RawFile } from '../text.ts';
import { adaptCsvMcq } from './csv-mcq.ts';
import type { AdaptResult } from './result.ts';

const HEADER = ['', 'Question', 'A', 'B', 'C', 'D', 'Answer'] as const;

export function adaptCmmlu(files: readonly RawFile[]): AdaptResult {
  return adaptCsvMcq(files, {
    datasetId: 'cmmlu-ancient',
    title: 'CMMLU ancient_chinese',
    tasks: CMMLU_ANCIENT_TASKS.map((task) => task.key),
    header: () => HEADER,
    answerColumn: () => 'Answer',
  });
}
