// How a prompt is put into a model's chat template. Qwen3's template, rendered with
// add_generation_prompt alone, leaves the model in thinking mode: its next token is `<think>`, not
// a letter, and a generation spends its budget thinking. With enable_thinking:false it appends an
// empty `<think>\n\n</think>\n\n` and the answer comes at once. Templates that do not read the
// variable ignore it, so it is always passed.

/** The options apply_chat_template gets for every prompt (besides `tokenize: false`). */
export const CHAT_TEMPLATE_OPTIONS = { add_generation_prompt: true, enable_thinking: false } as const;

/** The rule's line in a template hash: a run with the chat template on hashes it, one without does not. */
export const CHAT_TEMPLATE_RULE =
  'chat template: the prompt as the only user turn, rendered with add_generation_prompt=true and enable_thinking=false (thinking off)';

/** What a run records about thinking: only chat-template runs have a template to turn it off in. */
export type ThinkingMode = 'off';
