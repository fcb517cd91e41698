// Decoder shapes and their multiply-adds, for the benches' compute-only estimates: how much of a
// forward pass the LM head is, on the fixtures and on real models of the Qwen vocabulary.
// Shared by cloze.ts (cloze ÷ letters) and statistics.ts (statistics ÷ a one-row forward).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../site-routes.ts';

/** A decoder's multiply-adds per token through its layers, and per logits row of its head (attention over the context left out). */
export interface Shape {
  name: string;
  layers: number;
  hidden: number;
  heads: number;
  kvHeads: number;
  headDim: number;
  intermediate: number;
  vocab: number;
}

/** Per token through the layers: the q, k, v and o projections and the gated MLP (norms, RoPE and attention over the context left out). */
export const bodyMacs = (m: Shape) => m.layers * (m.hidden * (m.heads + 2 * m.kvHeads) * m.headDim + m.heads * m.headDim * m.hidden + 3 * m.hidden * m.intermediate);
/** Per logits row: hidden × vocabulary. */
export const headMacs = (m: Shape) => m.hidden * m.vocab;
/** Per token attending to `context` positions, all layers: q·kᵀ and the weighted sum of v, every query head. */
export const attentionMacs = (m: Shape, context: number) => m.layers * 2 * m.heads * m.headDim * context;

/** Two hub models of the Qwen vocabulary the site offers (their config.json), for the projection. */
export const REAL_SHAPES: readonly Shape[] = [
  { name: 'Qwen2.5-0.5B-Instruct', layers: 24, hidden: 896, heads: 14, kvHeads: 2, headDim: 64, intermediate: 4864, vocab: 151_936 },
  { name: 'Qwen3-0.6B', layers: 28, hidden: 1024, heads: 16, kvHeads: 8, headDim: 128, intermediate: 3072, vocab: 151_936 },
];

/** A fixture's shape, from its config.json under .fixtures/models. */
export function fixtureShape(model: string): Shape {
  const c = JSON.parse(readFileSync(join(projectRoot, '.fixtures', 'models', model, 'config.json'), 'utf8')) as {
    num_hidden_layers: number;
    hidden_size: number;
    num_attention_heads: number;
    num_key_value_heads: number;
    head_dim?: number;
    intermediate_size: number;
    vocab_size: number;
  };
  return { name: model, layers: c.num_hidden_layers, hidden: c.hidden_size, heads: c.num_attention_heads, kvHeads: c.num_key_value_heads, headDim: c.head_dim ?? c.hidden_size / c.num_attention_heads, intermediate: c.intermediate_size, vocab: c.vocab_size };
}
