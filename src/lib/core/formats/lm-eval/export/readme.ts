// README.md of an exported folder: what it holds, the data's licence, and the exact commands.
import { getDataset } from '../../../benchmarks/catalog.ts';
import type { DatasetId } from '../../../benchmarks/types.ts';
import type { McProtocol } from '../../../protocols/mc-protocols.ts';
import { predictsOnly } from './predict-only.ts';
import type { SampleDescription } from '../../../protocols/sample-description.ts';
import type { StopRule } from '../../../protocols/run-sampling.ts';

export interface ReadmeInput {
  datasetId: DatasetId;
  shots: number;
  group: string;
  tasks: readonly { name: string; task: string; docs: number; items?: number; shots: number; kind: 'multiple-choice' | 'generation'; unscored?: true }[];
  /** The multiple-choice protocol; null for a generation-only dataset (C3Bench). */
  protocol: McProtocol | null;
  templateHash: string;
  appVersion: string;
  maxNewTokens: number;
  /** A circular export: each multiple-choice item once per rotation of its options. */
  circular?: boolean;
  /** A cloze export: the option texts are the choices (`protocol.cloze`, whose hash templateHash is). */
  cloze?: boolean;
  /**
   * A sampled run's export: the file `--samples` reads, the sample, and how many docs it names; `stop`
   * when the run's rule stopped it after its first `asked` items (the docs named are theirs).
   */
  sample?: { file: string; description: SampleDescription; runDocs: number; stop?: { asked: number; rule: StopRule } };
}

/** The sample in the README's words (English, as the rest of the file). */
function sampleWords(d: SampleDescription): string {
  if (d.draw === 'every') return `every item of its tasks (${d.items})`;
  if (d.draw === 'first') return `the first ${d.perTask} items of each task in file order (${d.items} in all)`;
  const of = d.populationPerTask !== null ? `${d.perTask} of ${d.populationPerTask} items per task` : `${d.perTask} items per task, ${d.items} of ${d.population} in all`;
  return `a random sample of ${of} (seed ${d.seed})`;
}

/** The rule that stopped a run, in the README's words. */
function ruleWords(rule: StopRule): string {
  return rule.kind === 'precision'
    ? `its precision rule (the score's confidence sequence within ±${+(rule.halfWidth * 100).toFixed(4)} points, alpha ${rule.alpha})`
    : `its sign-settled rule (the paired difference against run ${rule.baselineRunId} settled at alpha ${rule.alpha})`;
}

/** A stopped run's sentences: where it stopped, and that the docs named are the ones it asked. */
function stopWords(sample: NonNullable<ReadmeInput['sample']>): string {
  const stop = sample.stop;
  if (!stop) return '';
  return ` It was stopped by ${ruleWords(stop.rule)} after the first ${stop.asked} of these ${sample.description.items} items in its order: \`${sample.file}\` names only the docs of those ${stop.asked} items, and each task's \`metadata.jiangu.sampling.stop\` says where the run stopped and lists the planned items it never asked (a task it had not started, if any, is not in this folder).`;
}

/** What a sampled run's README says of its sample and of --samples (lm_eval/_cli/run.py and api/task.py at 4e7e0d4). */
function sampleSection(sample: NonNullable<ReadmeInput['sample']>): string {
  return `
## The run's sample

The run this folder was exported from ${sample.stop ? 'planned' : 'asked'} ${sampleWords(sample.description)}.${stopWords(sample)} Each task's JSONL holds **every** test item of the task, in file order, each doc with \`jiangu_index\` (its place in the task); \`${sample.file}\` names the run's own ${sample.runDocs} docs, per task, as 0-based line numbers of that task's JSONL: the \`--samples\` argument of lm-evaluation-harness (a JSON string or the path of a JSON file mapping task names to document indices). With it the harness runs exactly the run's documents, each sample's \`doc_id\` its line; the lists are ascending because the harness reads the chosen docs in file order and numbers them from the list. \`--samples\` and \`--limit\` exclude each other. Leave \`--samples\` out to run every item of the tasks.${sample.description.draw === 'first' && !sample.stop ? ' For this sample (the first items in file order) it is the same as `--limit ' + sample.description.perTask + '` on a folder that is not circular.' : ''}

Imported back into Jiangu, a run made with \`--samples ${sample.file}\` is recorded as this same ${sample.stop ? 'stopped run (the same sample and order, its planned items and its rule, with results for the items it asked)' : "sample (the same seed and items, in the run's order)"}; one made on other documents is recorded as the items it has, and says so.${sample.stop ? " One made on other items of the run's plan (an edited list) is refused." : ''}
`;
}

/** What a cloze export's README says of its formulation, its metrics and how its numbers meet Jiangu's. */
function clozeSection(protocol: McProtocol): string {
  const layout = protocol.cloze;
  return `
## Scoring: option text (cloze)

This is a cloze export. Each task is \`output_type: multiple_choice\` whose choices are the options' **texts**, not their letters: \`doc_to_text\` states the subject and the question without the lettered options and ends in the answer cue \`${layout.answerCue}\`, each exemplar ending in its gold option's text, and the harness scores every option text as the continuation of that context (\`target_delimiter: ""\`: Chinese puts no space before the answer), writing per option the summed log-likelihood and whether every token was the greedy one. The layout follows the ${layout.follows}; it departs from the upstream letter prompt thus: ${layout.departs}.

The metrics are the harness's own (\`process_results\` of \`lm_eval/api/task.py\`), the rules Jiangu's run page shows for a cloze run:
- \`acc\`: the option with the largest summed log-likelihood;
- \`acc_norm\`: the largest sum ÷ the option's length in characters (Python's \`len\`, code points);
- \`acc_bytes\`: the largest sum ÷ the option's UTF-8 bytes.

Jiangu's fourth rule, PMI (each sum minus the same option's sum after the answer cue alone), needs requests these tasks do not make, so runs imported from here have no PMI.

The harness splits each request as Jiangu does (\`TemplateLM._encode_pair\`: the option's tokens are what follows the context's own encoding in the encoding of context + option, and trailing whitespace of the context moves to the option), with \`--model hf\` and \`--model vllm\` alike, so the per-option log-likelihoods are those Jiangu computes for the same model and weights, up to float differences between backends. Two things of Jiangu's can make its numbers differ: its q8 files quantize activations per forward pass, so their scores depend on how a prompt is split; and with prefix reuse it computes the exemplars once per task and the rest on that cache, where the harness runs each whole context. An fp32 or fp16 run in Jiangu is the one to set beside the harness's.

Import the results file and its samples into Jiangu: they come back as a cloze run, each sample's \`acc\`, \`acc_norm\` and \`acc_bytes\` checked against its log-likelihoods. The harness does not write token counts, which such a run therefore lacks.
`;
}

export function readmeText(input: ReadmeInput): string {
  const dataset = getDataset(input.datasetId);
  const { group } = input;
  const total = input.tasks.reduce((sum, task) => sum + (task.items ?? task.docs), 0);
  const licence =
    dataset.license === 'CC BY-NC-SA 4.0'
      ? `The items are your own copy of ${dataset.title}, licensed CC BY-NC-SA 4.0 by its authors (${dataset.attribution.authors}; ${dataset.attribution.url}): non-commercial use, with attribution, sharing adaptations under the same licence. Do not publish this folder under other terms.`
      : `The items come from your own copy of ${dataset.title} (${dataset.license}); share them only as the terms you obtained them under allow.`;
  // Predictions only: every multiple-choice task lacks a key (AC-EVAL's test split).
  const predictOnly = predictsOnly(input.tasks);
  const acEval = predictOnly
    ? `\n${dataset.title} has not released its test answers: every doc's \`answer\` is null, so these tasks only predict. \`doc_to_target\` returns "" for them (the harness's task constructor indexes the choices with an integer target on the first doc, so an integer such as -100 would stop it before any request) and their metric is the harness's \`bypass\`: the harness reports no accuracy, only the model's log-likelihoods, which it writes with \`--predict_only\` (or \`--log_samples\`, which a bypass task requires). It logs "Label index was not in within range of available choices" once per doc: expected, as no doc has an answer. Import the results file and its samples into Jiangu: the run comes back unscored, and **Export predictions (CSV)** on its page gives the predicted letter of every item, for the authors' submission.\n`
    : '';
  const samplesFlag = (predictOnly ? '--predict_only' : '--log_samples') + (input.sample ? ` --samples ${input.sample.file}` : '');
  const generation = input.tasks.filter((task) => task.kind === 'generation');
  const gen = generation.length === 0
    ? ''
    : `\nGeneration tasks (${generation.map((task) => task.task).join(', ')}): \`generate_until\`, greedy (\`do_sample: false\`), at most ${input.maxNewTokens} new tokens, stopping only at the model's end of text, as a Jiangu generation run. Their \`exact_match\` against the first reference is only a placeholder: import the samples and Jiangu scores the outputs with its own metrics (accuracy, F1, BLEU). C3Bench's paper prompts chat models through their chat template: add \`--apply_chat_template\` for such a run.\n`;
  const circular = input.circular
    ? `
## Circular evaluation

This is a circular export: each multiple-choice item is written once per cyclic rotation of its options (OpenCompass's \`circular\`: ABCD, BCDA, CDAB, DABC for four options, fewer for items with fewer options). A doc's \`jiangu_rotation\` (0 … n − 1) says which: rotation k shows at position j the option originally at (j + k) mod n, and its \`answer\` is the letter its gold option moved to; \`jiangu_id\` is the item's, the same in every rotation, and the exemplars are never rotated. The harness's \`acc\` here is therefore the mean accuracy over rotations. Import the samples into Jiangu: each item's rotations come back as one circular run (accuracy per rotation, right under every rotation, at least N, and the prompt's letter bias); an item with a rotation missing is said by name.
`
    : '';
  const cloze = input.cloze === true && input.protocol !== null;
  return `# ${dataset.title}, ${input.shots}-shot, Jiangu's ${cloze ? 'cloze (option text) ' : ''}protocol for lm-evaluation-harness

Written by Jiangu (鉴古) ${input.appVersion}. ${
    cloze
      ? `Protocol \`${input.protocol!.id}\`, cloze layout v${input.protocol!.cloze.version} (the option texts scored as continuations; ${input.protocol!.source}), cloze template hash \`${input.templateHash}\`.`
      : input.protocol
      ? `Protocol \`${input.protocol.id}\` v${input.protocol.version} (${input.protocol.source}), template hash \`${input.templateHash}\`.`
      : `Protocol \`c3bench\` (C3Bench's prompts), template hash \`${input.templateHash}\`.`
  }

## Licence of the data

${licence}

## What is here

- \`${group}.yaml\`: the group. ${
    input.datasetId === 'ancientbench'
      ? "Each competency is a subgroup whose `acc` is Jiangu's competency accuracy (the mean of its tasks). Jiangu's overall is the mean of the four competencies, which the harness cannot express (it averages a group over its leaf tasks, so the top group's `acc` is the mean of all ten tasks): Jiangu recomputes it when you import the samples."
      : predictOnly
        ? 'It collects the tasks; with no answers there is no accuracy to aggregate.'
        : cloze
          ? "Its `acc`, `acc_norm` and `acc_bytes` are Jiangu's overall under each rule, the mean of the multiple-choice task accuracies (`weight_by_size: false`)."
        : input.protocol
          ? "Its `acc` is Jiangu's overall, the mean of the multiple-choice task accuracies (`weight_by_size: false`)."
          : 'It collects the generation tasks; Jiangu scores them when you import the samples.'
  }${predictOnly ? '' : " Jiangu's pooled (micro) accuracy is recomputed from the samples when you import them."}
- Per task (${input.tasks.length} tasks, ${total} items): \`<task>.yaml\` and \`<task>.jsonl\` (one doc per test item${input.circular ? ' and rotation of its options' : ''}: \`jiangu_id\`${input.circular ? ', `jiangu_rotation`' : ''}, question, options, answer letter, and the exemplars Jiangu chose for it).
- \`utils.py\`: ${
    cloze
      ? "`doc_to_text` renders Jiangu's cloze context from the doc, exemplars included, byte for byte; `doc_to_choice` gives the option texts, each the continuation Jiangu scores (`target_delimiter: \"\"`)."
      : "`doc_to_text` renders Jiangu's prompt from the doc, exemplars included, byte for byte; `doc_to_choice` gives the bare letters, which with `target_delimiter: \"\"` are the very tokens Jiangu scores."
  }

Every task has \`num_fewshot: 0\` and \`description: ""\`: the exemplars are in the prompt already. Do not pass \`--num_fewshot\`.
Jiangu drops exemplars from a prompt longer than the model's context; these prompts hold all of them, so keep \`max_length\` at least as long as the longest prompt.
${acEval}${gen}${circular}${cloze ? clozeSection(input.protocol!) : ''}${input.sample ? sampleSection(input.sample) : ''}
## Running it

Run from this folder (the task files name their JSONL relative to it):

\`\`\`sh
cd <this folder>
# Hugging Face backend, one GPU
lm_eval --model hf --model_args pretrained=Qwen/Qwen2.5-7B-Instruct,dtype=bfloat16 \\
  --include_path . --tasks ${group} --device cuda:0 --batch_size auto \\
  ${samplesFlag} --output_path results
# vLLM, tensor parallel over 2 GPUs and 2 data-parallel replicas (4 GPUs)
lm_eval --model vllm --model_args pretrained=Qwen/Qwen2.5-7B-Instruct,dtype=bfloat16,tensor_parallel_size=2,data_parallel_size=2,gpu_memory_utilization=0.85 \\
  --include_path . --tasks ${group} --batch_size auto \\
  ${samplesFlag} --output_path results
\`\`\`

One task alone: \`--tasks ${input.tasks[0]?.name ?? group}\`. Leave out \`--apply_chat_template\` to score the raw prompt as Jiangu's ${cloze ? 'cloze' : 'letter-logit'} runs do (with it, the harness wraps the prompt in the model's chat template; Jiangu records such runs as templated).

Then drop \`results/<model>/results_*.json\` and its \`samples_*.jsonl\` files on Jiangu's Evaluate page (Import): the task metadata carries the protocol, template hash and data file hashes back, and each sample's doc is checked against your stored items.

## Tasks

${
    input.circular
      ? `| task | Jiangu task | kind | items | docs (items × rotations) | exemplars |
| --- | --- | --- | ---: | ---: | ---: |
${input.tasks.map((task) => `| \`${task.name}\` | ${task.task} | ${task.kind} | ${task.items ?? task.docs} | ${task.docs} | ${task.shots} |`).join('\n')}`
      : `| task | Jiangu task | kind | items | exemplars |
| --- | --- | --- | ---: | ---: |
${input.tasks.map((task) => `| \`${task.name}\` | ${task.task} | ${task.kind} | ${task.docs} | ${task.shots} |`).join('\n')}`
  }
`;
}
