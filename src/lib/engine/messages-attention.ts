// The attention view's requests (issue 45 §4, "Where the model looks"; workers/attention.ts), kept
// beside messages.ts, which re-exports them and lists them in its RequestMap.
import type { PassagePiece } from '../core/reading/passage.ts';
export type { AttentionLayout, AttentionPath } from '../core/models/attention-rewrite.ts';

/** A passage read once; its queries and keys stay in the worker for attentionAt. */
export interface AttentionReadParams {
  text: string;
  /** Refused (run.item-too-long) past this many tokens. */
  contextLimit?: number;
}

export interface AttentionReadResult {
  /** The text's tokens as the model's tokenizer cuts them, and each token's own text (as LogitLensResult's). */
  ids: number[];
  pieces: PassagePiece[];
  layers: number;
  /** Query heads, and the key heads they share (grouped-query attention: heads / kvHeads query heads a key head). */
  heads: number;
  kvHeads: number;
  /** ids.length: attentionAt takes positions 0 … tokens − 1. */
  tokens: number;
  passes: number;
  forwardMs: number;
  /** Bytes the worker keeps for attentionAt (queries and keys), until the next attentionRead, unload or load. */
  keptBytes: number;
  /** The largest differences the per-pass checks saw (null: no layer of that kind; attention-passes.ts). */
  check: { rotation: number | null; softmax: number | null };
}

export interface AttentionAtParams {
  /** The query position: the model's state after ids[position], predicting the next token. */
  position: number;
}

export interface AttentionAtResult {
  position: number;
  layers: number;
  heads: number;
  /** Layer l, head h, key j (0 … position) at (l · heads + h) · (position + 1) + j; each head's row sums to 1. */
  weights: Float32Array;
  /** The heads averaged: layer l, key j at l · (position + 1) + j. */
  averaged: Float32Array;
}
