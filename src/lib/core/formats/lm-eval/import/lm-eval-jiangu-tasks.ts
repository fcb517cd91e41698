// Which harness task a name in a results file is. A task Jiangu exported says so in its config:
// the harness copies the task YAML's `metadata` into `configs.<task>.metadata` of results_*.json,
// and the export writes `metadata.jiangu` there (the contract of issue 12: format, app, dataset,
// task, shots, protocol, templateHash, dataFiles). Such a task is Jiangu's protocol, byte for byte,
// so its run carries Jiangu's protocol id and template hash and compares as the same protocol as a
// run made in the browser. Any other task is the harness's own (LM_EVAL_TASKS) or unknown. A cloze
// export's tasks say `scoring: 'cloze'` and the cloze layout's version (`clozeVersion`) beside its
// template hash; a letter export's say neither.
import { getDataset } from '../../../benchmarks/catalog.ts';
import type { DatasetId } from '../../../benchmarks/types.ts';
import { listProtocols, type McProtocolId } from '../../../protocols/mc-protocols.ts';
import { C3BENCH_PROTOCOL } from '../../../protocols/generation.ts';
import { LM_EVAL_TASKS, type HarnessTask, type JianguTaskMeta, type JianguTaskSampling, type JianguTaskStop } from '../lm-eval-tasks.ts';
import { RUN_IMPORT_LIMITS, problem, type Obj } from '../../import-validate.ts';
import type { StopRule } from '../../../protocols/run-sampling.ts';
import { nameProblem } from '../../../text-safety.ts';

export type { JianguTaskMeta } from '../lm-eval-tasks.ts';

const SHA256 = /^[0-9a-f]{64}$/;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A catalog dataset id, or null. */
function datasetIdOf(value: unknown): DatasetId | null {
  if (typeof value !== 'string') return null;
  try {
    return getDataset(value as DatasetId).id;
  } catch {
    return null;
  }
}

/**
 * The task `name` is, from its config in the results file (`config`: `configs.<name>`, or undefined
 * for a samples file alone). Returns null for a task this site does not know (the caller skips it).
 *
 * @throws FieldProblem when metadata.jiangu is there but not what the export writes (a hand-edited
 *   or newer file): such a task must not pass as the harness's own, nor as Jiangu's unchecked.
 */
export function resolveHarnessTask(name: string, config: unknown): HarnessTask | null {
  const metadata = isObj(config) && isObj(config.metadata) ? config.metadata : null;
  if (metadata && metadata.jiangu !== undefined) return jianguTask(name, metadata.jiangu);
  return Object.hasOwn(LM_EVAL_TASKS, name) ? LM_EVAL_TASKS[name] : null;
}

function jianguTask(name: string, value: unknown): HarnessTask {
  const path = `configs.${name.slice(0, 80)}.metadata.jiangu`;
  const bad = (field: string): never => {
    throw problem('import.lm-eval-jiangu-metadata', { path: `${path}.${field}` });
  };
  if (!isObj(value)) bad('(object)');
  const j = value as Obj;
  if (j.format !== 1) bad('format');
  const datasetId = datasetIdOf(j.dataset) ?? bad('dataset');
  const dataset = getDataset(datasetId);
  const task = typeof j.task === 'string' && dataset.tasks.some((t) => t.key === j.task) ? j.task : bad('task');
  const shots = typeof j.shots === 'number' && Number.isInteger(j.shots) && j.shots >= 0 && j.shots <= 100 ? j.shots : bad('shots');
  const isGeneration = j.protocol === C3BENCH_PROTOCOL.id;
  const protocolId = isGeneration ? C3BENCH_PROTOCOL.id : (listProtocols().find((p) => p.id === j.protocol)?.id ?? bad('protocol'));
  // The export writes greedy decoding and Jiangu's token limit beside a generation task's protocol.
  const generation = isGeneration
    ? {
        maxNewTokens: typeof j.maxNewTokens === 'number' && Number.isInteger(j.maxNewTokens) && j.maxNewTokens >= 1 && j.maxNewTokens <= 100_000 ? j.maxNewTokens : bad('maxNewTokens'),
        decoding: j.decoding === 'greedy' ? j.decoding : bad('decoding'),
      }
    : null;
  const templateHash = typeof j.templateHash === 'string' && SHA256.test(j.templateHash) ? j.templateHash : bad('templateHash');
  const app = typeof j.app === 'string' && j.app.length <= 40 ? j.app : bad('app');
  const files = isObj(j.dataFiles) ? j.dataFiles : bad('dataFiles');
  const dataFiles = Object.entries(files).map(([filePath, sha]) => (typeof sha === 'string' && SHA256.test(sha) && filePath.length <= 300 ? { path: filePath, sha256: sha } : bad(`dataFiles.${filePath.slice(0, 80)}`)));
  if (generation && dataset.tasks.find((t) => t.key === task)?.kind !== 'generation') bad('task');
  if (j.circular !== undefined && (j.circular !== true || generation)) bad('circular');
  // Option order never enters a cloze context: the export writes no circular cloze task.
  if (j.scoring !== undefined && (j.scoring !== 'cloze' || generation || j.circular !== undefined)) bad('scoring');
  const cloze = j.scoring === 'cloze';
  if (cloze !== (j.clozeVersion !== undefined)) bad('clozeVersion');
  if (cloze && !(typeof j.clozeVersion === 'number' && Number.isInteger(j.clozeVersion) && j.clozeVersion >= 1 && j.clozeVersion <= 1000)) bad('clozeVersion');
  const meta: JianguTaskMeta = {
    protocolId: protocolId as JianguTaskMeta['protocolId'],
    templateHash,
    shots,
    app,
    dataFiles,
    ...(j.circular === true ? { circular: true as const } : {}),
    ...(cloze ? { cloze: { version: j.clozeVersion as number } } : {}),
  };
  if (generation) meta.generation = { maxNewTokens: generation.maxNewTokens };
  const isTask = (key: string) => dataset.tasks.some((t) => t.key === key);
  if (j.sampling !== undefined) meta.sampling = samplingOf(j.sampling, () => bad('sampling'), () => bad('sampling.stop'), isTask);
  return { datasetId, task: task as string, jiangu: meta };
}

const isCount = (v: unknown, min: number, max: number): v is number => typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max;

/** A sampled export's metadata.jiangu.sampling (export/folder.ts samplingMeta), each field in its range. */
function samplingOf(value: unknown, bad: () => never, badStop: () => never, isTask: (key: string) => boolean): JianguTaskSampling {
  if (!isObj(value)) bad();
  const s = value as Obj;
  const draw = s.draw === 'random' || s.draw === 'first' ? s.draw : bad();
  const order = s.order === 'shuffled' || s.order === 'file' ? s.order : bad();
  if (!isCount(s.seed, 0, 0xffffffff) || !isCount(s.block, 1, 1_000_000) || !isCount(s.population, 0, 1_000_000)) bad();
  if (!(s.limitPerTask === null || isCount(s.limitPerTask, 0, 1_000_000))) bad();
  const out: JianguTaskSampling = { draw, seed: s.seed as number, order, block: s.block as number, limitPerTask: s.limitPerTask as number | null, population: s.population as number };
  if (s.growth !== undefined) out.growth = typeof s.growth === 'number' && Number.isFinite(s.growth) && s.growth >= 1 && s.growth <= 64 ? s.growth : bad();
  if (s.maxBlock !== undefined) out.maxBlock = isCount(s.maxBlock, 1, 1_000_000) ? s.maxBlock : bad();
  if (s.tasks !== undefined) {
    if (!Array.isArray(s.tasks) || s.tasks.length > 2000 || !s.tasks.every((t) => typeof t === 'string' && t.length <= 200)) bad();
    out.tasks = [...(s.tasks as string[])];
  }
  if (s.stop !== undefined) out.stop = stopOf(s.stop, badStop, isTask);
  return out;
}

/** An item id as a run file takes it (import-validate.ts id): so the stopped run imported here exports and reads back. */
const isItemId = (v: unknown): v is string => typeof v === 'string' && v !== '' && nameProblem(v) === null;
const idList = (v: unknown, bad: () => never): string[] => (Array.isArray(v) && v.length <= RUN_IMPORT_LIMITS.results && v.every(isItemId) ? [...(v as string[])] : bad());

/** A stopped run's metadata.jiangu.sampling.stop (export/run-sample.ts), each field in its range; how it meets the plan is lm-eval-stopped.ts's to check. */
function stopOf(value: unknown, bad: () => never, isTask: (key: string) => boolean): JianguTaskStop {
  if (!isObj(value) || !isObj(value.rule)) bad();
  const s = value as Obj;
  const r = s.rule as Obj;
  const share = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v > 0 && v <= 1 - Number.EPSILON;
  // The run file's reading of a stop rule (jiangu-run/import-sampling.ts), so the run stores and exports as any other.
  const rule: StopRule =
    r.kind === 'precision' && share(r.alpha) && typeof r.halfWidth === 'number' && Number.isFinite(r.halfWidth) && r.halfWidth > 0 && r.halfWidth <= 1 && Object.keys(r).length === 3
      ? { kind: 'precision', halfWidth: r.halfWidth, alpha: r.alpha }
      : r.kind === 'sign-settled' && share(r.alpha) && isItemId(r.baselineRunId) && Object.keys(r).length === 3
        ? { kind: 'sign-settled', baselineRunId: r.baselineRunId, alpha: r.alpha }
        : bad();
  if (!isCount(s.asked, 1, RUN_IMPORT_LIMITS.results) || !isCount(s.planned, 2, RUN_IMPORT_LIMITS.results)) bad();
  const out: JianguTaskStop = { rule, asked: s.asked as number, planned: s.planned as number, unasked: idList(s.unasked, bad) };
  if (s.unstarted !== undefined) {
    if (!isObj(s.unstarted) || Object.keys(s.unstarted).length > 2000) bad();
    out.unstarted = Object.fromEntries(
      Object.entries(s.unstarted as Obj).map(([task, v]) => {
        if (!isObj(v) || !isCount(v.population, 1, 1_000_000) || !isTask(task)) bad();
        return [task, { population: (v as Obj).population as number, unasked: idList((v as Obj).unasked, bad) }];
      }),
    );
  }
  return out;
}
