// Reads what lm-evaluation-harness writes for a multiple-choice run on ACLUE or CMMLU's
// ancient_chinese: the dict `simple_evaluate(..., log_samples=True)` returns, dumped as JSON
// (`results`, `samples`, `config`, `n-shot`, `versions`, `configs`), or one samples file alone
// (`samples_<task>_<timestamp>.jsonl`, one per-sample record a line, no stored numbers).
//
// Each sample becomes one McItemResult: the per-choice log-likelihoods the harness computed are the
// logProbs, the letters are A–D in choice order, the prediction is recomputed as their argmax (ties
// to the earlier letter, as numpy's argmax) and `correct` from it and the target, never copied from
// the sample's `acc`. The harness wrote samples in two dialects: in memory (and dumped by hand) the
// responses are numbers and booleans and `arguments` a list of [context, continuation]; its
// samples_*.jsonl files hold every response as a string ("-1.25", "False"), `arguments` as
// {gen_args_0: {arg_0, arg_1}}, and the target as a string. Both are read, exactly.
//
// A task Jiangu exported with option-text scoring (cloze, issue 25) is read by the same code with the
// checks of lm-eval-cloze.ts instead of the letter ones, and becomes a cloze run (scoring 'cloze', each
// result's `cloze` numbers, the prediction the acc rule's).
import { getDataset } from '../../../benchmarks/catalog.ts';
import type { DatasetId, OptionLetter } from '../../../benchmarks/types.ts';
import type { Dtype, ModelSource } from '../../../models/model-types.ts';
import { protocolForDataset } from '../../../protocols/mc-protocols.ts';
import { OPTION_LETTERS } from '../../../protocols/multiple-choice.ts';
import { scoreLetters } from '../../../protocols/mc-scoring.ts';
import { sha256Hex } from '../../../protocols/template-hash.ts';
import { LM_EVAL_TEMPLATE_HASH, recomputeSummary } from '../../jiangu-run/import-jiangu.ts';
import { notice, type Notice } from '../../../notices/index.ts';
import { stripInvisible } from '../../../text-safety.ts';
import { RAW_BOUNDS, RUN_IMPORT_LIMITS, anyObject, fail, finite, int, problem, type ImportedRun, type Obj } from '../../import-validate.ts';
import type { McItemResult, McRotationResult, McRunRecord, RunOrigin } from '../../../record/run.ts';
import { rotatedLetter, rotationCount } from '../../../protocols/rotation.ts';
import { DEFAULT_ESTIMATION_SHARE, drawEstimationSet } from '../../../protocols/estimation-set.ts';
import { LM_EVAL_TASKS, type HarnessTask } from '../lm-eval-tasks.ts';
import { storedSummaryMismatches, storedSummaryOf, type HarnessGroups } from './lm-eval-summary.ts';
import { clozeScoresOf } from './lm-eval-cloze.ts';
import { readSamplesLines, readTaskSamples, type Sample } from './lm-eval-samples.ts';
import { importedSample } from './lm-eval-sample.ts';
import { skippedTasksNotice, unreadTasks } from './lm-eval-skipped.ts';

export { LM_EVAL_TASKS, type HarnessTask } from '../lm-eval-tasks.ts';

/**
 * Harness group names whose `acc` is a summary key of ours: the harness's `aclue` group averages
 * its subtasks weighted by size (`weight_by_size: true` in _aclue.yaml), which is our pooled accuracy.
 */
export const LM_EVAL_GROUPS: HarnessGroups = {
  aclue: { datasetId: 'aclue', key: 'pooled' },
};

/** `path`: where the task is named, null for the file name. */
export function harnessTask(taskName: string, path: string | null): HarnessTask {
  if (!Object.hasOwn(LM_EVAL_TASKS, taskName)) {
    throw problem('import.unknown-task', { path, task: taskName.slice(0, 80), known: Object.keys(LM_EVAL_TASKS) });
  }
  return LM_EVAL_TASKS[taskName];
}

/** A result's `doc` and where it was written, in run order beside the results. */
export interface SampleDoc {
  doc: unknown;
  place: string;
  file: string;
  /** A circular export's other rotations of the item, in rotation order: each doc holds the options rotated. */
  rotations?: { rotation: number; doc: unknown; place: string; file: string }[];
}

/** What a file says about how the harness ran, as far as it says it. */
export interface HarnessFacts {
  config: Obj | null;
  nShot: Obj | null;
  versions: Obj | null;
  configs: Obj | null;
  results: Obj | null;
  date: number | null;
  lmEvalVersion: string | null;
  chatTemplate: boolean;
  /** What a results_*.json adds at its top level (tracker and tokenizer info); null in a dump by hand or a samples file. */
  modelName?: string | null;
  maxLength?: number | null;
  /** --system_instruction: text the harness put before every prompt (as a system message with a chat template). */
  systemInstruction?: string | null;
}

export const NO_FACTS: HarnessFacts = { config: null, nShot: null, versions: null, configs: null, results: null, date: null, lmEvalVersion: null, chatTemplate: false };

/** The facts of a results_*.json (or a dumped simple_evaluate dict), read leniently: fields are the harness's, not all present in every version. */
export function factsOf(root: Obj): HarnessFacts {
  // Read leniently (a field absent or of another kind is not stated), but a number that is stated is
  // one a harness wrote, or the file is refused naming it: these are shown.
  if (typeof root.date === 'number') finite(root.date, 'date', 0, 253_402_300_800);
  if (root.max_length !== undefined && root.max_length !== null) int(root.max_length, 'max_length', 1, RAW_BOUNDS.tokens);
  for (const [field, max] of [['versions', RAW_BOUNDS.harnessNumber], ['n-shot', 1000]] as const) {
    const o = root[field];
    if (typeof o !== 'object' || o === null) continue;
    for (const [task, v] of Object.entries(o)) if (typeof v === 'number') finite(v, `${field}.${task.slice(0, 80)}`, 0, max);
  }
  return {
    config: optionalObject(root.config, 'config'),
    nShot: optionalObject(root['n-shot'], 'n-shot'),
    versions: optionalObject(root.versions, 'versions'),
    configs: optionalObject(root.configs, 'configs'),
    results: optionalObject(root.results, 'results'),
    // Unix seconds; anything past year 9999 is not a date toISOString can write.
    date: typeof root.date === 'number' && root.date > 0 && root.date < 253_402_300_800 ? root.date : null,
    lmEvalVersion: typeof root.lm_eval_version === 'string' ? root.lm_eval_version : null,
    // --apply_chat_template: the tracker records the template it applied (null without one).
    chatTemplate: typeof root.chat_template === 'string' && root.chat_template !== '',
    modelName: typeof root.model_name === 'string' ? root.model_name : null,
    // add_tokenizer_info writes lm.max_length: the context the harness really truncated to.
    maxLength: typeof root.max_length === 'number' && Number.isInteger(root.max_length) && root.max_length > 0 ? root.max_length : null,
    systemInstruction: typeof root.system_instruction === 'string' && root.system_instruction !== '' ? root.system_instruction : null,
  };
}

const optionalObject = (value: unknown, path: string): Obj | null => (value === undefined || value === null ? null : anyObject(value, path));

/** `pretrained=Qwen/Qwen2.5-0.5B,revision=abc,dtype=float32` (or the dict newer versions write) → entries. */
function modelArgs(value: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (typeof value === 'string') {
    for (const part of value.split(',')) {
      const eq = part.indexOf('=');
      if (eq > 0) out[part.slice(0, eq).trim()] = part.slice(eq + 1).trim();
    }
  } else if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    for (const [key, v] of Object.entries(value)) if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') out[key] = String(v);
  }
  return out;
}

const DTYPE_NAMES: Readonly<Record<string, Dtype>> = { float32: 'fp32', fp32: 'fp32', 'torch.float32': 'fp32', float16: 'fp16', fp16: 'fp16', half: 'fp16', 'torch.float16': 'fp16' };

/**
 * bfloat16 has no name in the run record (its dtypes are the ONNX files': fp32, fp16, q8, q4, q4f16).
 * It is recorded as fp16, the other 16-bit float, with a warning that names bfloat16: the pair of
 * dtype facets then says "16-bit float" in Compare, which is true, and the warning keeps the rest.
 */
const BFLOAT16_NAMES = new Set(['bfloat16', 'bf16', 'torch.bfloat16']);

/** A name from the harness's files, made to pass the run importer's name rule (text-safety.ts), so the run exports and reads back. */
export const shortName = (value: string): string => stripInvisible(value).slice(0, RUN_IMPORT_LIMITS.shortChars);

export function modelOf(facts: HarnessFacts, warnings: Notice[]): { source: ModelSource; dtype: Dtype; contextLimit: number } {
  const args = modelArgs(facts.config?.model_args);
  const named =
    args.pretrained ??
    args.model ??
    facts.modelName ??
    (typeof facts.config?.model_name === 'string' ? facts.config.model_name : undefined) ??
    (typeof facts.config?.model === 'string' ? facts.config.model : undefined);
  if (!named) warnings.push(notice('import.model-unnamed'));
  const source: ModelSource = { kind: 'hub', id: shortName(named || 'unknown') || 'unknown' };
  // The commit the hub served (get_model_info's model_sha) says more than a branch name.
  const sha = typeof facts.config?.model_sha === 'string' && /^[0-9a-f]{40}$/.test(facts.config.model_sha) ? facts.config.model_sha : '';
  const revision = sha || args.revision || (typeof facts.config?.model_revision === 'string' ? facts.config.model_revision : '');
  if (revision) source.revision = shortName(revision);
  // model_args' dtype is what was asked for; "auto" (or nothing) means the checkpoint's own, which
  // get_model_info records as the loaded model's dtype (model_dtype, "torch.bfloat16").
  const asked = args.dtype ?? args.torch_dtype;
  const loaded = typeof facts.config?.model_dtype === 'string' ? facts.config.model_dtype : undefined;
  const stated = asked && asked !== 'auto' ? asked : (loaded ?? asked);
  let dtype = stated ? DTYPE_NAMES[stated] : undefined;
  if (stated && BFLOAT16_NAMES.has(stated)) {
    dtype = 'fp16';
    warnings.push(notice('import.lm-eval-bfloat16', { dtype: shortName(stated) }));
  } else if (!dtype) {
    dtype = 'fp32';
    if (facts.config) warnings.push(notice('import.dtype-unknown', { dtype: stated ? shortName(stated) : null }));
  }
  if (asked === 'auto' && loaded && dtype) warnings.push(notice('import.lm-eval-dtype-auto', { loaded: shortName(loaded), dtype }));
  const maxLength = Number(args.max_length);
  const contextLimit = Number.isInteger(maxLength) && maxLength > 0 ? maxLength : (facts.maxLength ?? 0);
  // A context limit is shown: no model has RAW_BOUNDS.tokens positions.
  if (contextLimit > RAW_BOUNDS.tokens) fail(Number.isInteger(maxLength) && maxLength > 0 ? 'config.model_args (max_length)' : 'max_length', { expected: 'integer', min: 1, max: RAW_BOUNDS.tokens }, contextLimit);
  return { source, dtype, contextLimit };
}

/** Shots per harness task: `n-shot`, else the task config's num_fewshot; null when the file does not say. */
function shotsOf(facts: HarnessFacts, taskName: string): number | null {
  const fromNShot = facts.nShot?.[taskName];
  const taskConfig = facts.configs?.[taskName];
  const fromConfig = typeof taskConfig === 'object' && taskConfig !== null ? (taskConfig as Obj).num_fewshot : undefined;
  for (const v of [fromNShot, fromConfig]) {
    const n = typeof v === 'string' ? Number(v) : v;
    if (typeof n === 'number' && Number.isInteger(n) && n >= 0 && n <= 1000) return n;
    if (typeof v === 'number') int(v, v === fromNShot ? `n-shot.${taskName}` : `configs.${taskName}.num_fewshot`, 0, 1000);
  }
  return null;
}

/** The harness's `first_n` sampler over the dev split takes the first k dev rows: our ids `${task}/dev/0..k-1`. */
function exemplarIdsOf(facts: HarnessFacts, taskName: string, task: string, shots: number): string[] {
  const c = facts.configs?.[taskName];
  if (typeof c !== 'object' || c === null) return [];
  const config = c as Obj;
  const fewshot = typeof config.fewshot_config === 'object' && config.fewshot_config !== null ? (config.fewshot_config as Obj) : {};
  if (config.fewshot_split !== 'dev' || fewshot.sampler !== 'first_n') return [];
  return Array.from({ length: shots }, (_, k) => `${task}/dev/${k}`);
}

async function promptHashes(prompts: readonly string[]): Promise<string[]> {
  const out: string[] = [];
  const chunk = 512;
  for (let i = 0; i < prompts.length; i += chunk) out.push(...(await Promise.all(prompts.slice(i, i + chunk).map((p) => sha256Hex(p)))));
  return out;
}

/**
 * Builds the run and its results from samples grouped by harness task (the caller has read them).
 * `tasks`: what each harness task is (default: LM_EVAL_TASKS); `extra`: warnings the caller adds
 * (tasks skipped from a group dump).
 */
export async function buildRun(
  samplesByTask: Map<string, Sample[]>,
  facts: HarnessFacts,
  fileName: string,
  importedAt: string,
  tasks: ReadonlyMap<string, HarnessTask> = new Map(Object.entries(LM_EVAL_TASKS)),
  extra: readonly Notice[] = [],
): Promise<ImportedRun & { docs: SampleDoc[] }> {
  const mapped = [...samplesByTask.keys()].map((name) => ({ name, ...(tasks.get(name) as HarnessTask) }));
  if (mapped.length === 0) throw problem('import.no-samples');
  const datasets = [...new Set(mapped.map((m) => m.datasetId))];
  if (datasets.length > 1) {
    throw problem('import.mixed-datasets', { tasks: mapped.map((m) => m.name), datasets: mapped.map((m) => m.datasetId) });
  }
  const datasetId = datasets[0];
  const protocol = protocolForDataset(datasetId);
  // A run has one protocol: Jiangu's (every task exported by Jiangu, with one template hash) or the harness's.
  const jiangu = mapped[0].jiangu ?? null;
  const kinds = new Set(mapped.map((m) => (m.jiangu ? `${m.jiangu.protocolId} ${m.jiangu.templateHash}` : 'lm-eval')));
  if (kinds.size > 1) throw problem('import.lm-eval-protocols-mixed', { tasks: mapped.map((m) => m.name), protocols: mapped.map((m) => (m.jiangu ? m.jiangu.protocolId : 'lm-eval')) });
  if (jiangu && jiangu.protocolId !== protocol.id) throw problem('import.lm-eval-jiangu-protocol-unknown', { task: mapped[0].name, protocolId: jiangu.protocolId, expected: protocol.id });
  const templateHash = jiangu ? jiangu.templateHash : LM_EVAL_TEMPLATE_HASH;
  // One template hash for all tasks (checked above), so either every task is cloze or none is.
  const cloze = jiangu?.cloze ?? null;
  // Catalog order, so a run imported from any subset lists its tasks as runs made here do.
  const catalogTasks = getDataset(datasetId).tasks.map((t) => t.key);
  mapped.sort((a, b) => catalogTasks.indexOf(a.task) - catalogTasks.indexOf(b.task));

  const warnings: Notice[] = jiangu
    ? [notice(cloze ? 'import.lm-eval-jiangu-cloze' : 'import.lm-eval-jiangu', { fileName, protocolId: protocol.id, templateHash, app: jiangu.app })]
    : [notice('import.lm-eval-protocol', { fileName, protocolId: protocol.id, templateHash: LM_EVAL_TEMPLATE_HASH }), notice('import.lm-eval-data', { datasetId })];
  warnings.push(...extra);
  // The recorded prompts hold it, but the protocol's template does not: say so rather than pass as byte-for-byte.
  if (facts.systemInstruction) warnings.push(notice('import.lm-eval-system-instruction', { text: shortName(facts.systemInstruction) }));
  const model = modelOf(facts, warnings);
  // A Jiangu task renders its exemplars itself (the harness sees num_fewshot 0): its shots are the metadata's.
  const shotsByTask = new Map(mapped.map((m) => [m.name, m.jiangu ? m.jiangu.shots : shotsOf(facts, m.name)]));
  const stated = [...shotsByTask.values()].filter((n): n is number => n !== null);
  const shots = stated.length ? Math.max(...stated) : 0;
  if (stated.length < mapped.length) warnings.push(notice('import.shots-unstated', { tasks: mapped.filter((m) => shotsByTask.get(m.name) === null).map((m) => m.name), shots }));
  if (new Set(stated).size > 1) {
    warnings.push(notice('import.shots-differ', { tasks: mapped.map((m) => m.name), shotsPerTask: mapped.map((m) => String(shotsByTask.get(m.name) ?? '?')), shots }));
  }

  const runId = crypto.randomUUID();
  const createdAt = facts.date !== null ? new Date(facts.date * 1000).toISOString() : importedAt;
  const ordered = mapped.flatMap((m) => [...(samplesByTask.get(m.name) ?? [])].sort((a, b) => a.docId - b.docId).map((sample) => ({ m, sample })));
  const hashes = await promptHashes(ordered.map(({ sample }) => sample.prompt ?? ''));
  const accDisagree: { task: string; docId: number }[] = [];
  let hashDisagree = 0;
  /** One sample scored: the letters it was asked with, their log-probabilities, the prediction. */
  const scoredSample = ({ m, sample }: (typeof ordered)[number], i: number) => {
    const letters = OPTION_LETTERS.slice(0, sample.logLiks.length) as OptionLetter[];
    const scored = scoreLetters(letters, sample.logLiks, sample.gold);
    // Without a gold the harness scored against its "no label" (-100): nothing to agree with.
    if (sample.acc !== null && sample.gold !== null && sample.acc !== scored.correct) accDisagree.push({ task: m.name, docId: sample.docId });
    if (sample.prompt !== null && sample.promptHash !== null && sample.promptHash !== hashes[i]) hashDisagree++;
    return { letters, scored, promptHash: sample.prompt !== null ? hashes[i] : (sample.promptHash ?? '') };
  };
  // A circular export writes each item once per rotation (jiangu_rotation): rotation 0 is the result,
  // the others its rotations.
  const asked = ordered.map((entry, i) => {
    const itemId = (entry.m.jiangu && jianguIdOf(entry.sample.doc)) || `${entry.m.task}/test/${entry.sample.docId}`;
    return { ...entry, i, itemId, rotation: entry.m.jiangu ? rotationOf(entry.sample) : 0 };
  });
  const seen = new Map<string, string>();
  for (const a of asked) {
    const key = `${a.itemId}\u0000${a.rotation}`;
    const first = seen.get(key);
    if (first !== undefined) throw problem('import.lm-eval-rotation-twice', { path: a.sample.place, itemId: a.itemId, rotation: a.rotation, first });
    seen.set(key, a.sample.place);
  }
  // A sampled run's export run on its sample (lm-eval-sample.ts): its items in the sample's order.
  const sample = importedSample(mapped.map((m) => m.task), asked.filter((a) => a.rotation === 0), warnings);
  const own = sample ? sample.own : asked.filter((a) => a.rotation === 0);
  const results: McItemResult[] = own.map((a, index) => {
    const { m, sample } = a;
    const { letters, scored, promptHash } = scoredSample(a, a.i);
    const shotsUsed = shotsByTask.get(m.name) ?? 0;
    return {
      runId,
      itemId: a.itemId,
      task: m.task,
      index,
      prompt: sample.prompt ?? '',
      promptHash,
      tokenCount: 0,
      shotsUsed,
      exemplarIds: m.jiangu ? [] : exemplarIdsOf(facts, m.name, m.task, shotsUsed),
      letters,
      tokenIds: [],
      logProbs: scored.logProbs,
      probs: scored.letterProbs,
      // A cloze run's numbers (read by cloze tasks only); its prediction above is the acc rule's.
      ...(sample.cloze ? { cloze: clozeScoresOf(sample.cloze, sample.logLiks) } : {}),
      prediction: scored.prediction,
      gold: sample.gold,
      correct: scored.correct,
      reusedPrefixTokens: 0,
      forwardMs: 0,
      completedAt: createdAt,
    };
  });
  const byItem = new Map(results.map((r) => [r.itemId, { result: r }]));
  const rotationDocs = new Map<string, NonNullable<SampleDoc['rotations']>>();
  for (const a of asked.filter((x) => x.rotation > 0).sort((x, y) => x.rotation - y.rotation)) {
    const base = byItem.get(a.itemId);
    if (!base) throw problem('import.lm-eval-rotation-without-item', { path: a.sample.place, itemId: a.itemId, rotation: a.rotation });
    const n = base.result.letters.length;
    const moved = rotatedLetter(base.result.gold, a.rotation, n);
    if (a.sample.logLiks.length !== n || a.sample.gold !== moved) {
      throw problem('import.lm-eval-rotation-target', { path: a.sample.place, itemId: a.itemId, rotation: a.rotation, choices: a.sample.logLiks.length, ownChoices: n, found: a.sample.gold ?? 'null', expected: moved ?? 'null' });
    }
    const { letters, scored, promptHash } = scoredSample(a, a.i);
    const rotation: McRotationResult = {
      rotation: a.rotation,
      promptHash,
      tokenCount: 0,
      letters,
      tokenIds: [],
      logProbs: scored.logProbs,
      probs: scored.letterProbs,
      prediction: scored.prediction,
      gold: a.sample.gold,
      correct: scored.correct,
      reusedPrefixTokens: 0,
      forwardMs: 0,
      completedAt: createdAt,
    };
    (base.result.rotations ??= []).push(rotation);
    const docs = rotationDocs.get(a.itemId) ?? [];
    docs.push({ rotation: a.rotation, doc: a.sample.doc, place: a.sample.place, file: a.sample.file ?? fileName });
    rotationDocs.set(a.itemId, docs);
  }
  const circular = circularOf(results, warnings);
  if (accDisagree.length) {
    const shown = accDisagree.slice(0, 5);
    warnings.push(
      notice('import.acc-disagrees', { count: accDisagree.length, total: results.length, tasks: shown.map((d) => d.task), docIds: shown.map((d) => d.docId), more: accDisagree.length > 5 }),
    );
  }
  if (hashDisagree) warnings.push(notice('import.prompt-hash-disagrees', { count: hashDisagree }));

  const config: McRunRecord['config'] = {
    kind: 'multiple-choice',
    // No backend of this site ran it (the type has no "none"): views name origin.harnessBackend.
    model: { source: model.source, dtype: model.dtype, backend: 'wasm' },
    protocolId: protocol.id,
    // A cloze run records its layout's version, as a cloze run made here does (run-setup.ts).
    protocolVersion: cloze ? cloze.version : protocol.version,
    templateHash,
    scoring: cloze ? 'cloze' : 'letter-logits',
    shots,
    contextLimit: model.contextLimit,
    chatTemplate: facts.chatTemplate,
    prefixReuse: false,
    datasetId,
    datasetFiles: jiangu ? jiangu.dataFiles : [],
    tasks: sample?.tasks ?? mapped.map((m) => m.task),
    // The harness's --limit counts docs: items, except in a circular export (a doc per rotation; origin.harnessLimit says it).
    limitPerTask: sample ? sample.limitPerTask : mapped.some((m) => m.jiangu?.circular === true) ? null : limitOf(facts.config?.limit),
    // A stopped run (lm-eval-stopped.ts): its whole plan, results for the first items of it.
    itemIds: sample?.stop ? sample.stop.itemIds : results.map((r) => r.itemId),
    ...(sample ? { sampling: sample.sampling } : {}),
    ...(sample?.stop ? { stopRule: sample.stop.rule } : {}),
    appVersion: facts.lmEvalVersion ? `lm-eval ${shortName(facts.lmEvalVersion)}` : 'lm-eval',
  };
  if (circular) {
    // A circular run always has PriDe's estimation set: its rotations are there already.
    config.circular = true;
    config.pride = { share: DEFAULT_ESTIMATION_SHARE, seed: IMPORTED_PRIDE_SEED, estimationItemIds: drawEstimationSet(config.itemIds, DEFAULT_ESTIMATION_SHARE, IMPORTED_PRIDE_SEED) };
  }
  const run: McRunRecord = { id: runId, createdAt, updatedAt: importedAt, datasetId, status: 'completed', config, warnings };

  // What the file states (lm-eval-summary.ts): per task, its acc; a circular export's over every rotated doc.
  const circularExport = mapped.some((m) => m.jiangu?.circular === true);
  const storedSummary = facts.results ? storedSummaryOf(facts.results, datasetId, (name) => tasks.get(name), circularExport, LM_EVAL_GROUPS) : null;
  const origin: RunOrigin = {
    kind: 'lm-eval',
    fileName,
    importedAt,
    originalRunId: null,
    storedSummary,
    summaryMismatches: storedSummary ? storedSummaryMismatches(storedSummary, recomputeSummary(run, results), results) : [],
    harnessTasks: mapped.map((m) => ({ name: m.name, version: versionOf(facts.versions?.[m.name], `versions.${m.name}`) })),
    ...harnessRunOf(facts),
  };
  run.origin = origin;
  return {
    run,
    results,
    docs: own.map(({ sample, itemId }) => ({ doc: sample.doc, place: sample.place, file: sample.file ?? fileName, ...(rotationDocs.has(itemId) ? { rotations: rotationDocs.get(itemId) } : {}) })),
  };
}

/** The seed of the estimation set an imported circular run records (the harness ran no draw: any fixed seed is as good, and one keeps imports repeatable). */
export const IMPORTED_PRIDE_SEED = 13;

/** Which rotation a Jiangu doc asks: its `jiangu_rotation` (0 when absent, as every plain export). */
function rotationOf(sample: Sample): number {
  const doc = sample.doc;
  const value = typeof doc === 'object' && doc !== null ? (doc as Obj).jiangu_rotation : undefined;
  if (value === undefined) return 0;
  const choices = sample.logLiks.length;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value >= rotationCount(choices)) {
    throw problem('import.lm-eval-rotation-invalid', { path: `${sample.place}: doc.jiangu_rotation`, found: JSON.stringify(value) ?? 'missing', choices });
  }
  return value;
}

/**
 * Whether the run is circular: some item has a rotation and every item has all of them. Items that
 * lack some while others have them are named in a warning (their samples are all kept).
 */
function circularOf(results: readonly McItemResult[], warnings: Notice[]): boolean {
  if (!results.some((r) => r.rotations?.length)) return false;
  const missing: string[] = [];
  let items = 0;
  for (const r of results) {
    const have = new Set((r.rotations ?? []).map((x) => x.rotation));
    const lacking = Array.from({ length: rotationCount(r.letters.length) - 1 }, (_, j) => j + 1).filter((k) => !have.has(k));
    if (lacking.length) items++;
    missing.push(...lacking.map((k) => `${r.itemId} rotation ${k}`));
  }
  if (missing.length === 0) return true;
  warnings.push(notice('import.lm-eval-rotations-missing', { items, total: results.length, missing: missing.slice(0, 5), more: Math.max(0, missing.length - 5) }));
  return false;
}

/** The item id a Jiangu-exported doc carries (the contract's `jiangu_id`). */
function jianguIdOf(doc: unknown): string | null {
  if (typeof doc !== 'object' || doc === null) return null;
  const id = (doc as Obj).jiangu_id;
  return typeof id === 'string' && id !== '' && id.length <= 200 ? id : null;
}

/**
 * What the results file says ran the model (`config.model`: the harness's --model, and its device)
 * and the --limit it ran with, for the origin; nothing for a samples file alone.
 */
export function harnessRunOf(facts: HarnessFacts): Pick<RunOrigin, 'harnessBackend' | 'harnessLimit'> {
  const config = facts.config;
  if (!config) return {};
  const out: Pick<RunOrigin, 'harnessBackend' | 'harnessLimit'> = {};
  if (typeof config.model === 'string' && config.model !== '') {
    out.harnessBackend = { model: shortName(config.model), device: typeof config.device === 'string' && config.device !== '' ? shortName(config.device) : null };
  }
  if (typeof config.limit === 'number' && Number.isFinite(config.limit) && config.limit > 0) out.harnessLimit = finite(config.limit, 'config.limit', 0, RAW_BOUNDS.harnessNumber);
  return out;
}

/** --limit as items per task; one above any task's size (RUN_IMPORT_LIMITS.results) limits nothing. */
export function limitOf(value: unknown): number | null {
  return typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= RUN_IMPORT_LIMITS.results ? value : null;
}

/** A task's version as the results file writes it (1, "1.0"); a number is a small one (RAW_BOUNDS.harnessNumber). */
function versionOf(value: unknown, path: string): string | number | null {
  if (typeof value === 'number') return finite(value, path, 0, RAW_BOUNDS.harnessNumber);
  if (typeof value === 'string') return shortName(value);
  return null;
}

/**
 * Reads the dict simple_evaluate returns (dumped as JSON, already parsed).
 *
 * @throws FieldProblem for a file without samples, an unknown task, a malformed sample.
 */
export async function readLmEvalResults(root: Obj, fileName: string, importedAt: string): Promise<ImportedRun & { docs: SampleDoc[] }> {
  if (root.samples === undefined) {
    throw problem('import.results-without-samples');
  }
  const samples = anyObject(root.samples, 'samples');
  const facts = factsOf(root);
  let total = 0;
  for (const [taskName, list] of Object.entries(samples)) {
    harnessTask(taskName, `samples.${taskName.slice(0, 80)}`);
    if (!Array.isArray(list)) fail(`samples.${taskName}`, { expected: 'sample-list' }, list);
    total += list.length;
  }
  if (total > RUN_IMPORT_LIMITS.results) throw problem('import.too-many-samples', { count: total, max: RUN_IMPORT_LIMITS.results });
  const byTask = new Map<string, Sample[]>();
  for (const [taskName, list] of Object.entries(samples)) {
    byTask.set(taskName, readTaskSamples(list as unknown[], (i) => `samples.${taskName}[${i}]`));
  }
  // Tasks the file configured or scored whose samples it does not hold are not in the run: say which.
  const named = new Set([...Object.keys(facts.configs ?? {}), ...Object.keys(facts.results ?? {})]);
  const without = [...named].filter((task) => Object.hasOwn(LM_EVAL_TASKS, task) && !Object.hasOwn(samples, task));
  const extra = without.length ? [notice('import.lm-eval-tasks-without-samples', { tasks: without.slice(0, 20), more: Math.max(0, without.length - 20) })] : [];
  // Nor are the tasks it names that this site does not read (their samples would have refused the file).
  const skipped = skippedTasksNotice(unreadTasks(root, (task) => Object.hasOwn(LM_EVAL_TASKS, task), Object.keys(LM_EVAL_GROUPS)));
  if (skipped) extra.push(skipped);
  return buildRun(byTask, facts, fileName, importedAt, undefined, extra);
}

/** `samples_aclue_polysemy_resolution_2024-05-13T12-34-56.123456.jsonl` → `aclue_polysemy_resolution` (the timestamp is optional). */
export function taskFromSamplesFileName(fileName: string): string | null {
  const base = fileName.split(/[\\/]/).pop() ?? fileName;
  const m = /^samples_(.+?)(?:_\d{4}-\d{2}-\d{2}T[\d.:-]+)?\.(?:jsonl|ndjson|json)$/i.exec(base);
  return m ? m[1] : null;
}

/**
 * Reads one lm-eval samples file (JSON Lines). The task comes from the file name, as the harness
 * names it; there are no stored numbers to compare.
 *
 * @throws FieldProblem for a name without a task, an unknown task, a line that is not a sample.
 */
export async function readLmEvalSamplesFile(source: string, fileName: string, importedAt: string): Promise<ImportedRun> {
  const taskName = taskFromSamplesFileName(fileName);
  if (taskName === null) {
    throw problem('import.samples-file-name');
  }
  harnessTask(taskName, null);
  return buildRun(new Map([[taskName, readSamplesLines(source)]]), NO_FACTS, fileName, importedAt);
}
