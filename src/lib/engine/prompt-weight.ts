// What a prompt will cost the model, before it is asked, in characters the model reads for it: the
// unit the time-left estimate (remaining-time.ts) scales the model's time by. Tasks differ in prompt
// length, and with k shots the exemplars are read once per task when the prefix is reused (by the
// first item the run asks of the task), else by every item. Characters stand in for tokens: the
// estimate learns the model's time per character from the prompts already asked.
//
// A rougher count than core/protocols/prompt-chars.ts (the estimate before a run, which builds each
// prompt): the item's text and its exemplars' without the template's words, kept so because this
// runs on the page for every prompt while the worker builds the prompts. Which prompts read the
// prefix is prompt-chars.ts's one rule (prefixReads), so the two agree on where exemplars count.
import { prefixReads } from '../core/protocols/prompt-chars.ts';
import type { Item, MultipleChoiceItem } from '../core/benchmarks/types.ts';
import type { RunRecord } from '../core/record/run.ts';

/** An item's own text: its question and options (a generation item: one unit, its cost being its output's length, unknown beforehand). */
function ownChars(item: Item): number {
  if (item.kind !== 'multiple-choice') return 1;
  return item.question.length + item.options.reduce((sum, o) => sum + o.length, 0);
}

/**
 * The weight of each prompt of a run, given in the order the run asks them: `next(item, rotation)`
 * for an item's own prompt (rotation 0) or one of its rotations.
 */
export function promptWeigher(config: RunRecord['config'], devByTask: ReadonlyMap<string, readonly MultipleChoiceItem[]>): (item: Item, rotation: number) => number {
  const shots = config.kind === 'multiple-choice' ? config.shots : 0;
  const reuse = config.kind === 'multiple-choice' && config.prefixReuse;
  const exemplars = new Map<string, number>();
  const exemplarChars = (task: string) => {
    let chars = exemplars.get(task);
    if (chars === undefined) {
      // The answer letter and the template's words come with each exemplar: a few characters more.
      chars = (devByTask.get(task) ?? []).slice(0, shots).reduce((sum, e) => sum + ownChars(e) + 8, 0);
      exemplars.set(task, chars);
    }
    return chars;
  };
  const reads = prefixReads(reuse);
  return (item, rotation) => {
    const own = ownChars(item);
    if (item.kind !== 'multiple-choice' || shots === 0) return own;
    // A task's exemplars make its prefix. A rotation follows its item: the prefix is already computed.
    const prefixRead = reads(item.task) && (rotation === 0 || !reuse);
    return own + (prefixRead ? exemplarChars(item.task) : 0);
  };
}
