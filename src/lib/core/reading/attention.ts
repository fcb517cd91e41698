// Where the model looks (issue 45 §4): each layer's attention of one query position over the
// positions before it, computed in the tab from the model's own queries and keys. Pure arithmetic
// (no DOM, no worker API), so the worker (workers/attention.ts) and the Node tests run the same code.
//
// Definitions, for one layer with H query heads, G key/value heads (H a multiple of G) and head
// size d; q_h(t) is query head h at position t after the rotary embedding, k_g(j) key head g at
// position j after it (the cache's keys), s the layer's scale (1/√d unless the graph says otherwise):
//   score_h(t, j) = s · Σ_i q_h(t)_i · k_g(j)_i      with g = ⌊h / (H / G)⌋ (grouped-query heads:
//                                                    each key head serves H / G consecutive query heads)
//   a_h(t, j)     = exp(score_h(t, j) − m) / Σ_{j' ≤ t} exp(score_h(t, j') − m),   j = 0 … t
//                   (causal: position t sees itself and the positions before it; m = max_j score)
//   ā(t, j)       = (1 / H) Σ_h a_h(t, j)            (heads averaged)
// Sums and the softmax are float64; q and k are the graph's float32 (or float16) values as given.
// Position t's row is the model's state when it predicts the token after t.
//
// The rotary embedding, from the cos/sin rows of a position (R = rotary dimension ≤ d, R/2 values
// each; dimensions from R on pass through unchanged), in the two layouts onnxruntime's
// GroupQueryAttention and RotaryEmbedding know:
//   'half' (rotary_interleaved 0, Hugging Face's rotate_half): for i < R/2, with a = x_i, b = x_{i+R/2}
//        x'_i = a·cos_i − b·sin_i,   x'_{i+R/2} = b·cos_i + a·sin_i
//   'interleaved' (rotary_interleaved 1, GPT-J's pairs): for i < R/2, with a = x_{2i}, b = x_{2i+1}
//        x'_{2i} = a·cos_i − b·sin_i,   x'_{2i+1} = b·cos_i + a·sin_i

/** How the rotary embedding pairs a head's dimensions (see the header). */
export type RotaryLayout = 'half' | 'interleaved';

/**
 * Rotates one head vector: `d` values of `x` from `xAt` into `out` from `outAt`, with `half` (= R/2)
 * cos and sin values from `cos[rowAt …]` and `sin[rowAt …]`. Computed in float64; the caller's `out`
 * rounds (a Float32Array gives what a float32 graph holds, to its last bit or one step from it).
 */
export function rotateHead(
  x: ArrayLike<number>,
  xAt: number,
  d: number,
  cos: ArrayLike<number>,
  sin: ArrayLike<number>,
  rowAt: number,
  half: number,
  layout: RotaryLayout,
  out: { [i: number]: number },
  outAt: number,
): void {
  if (2 * half > d) throw new RangeError(`a rotary dimension of ${2 * half} does not fit a head of ${d}`);
  for (let i = 2 * half; i < d; i++) out[outAt + i] = x[xAt + i];
  for (let i = 0; i < half; i++) {
    const c = cos[rowAt + i];
    const s = sin[rowAt + i];
    const ia = layout === 'half' ? i : 2 * i;
    const ib = layout === 'half' ? i + half : 2 * i + 1;
    const a = x[xAt + ia];
    const b = x[xAt + ib];
    out[outAt + ia] = a * c - b * s;
    out[outAt + ib] = b * c + a * s;
  }
}

/** The key head that query head `head` reads: ⌊head / (heads / kvHeads)⌋. */
export function kvHeadOf(head: number, heads: number, kvHeads: number): number {
  return Math.floor(head / (heads / kvHeads));
}

/**
 * One layer's queries and keys. `q` is [heads, qTokens, headDim] and `k` [kvHeads, kTokens, headDim],
 * row-major (the layout of onnxruntime's [batch, heads, tokens, head_dim] tensors without the batch).
 */
export interface LayerQK {
  heads: number;
  kvHeads: number;
  headDim: number;
  scale: number;
  q: ArrayLike<number>;
  qTokens: number;
  k: ArrayLike<number>;
  kTokens: number;
}

/**
 * The attention of position `position` over keys 0 … position, per head: [heads × (position + 1)],
 * head-major. `queryIndex` is where that position's query lies in `layer.q` (by default the position
 * itself; a pass's queries start at the pass's first position).
 */
export function attentionRow(layer: LayerQK, position: number, queryIndex = position): Float64Array {
  const { heads, kvHeads, headDim: d, scale, q, k, qTokens, kTokens } = layer;
  if (!Number.isInteger(heads / kvHeads) || heads <= 0 || kvHeads <= 0) throw new RangeError(`${heads} query heads cannot share ${kvHeads} key heads`);
  if (position < 0 || position >= kTokens || queryIndex < 0 || queryIndex >= qTokens) throw new RangeError(`position ${position} (query ${queryIndex}) is outside ${kTokens} keys / ${qTokens} queries`);
  const n = position + 1;
  const out = new Float64Array(heads * n);
  for (let h = 0; h < heads; h++) {
    const qAt = (h * qTokens + queryIndex) * d;
    const kBase = kvHeadOf(h, heads, kvHeads) * kTokens * d;
    let max = -Infinity;
    for (let j = 0; j < n; j++) {
      let dot = 0;
      const kAt = kBase + j * d;
      for (let i = 0; i < d; i++) dot += q[qAt + i] * k[kAt + i];
      const score = dot * scale;
      out[h * n + j] = score;
      if (score > max) max = score;
    }
    let sum = 0;
    for (let j = 0; j < n; j++) sum += out[h * n + j] = Math.exp(out[h * n + j] - max);
    for (let j = 0; j < n; j++) out[h * n + j] /= sum;
  }
  return out;
}

/** The heads' mean of a [heads × n] row: [n]. */
export function averageHeads(weights: ArrayLike<number>, heads: number, n: number): Float64Array {
  const out = new Float64Array(n);
  for (let h = 0; h < heads; h++) for (let j = 0; j < n; j++) out[j] += weights[h * n + j];
  for (let j = 0; j < n; j++) out[j] /= heads;
  return out;
}

/** The largest |a_i − b_i| (NaN counts as infinitely far). */
export function maxAbsDiff(a: ArrayLike<number>, b: ArrayLike<number>): number {
  if (a.length !== b.length) return Infinity;
  let worst = 0;
  for (let i = 0; i < a.length; i++) {
    const d = Math.abs(a[i] - b[i]);
    worst = Number.isNaN(d) ? Infinity : Math.max(worst, d);
  }
  return worst;
}
