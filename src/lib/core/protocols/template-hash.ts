// A canonical text of everything in a protocol that shapes a prompt or its score, and its SHA-256.
// The hash goes into every result, so two results compare only when their hashes match. Strings are
// written with JSON.stringify, so a changed space or newline changes the text visibly.
import type { McProtocol } from './mc-protocols.ts';
import { CHAT_TEMPLATE_RULE } from './chat-template.ts';

/** How a run wraps its prompts; the chat template's rendering is part of what is hashed. */
export interface TemplateHashOptions {
  chatTemplate?: boolean;
}

const SUBJECT_RULES: Record<McProtocol['subjectRule'], string> = {
  'catalog-task-zh': "the catalog's Chinese name of the item's task",
  'item-task': "the item's task key as it is",
};

const SCORING_RULES: Record<McProtocol['scoring'], string> = {
  'letter-logits':
    "one forward pass over the prompt; logits at the last position for the tokens of the item's option letters; prediction = argmax, ties to the earlier letter; stored: log-probabilities under the full vocabulary and the softmax over the letters",
};

/** The per-task shot caps as `task=shots`, sorted by task, comma-separated. */
function capsText(protocol: McProtocol): string {
  return Object.entries(protocol.shotsByTask)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([task, shots]) => `${task}=${shots}`)
    .join(',');
}

/**
 * One `name: value` line per field that affects a prompt or its score (not the title, source or
 * dataset list), plus the fixed rules of buildMcPrompt, in a fixed order. Change a rule in
 * build-prompt.ts and its line here (and the protocol versions) together.
 */
export function templateText(protocol: McProtocol, options: TemplateHashOptions = {}): string {
  const q = (text: string | null): string => JSON.stringify(text);
  const caps = capsText(protocol);
  return [
    `protocol: ${protocol.id}`,
    `version: ${protocol.version}`,
    `instruction: ${q(protocol.instruction)}`,
    `few-shot instruction: ${q(protocol.fewShotInstruction)}`,
    `question: ${q(protocol.questionTemplate)}`,
    `exemplar: ${q(protocol.exemplarTemplate)}`,
    `option: ${q(protocol.optionTemplate)}`,
    `option separator: ${q(protocol.optionSeparator)}`,
    `answer cue: ${q(protocol.answerCue)}`,
    `exemplar separator: ${q(protocol.exemplarSeparator)}`,
    `subject: ${SUBJECT_RULES[protocol.subjectRule]}`,
    `max shots: ${protocol.maxShots}`,
    `shots by task: ${caps || '(none)'}`,
    "exemplars: the first k dev items of the item's task by order; an exemplar without an answer is refused",
    'letters: only the item\'s own option letters, A to D',
    'prompt: instruction (the few-shot one when an exemplar remains), exemplars (each: exemplar, answer cue, answer letter, exemplar separator), question, answer cue',
    'context limit: while the prompt has more tokens than the limit and exemplars remain, drop the exemplar with the most tokens (ties: the later one); with none left, keep the prompt and flag it over the limit',
    `scoring: ${SCORING_RULES[protocol.scoring]}`,
    // Only with the chat template on, so hashes of runs without it stay what they were.
    ...(options.chatTemplate ? [CHAT_TEMPLATE_RULE] : []),
  ].join('\n');
}

/**
 * The cloze counterpart of templateText: every field of `protocol.cloze` and the fixed rules of
 * buildClozePrompt and of the cloze scoring (encode-pair.ts, the worker's scoreCloze). It starts
 * with its own scoring line, so no cloze hash can equal a letter hash.
 */
export function clozeTemplateText(protocol: McProtocol, options: TemplateHashOptions = {}): string {
  const q = (text: string | null): string => JSON.stringify(text);
  const layout = protocol.cloze;
  const caps = capsText(protocol);
  return [
    'scoring: cloze (option text)',
    `protocol: ${protocol.id}`,
    `cloze version: ${layout.version}`,
    `instruction: ${q(layout.instruction)}`,
    `few-shot instruction: ${q(layout.fewShotInstruction)}`,
    `question: ${q(layout.questionTemplate)}`,
    `exemplar: ${q(layout.exemplarTemplate)}`,
    `answer cue: ${q(layout.answerCue)}`,
    `exemplar separator: ${q(layout.exemplarSeparator)}`,
    `target delimiter: ${q(layout.targetDelimiter)}`,
    `subject: ${SUBJECT_RULES[protocol.subjectRule]}`,
    `max shots: ${protocol.maxShots}`,
    `shots by task: ${caps || '(none)'}`,
    "exemplars: the first k dev items of the item's task by order; an exemplar without an answer is refused",
    "context: instruction (the few-shot one when an exemplar remains), exemplars (each: exemplar, answer cue, target delimiter, its gold option's text, exemplar separator), question, answer cue",
    'continuations: target delimiter + each option text, in the item\'s order',
    'context limit: the letter rule on context + the longest continuation',
    "tokens: lm-evaluation-harness TemplateLM._encode_pair (trailing whitespace of the context moves to the continuation; continuation = encode(context + continuation) after len(encode(context)) tokens), special tokens as the tokenizer adds them",
    'score per option: sum over the continuation tokens of log-softmax over the full vocabulary; token, character (code point) and UTF-8 byte counts; is_greedy = every token the argmax; the same sum after the answer cue alone (domain-conditional PMI)',
    'prediction: acc = argmax of the sums, ties to the first option; acc_norm, acc_bytes and PMI are metrics over the stored numbers',
    ...(options.chatTemplate ? [CHAT_TEMPLATE_RULE] : []),
  ].join('\n');
}

/** SHA-256 (hex) of clozeTemplateText(protocol): the value stored with every cloze result. */
export function clozeTemplateHash(protocol: McProtocol, options: TemplateHashOptions = {}): Promise<string> {
  return sha256Hex(clozeTemplateText(protocol, options));
}

/** Lower-case hex SHA-256 of the UTF-8 bytes of `text` (crypto.subtle: browsers, workers, Node 20). */
export async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** SHA-256 (hex) of templateText(protocol): the value stored with every result. */
export function templateHash(protocol: McProtocol, options: TemplateHashOptions = {}): Promise<string> {
  return sha256Hex(templateText(protocol, options));
}
