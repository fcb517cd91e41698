// A cloze ("option text") prompt from a protocol's cloze layout, an item and its task's dev items:
// one context (subject, exemplars, the question without its options, the answer cue) and one
// continuation per option, its text. The only code that turns ClozeLayout templates into text;
// every rule here has a line in clozeTemplateText (template-hash.ts).
import type { MultipleChoiceItem, OptionLetter } from '../benchmarks/types.ts';
import { shotsFor, subjectFor, type McProtocol } from './mc-protocols.ts';
import { checkOptions, DEFAULT_CONTEXT_LIMIT, fill, firstExemplars, fitExemplars, type BuildPromptOptions, type BuiltPrompt } from './build-prompt.ts';
import { OPTION_LETTERS } from './multiple-choice.ts';
import { jianguError } from '../notices/index.ts';

/** The letter prompt's fields that mean the same here (prefix, subject, exemplars, letters). */
export interface BuiltCloze extends Pick<BuiltPrompt, 'prefix' | 'subject' | 'shotsPlanned' | 'shotsUsed' | 'exemplarIds' | 'droppedExemplarIds' | 'letters'> {
  /** Everything before an option's text: `prefix +` the question and the answer cue. */
  context: string;
  /** One per option, in the item's order: `targetDelimiter +` the option's text. */
  continuations: string[];
  /**
   * The context of the domain-conditional PMI rule (Holtzman et al. 2021): the answer cue alone,
   * after which each continuation is scored again.
   */
  domainContext: string;
  /** True when context + the longest continuation is over the limit even with no exemplar left. */
  overLimit: boolean;
}

/**
 * Builds the cloze prompt for `item` under `protocol.cloze` with `shots` exemplars. Exemplars are
 * chosen as for the letter prompt (the first k dev items of the task by order); each is written as
 * its question, the answer cue and its gold option's text. The context limit is the letter prompt's
 * rule (fitExemplars) applied to context + the longest continuation, the longest sequence the model
 * reads for the item.
 */
export function buildClozePrompt(
  protocol: McProtocol,
  item: MultipleChoiceItem,
  exemplars: readonly MultipleChoiceItem[],
  shots: number,
  options: BuildPromptOptions = {},
): BuiltCloze {
  checkOptions(protocol, item, 'item');
  const layout = protocol.cloze;
  const subject = subjectFor(protocol, item);
  const shotsPlanned = shotsFor(protocol, item.task, shots);
  const selected = firstExemplars(protocol, item, exemplars, shotsPlanned);
  const contextLimit = options.contextLimit ?? DEFAULT_CONTEXT_LIMIT;
  if (!Number.isInteger(contextLimit) || contextLimit < 1) throw new RangeError(`contextLimit must be a positive integer, got ${contextLimit}`);

  const continuations = item.options.map((option) => layout.targetDelimiter + option);
  const longest = continuations.reduce((a, b) => (b.length > a.length ? b : a));
  const question = fill(layout.questionTemplate, { question: item.question }) + layout.answerCue;
  const kept = [...selected];
  const droppedExemplarIds: string[] = [];
  const { built, overLimit } = fitExemplars(kept, droppedExemplarIds, (list) => assemble(protocol, subject, list, question), (b) => b.context + longest, options.countTokens, contextLimit);
  return {
    context: built.context,
    prefix: built.prefix,
    continuations,
    domainContext: layout.answerCue,
    subject,
    shotsPlanned,
    shotsUsed: kept.length,
    exemplarIds: kept.map((exemplar) => exemplar.id),
    droppedExemplarIds,
    letters: OPTION_LETTERS.slice(0, item.options.length),
    overLimit,
  };
}

function assemble(protocol: McProtocol, subject: string, exemplars: readonly MultipleChoiceItem[], question: string) {
  const layout = protocol.cloze;
  const instruction = exemplars.length > 0 && layout.fewShotInstruction !== null ? layout.fewShotInstruction : layout.instruction;
  const exemplarTexts = exemplars.map((exemplar, i) => {
    const gold = exemplar.options[OPTION_LETTERS.indexOf(exemplar.answer as OptionLetter)];
    // firstExemplars saw an answer; one past the options has no text to end the exemplar with.
    if (gold === undefined) throw jianguError('run.exemplar-no-answer', { protocol: protocol.id, exemplarId: exemplar.id });
    return fill(layout.exemplarTemplate, { question: exemplar.question, n: String(i + 1) }) + layout.answerCue + layout.targetDelimiter + gold + layout.exemplarSeparator;
  });
  const prefix = fill(instruction, { subject }) + exemplarTexts.join('');
  return { prefix, exemplarTexts, context: prefix + question };
}
