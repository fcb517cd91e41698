// What the worker holds for a loaded model, and the small helpers every request uses.
import { DynamicCache, Tensor, type PreTrainedModel, type PreTrainedTokenizer } from '@huggingface/transformers';
import type { LoadResult, ModelErrorInfo } from '../src/lib/engine/messages.ts';
import { modelError, type LoadContext } from '../src/lib/engine/model-errors.ts';
import { CHAT_TEMPLATE_OPTIONS } from '../src/lib/core/protocols/chat-template.ts';
import type { LetterInContext } from '../src/lib/core/protocols/letter-tokens.ts';

export interface Loaded {
  model: PreTrainedModel;
  tokenizer: PreTrainedTokenizer;
  context: LoadContext;
  info: LoadResult;
  /** Most logits rows one forward may produce when the graph cannot keep only the last one. */
  maxLogitsRows: number;
  /** The KV cache of the last prefix scored, kept while the next prompts share it. */
  prefixCache: { ids: number[]; cache: DynamicCache } | null;
  /** How a candidate tokenizes after a prompt (the merge check among it), by prompt ending and candidate. */
  mergeChecks: Map<string, LetterInContext>;
}

/** A failure with a message for the user; anything else thrown is classified by the dispatcher. */
export class RequestError extends Error {
  constructor(readonly info: ModelErrorInfo) {
    super(info.message);
  }
}

export function encode(tokenizer: PreTrainedTokenizer, text: string, addSpecialTokens: boolean): number[] {
  return tokenizer.encode(text, { add_special_tokens: addSpecialTokens });
}

/**
 * The prompt as the user turn of the model's chat template, ready for the assistant's answer, with
 * thinking off (CHAT_TEMPLATE_OPTIONS): a Qwen3 template would otherwise expect `<think>` next.
 */
export function applyChatTemplate(tokenizer: PreTrainedTokenizer, prompt: string): string {
  try {
    return tokenizer.apply_chat_template([{ role: 'user', content: prompt }], { tokenize: false, ...CHAT_TEMPLATE_OPTIONS }) as string;
  } catch (error) {
    throw new RequestError(modelError('bad-request', 'model.no-chat-template', [], String(error)));
  }
}

export function idsTensor(ids: number[]): Tensor {
  return new Tensor('int64', BigInt64Array.from(ids, BigInt), [1, ids.length]);
}

export function onesTensor(length: number): Tensor {
  return new Tensor('int64', new BigInt64Array(length).fill(1n), [1, length]);
}
