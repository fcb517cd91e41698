// The multiple-choice protocols as data (lm-evaluation-harness style): every string and rule that
// shapes a prompt lives in one record, so templateText can spell it out and its hash goes into every
// result. buildMcPrompt (build-prompt.ts) is the only code that reads these records to make text.
//
// Sources, checked against the upstream code:
//  - CMMLU, src/mp_utils.py (format_example, gen_prompt): instruction, `题目：`, `A. …`, `答案是：`,
//    exemplars = the first k dev rows, each followed by its answer and a blank line.
//  - ACLUE, src/utils.py: the same code with subject = the file name.
//  - AC-EVAL, src/evaluate/eval.py and data.py: zero-shot `prompt_zero`; few-shot uses `prompt_few`
//    (a different instruction) and numbers exemplars `示例1：` instead of `题目：`; the number of
//    exemplars is 5, but 3 for sentence_pauses, translation, poetry_appreciation and 1 for
//    summarization_and_analysis (`num_few_shot`).
//  - AncientBench and WenMind publish no scoring code for letter logits: they reuse the CMMLU layout.
import { findTask } from '../benchmarks/catalog.ts';
import type { DatasetId, MultipleChoiceItem } from '../benchmarks/types.ts';

export type McProtocolId = 'cmmlu' | 'ancientbench' | 'aclue' | 'wenmind-mc' | 'ac-eval';

/**
 * How `{subject}` is filled. A named rule rather than a function, so that the hash covers it.
 *  - `catalog-task-zh`: the Chinese name the catalog gives `item.task` (CMMLU 古汉语, AC-EVAL 历史史实,
 *    AncientBench 部首, …); an item whose task is not in the catalog is refused.
 *  - `item-task`: `item.task` as it is (ACLUE: the file name; WenMind: coarse_grained_task_zh).
 */
export type SubjectRule = 'catalog-task-zh' | 'item-task';

/**
 * How the letters are scored: one forward pass over the prompt; at the last position, the logits of
 * the tokens of the item's option letters; prediction = argmax (ties to the earlier letter). Stored:
 * each letter's log-probability under the full vocabulary and the softmax over the letters only.
 */
export type McScoringRule = 'letter-logits';

export interface McProtocol {
  id: McProtocolId;
  /** Bumped whenever anything below changes; the hash changes with it. */
  version: number;
  title: string;
  /** The upstream code the template copies (repository and file), for the run record. */
  source: string;
  datasets: readonly DatasetId[];
  /** Opens every prompt; `{subject}` is replaced. */
  instruction: string;
  /** Opens a prompt that holds at least one exemplar; null: `instruction` either way. */
  fewShotInstruction: string | null;
  /** The item being asked: `{question}` and `{options}`; the answer cue follows. */
  questionTemplate: string;
  /** An exemplar: `{question}`, `{options}`, `{n}` (its 1-based position in the prompt); then the answer cue, its answer letter and `exemplarSeparator`. */
  exemplarTemplate: string;
  /** One option: `{letter}` and `{option}`. */
  optionTemplate: string;
  /** Between options. Only the item's own letters are laid out (two to four). */
  optionSeparator: string;
  answerCue: '答案是：' | '答案：';
  /** After an exemplar's answer letter. */
  exemplarSeparator: string;
  subjectRule: SubjectRule;
  /** The most exemplars a run may ask for (0: zero-shot only). */
  maxShots: 0 | 5;
  /** Per-task caps below maxShots, by task key (AC-EVAL's long-text tasks). */
  shotsByTask: Readonly<Record<string, number>>;
  scoring: McScoringRule;
  /** The protocol's cloze ("option text") layout: the same benchmark scored on its options' texts (build-cloze.ts). */
  cloze: ClozeLayout;
}

/**
 * How the options' texts are scored (McRunConfig.scoring `cloze`): per option, the summed
 * log-probability of its text as the continuation of a context that states the subject and the
 * question without the lettered options and ends in the answer cue (lm-evaluation-harness's
 * `output_type: multiple_choice` with the option texts as choices, OLMES's "cloze formulation").
 * Stored per option: the sum, its token, character and UTF-8 byte counts, whether every token was
 * the argmax, and the same sum after the answer cue alone (for PMI); the rules (acc, acc_norm,
 * acc_bytes, PMI) are metrics over these (core/metrics/cloze-rules.ts).
 */
export interface ClozeLayout {
  /** Bumped whenever anything here changes; the cloze template hash changes with it. */
  version: number;
  /** Opens every context; `{subject}` is replaced. Its own text: the letter instruction asks for an option letter. */
  instruction: string;
  /** Opens a context that holds at least one exemplar; null: `instruction` either way. */
  fewShotInstruction: string | null;
  /** The item being asked: `{question}` only (no options); the answer cue follows. */
  questionTemplate: string;
  /** An exemplar: `{question}` and `{n}`; then the answer cue, its gold option's text and `exemplarSeparator`. */
  exemplarTemplate: string;
  answerCue: McProtocol['answerCue'];
  exemplarSeparator: string;
  /**
   * Written between the answer cue and an option's text: the harness's `target_delimiter`. Empty:
   * Chinese puts no space between words (the harness's default " " would make every option start
   * with a space the benchmark never has).
   */
  targetDelimiter: '';
  /** The published layout this follows. */
  follows: string;
  /** How it departs from the upstream letter prompt. */
  departs: string;
}

const CLOZE_FOLLOWS =
  'OLMES cloze formulation (Gu et al. 2024, arXiv 2406.08446: "Question: {q}\\nAnswer:" + " {choice}"), as in lighteval\'s CF templates and lm-evaluation-harness multiple_choice tasks with the option texts as choices';
const CLOZE_DEPARTS =
  'the lettered option lines are left out; the answer cue is followed by an option\'s text, not its letter; exemplars end with their gold option\'s text; the instruction asks for the answer, not for its option; no space before the option text (target_delimiter "")';

/** The CMMLU layout as cloze: instruction, `题目：`, the answer cue, then an option's text. */
const cmmluCloze: ClozeLayout = {
  version: 1,
  instruction: '以下是关于{subject}的问题，请直接给出正确答案。\n\n',
  fewShotInstruction: null,
  questionTemplate: '题目：{question}\n',
  exemplarTemplate: '题目：{question}\n',
  answerCue: '答案是：',
  exemplarSeparator: '\n\n',
  targetDelimiter: '',
  follows: CLOZE_FOLLOWS,
  departs: CLOZE_DEPARTS,
};

const CMMLU_INSTRUCTION = '以下是关于{subject}的单项选择题，请直接给出正确答案的选项。\n\n';
const CMMLU_QUESTION = '题目：{question}\n{options}\n';

/** The CMMLU layout; the other protocols differ in the fields they override. */
const cmmluLayout = {
  version: 1,
  instruction: CMMLU_INSTRUCTION,
  fewShotInstruction: null,
  questionTemplate: CMMLU_QUESTION,
  exemplarTemplate: CMMLU_QUESTION,
  optionTemplate: '{letter}. {option}',
  optionSeparator: '\n',
  answerCue: '答案是：',
  exemplarSeparator: '\n\n',
  shotsByTask: {},
  scoring: 'letter-logits',
  cloze: cmmluCloze,
} as const;

export const MC_PROTOCOLS: readonly McProtocol[] = [
  {
    ...cmmluLayout,
    id: 'cmmlu',
    title: 'CMMLU (official code)',
    source: 'haonan-li/CMMLU src/mp_utils.py',
    datasets: ['cmmlu-ancient'],
    subjectRule: 'catalog-task-zh',
    maxShots: 5,
  },
  {
    ...cmmluLayout,
    id: 'aclue',
    title: 'ACLUE (official code)',
    source: 'isen-zhang/ACLUE src/utils.py',
    datasets: ['aclue'],
    subjectRule: 'item-task',
    maxShots: 5,
  },
  {
    ...cmmluLayout,
    id: 'ancientbench',
    title: 'AncientBench (CMMLU layout)',
    source: 'haonan-li/CMMLU src/mp_utils.py (layout), subject = AncientBench task name in Chinese',
    datasets: ['ancientbench'],
    subjectRule: 'catalog-task-zh',
    maxShots: 5,
  },
  {
    ...cmmluLayout,
    id: 'wenmind-mc',
    title: 'WenMind multiple choice (CMMLU layout)',
    source: 'haonan-li/CMMLU src/mp_utils.py (layout), subject = WenMind coarse task name',
    datasets: ['wenmind'],
    subjectRule: 'item-task',
    maxShots: 0,
  },
  {
    ...cmmluLayout,
    id: 'ac-eval',
    title: 'AC-EVAL (official code)',
    source: 'yuting-wei/AC-EVAL src/evaluate/eval.py, src/evaluate/data.py',
    datasets: ['ac-eval'],
    instruction: '以下是中国古代{subject}领域的单项选择题，请直接给出正确答案对应的选项。\n\n',
    fewShotInstruction: '以下是中国古代{subject}领域的单项选择题。在查看这些示例之后，请直接给出接下来一道题目的正确答案所对应的选项。\n\n',
    exemplarTemplate: '示例{n}：{question}\n{options}\n',
    answerCue: '答案：',
    subjectRule: 'catalog-task-zh',
    maxShots: 5,
    shotsByTask: { sentence_pauses: 3, translation: 3, poetry_appreciation: 3, summarization_and_analysis: 1 },
    cloze: {
      ...cmmluCloze,
      instruction: '以下是中国古代{subject}领域的问题，请直接给出正确答案。\n\n',
      fewShotInstruction: '以下是中国古代{subject}领域的问题。在查看这些示例之后，请直接给出接下来一道题目的正确答案。\n\n',
      exemplarTemplate: '示例{n}：{question}\n',
      answerCue: '答案：',
    },
  },
];

const byId = new Map(MC_PROTOCOLS.map((protocol) => [protocol.id, protocol]));

export function listProtocols(): readonly McProtocol[] {
  return MC_PROTOCOLS;
}

export function getProtocol(id: McProtocolId): McProtocol {
  const protocol = byId.get(id);
  if (!protocol) throw new RangeError(`unknown protocol id "${id}"; expected one of ${MC_PROTOCOLS.map((p) => p.id).join(', ')}`);
  return protocol;
}

/** The protocol a dataset's multiple-choice items are scored with; C3Bench has none (generation only). */
export function protocolForDataset(datasetId: DatasetId): McProtocol {
  const protocol = MC_PROTOCOLS.find((p) => p.datasets.includes(datasetId));
  if (!protocol) throw new RangeError(`dataset "${datasetId}" has no multiple-choice protocol`);
  return protocol;
}

/** The text that replaces `{subject}` for this item. */
export function subjectFor(protocol: McProtocol, item: Pick<MultipleChoiceItem, 'datasetId' | 'task'>): string {
  if (protocol.subjectRule === 'item-task') return item.task;
  const task = findTask(item.datasetId, item.task);
  if (!task) throw new RangeError(`protocol "${protocol.id}": task "${item.task}" is not in the ${item.datasetId} catalog, so it has no Chinese name for {subject}`);
  return task.zh;
}

/** The number of exemplars a task gets when `requested` are asked for: the per-task cap applies. */
export function shotsFor(protocol: McProtocol, task: string, requested: number): number {
  if (!Number.isInteger(requested) || requested < 0 || requested > protocol.maxShots) {
    throw new RangeError(`protocol "${protocol.id}" takes 0 to ${protocol.maxShots} shots, got ${requested}`);
  }
  const cap = protocol.shotsByTask[task];
  return cap === undefined ? requested : Math.min(requested, cap);
}
