// The one entry point from raw files to items: adaptDataset(id, files, options). Catalog datasets
// must arrive complete (exactly the catalog's files) so a stored dataset always matches its record;
// the per-source adapters below accept any subset of their files, for tests and tools.
import { getDataset } from '../catalog.ts';
import { DataError } from '../errors.ts';
import type { RawFile } from '../text.ts';
import type { DatasetId } from '../types.ts';
import { adaptAcEval } from './ac-eval.ts';
import { adaptAclue } from './aclue.ts';
import { adaptAncientBench } from './ancientbench.ts';
import { adaptC3Bench, detectC3Mapping, isCompleteMapping, parseC3Records, type C3Mapping } from './c3bench.ts';
import { adaptCmmlu } from './cmmlu.ts';
import type { AdaptResult } from './result.ts';
import { adaptWenMind } from './wenmind.ts';

export type { AdaptResult, SkippedGroup, SkipReason } from './result.ts';
export type { RawFile } from '../text.ts';
export { MAX_FILE_BYTES } from '../text.ts';
export { adaptAcEval, adaptAclue, adaptAncientBench, adaptC3Bench, adaptCmmlu, adaptWenMind };
export {
  C3_PUNCTUATION,
  C3_ROLES,
  detectC3Mapping,
  isCompleteMapping,
  parseC3Records,
  samplePreview,
  stripPunctuation,
  type C3Detection,
  type C3Mapping,
  type C3Preview,
  type C3Role,
} from './c3bench.ts';

export interface AdaptOptions {
  /** C3Bench: role -> field. Without it the detected mapping is used, if it finds the text field. */
  c3Mapping?: C3Mapping;
}

/** Turns the raw files of one dataset into normalized items. Throws DataError, naming file, line and field. */
export function adaptDataset(id: DatasetId, files: readonly RawFile[], options: AdaptOptions = {}): AdaptResult {
  switch (id) {
    case 'aclue':
      return adaptAclue(inCatalogOrder(id, files));
    case 'cmmlu-ancient':
      return adaptCmmlu(inCatalogOrder(id, files));
    case 'ac-eval':
      return adaptAcEval(inCatalogOrder(id, files));
    case 'wenmind':
      return adaptWenMind(inCatalogOrder(id, files));
    case 'ancientbench':
      return adaptAncientBench(files);
    case 'c3bench':
      return adaptC3File(files, options.c3Mapping);
  }
}

function adaptC3File(files: readonly RawFile[], mapping: C3Mapping | undefined): AdaptResult {
  if (files.length !== 1) {
    throw new DataError({ file: files.map((file) => file.path).join(', ') || '(no file)' }, 'data.c3-one-file');
  }
  const [file] = files;
  if (mapping) return adaptC3Bench(file, mapping);
  const detected = detectC3Mapping(parseC3Records(file)).mapping;
  if (!isCompleteMapping(detected)) {
    throw new DataError({ file: file.path }, 'data.c3-no-text-field');
  }
  return adaptC3Bench(file, detected);
}

/** Checks the files are exactly the catalog's (none missing, none extra, none twice) and orders them as it does. */
function inCatalogOrder(id: DatasetId, files: readonly RawFile[]): RawFile[] {
  const expected = getDataset(id).files.map((file) => file.path);
  const byPath = new Map<string, RawFile>();
  for (const file of files) {
    if (!expected.includes(file.path)) throw new DataError({ file: file.path }, 'data.not-in-catalog', { count: expected.length, dataset: id });
    if (byPath.has(file.path)) throw new DataError({ file: file.path }, 'data.given-twice');
    byPath.set(file.path, file);
  }
  const missing = expected.filter((path) => !byPath.has(path));
  if (missing.length > 0) {
    throw new DataError({ file: missing[0] }, 'data.catalog-files-missing', { dataset: id, count: expected.length, missing: missing.length });
  }
  return expected.map((path) => byPath.get(path)!);
}
