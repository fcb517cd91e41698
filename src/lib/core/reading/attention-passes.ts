// A passage's queries and keys, gathered pass by pass from the attention tap's outputs
// (src/lib/core/models/attention-rewrite.ts) and each pass's present.{l}.key, and checked as they
// come: the numbers a pass gives are only kept when the tab's own computation agrees with the
// graph's on that pass (see `addPass`). Pure: the worker (workers/attention.ts) and the Node tests
// hand it plain float32 tensors.
//
// Kept per layer: the rotated queries [heads, tokens, head_dim] and the keys [kv_heads, tokens,
// head_dim], float32: (heads + kv_heads) × head_dim × layers × 4 bytes a token (Qwen3-0.6B: 336 KiB,
// about 100 MB for a 300-token passage; Qwen2.5-0.5B: 96 KiB). Attention itself is computed per
// position asked (attention.ts), never stored: a passage's whole map would grow with tokens².

import { attentionOutput, type AttentionLayout } from '../models/attention-rewrite.ts';
import { attentionRow, averageHeads, rotateHead, type LayerQK } from './attention.ts';

/** A tensor as the tab reads it: float32 values (a float16 output converted) and its dims. */
export interface FloatTensor {
  dims: readonly number[];
  data: Float32Array;
}

/** Why a pass's numbers were not kept, as data the page words (catalog-attention.ts). */
export type AttentionPassProblem =
  /** the pass returned no `tensor` for layer `layer` */
  | { kind: 'missing'; layer: number; tensor: string }
  /** `tensor` has dims the tap did not expect (`expected` says what, in the tensor's own terms) */
  | { kind: 'shape'; layer: number; tensor: string; dims: number[]; expected: string }
  /**
   * The check failed: `rotation`, the pre-rotary keys rotated as the tab rotates queries differ from
   * the rows the cache gained; `softmax`, the tab's attention of the pass's last position differs
   * from the graph's own Softmax row; `scale`, a layer's scale changed between passes.
   */
  | { kind: 'check'; what: 'rotation' | 'softmax' | 'scale'; layer: number; position: number; maxDiff: number; tolerance: number };

/**
 * How close the tab must come to the graph. `rotation`: |Δ| of a rotated key, relative to the
 * largest |key| of its row (at least 1): float32 rotations agree to a few units in the last place
 * (under 1e-6 seen), a key rotated for a neighbouring position is off by a large fraction of itself.
 * `softmax`: |Δ| of an attention weight; float32 agrees to about 1e-6, and a scale off by 10 % moves
 * weights by hundredths. float16 tensors (fp16, q4f16 graphs) hold 11 significant bits: a score
 * of 10 is known to 0.005, a weight p to about p · 0.005, and a key to 2⁻¹¹ of itself.
 */
export function attentionTolerances(float16: boolean): { rotation: number; softmax: number } {
  return float16 ? { rotation: 4e-3, softmax: 2e-2 } : { rotation: 1e-5, softmax: 1e-4 };
}

/** The largest differences a passage's checks saw (null: no layer of that kind). */
export interface AttentionCheckNumbers {
  rotation: number | null;
  softmax: number | null;
}

interface LayerState {
  q: Float32Array;
  k: Float32Array;
  scale: number | null;
}

export class AttentionPassage {
  /** Query heads, key heads and head size, the same in every layer (set by the first pass). */
  heads = 0;
  kvHeads = 0;
  headDim = 0;
  readonly check: AttentionCheckNumbers;
  private readonly state: LayerState[] = [];

  /**
   * `layout`: the load's AttentionPath.layout; `tokens`: the passage's length (every pass's rows
   * fall within it); `tolerance`: attentionTolerances of the graph's float type.
   */
  constructor(
    readonly layout: readonly AttentionLayout[],
    readonly tokens: number,
    private readonly tolerance: { rotation: number; softmax: number },
  ) {
    this.check = { rotation: layout.some((l) => l.kind === 'gqa') ? 0 : null, softmax: layout.some((l) => l.kind === 'matmul') ? 0 : null };
  }

  get layers(): number {
    return this.layout.length;
  }

  /** Bytes the kept queries and keys take. */
  get bytes(): number {
    return this.state.reduce((sum, s) => sum + s.q.byteLength + s.k.byteLength, 0);
  }

  /**
   * Takes one pass of rows start … start + rows − 1: `read(name)` gives its outputs (the tap's and
   * present.{l}.key). Returns null when the pass's numbers are kept, else the first problem (the
   * passage is then unusable).
   */
  addPass(read: (name: string) => FloatTensor | undefined, start: number, rows: number): AttentionPassProblem | null {
    for (let l = 0; l < this.layout.length; l++) {
      const problem = this.addLayer(l, read, start, rows);
      if (problem) return problem;
    }
    return null;
  }

  private shapes(heads: number, kvHeads: number, d: number, l: number): AttentionPassProblem | null {
    if (this.state.length === 0) {
      [this.heads, this.kvHeads, this.headDim] = [heads, kvHeads, d];
      for (let i = 0; i < this.layout.length; i++) this.state.push({ q: new Float32Array(heads * this.tokens * d), k: new Float32Array(kvHeads * this.tokens * d), scale: null });
    }
    if (heads !== this.heads || kvHeads !== this.kvHeads || d !== this.headDim || heads % kvHeads !== 0) {
      return { kind: 'shape', layer: l, tensor: attentionOutput(l, 'q'), dims: [heads, kvHeads, d], expected: `[${this.heads}, ${this.kvHeads}, ${this.headDim}] heads, key heads and head size, the query heads a multiple of the key heads` };
    }
    return null;
  }

  private addLayer(l: number, read: (name: string) => FloatTensor | undefined, start: number, rows: number): AttentionPassProblem | null {
    const layout = this.layout[l];
    const total = start + rows;
    const get = (name: string): FloatTensor | AttentionPassProblem => read(name) ?? { kind: 'missing', layer: l, tensor: name };
    const presentName = `present.${l}.key`;
    const present = get(presentName);
    if ('kind' in present) return present;
    const [pb, kvHeads, pTotal, d] = present.dims;
    if (present.dims.length !== 4 || pb !== 1 || pTotal !== total || total > this.tokens) return { kind: 'shape', layer: l, tensor: presentName, dims: [...present.dims], expected: `[1, key heads, ${total}, head size]` };
    const q = get(attentionOutput(l, 'q'));
    if ('kind' in q) return q;

    if (layout.kind === 'matmul') {
      const [qb, heads, qRows, qd] = q.dims;
      if (q.dims.length !== 4 || qb !== 1 || qRows !== rows || qd !== d) return { kind: 'shape', layer: l, tensor: attentionOutput(l, 'q'), dims: [...q.dims], expected: `[1, heads, ${rows}, ${d}]` };
      const wrong = this.shapes(heads, kvHeads, d, l);
      if (wrong) return wrong;
      const scaleTensor = get(attentionOutput(l, 'scale'));
      if ('kind' in scaleTensor) return scaleTensor;
      if (scaleTensor.data.length !== 1) return { kind: 'shape', layer: l, tensor: attentionOutput(l, 'scale'), dims: [...scaleTensor.dims], expected: 'one value' };
      const scale = scaleTensor.data[0];
      const state = this.state[l];
      if (state.scale !== null && state.scale !== scale) return { kind: 'check', what: 'scale', layer: l, position: total - 1, maxDiff: Math.abs(state.scale - scale), tolerance: 0 };
      state.scale = scale;
      for (let h = 0; h < heads; h++) state.q.set(q.data.subarray(h * rows * d, (h + 1) * rows * d), (h * this.tokens + start) * d);
      this.keepKeys(l, present, start, rows);
      // The check: the pass's last position, from its own queries and the keys so far, against the Softmax's row.
      const probs = get(attentionOutput(l, 'probs'));
      if ('kind' in probs) return probs;
      if (probs.data.length !== heads * total) return { kind: 'shape', layer: l, tensor: attentionOutput(l, 'probs'), dims: [...probs.dims], expected: `[1, ${heads}, 1, ${total}]` };
      const mine = attentionRow({ heads, kvHeads, headDim: d, scale, q: q.data, qTokens: rows, k: present.data, kTokens: total }, total - 1, rows - 1);
      let worst = 0;
      for (let i = 0; i < mine.length; i++) {
        const diff = Math.abs(mine[i] - probs.data[i]);
        worst = Number.isNaN(diff) ? Infinity : Math.max(worst, diff);
      }
      this.check.softmax = Math.max(this.check.softmax ?? 0, worst);
      if (!(worst <= this.tolerance.softmax)) return { kind: 'check', what: 'softmax', layer: l, position: total - 1, maxDiff: worst, tolerance: this.tolerance.softmax };
      return null;
    }

    const { heads } = layout;
    const wrong = this.shapes(heads, kvHeads, d, l);
    if (wrong) return wrong;
    const width = (heads + (layout.packed ? 2 * kvHeads : 0)) * d;
    if (q.dims.length !== 3 || q.dims[0] !== 1 || q.dims[1] !== rows || q.dims[2] !== width) return { kind: 'shape', layer: l, tensor: attentionOutput(l, 'q'), dims: [...q.dims], expected: `[1, ${rows}, ${width}]` };
    let keys = q;
    let keyAt = heads * d;
    let keyWidth = width;
    if (!layout.packed) {
      const k = get(attentionOutput(l, 'k'));
      if ('kind' in k) return k;
      if (k.dims.length !== 3 || k.dims[0] !== 1 || k.dims[1] !== rows || k.dims[2] !== kvHeads * d) return { kind: 'shape', layer: l, tensor: attentionOutput(l, 'k'), dims: [...k.dims], expected: `[1, ${rows}, ${kvHeads * d}]` };
      [keys, keyAt, keyWidth] = [k, 0, kvHeads * d];
    }
    let cos: FloatTensor | null = null;
    let sin: FloatTensor | null = null;
    let half = 0;
    if (layout.rotary !== 'none') {
      const c = get(attentionOutput(l, 'cos'));
      if ('kind' in c) return c;
      const s = get(attentionOutput(l, 'sin'));
      if ('kind' in s) return s;
      half = c.dims[1];
      if (c.dims.length !== 2 || c.dims[0] !== rows || !(2 * half <= d) || s.dims.join() !== c.dims.join()) return { kind: 'shape', layer: l, tensor: attentionOutput(l, 'cos'), dims: [...c.dims], expected: `[${rows}, at most ${d / 2}], as its sin` };
      [cos, sin] = [c, s];
    }
    const state = this.state[l];
    state.scale = layout.scale > 0 ? layout.scale : 1 / Math.sqrt(d);
    const rotated = new Float64Array(d);
    let worst = 0;
    for (let r = 0; r < rows; r++) {
      for (let g = 0; g < kvHeads; g++) {
        const from = r * keyWidth + keyAt + g * d;
        if (cos && sin) rotateHead(keys.data, from, d, cos.data, sin.data, r * half, half, layout.rotary === 'interleaved' ? 'interleaved' : 'half', rotated, 0);
        else for (let i = 0; i < d; i++) rotated[i] = keys.data[from + i];
        const cached = (g * total + start + r) * d;
        let size = 1;
        for (let i = 0; i < d; i++) size = Math.max(size, Math.abs(present.data[cached + i]));
        for (let i = 0; i < d; i++) {
          const diff = Math.abs(rotated[i] - present.data[cached + i]) / size;
          worst = Number.isNaN(diff) ? Infinity : Math.max(worst, diff);
        }
      }
      for (let h = 0; h < heads; h++) {
        const from = r * width + h * d;
        const to = (h * this.tokens + start + r) * d;
        if (cos && sin) rotateHead(q.data, from, d, cos.data, sin.data, r * half, half, layout.rotary === 'interleaved' ? 'interleaved' : 'half', state.q, to);
        else state.q.set(q.data.subarray(from, from + d), to);
      }
    }
    this.check.rotation = Math.max(this.check.rotation ?? 0, worst);
    if (!(worst <= this.tolerance.rotation)) return { kind: 'check', what: 'rotation', layer: l, position: start, maxDiff: worst, tolerance: this.tolerance.rotation };
    this.keepKeys(l, present, start, rows);
    return null;
  }

  /** The rows start … start + rows − 1 of a pass's present.{l}.key ([1, kv_heads, total, d]). */
  private keepKeys(l: number, present: FloatTensor, start: number, rows: number): void {
    const [, kvHeads, total, d] = present.dims;
    for (let g = 0; g < kvHeads; g++) this.state[l].k.set(present.data.subarray((g * total + start) * d, (g * total + start + rows) * d), (g * this.tokens + start) * d);
  }

  /** Layer `l`'s queries and keys over the whole passage, for attention.ts. */
  layer(l: number): LayerQK {
    const s = this.state[l];
    return { heads: this.heads, kvHeads: this.kvHeads, headDim: this.headDim, scale: s.scale ?? NaN, q: s.q, qTokens: this.tokens, k: s.k, kTokens: this.tokens };
  }

  /**
   * Position `position`'s attention over keys 0 … position in every layer: `weights` [layers ×
   * heads × (position + 1)] and `averaged` (heads averaged) [layers × (position + 1)], float32.
   */
  at(position: number): { weights: Float32Array; averaged: Float32Array } {
    const n = position + 1;
    const weights = new Float32Array(this.layers * this.heads * n);
    const averaged = new Float32Array(this.layers * n);
    for (let l = 0; l < this.layers; l++) {
      const row = attentionRow(this.layer(l), position);
      weights.set(row, l * this.heads * n);
      averaged.set(averageHeads(row, this.heads, n), l * n);
    }
    return { weights, averaged };
  }
}
