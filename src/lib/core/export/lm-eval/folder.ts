// The folder `lm_eval --include_path <dir>` runs: per task a YAML and its items as JSON Lines, a
// group per benchmark, utils.py (the prompt renderer) and a README. Pure: items in, files out.
//
// Each JSONL doc is the item as Jiangu stores it (id, question, options, answer letter) with the
// subject and the exemplars Jiangu's buildMcPrompt chooses for it, so utils.py renders the prompt
// itself. No context limit is applied: a run in Jiangu drops exemplars only when a prompt exceeds the
// model's context, which the export cannot know (the README says so).
import { getDataset } from '../../benchmarks/catalog.ts';
import type { DatasetFile, DatasetId, Item, MultipleChoiceItem } from '../../benchmarks/types.ts';
import { buildMcPrompt } from '../../protocols/build-prompt.ts';
import { protocolForDataset, shotsFor, type McProtocol } from '../../protocols/mc-protocols.ts';
import { sha256Hex, templateHash } from '../../protocols/template-hash.ts';
import { aggregationFor } from '../../metrics/mc-aggregate.ts';
import { jianguError } from '../../notices/index.ts';
import { groupName, taskName, taskSlug } from './names.ts';
import { readmeText } from './readme.ts';
import { utilsPy } from './utils-py.ts';
import { PyFunction, toYaml, type YamlValue } from './yaml.ts';

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
}

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
  docs: number;
  shots: number;
}

export interface LmEvalExport {
  files: ExportedFile[];
  tasks: ExportedTask[];
  group: string;
  protocolId: string;
  templateHash: string;
}

/** The doc of one item: what utils.py renders and what the import checks against the stored item. */
interface ExportDoc {
  jiangu_id: string;
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
  const protocol = protocolForDataset(datasetId);
  if (!Number.isInteger(shots) || shots < 0 || shots > protocol.maxShots) {
    throw jianguError('export.bad-shots', { dataset: datasetId, shots: String(shots), max: protocol.maxShots });
  }
  const mc = input.items.filter((item): item is MultipleChoiceItem => item.kind === 'multiple-choice' && item.datasetId === datasetId);
  const tests = mc.filter((item) => item.split === 'test');
  if (tests.length === 0) throw jianguError('export.no-items', { dataset: datasetId });
  const devByTask = new Map<string, MultipleChoiceItem[]>();
  for (const item of mc) if (item.split === 'dev') devByTask.set(item.task, [...(devByTask.get(item.task) ?? []), item]);
  const byId = new Map(mc.map((item) => [item.id, item]));

  const hash = await templateHash(protocol);
  const dataFiles = Object.fromEntries(input.files.map((file) => [file.path, file.sha256]));
  const group = groupName(datasetId, shots);
  const files: ExportedFile[] = [];
  const tasks: ExportedTask[] = [];
  // Catalog order, so the folder reads like Jiangu's tables; tasks with no test item are left out.
  for (const info of dataset.tasks) {
    const docs = tests.filter((item) => item.task === info.key);
    if (docs.length === 0) continue;
    const name = taskName(datasetId, shots, info.key);
    const jsonl = docs.map((item) => JSON.stringify(docFor(protocol, item, devByTask.get(item.task) ?? [], shots, byId))).join('\n') + '\n';
    const dataPath = `${name}.jsonl`;
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
        taskShots: shotsFor(protocol, info.key, shots),
        protocol: protocol.id,
        templateHash: hash,
        dataFiles,
        itemsFile: { [dataPath]: await sha256Hex(jsonl) },
      },
    };
    files.push({ path: `${name}.yaml`, text: taskYaml(name, dataPath, meta) }, { path: dataPath, text: jsonl });
    tasks.push({ name, task: info.key, slug: taskSlug(datasetId, info.key), docs: docs.length, shots: shotsFor(protocol, info.key, shots) });
  }
  files.push(...groupYamls(datasetId, shots, tasks, { dataset: datasetId, protocol: protocol.id, templateHash: hash, app: input.appVersion }));
  files.push({ path: 'utils.py', text: utilsPy(protocol, hash) });
  files.push({ path: 'README.md', text: readmeText({ datasetId, shots, group, tasks, protocol, templateHash: hash, appVersion: input.appVersion }) });
  return { files, tasks, group, protocolId: protocol.id, templateHash: hash };
}

function docFor(protocol: McProtocol, item: MultipleChoiceItem, dev: readonly MultipleChoiceItem[], shots: number, byId: Map<string, MultipleChoiceItem>): ExportDoc {
  // Jiangu's own choice of exemplars (and its checks on them), no context limit.
  const built = buildMcPrompt(protocol, item, dev, shots);
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

function taskYaml(name: string, dataPath: string, metadata: YamlValue): string {
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
      metric_list: [{ metric: 'acc', aggregation: 'mean', higher_is_better: true }],
      metadata,
    },
    ['Written by Jiangu (鉴古). The prompt, exemplars included, is rendered by utils.doc_to_text from the doc.'],
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
function groupYamls(datasetId: DatasetId, shots: number, tasks: readonly ExportedTask[], meta: Record<string, string>): ExportedFile[] {
  const top = groupName(datasetId, shots);
  const aggregate = [{ metric: 'acc', aggregation: 'mean', weight_by_size: false }];
  const metadata = (rule: string): YamlValue => ({ version: 1, jiangu: { format: LM_EVAL_EXPORT_FORMAT, ...meta, shots, aggregation: rule } });
  const rule = aggregationFor(datasetId);
  const exported = new Set(tasks.map((task) => task.task));
  if (rule.overallRule === 'mean-of-groups') {
    const groups = rule.grouping.groups
      .map((g) => ({ key: g.key, name: `${top}_${rule.grouping.kind}_${g.key.toLowerCase().replace(/[^a-z0-9]+/g, '_')}`, tasks: g.tasks.filter((t) => exported.has(t)) }))
      .filter((g) => g.tasks.length > 0);
    return [
      ...groups.map((g) => ({
        path: `${g.name}.yaml`,
        text: toYaml(
          { group: g.name, task: g.tasks.map((t) => taskName(datasetId, shots, t)), aggregate_metric_list: aggregate, metadata: metadata(`mean-of-tasks (${rule.grouping.kind} ${g.key})`) },
          [`Jiangu's ${rule.grouping.kind} "${g.key}": the mean of its tasks' accuracies.`],
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
        ["Jiangu's overall: the mean of the tasks' accuracies. Jiangu's pooled (micro) accuracy is recomputed from the samples on import."],
      ),
    },
  ];
}
