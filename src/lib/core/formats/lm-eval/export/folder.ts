// The folder `lm_eval --include_path <dir>` runs: per task a YAML and its items as JSON Lines, a
// group per benchmark, utils.py (the prompt renderer) and a README. Pure: items in, files out.
//
// Each JSONL doc is the item as Jiangu stores it (id, question, options, answer letter) with the
// subject and the exemplars Jiangu's buildMcPrompt chooses for it, so utils.py renders the prompt
// itself. No context limit is applied: a run in Jiangu drops exemplars only when a prompt exceeds the
// model's context, which the export cannot know (the README says so).
//
// Circular (issue 13): each multiple-choice item is written once per cyclic rotation of its options
// (rotation.ts: OpenCompass's circular, ABCD, BCDA, CDAB, DABC), the doc holding the rotated options
// and the moved answer, `jiangu_id` unchanged and `jiangu_rotation` 0 … n − 1; exemplars are never
// rotated. The task and group names get `_circular` and `metadata.jiangu.circular` is true, so the
// import rebuilds each item's rotations. Without it the folder is exactly what it always was.
//
// A multiple-choice task none of whose items has a key (AC-EVAL's test split: its authors score
// submissions themselves) is a predictions-only task (issue 21): its target is "" (utils-py.ts says
// why not -100) and its metric the harness's `bypass`, so the harness reports no accuracy against
// answers that do not exist; the import keeps its predictions unscored. Exports with keys are unchanged.
//
// Cloze (issue 25, `scoring: 'cloze'`): the same docs, rendered by another utils.py (cloze-py.ts) into
// the protocol's cloze context (buildClozePrompt's, exemplars ending in their gold option's text), the
// option texts as the choices, target_delimiter the layout's (""), and the harness's acc, acc_norm and
// acc_bytes as metrics: its `multiple_choice` tasks split and score each option as Jiangu's cloze runs
// do (TemplateLM._encode_pair), so the per-option log-likelihoods come back comparable. Names end their
// group part in `_cloze`; metadata.jiangu says `scoring: 'cloze'` with the cloze layout's version and
// template hash. Not with circular: option order never enters a cloze context, so every rotation would
// score the same.
//
// A sampled run (issue 36, `sample`): the docs are every test item of its tasks, each with its place in
// its task (`jiangu_index`), and jiangu_samples.json lists the run's own lines per task, which `lm_eval
// --samples` (lm_eval/_cli/run.py at 4e7e0d4: a JSON string or the path of a JSON file, task name →
// 0-based doc indices; incompatible with --limit) makes the harness run and nothing else. The tasks'
// metadata.jiangu.sampling carries the sample, so the import records the same sample back. A run its
// stop rule ended (issue 44, `sample.stop`) names only the items it asked there, and its metadata says
// where it stopped and keeps the rest of the plan (run-sample.ts).
import { getDataset } from '../../../benchmarks/catalog.ts';
import type { DatasetFile, DatasetId, GenerationItem, Item, MultipleChoiceItem } from '../../../benchmarks/types.ts';
import { C3BENCH_PROTOCOL, classificationLabels, generationTemplateHash, promptKeyFor } from '../../../protocols/generation.ts';
import { generationPy } from './generation-py.ts';
import { buildMcPrompt } from '../../../protocols/build-prompt.ts';
import { buildClozePrompt } from '../../../protocols/build-cloze.ts';
import { rotateItem, rotationCount } from '../../../protocols/rotation.ts';
import { protocolForDataset, shotsFor, type McProtocol } from '../../../protocols/mc-protocols.ts';
import { clozeTemplateHash, sha256Hex, templateHash } from '../../../protocols/template-hash.ts';
import { aggregationFor } from '../../../metrics/mc-aggregate.ts';
import { jianguError } from '../../../notices/index.ts';
import { groupName, taskName, taskSlug, type ExportForm } from './names.ts';
import { clozePy } from './cloze-py.ts';
import { predictsOnly } from './predict-only.ts';
import { readmeText } from './readme.ts';
import { utilsPy } from './utils-py.ts';
import { PyFunction, toYaml, type YamlValue } from './yaml.ts';
import { describeSample } from '../../../protocols/sample-description.ts';
import { stopPlan, type LmEvalSample, type LmEvalStop, type StopPlan } from './run-sample.ts';

export type { LmEvalSample, LmEvalStop } from './run-sample.ts';

/** Bumped when the folder's layout or the docs' fields change; the import reads it. */
export const LM_EVAL_EXPORT_FORMAT = 1;

export interface LmEvalExportInput {
  datasetId: DatasetId;
  /** Every stored item of the dataset: test items become docs, dev items exemplars. */
  items: readonly Item[];
  /** The files the stored items came from (DatasetRecord.files): their hashes go into the metadata. */
  files: readonly DatasetFile[];
  shots: number;
  /** Jiangu's version (APP_VERSION). */
  appVersion: string;
  /** Generation tasks: the most tokens to generate (Jiangu's Evaluate page default, 256). */
  maxNewTokens?: number;
  /** Circular evaluation: every multiple-choice item once per cyclic rotation of its options. */
  circular?: boolean;
  /** How the multiple-choice tasks are scored: the bare letters (default) or the option texts (cloze). */
  scoring?: LmEvalScoring;
  /**
   * The test items to export (the Evaluate page's tasks and items per task, or a run's own items):
   * only they become docs, and a task with none of them is left out; exemplars still come from every
   * stored dev item. All test items when absent. An id not among the stored test items refuses the export.
   */
  itemIds?: readonly string[];
  /**
   * A sampled run's export (issue 36): every stored test item of the sample's tasks becomes a doc
   * (each with `jiangu_index`, its place among its task's items in file order), and
   * `jiangu_samples.json` names, per task, the lines of the run's own items in the form `lm_eval
   * --samples` reads, so the harness runs exactly those documents. `itemIds` is then ignored.
   */
  sample?: LmEvalSample;
}

/** The file `--samples` reads: task name → the run's docs, as 0-based line numbers of the task's JSONL. */
export const LM_EVAL_SAMPLES_FILE = 'jiangu_samples.json';

/** The scorings an export writes (McRunConfig.scoring's generate-extract asks the letter prompt: it exports as letters). */
export type LmEvalScoring = 'letter-logits' | 'cloze';

export const DEFAULT_MAX_NEW_TOKENS = 256;

export interface ExportedFile {
  /** Relative to the export folder. */
  path: string;
  text: string;
}

/** One exported task, as the folder's README and the CLI list them. */
export interface ExportedTask {
  name: string;
  task: string;
  slug: string;
  /** Lines of its JSONL: one per item, or in a circular export one per item and rotation. */
  docs: number;
  /** Set in a circular export: the items those docs ask. */
  items?: number;
  shots: number;
  kind: 'multiple-choice' | 'generation';
  /** Set for a multiple-choice task without a key (AC-EVAL's test): predictions only, metric `bypass`. */
  unscored?: true;
}

export interface LmEvalExport {
  files: ExportedFile[];
  tasks: ExportedTask[];
  group: string;
  /** The multiple-choice protocol, null where the dataset has generation tasks only (C3Bench). */
  protocolId: string | null;
  /** Its template hash: the cloze layout's in a cloze export. */
  templateHash: string | null;
  scoring: LmEvalScoring;
}

/** The doc of one item: what utils.py renders and what the import checks against the stored item. */
interface ExportDoc {
  jiangu_id: string;
  /** Circular exports only: which rotation of the item's options this doc asks (0 is the benchmark's order). */
  jiangu_rotation?: number;
  task: string;
  subject: string;
  question: string;
  options: string[];
  answer: string | null;
  exemplars: { jiangu_id: string; question: string; options: string[]; answer: string }[];
}

export async function exportLmEval(input: LmEvalExportInput): Promise<LmEvalExport> {
  const { datasetId, shots } = input;
  const dataset = getDataset(datasetId);
  const hasMc = dataset.tasks.some((task) => task.kind === 'multiple-choice');
  const protocol = hasMc ? protocolForDataset(datasetId) : null;
  const maxShots = protocol?.maxShots ?? 0;
  if (!Number.isInteger(shots) || shots < 0 || shots > maxShots) {
    throw jianguError('export.bad-shots', { dataset: datasetId, shots: String(shots), max: maxShots });
  }
  const maxNewTokens = input.maxNewTokens ?? DEFAULT_MAX_NEW_TOKENS;
  if (!Number.isInteger(maxNewTokens) || maxNewTokens < 1) throw jianguError('export.bad-max-new-tokens', { value: String(maxNewTokens) });
  const circular = input.circular === true;
  const cloze = input.scoring === 'cloze';
  if (cloze && !protocol) throw jianguError('export.cloze-no-mc', { dataset: datasetId });
  // Option order never enters a cloze context: every rotation would be the same request.
  if (cloze && circular) throw jianguError('export.cloze-circular', { dataset: datasetId });
  const form: ExportForm = circular ? 'circular' : cloze ? 'cloze' : 'letters';
  const mine = input.items.filter((item) => item.datasetId === datasetId);
  const mc = mine.filter((item): item is MultipleChoiceItem => item.kind === 'multiple-choice');
  const allGen = mine.filter((item): item is GenerationItem => item.kind === 'generation' && item.split === 'test');
  const sample = input.sample ?? null;
  const sampleTasks = sample ? new Set(Object.keys(sample.sampling.population)) : null;
  // A sample's docs are its tasks' whole populations: --samples picks the run's lines among them.
  const chosen = sample
    ? new Set([...mc.filter((item) => item.split === 'test'), ...allGen].filter((item) => sampleTasks!.has(item.task)).map((item) => item.id))
    : input.itemIds
      ? new Set(input.itemIds)
      : null;
  if (sample) {
    const stored = new Set([...mc.filter((item) => item.split === 'test'), ...allGen].filter((item) => sampleTasks!.has(item.task)).map((item) => item.id));
    const missing = sample.itemIds.filter((id) => !stored.has(id));
    if (missing.length > 0) throw jianguError('export.items-not-stored', { dataset: datasetId, missing: missing.length, first: missing[0] });
  }
  // A stopped run: the harness is asked the items it asked, not its whole plan.
  const stop: StopPlan | null = sample?.stop ? stopPlan(datasetId, sample as LmEvalSample & { stop: LmEvalStop }, [...mc.filter((item) => item.split === 'test'), ...allGen]) : null;
  const inRun = sample ? (stop ? stop.asked : new Set(sample.itemIds)) : null;
  const samplesFile: Record<string, number[]> = {};
  if (chosen) {
    const stored = new Set([...mc.filter((item) => item.split === 'test'), ...allGen].map((item) => item.id));
    const missing = [...chosen].filter((id) => !stored.has(id));
    if (missing.length > 0) throw jianguError('export.items-not-stored', { dataset: datasetId, missing: missing.length, first: missing[0] });
  }
  const isChosen = (item: Item) => chosen === null || chosen.has(item.id);
  const tests = mc.filter((item) => item.split === 'test' && isChosen(item));
  const gen = allGen.filter(isChosen);
  if (tests.length === 0 && gen.length === 0) throw jianguError('export.no-items', { dataset: datasetId });
  const devByTask = new Map<string, MultipleChoiceItem[]>();
  for (const item of mc) if (item.split === 'dev') devByTask.set(item.task, [...(devByTask.get(item.task) ?? []), item]);
  const byId = new Map(mc.map((item) => [item.id, item]));

  const hash = protocol ? await (cloze ? clozeTemplateHash : templateHash)(protocol) : null;
  const genHash = gen.length > 0 ? await generationTemplateHash() : null;
  const dataFiles = Object.fromEntries(input.files.map((file) => [file.path, file.sha256]));
  const group = groupName(datasetId, shots, form);
  const files: ExportedFile[] = [];
  const tasks: ExportedTask[] = [];
  // Catalog order, so the folder reads like Jiangu's tables; tasks with no test item are left out.
  for (const info of dataset.tasks) {
    const isMc = info.kind === 'multiple-choice';
    const docs: Item[] = isMc ? tests.filter((item) => item.task === info.key) : gen.filter((item) => item.task === info.key);
    // --samples cannot ask a task for no docs (an empty list runs them all): its plan is in the others' metadata.
    if (docs.length === 0 || stop?.unstarted.has(info.key)) continue;
    const name = taskName(datasetId, shots, info.key, isMc ? form : 'letters');
    const dataPath = `${name}.jsonl`;
    const itemDocs = docs.map((item, index): object[] => {
      const written =
        item.kind === 'multiple-choice'
          ? circular
            ? rotatedDocs(protocol!, item, devByTask.get(item.task) ?? [], shots, byId)
            : cloze
              ? [clozeDocFor(protocol!, item, devByTask.get(item.task) ?? [], shots, byId)]
              : [docFor(protocol!, item, devByTask.get(item.task) ?? [], shots, byId)]
          : [genDocFor(item)];
      // The item's place in its task (file order), which the import draws the sample again from.
      return sample ? written.map((doc) => withIndex(doc, index)) : written;
    });
    const lines = itemDocs.flat();
    if (sample) {
      // Ascending line numbers: the harness reads its docs in file order and names each doc by
      // indices[k] for the k-th it reads (evaluator.py at 4e7e0d4), so only a sorted list gives
      // each sample its own line as doc_id.
      const picked: number[] = [];
      let line = 0;
      docs.forEach((item, i) => {
        if (inRun!.has(item.id)) for (let k = 0; k < itemDocs[i].length; k++) picked.push(line + k);
        line += itemDocs[i].length;
      });
      samplesFile[name] = picked;
    }
    const jsonl = lines.map((doc) => JSON.stringify(doc)).join('\n') + '\n';
    const taskShots = isMc ? shotsFor(protocol!, info.key, shots) : 0;
    const unscored = isMc && docs.every((item) => item.kind === 'multiple-choice' && item.answer === null);
    const meta = {
      version: 1,
      jiangu: {
        format: LM_EVAL_EXPORT_FORMAT,
        app: input.appVersion,
        dataset: datasetId,
        task: info.key,
        slug: taskSlug(datasetId, info.key),
        shots,
        // AC-EVAL caps some tasks' exemplars (shotsByTask): what this task's prompts hold.
        taskShots,
        protocol: isMc ? protocol!.id : C3BENCH_PROTOCOL.id,
        templateHash: isMc ? hash! : genHash!,
        // The import reads a cloze run's protocol version (the layout's) and scoring from here.
        ...(isMc && cloze ? { scoring: 'cloze', clozeVersion: protocol!.cloze.version } : {}),
        ...(isMc ? {} : { maxNewTokens, decoding: 'greedy' }),
        ...(isMc && circular ? { circular: true } : {}),
        // A sampled run: the sample as recorded, this task's population, the run's limit (the import
        // draws it again and records the run as that sample when the harness ran exactly it).
        ...(sample ? { sampling: samplingMeta(sample, info.key, stop) } : {}),
        dataFiles,
        itemsFile: { [dataPath]: await sha256Hex(jsonl) },
      },
    };
    const yaml = !isMc ? generationYaml(name, dataPath, maxNewTokens, meta) : cloze ? clozeTaskYaml(protocol!, name, dataPath, meta, unscored) : taskYaml(name, dataPath, meta, unscored);
    files.push({ path: `${name}.yaml`, text: yaml }, { path: dataPath, text: jsonl });
    tasks.push({
      name,
      task: info.key,
      slug: taskSlug(datasetId, info.key),
      docs: lines.length,
      ...(circular && isMc ? { items: docs.length } : {}),
      shots: taskShots,
      kind: info.kind,
      ...(unscored ? { unscored: true as const } : {}),
    });
  }
  const groupMeta = { dataset: datasetId, protocol: protocol?.id ?? C3BENCH_PROTOCOL.id, templateHash: hash ?? genHash!, app: input.appVersion };
  const formMeta: Record<string, string | number | boolean> = circular ? { circular: true } : cloze ? { scoring: 'cloze', clozeVersion: protocol!.cloze.version } : {};
  files.push(...groupYamls(datasetId, shots, tasks, { ...groupMeta, ...formMeta }, form));
  const keyless = tests.some((item) => item.answer === null);
  const mcPython = protocol ? (cloze ? clozePy(protocol, hash!, keyless) : utilsPy(protocol, hash!, keyless)) : '# Jiangu (鉴古) prompts for lm-evaluation-harness, written by its export.\n';
  const python = mcPython + (genHash ? generationPy(C3BENCH_PROTOCOL, genHash) : '');
  files.push({ path: 'utils.py', text: python });
  if (sample) files.push({ path: LM_EVAL_SAMPLES_FILE, text: `${JSON.stringify(samplesFile)}\n` });
  const sampled = sample
    ? {
        file: LM_EVAL_SAMPLES_FILE,
        description: describeSample({ tasks: Object.keys(sample.sampling.population), limitPerTask: sample.limitPerTask, sampling: sample.sampling, itemIds: sample.itemIds }),
        runDocs: Object.values(samplesFile).reduce((n, l) => n + l.length, 0),
        ...(sample.stop ? { stop: { asked: sample.stop.asked, rule: sample.stop.rule } } : {}),
      }
    : undefined;
  files.push({
    path: 'README.md',
    text: readmeText({ datasetId, shots, group, tasks, protocol, templateHash: hash ?? genHash!, appVersion: input.appVersion, maxNewTokens, circular, cloze, ...(sampled ? { sample: sampled } : {}) }),
  });
  return { files, tasks, group, protocolId: protocol?.id ?? null, templateHash: hash, scoring: cloze ? 'cloze' : 'letter-logits' };
}

/** The doc with `jiangu_index` after `jiangu_id` (and `jiangu_rotation`), so a reader sees both at once. */
function withIndex(doc: object, index: number): object {
  const { jiangu_id, jiangu_rotation, ...rest } = doc as { jiangu_id: string; jiangu_rotation?: number };
  return { jiangu_id, ...(jiangu_rotation !== undefined ? { jiangu_rotation } : {}), jiangu_index: index, ...rest };
}

/** metadata.jiangu.sampling of one task: the recorded rule, the run's limit, and this task's N (and a stopped run's stop). */
function samplingMeta(sample: LmEvalSample, task: string, stop: StopPlan | null) {
  const s = sample.sampling;
  return {
    draw: s.draw,
    seed: s.seed,
    order: s.order,
    block: s.block,
    ...(s.growth !== undefined ? { growth: s.growth } : {}),
    ...(s.maxBlock !== undefined ? { maxBlock: s.maxBlock } : {}),
    limitPerTask: sample.limitPerTask,
    population: s.population[task] ?? 0,
    // The run's tasks in its order: the shuffled order gives tasks their turns in it.
    tasks: [...(sample.tasks ?? Object.keys(s.population))],
    // Last, so an export of a run that was not stopped is byte for byte what it was.
    ...(stop ? { stop: stop.meta(task) } : {}),
  };
}

/** A generation doc: the item, and the prompt and labels Jiangu's buildGenerationPrompt uses. */
function genDocFor(item: GenerationItem) {
  return {
    jiangu_id: item.id,
    task: item.task,
    generation_task: item.generationTask,
    prompt_key: promptKeyFor(item),
    labels: [...classificationLabels(item)],
    input: item.input,
    references: [...item.references],
  };
}

/** Greedy generation up to Jiangu's token limit, stopping only at the model's end of text (`until: []`). */
function generationYaml(name: string, dataPath: string, maxNewTokens: number, metadata: YamlValue): string {
  return toYaml(
    {
      task: name,
      dataset_path: 'json',
      dataset_kwargs: { data_files: { test: dataPath } },
      test_split: 'test',
      output_type: 'generate_until',
      doc_to_text: new PyFunction('utils.gen_doc_to_text'),
      doc_to_target: new PyFunction('utils.gen_doc_to_target'),
      target_delimiter: '',
      num_fewshot: 0,
      description: '',
      generation_kwargs: { until: [], do_sample: false, temperature: 0, max_gen_toks: maxNewTokens },
      // The harness only generates; Jiangu scores the imported outputs (accuracy, F1, BLEU).
      metric_list: [{ metric: 'exact_match', aggregation: 'mean', higher_is_better: true }],
      metadata,
    },
    ['Written by Jiangu (鉴古). The prompt is rendered by utils.gen_doc_to_text; Jiangu scores the outputs on import.'],
  );
}

/**
 * One doc per cyclic rotation of the item's options, rotation 0 first: the options rotated and the
 * answer moved with its option (rotateItem), the exemplars Jiangu chose for the item unrotated.
 */
function rotatedDocs(protocol: McProtocol, item: MultipleChoiceItem, dev: readonly MultipleChoiceItem[], shots: number, byId: Map<string, MultipleChoiceItem>): ExportDoc[] {
  const doc = docFor(protocol, item, dev, shots, byId);
  return Array.from({ length: rotationCount(item.options.length) }, (_, k) => {
    const rotated = rotateItem(item, k);
    const { jiangu_id, ...rest } = doc;
    return { jiangu_id, jiangu_rotation: k, ...rest, options: [...rotated.options], answer: rotated.answer };
  });
}

function docFor(protocol: McProtocol, item: MultipleChoiceItem, dev: readonly MultipleChoiceItem[], shots: number, byId: Map<string, MultipleChoiceItem>): ExportDoc {
  // Jiangu's own choice of exemplars (and its checks on them), no context limit.
  const built = buildMcPrompt(protocol, item, dev, shots);
  return docOf(item, built, byId);
}

/** A cloze doc: the same fields; buildClozePrompt chooses the same exemplars and checks each has a gold option to end with. */
function clozeDocFor(protocol: McProtocol, item: MultipleChoiceItem, dev: readonly MultipleChoiceItem[], shots: number, byId: Map<string, MultipleChoiceItem>): ExportDoc {
  return docOf(item, buildClozePrompt(protocol, item, dev, shots), byId);
}

function docOf(item: MultipleChoiceItem, built: { subject: string; exemplarIds: readonly string[] }, byId: Map<string, MultipleChoiceItem>): ExportDoc {
  return {
    jiangu_id: item.id,
    task: item.task,
    subject: built.subject,
    question: item.question,
    options: [...item.options],
    answer: item.answer,
    exemplars: built.exemplarIds.map((id) => {
      const exemplar = byId.get(id)!;
      return { jiangu_id: exemplar.id, question: exemplar.question, options: [...exemplar.options], answer: exemplar.answer! };
    }),
  };
}

/** `unscored`: no item has a key, so the harness's `bypass` metric (it reports none; it requires --log_samples or --predict_only). */
function taskYaml(name: string, dataPath: string, metadata: YamlValue, unscored: boolean): string {
  return toYaml(
    {
      task: name,
      dataset_path: 'json',
      // Relative to the directory lm_eval runs in: the README says to run it from this folder.
      dataset_kwargs: { data_files: { test: dataPath } },
      test_split: 'test',
      output_type: 'multiple_choice',
      doc_to_text: new PyFunction('utils.doc_to_text'),
      doc_to_choice: new PyFunction('utils.doc_to_choice'),
      doc_to_target: new PyFunction('utils.doc_to_target'),
      target_delimiter: '',
      num_fewshot: 0,
      description: '',
      metric_list: unscored ? [{ metric: 'bypass' }] : [{ metric: 'acc', aggregation: 'mean', higher_is_better: true }],
      metadata,
    },
    [
      'Written by Jiangu (鉴古). The prompt, exemplars included, is rendered by utils.doc_to_text from the doc.',
      ...(unscored ? ['No item has a released answer: the metric is bypass (no accuracy); run with --predict_only and import the samples into Jiangu.'] : []),
    ],
  );
}

/** The harness's three rules over the per-option sums (lm_eval/api/task.py, ConfigurableTask.process_results; core/metrics/cloze-rules.ts). */
const CLOZE_METRICS = ['acc', 'acc_norm', 'acc_bytes'] as const;

/**
 * A cloze task: the option texts are the choices, each scored after the cloze context with the
 * layout's target delimiter (""), under the harness's acc (largest sum), acc_norm (sum ÷ characters of
 * the choice) and acc_bytes (sum ÷ its UTF-8 bytes); `unscored` as taskYaml's.
 */
function clozeTaskYaml(protocol: McProtocol, name: string, dataPath: string, metadata: YamlValue, unscored: boolean): string {
  return toYaml(
    {
      task: name,
      dataset_path: 'json',
      dataset_kwargs: { data_files: { test: dataPath } },
      test_split: 'test',
      output_type: 'multiple_choice',
      doc_to_text: new PyFunction('utils.doc_to_text'),
      doc_to_choice: new PyFunction('utils.doc_to_choice'),
      doc_to_target: new PyFunction('utils.doc_to_target'),
      target_delimiter: protocol.cloze.targetDelimiter,
      num_fewshot: 0,
      description: '',
      metric_list: unscored ? [{ metric: 'bypass' }] : CLOZE_METRICS.map((metric) => ({ metric, aggregation: 'mean', higher_is_better: true })),
      metadata,
    },
    [
      "Written by Jiangu (鉴古). Cloze (option text): utils.doc_to_text renders Jiangu's cloze context from the doc, exemplars included;",
      'each option text (utils.doc_to_choice) is scored as its continuation. acc: largest log-likelihood; acc_norm: ÷ characters; acc_bytes: ÷ UTF-8 bytes.',
      ...(unscored ? ['No item has a released answer: the metric is bypass (no accuracy); run with --predict_only and import the samples into Jiangu.'] : []),
    ],
  );
}

/**
 * The benchmark's group. ACLUE, CMMLU, AC-EVAL: Jiangu's overall is the mean of task accuracies,
 * which is the harness's `weight_by_size: false`. AncientBench: Jiangu's overall is the mean of its
 * four competencies, each the mean of its tasks; a subgroup per competency gives each competency's
 * number, but the harness (lm_eval/api/group.py at 4e7e0d4) aggregates a group over its *leaf* tasks,
 * so the top group's `acc` is the mean of all tasks, not of the competencies: the harness cannot
 * express that rule, and the import recomputes it (as it does the pooled, micro accuracy) from the
 * samples. The metadata says which rule each group's number follows.
 */
function groupYamls(datasetId: DatasetId, shots: number, tasks: readonly ExportedTask[], meta: Record<string, string | number | boolean>, form: ExportForm): ExportedFile[] {
  const top = groupName(datasetId, shots, form);
  // A cloze group averages each of the three rules over its tasks, as Jiangu's run page shows them.
  const aggregate = (form === 'cloze' ? CLOZE_METRICS : (['acc'] as const)).map((metric) => ({ metric, aggregation: 'mean', weight_by_size: false }));
  const rules = form === 'cloze' ? ' (acc, acc_norm and acc_bytes alike)' : '';
  const metadata = (rule: string): YamlValue => ({ version: 1, jiangu: { format: LM_EVAL_EXPORT_FORMAT, ...meta, shots, aggregation: rule } });
  if (predictsOnly(tasks)) {
    // Nothing to aggregate: every task is predictions only (AC-EVAL's test split).
    return [
      {
        path: `${top}.yaml`,
        text: toYaml({ group: top, task: tasks.map((t) => t.name), metadata: metadata('none (no released answers: predictions only, Jiangu keeps them unscored on import)') }, [
          'No released answers: the harness only predicts, Jiangu keeps the predictions (unscored) on import.',
        ]),
      },
    ];
  }
  if (!tasks.some((task) => task.kind === 'multiple-choice')) {
    return [
      {
        path: `${top}.yaml`,
        text: toYaml({ group: top, task: tasks.map((t) => t.name), metadata: metadata('none (generation: Jiangu scores the outputs on import)') }, [
          'Generation tasks only: the harness generates, Jiangu scores the imported outputs.',
        ]),
      },
    ];
  }
  const rule = aggregationFor(datasetId);
  const exported = new Set(tasks.filter((task) => task.kind === 'multiple-choice').map((task) => task.task));
  if (rule.overallRule === 'mean-of-groups') {
    const groups = rule.grouping.groups
      .map((g) => ({ key: g.key, name: `${top}_${rule.grouping.kind}_${g.key.toLowerCase().replace(/[^a-z0-9]+/g, '_')}`, tasks: g.tasks.filter((t) => exported.has(t)) }))
      .filter((g) => g.tasks.length > 0);
    return [
      ...groups.map((g) => ({
        path: `${g.name}.yaml`,
        text: toYaml(
          { group: g.name, task: g.tasks.map((t) => taskName(datasetId, shots, t, form)), aggregate_metric_list: aggregate, metadata: metadata(`mean-of-tasks (${rule.grouping.kind} ${g.key})`) },
          [`Jiangu's ${rule.grouping.kind} "${g.key}": the mean of its tasks' accuracies${rules}.`],
        ),
      })),
      {
        path: `${top}.yaml`,
        text: toYaml(
          { group: top, task: groups.map((g) => g.name), aggregate_metric_list: aggregate, metadata: metadata('mean-of-tasks (the harness averages a group over its leaf tasks); Jiangu overall = mean of the subgroups, recomputed on import') },
          [
            `The harness averages a group over its leaf tasks: this group's acc is the mean of all tasks. Jiangu's overall is the`,
            `mean of the ${rule.grouping.kind} subgroups' acc (each the mean of its tasks); the import recomputes it from the samples.`,
          ],
        ),
      },
    ];
  }
  return [
    {
      path: `${top}.yaml`,
      text: toYaml(
        { group: top, task: tasks.map((t) => t.name), aggregate_metric_list: aggregate, metadata: metadata('mean-of-tasks') },
        [`Jiangu's overall: the mean of the tasks' accuracies${rules}. Jiangu's pooled (micro) accuracy is recomputed from the samples on import.`],
      ),
    },
  ];
}
