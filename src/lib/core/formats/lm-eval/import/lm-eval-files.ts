// What `lm_eval --output_path DIR --log_samples` writes, read as one import: results_<date>.json
// (the run's configuration and numbers; the CLI removes the samples from it) and, beside it, one
// samples_<task>_<date>.jsonl per task, sharing the <date>. The files chosen together become one run
// per model (one results file) and benchmark (one run per dataset its tasks belong to). Tasks this
// site does not know (a `--tasks cmmlu` dump's other subjects) are skipped and named; tasks Jiangu
// exported are recognised by their metadata (lm-eval-jiangu-tasks.ts).
//
// Before anything is built, every samples file is checked against its results file the harness's way:
// results' `n-samples.<task>.effective` is the number of samples written (fewer is a file cut short),
// `task_hashes.<task>` is sha256 of every sample's doc_hash + prompt_hash + target_hash in file order,
// and each doc_hash is sha256 of json.dumps(doc, indent=2, ensure_ascii=False) (an edited doc).
import { sha256Hex } from '../../../protocols/template-hash.ts';
import type { Notice } from '../../../notices/index.ts';
import { LM_EVAL_GROUPS, NO_FACTS, buildRun, factsOf, readLmEvalResults, type HarnessFacts, type HarnessTask, type SampleDoc } from './import-lm-eval.ts';
import { readSamplesLines, type Sample } from './lm-eval-samples.ts';
import { resolveHarnessTask } from './lm-eval-jiangu-tasks.ts';
import { shownSkipped, skippedTasksNotice, unreadTasks } from './lm-eval-skipped.ts';
import { pythonJsonIndent2 } from './lm-eval-docs.ts';
import { buildGenRun, readGenSamplesLines, type GenSample } from './lm-eval-generation.ts';
import { FieldProblem, RUN_IMPORT_LIMITS, RunImportError, fail, int, parseJson, problem, refusal, type ImportedRun, type Obj } from '../../import-validate.ts';

/** A file as the page read it. */
export interface HarnessFileText {
  name: string;
  text: string;
}

/** One run to store, with its samples' docs (checked against the stored items before storing). */
export type HarnessRun = ImportedRun & { docs: SampleDoc[] };

const baseName = (name: string): string => name.split(/[\\/]/).pop() ?? name;

/** `results_2025-03-04T05-06-07.891011.json` → its date id; null for any other name. */
export function resultsDateId(fileName: string): string | null {
  const m = /^results_(.+)\.json$/i.exec(baseName(fileName));
  return m ? m[1] : null;
}

/** `samples_<task>_<date>.jsonl` → task and date id (null when the name has no date, as a renamed file). */
export function samplesFileParts(fileName: string): { task: string; dateId: string | null } | null {
  const m = /^samples_(.+?)(?:_(\d{4}-\d{2}-\d{2}T[\d.-]+))?\.jsonl$/i.exec(baseName(fileName));
  return m ? { task: m[1], dateId: m[2] ?? null } : null;
}

/** Whether a set of files is for this reader: a results_*.json with or without samples files, or several samples files. */
export function isHarnessFileSet(names: readonly string[]): boolean {
  return names.length > 1 || names.some((n) => resultsDateId(n) !== null);
}

/** Runs `read`, turning a FieldProblem into a RunImportError naming `fileName`. */
async function inFile<T>(fileName: string, read: () => T | Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof FieldProblem) throw new RunImportError(fileName, error.refusal);
    throw error;
  }
}

interface SamplesFile {
  name: string;
  task: string;
  dateId: string | null;
  text: string;
}

/**
 * Reads the files chosen together into runs, checked; nothing is stored here.
 *
 * @throws RunImportError naming the file at fault: a results file whose known tasks have no samples
 *   file, a samples file cut short or changed since the harness wrote it, files of which no task is
 *   known (every task named), or anything parseRunFile would refuse in one of them.
 */
export async function readLmEvalFiles(files: readonly HarnessFileText[], importedAt: string): Promise<HarnessRun[]> {
  const results: { name: string; dateId: string; root: Obj }[] = [];
  const samples: SamplesFile[] = [];
  for (const file of files) {
    const text = file.text.charCodeAt(0) === 0xfeff ? file.text.slice(1) : file.text;
    const dateId = resultsDateId(file.name);
    const parts = samplesFileParts(file.name);
    if (dateId !== null) {
      const root = await inFile(file.name, () => parseJson(text));
      if (typeof root !== 'object' || root === null || Array.isArray(root) || (root as Obj).configs === undefined) {
        throw new RunImportError(file.name, refusal('import.lm-eval-not-results'));
      }
      results.push({ name: file.name, dateId, root: root as Obj });
    } else if (parts) {
      samples.push({ name: file.name, ...parts, text });
    } else {
      throw new RunImportError(file.name, refusal('import.lm-eval-file-name'));
    }
  }

  const used = new Set<SamplesFile>();
  const runs: HarnessRun[] = [];
  for (const r of results) {
    // A dumped simple_evaluate dict saved under the CLI's name still holds its samples.
    if (r.root.samples !== undefined) {
      runs.push(await inFile(r.name, () => readLmEvalResults(r.root, r.name, importedAt)));
      continue;
    }
    // The harness gives a run's files one date; two runs of one moment (two models side by side in a
    // folder) are told apart by the tasks each results file names.
    const configs = typeof r.root.configs === 'object' && r.root.configs !== null ? (r.root.configs as Obj) : {};
    const mine = samples.filter((s) => !used.has(s) && Object.hasOwn(configs, s.task) && (s.dateId === r.dateId || (results.length === 1 && s.dateId === null)));
    mine.forEach((s) => used.add(s));
    runs.push(...(await readResultsRun(r.name, r.root, mine, importedAt)));
  }
  const orphans = samples.filter((s) => !used.has(s));
  if (orphans.length > 0) {
    if (results.length > 0) throw new RunImportError(orphans[0].name, refusal('import.lm-eval-samples-unmatched', { results: results.map((r) => baseName(r.name)) }));
    runs.push(...(await readSamplesOnly(orphans, importedAt)));
  }
  return runs;
}

/** One results file and its samples files → one run per dataset. */
async function readResultsRun(fileName: string, root: Obj, samplesFiles: SamplesFile[], importedAt: string): Promise<HarnessRun[]> {
  const facts = await inFile(fileName, () => factsOf(root));
  const configs = facts.configs ?? {};
  const known = new Map<string, HarnessTask>();
  for (const name of Object.keys(configs)) {
    const task = await inFile(fileName, () => resolveHarnessTask(name, configs[name]));
    if (task) known.set(name, task);
  }
  // Every task named and not read is left out and said: configured, with a samples file, or scored
  // in `results` alone (dropped without a word before, issue 46). A refusal names the first two
  // kinds only: a name scored without a configuration (a file edited by hand) would blur why.
  const skipped = Object.keys(configs).filter((name) => !known.has(name));
  const said = new Set(skipped);
  for (const s of samplesFiles) {
    if (Object.hasOwn(configs, s.task) || said.has(s.task)) continue;
    skipped.push(s.task);
    said.add(s.task);
  }
  if (known.size === 0) throw new RunImportError(fileName, refusal('import.lm-eval-no-known-task', shownSkipped(skipped)));
  skipped.push(...unreadTasks(root, (name) => known.has(name) || said.has(name), Object.keys(LM_EVAL_GROUPS)));

  const byTask = new Map<string, Sample[]>();
  const genByTask = new Map<string, GenSample[]>();
  for (const [name] of known) {
    const file = samplesFiles.find((s) => s.task === name);
    if (!file) throw new RunImportError(fileName, refusal('import.lm-eval-samples-missing', { task: name, expected: `samples_${name}_${resultsDateId(fileName) ?? '<date>'}.jsonl` }));
    // A generation task of Jiangu's export is generate_until: its samples hold text, not log-likelihoods.
    const generation = known.get(name)!.jiangu?.generation !== undefined;
    // A cloze task's choices are its option texts: its samples are checked as such (lm-eval-cloze.ts).
    const form = known.get(name)!.jiangu?.cloze ? 'cloze' : 'letters';
    const read: (Sample | GenSample)[] = await inFile(file.name, () => (generation ? readGenSamplesLines(file.text) : readSamplesLines(file.text, form)));
    await inFile(file.name, () => checkAgainstResults(root, name, read));
    await inFile(file.name, () => checkDocHashes(read));
    if (generation) genByTask.set(name, (read as GenSample[]).map((s) => ({ ...s, file: file.name })));
    else byTask.set(name, (read as Sample[]).map((s) => ({ ...s, file: file.name })));
  }
  const extra: Notice[] = [skippedTasksNotice(skipped)].filter((n): n is Notice => n !== null);
  const runs = byTask.size ? await buildPerDataset(byTask, known, facts, fileName, importedAt, extra) : [];
  // One generation run per dataset beside the multiple-choice ones (a benchmark may have both kinds).
  for (const datasetId of new Set([...genByTask.keys()].map((name) => known.get(name)!.datasetId))) {
    const part = new Map([...genByTask].filter(([name]) => known.get(name)!.datasetId === datasetId));
    runs.push(await inFile(fileName, () => buildGenRun(part, known, facts, fileName, importedAt, runs.length ? [] : extra)));
  }
  return runs;
}

/**
 * A task Jiangu's export names (`jiangu_<dataset>_<n>shot[_circular|_cloze]_<task>`). Its protocol,
 * template hash, scoring and data hashes are in its results file alone (configs.<task>.metadata.jiangu),
 * so its samples are not read without it.
 */
const JIANGU_TASK = /^jiangu_[a-z0-9_]+_\d+shot(?:_circular|_cloze)?_[a-z0-9_]+$/;

/** Samples files chosen without their results file: the harness's stock tasks, one run per dataset, the configuration unknown. */
async function readSamplesOnly(files: SamplesFile[], importedAt: string): Promise<HarnessRun[]> {
  const jiangu = files.filter((file) => JIANGU_TASK.test(file.task));
  if (jiangu.length > 0) {
    const dates = [...new Set(jiangu.map((file) => file.dateId ?? '<date>'))];
    throw new RunImportError(jiangu[0].name, refusal('import.lm-eval-jiangu-without-results', { tasks: jiangu.slice(0, 5).map((file) => file.task), more: Math.max(0, jiangu.length - 5), expected: dates.map((d) => `results_${d}.json`) }));
  }
  const known = new Map<string, HarnessTask>();
  const byTask = new Map<string, Sample[]>();
  const skipped: string[] = [];
  for (const file of files) {
    const task = resolveHarnessTask(file.task, undefined);
    if (!task) {
      skipped.push(file.task);
      continue;
    }
    if (byTask.has(file.task)) throw new RunImportError(file.name, refusal('import.lm-eval-task-twice', { task: file.task }));
    known.set(file.task, task);
    const read = await inFile(file.name, () => readSamplesLines(file.text));
    await inFile(file.name, () => checkDocHashes(read));
    byTask.set(file.task, read.map((s) => ({ ...s, file: file.name })));
  }
  if (known.size === 0) throw new RunImportError(files[0].name, refusal('import.lm-eval-no-known-task', shownSkipped(skipped)));
  const extra: Notice[] = [skippedTasksNotice(skipped)].filter((n): n is Notice => n !== null);
  return buildPerDataset(byTask, known, NO_FACTS, files[0].name, importedAt, extra);
}

async function buildPerDataset(
  byTask: Map<string, Sample[]>,
  known: Map<string, HarnessTask>,
  facts: HarnessFacts,
  fileName: string,
  importedAt: string,
  extra: Notice[],
): Promise<HarnessRun[]> {
  // One run per benchmark and scoring: a results file may hold a letter and a cloze export of one benchmark.
  const runOf = (name: string): string => `${known.get(name)!.datasetId} ${known.get(name)!.jiangu?.cloze ? 'cloze' : 'letters'}`;
  const kinds = [...new Set([...byTask.keys()].map(runOf))];
  const runs: HarnessRun[] = [];
  for (const kind of kinds) {
    const part = new Map([...byTask].filter(([name]) => runOf(name) === kind));
    runs.push(await inFile(fileName, () => buildRun(part, facts, fileName, importedAt, known, extra)));
  }
  return runs;
}

/**
 * How many samples the harness wrote of `task`, from n-samples. `effective` is the number of items of
 * the task's last metric (evaluator_utils._compute_task_aggregations), so a task that computes no
 * metric, a predictions-only task (`bypass`) or any under --predict_only, says 0 whatever it wrote:
 * then it is the task's docs (`original`) cut to the run's --limit, as the harness took them
 * (get_sample_size: a limit below 1 is that share, rounded up). Null where the file does not say.
 */
export function samplesWritten(root: Obj, task: string): number | null {
  const counts = root['n-samples'];
  const count = typeof counts === 'object' && counts !== null ? (counts as Obj)[task] : undefined;
  if (typeof count !== 'object' || count === null) return null;
  const { effective, original } = count as Obj;
  // Counts of docs: none of a task reaches RUN_IMPORT_LIMITS.results (a count past it is no harness's).
  for (const [key, value] of [['effective', effective], ['original', original]] as const) {
    if (typeof value === 'number') int(value, `n-samples.${task}.${key}`, 0, RUN_IMPORT_LIMITS.results);
  }
  if (typeof effective !== 'number') return null;
  if (effective > 0 || typeof original !== 'number') return effective;
  const config = typeof root.config === 'object' && root.config !== null ? (root.config as Obj) : {};
  const limit = typeof config.limit === 'number' && config.limit > 0 ? config.limit : null;
  if (limit === null) return original;
  return Math.min(original, limit < 1 ? Math.ceil(original * limit) : Math.trunc(limit));
}

/** n-samples and task_hashes, where the results file has them. */
async function checkAgainstResults(root: Obj, task: string, read: readonly Pick<Sample, 'hashes'>[]): Promise<void> {
  const expected = samplesWritten(root, task);
  if (expected !== null && expected !== read.length) {
    throw problem('import.lm-eval-truncated', { task, samples: read.length, expected });
  }
  const hashes = root.task_hashes;
  const stated = typeof hashes === 'object' && hashes !== null ? (hashes as Obj)[task] : undefined;
  if (stated !== undefined && stated !== null && typeof stated !== 'string') fail(`task_hashes.${task}`, { expected: 'sha256' }, stated);
  if (typeof stated === 'string' && stated !== '') {
    const actual = await sha256Hex(read.map((s) => s.hashes.doc + s.hashes.prompt + s.hashes.target).join(''));
    if (actual !== stated) throw problem('import.lm-eval-tampered', { task });
  }
}

/** Each sample's doc_hash against its doc, where the doc can be written as Python would (see pythonJsonIndent2). */
async function checkDocHashes(read: readonly Pick<Sample, 'hashes' | 'doc' | 'place'>[]): Promise<void> {
  for (const s of read) {
    if (!/^[0-9a-f]{64}$/.test(s.hashes.doc)) continue;
    const text = pythonJsonIndent2(s.doc);
    if (text === null) continue;
    if ((await sha256Hex(text)) !== s.hashes.doc) throw problem('import.lm-eval-doc-changed', { path: `${s.place}: doc` });
  }
}
