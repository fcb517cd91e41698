// How a (context, continuation) pair becomes tokens, exactly as lm-evaluation-harness does it for
// causal models (TemplateLM._encode_pair, used by its hf and vllm backends): trailing whitespace of
// the context moves to the front of the continuation; the whole text is encoded, the context is
// encoded on its own, and the continuation's tokens are the whole's tokens after the context's
// count. The scored sequence is then the context's own tokens followed by those, so the same model
// gives the same log-likelihoods here and in the harness, even where the tokenizer would merge
// across the boundary (then `contextIsPrefix` is false and the sequence is not the whole's tokens).

/** Python's str.isspace() characters (what `str.rstrip()` strips), which JavaScript's trimEnd does not match exactly (\x1c–\x1f, \x85 yes; \ufeff no). */
const PYTHON_TRAILING_SPACE = /[\t\n\x0b\x0c\r\x1c-\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+$/u;

export interface EncodedPair {
  /** The context after its trailing whitespace moved. */
  context: string;
  /** The continuation with that whitespace in front. */
  continuation: string;
  contextIds: number[];
  /** The whole's tokens after the context's count; what is scored. */
  continuationIds: number[];
  /** Whether the whole's tokens begin with the context's own (no merge across the boundary). */
  contextIsPrefix: boolean;
}

/**
 * The harness's split. `encode` is the model's tokenizer with its special tokens as the harness's
 * tok_encode adds them (add_special_tokens as the tokenizer defines: a BOS for Llama-style
 * SentencePiece, nothing for Qwen). The context must not be empty (the harness asserts the same;
 * an empty context is its prefix-token case, which Jiangu never asks for).
 */
export function encodePair(encode: (text: string) => readonly number[], context: string, continuation: string): EncodedPair {
  if (context === '') throw new RangeError('a cloze context cannot be empty');
  const spaces = PYTHON_TRAILING_SPACE.exec(context)?.[0] ?? '';
  const movedContext = context.slice(0, context.length - spaces.length);
  const movedContinuation = spaces + continuation;
  const whole = encode(movedContext + movedContinuation);
  const contextIds = [...encode(movedContext)];
  const continuationIds = whole.slice(contextIds.length);
  let contextIsPrefix = whole.length >= contextIds.length;
  for (let i = 0; contextIsPrefix && i < contextIds.length; i++) contextIsPrefix = whole[i] === contextIds[i];
  return { context: movedContext, continuation: movedContinuation, contextIds, continuationIds, contextIsPrefix };
}

/** Characters as Python's len() counts them (code points: a CJK Extension B character is one, not two UTF-16 units). */
export function pythonLength(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

/** UTF-8 bytes, as Python's len(text.encode("utf-8")). */
export function utf8Length(text: string): number {
  return new TextEncoder().encode(text).length;
}
