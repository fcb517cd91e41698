// A multiple-choice prompt from a protocol, an item and its task's dev items. The only code that
// turns McProtocol templates into text; every rule here has a line in templateText (template-hash.ts).
import type { MultipleChoiceItem, OptionLetter } from '../benchmarks/types.ts';
import { shotsFor, subjectFor, type McProtocol } from './mc-protocols.ts';
import { OPTION_LETTERS } from './multiple-choice.ts';
import { jianguError } from '../notices/index.ts';

export const DEFAULT_CONTEXT_LIMIT = 2048;

export interface BuildPromptOptions {
  /**
   * Tokens in a text, with the model's tokenizer. Without it the context limit is not checked (as in
   * the CMMLU code when no tokenizer is given).
   */
  countTokens?: (text: string) => number;
  /** Tokens the prompt may have; default 2048 (the CMMLU and ACLUE codes' max_length). */
  contextLimit?: number;
}

export interface BuiltPrompt {
  /** The raw prompt, no chat template: `prefix + ` the item's question and answer cue. */
  prompt: string;
  /**
   * The instruction and the exemplars. The same for every item of a task that keeps the same
   * exemplars, so an engine can reuse its KV cache for it. Items long enough to make exemplars drop
   * get a shorter prefix.
   */
  prefix: string;
  subject: string;
  /** Exemplars asked for after the protocol's per-task cap (AC-EVAL); may exceed the dev items there are. */
  shotsPlanned: number;
  /** Exemplars in the prompt. Fewer than planned when the dev split is short or exemplars were dropped. */
  shotsUsed: number;
  /** Ids of the exemplars in the prompt, in prompt order. */
  exemplarIds: string[];
  /** Ids of exemplars dropped by the context limit, in the order they were dropped. */
  droppedExemplarIds: string[];
  /** The item's letters, A to as many options as it has. */
  letters: OptionLetter[];
  /** True when the prompt is longer than the context limit even with no exemplar left. */
  overLimit: boolean;
}

/**
 * Builds the prompt for `item` under `protocol` with `shots` exemplars.
 *
 * Exemplars: the first `shotsFor(protocol, item.task, shots)` of `exemplars` by `order` (the array
 * may come in any order), which must be dev items of the item's task with an answer.
 *
 * Context limit (only when `countTokens` is given): while countTokens(prompt) > contextLimit and
 * exemplars remain, drop the exemplar whose formatted text (exemplar, cue, answer, separator, as it
 * stands in the prompt) has the most tokens, counted on its own; ties drop the later one; rebuild.
 * Unlike the CMMLU code, which drops every exemplar tied for longest and, when even zero-shot is too
 * long, sends the question without its instruction, this drops one at a time and keeps the
 * instruction, returning the prompt with `overLimit: true`.
 */
export function buildMcPrompt(
  protocol: McProtocol,
  item: MultipleChoiceItem,
  exemplars: readonly MultipleChoiceItem[],
  shots: number,
  options: BuildPromptOptions = {},
): BuiltPrompt {
  checkOptions(protocol, item, 'item');
  const subject = subjectFor(protocol, item);
  const shotsPlanned = shotsFor(protocol, item.task, shots);
  const selected = firstExemplars(protocol, item, exemplars, shotsPlanned);

  const kept = [...selected];
  const droppedExemplarIds: string[] = [];
  const contextLimit = options.contextLimit ?? DEFAULT_CONTEXT_LIMIT;
  if (!Number.isInteger(contextLimit) || contextLimit < 1) throw new RangeError(`contextLimit must be a positive integer, got ${contextLimit}`);
  const questionPart = formatQuestion(protocol, protocol.questionTemplate, item, 0);
  const { built, overLimit } = fitExemplars(kept, droppedExemplarIds, (list) => assemble(protocol, subject, list, questionPart), (b) => b.prompt, options.countTokens, contextLimit);
  return {
    prompt: built.prompt,
    prefix: built.prefix,
    subject,
    shotsPlanned,
    shotsUsed: kept.length,
    exemplarIds: kept.map((exemplar) => exemplar.id),
    droppedExemplarIds,
    letters: OPTION_LETTERS.slice(0, item.options.length),
    overLimit,
  };
}

/** The first `count` of `exemplars` by order (then id), each checked to be a dev item of the item's task with an answer. */
export function firstExemplars(protocol: McProtocol, item: MultipleChoiceItem, exemplars: readonly MultipleChoiceItem[], count: number): MultipleChoiceItem[] {
  const selected = [...exemplars].sort((a, b) => a.order - b.order || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)).slice(0, count);
  for (const exemplar of selected) checkExemplar(protocol, item, exemplar);
  return selected;
}

/**
 * The context-limit rule both prompt kinds share (see buildMcPrompt): while `counted(built)` has more
 * tokens than the limit and exemplars remain, drop the exemplar whose own text has the most tokens
 * (ties: the later one) and build again. `kept` is changed in place and the dropped ids appended.
 */
export function fitExemplars<T extends { exemplarTexts: string[] }>(
  kept: MultipleChoiceItem[],
  dropped: string[],
  build: (kept: readonly MultipleChoiceItem[]) => T,
  counted: (built: T) => string,
  count: ((text: string) => number) | undefined,
  limit: number,
): { built: T; overLimit: boolean } {
  let built = build(kept);
  if (!count) return { built, overLimit: false };
  while (count(counted(built)) > limit && kept.length > 0) {
    const lengths = built.exemplarTexts.map((text) => count(text));
    let longest = 0;
    for (let i = 1; i < lengths.length; i++) if (lengths[i] >= lengths[longest]) longest = i;
    dropped.push(kept[longest].id);
    kept.splice(longest, 1);
    built = build(kept);
  }
  return { built, overLimit: count(counted(built)) > limit };
}

function assemble(protocol: McProtocol, subject: string, exemplars: readonly MultipleChoiceItem[], questionPart: string) {
  const instruction = exemplars.length > 0 && protocol.fewShotInstruction !== null ? protocol.fewShotInstruction : protocol.instruction;
  const exemplarTexts = exemplars.map(
    (exemplar, i) => formatQuestion(protocol, protocol.exemplarTemplate, exemplar, i + 1) + exemplar.answer + protocol.exemplarSeparator,
  );
  const prefix = fill(instruction, { subject }) + exemplarTexts.join('');
  return { prefix, exemplarTexts, prompt: prefix + questionPart };
}

/** A question block ending with the answer cue; `n` is the exemplar's position (0 for the item). */
function formatQuestion(protocol: McProtocol, template: string, item: MultipleChoiceItem, n: number): string {
  const options = item.options
    .map((option, i) => fill(protocol.optionTemplate, { letter: OPTION_LETTERS[i], option }))
    .join(protocol.optionSeparator);
  return fill(template, { question: item.question, options, n: String(n) }) + protocol.answerCue;
}

/** Replaces `{name}` in one pass, so text from a dataset that contains `{options}` is left alone. */
export function fill(template: string, values: Readonly<Record<string, string>>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => values[name] ?? whole);
}

export function checkOptions(protocol: McProtocol, item: MultipleChoiceItem, role: string): void {
  if (item.options.length < 2 || item.options.length > OPTION_LETTERS.length) {
    throw jianguError('run.item-options', { protocol: protocol.id, role, itemId: item.id, options: item.options.length, max: OPTION_LETTERS.length });
  }
}

export function checkExemplar(protocol: McProtocol, item: MultipleChoiceItem, exemplar: MultipleChoiceItem): void {
  checkOptions(protocol, exemplar, 'exemplar');
  if (exemplar.task !== item.task) {
    throw jianguError('run.exemplar-task', { protocol: protocol.id, exemplarId: exemplar.id, exemplarTask: exemplar.task, itemId: item.id, itemTask: item.task });
  }
  if (exemplar.split !== 'dev') throw jianguError('run.exemplar-split', { protocol: protocol.id, exemplarId: exemplar.id, split: exemplar.split });
  if (exemplar.answer === null) throw jianguError('run.exemplar-no-answer', { protocol: protocol.id, exemplarId: exemplar.id });
}
