// The size of the text a run would make the model read, in characters, built exactly as the worker
// builds its prompts (buildMcPrompt, buildClozePrompt), for the time estimate before a run
// (core/metrics/run-estimate.ts turns it into tokens at a measured run's tokens per character).
// Characters, not tokens: the tokenizer lives in the model's worker, and nothing is loaded yet.
import type { MultipleChoiceItem } from '../benchmarks/types.ts';
import { buildMcPrompt } from './build-prompt.ts';
import { buildClozePrompt } from './build-cloze.ts';
import type { McProtocol } from './mc-protocols.ts';

export interface PromptCharsRequest {
  protocol: McProtocol;
  scoring: 'letter-logits' | 'cloze';
  shots: number;
  /** Whether the instruction-and-exemplars prefix is computed once per task (McRunConfig.prefixReuse). */
  reusePrefix: boolean;
  /** The run's items, in order. */
  items: readonly MultipleChoiceItem[];
  /** Each task's dev items, the exemplars' source. */
  devByTask: ReadonlyMap<string, readonly MultipleChoiceItem[]>;
}

/** Per item, the characters the model processes for it, and those of the reused prefixes it reads. */
export interface PromptChars {
  perItem: number[];
  prefixes: number;
}

/**
 * Whether the model reads a prompt's prefix (the instruction and exemplars): on every prompt without
 * reuse; with reuse, only when the prefix differs from the prompt before's, as the worker keeps one
 * prefix's KV cache (workers/loaded-model.ts prefixCache). One rule for both counters of prompt
 * size: promptChars here, before a run, and engine/prompt-weight.ts, while it runs.
 */
export function prefixReads(reuse: boolean): (prefixKey: string) => boolean {
  let last: string | null = null;
  return (key) => {
    const read = !reuse || key !== last;
    last = key;
    return read;
  };
}

/**
 * Per item, the characters the model processes for it (letters: the prompt after a reused prefix;
 * cloze: that context, and each option's text twice, after it and after the answer cue alone for
 * PMI), and each reused prefix where the model reads it (prefixReads: once per task, the run asking
 * a task's items together). The context limit is not applied (no tokenizer): a prompt that would
 * drop exemplars counts them.
 */
export function promptChars(request: PromptCharsRequest): PromptChars {
  const reads = prefixReads(true);
  let prefixes = 0;
  const perItem = request.items.map((item) => {
    const dev = request.devByTask.get(item.task) ?? [];
    const built = request.scoring === 'cloze' ? buildClozePrompt(request.protocol, item, dev, request.shots) : buildMcPrompt(request.protocol, item, dev, request.shots);
    const text = 'context' in built ? built.context : built.prompt;
    const options = 'continuations' in built ? built.continuations.reduce((a, c) => a + 2 * c.length, 0) : 0;
    if (!request.reusePrefix || !built.prefix) return text.length + options;
    if (reads(built.prefix)) prefixes += built.prefix.length;
    return text.length - built.prefix.length + options;
  });
  return { perItem, prefixes };
}
