// ACLUE (isen-zhang/ACLUE): data/{dev,test}/<task>.csv, header Question,A,B,C,D,Answer; answers in both splits.
import { ACLUE_TASKS } from '../catalog-tasks.ts';
import type { RawFile } from '../text.ts';
import { adaptCsvMcq } from './csv-mcq.ts';
import type { AdaptResult } from './result.ts';

const HEADER = ['Question', 'A', 'B', 'C', 'D', 'Answer'] as const;

export function adaptAclue(files: readonly RawFile[]): AdaptResult {
  return adaptCsvMcq(files, {
    datasetId: 'aclue',
    title: 'ACLUE',
    tasks: ACLUE_TASKS.map((task) => task.key),
    header: () => HEADER,
    answerColumn: () => 'Answer',
  });
}
