// The worker's exemplar-prefix caches (workers/scoring.ts prefixCacheFor, keepPrefix): a run asked in
// the shuffled order comes back to each task after the others' blocks, and finds its prefix kept, as
// long as the kept caches fit in their byte budget; the least recently used goes first. Against a
// fake model whose forward pass is counted (the real worker's reuse is checked in the browser tests).
import { DynamicCache, Tensor } from '@huggingface/transformers';
import { describe, expect, it } from 'vitest';
import type { Loaded } from '../../../workers/loaded-model.ts';
import { cacheBytes, KEPT_PREFIX_BYTES, keptPrefixBudget, MIN_KEPT_PREFIX_BYTES } from '../../../workers/loaded-model.ts';
import { disposePrefixes, keepPrefix, prefixCacheFor } from '../../../workers/scoring.ts';

const VOCAB = 3;

/** A model whose forward returns a cache of `length` float32 values a position and counts its calls. */
function fakeModel() {
  const calls: number[][] = [];
  const model = {
    async forward(inputs: { input_ids: Tensor; attention_mask: Tensor }) {
      const ids = Array.from(inputs.input_ids.data as BigInt64Array, Number);
      calls.push(ids);
      const total = inputs.attention_mask.dims[1];
      return {
        logits: new Tensor('float32', new Float32Array(ids.length * VOCAB), [1, ids.length, VOCAB]),
        'present.0.key': new Tensor('float32', new Float32Array(total * 2), [1, 1, total, 2]),
        'present.0.value': new Tensor('float32', new Float32Array(total * 2), [1, 1, total, 2]),
      };
    },
  };
  const m = { model, info: { inputNames: ['input_ids', 'attention_mask'] }, maxLogitsRows: 1000, maxPassRows: null, prefixCache: null, keptPrefixes: [] } as unknown as Loaded;
  return { m, calls };
}

const prefix = (task: number, length = 10) => Array.from({ length }, (_, i) => task * 100 + i);

describe('prefix caches', () => {
  it('computes a prefix once, and again for none of the tasks a shuffled run comes back to', async () => {
    const { m, calls } = fakeModel();
    // Three tasks in turn, three rounds: 3 prefills, not 9.
    for (let round = 0; round < 3; round++) {
      for (const task of [1, 2, 3]) {
        const got = await prefixCacheFor(m, prefix(task));
        expect(got.passes).toBe(round === 0 ? 1 : 0);
        expect((got.cache['past_key_values.0.key'] as Tensor).dims[2]).toBe(10);
      }
    }
    expect(calls.map((ids) => ids[0])).toEqual([100, 200, 300]);
    expect(m.prefixCache!.ids).toEqual(prefix(3));
    expect(m.keptPrefixes!.map((e) => e.ids[0])).toEqual([100, 200]);
  });

  it('keeps earlier prefixes only within the byte budget, dropping the least recently used first', async () => {
    const { m } = fakeModel();
    const entry = (task: number) => ({ ids: prefix(task), cache: new DynamicCache({ 'past_key_values.0.key': new Tensor('float32', new Float32Array(20), [1, 1, 10, 2]) }) });
    const one = cacheBytes(entry(0).cache);
    expect(one).toBe(80);
    // Room for two kept besides the current one.
    for (const task of [1, 2, 3, 4]) await keepPrefix(m, entry(task), 2 * one);
    expect(m.prefixCache!.ids[0]).toBe(400);
    expect(m.keptPrefixes!.map((e) => e.ids[0])).toEqual([200, 300]);
    // No room: only the current one, as before the shuffled order.
    await keepPrefix(m, entry(5), 0);
    expect(m.keptPrefixes).toEqual([]);
    await disposePrefixes(m);
    expect(m.prefixCache).toBeNull();
  });

  it('computes a prefix again once it has been dropped', async () => {
    const { m, calls } = fakeModel();
    await prefixCacheFor(m, prefix(1));
    await prefixCacheFor(m, prefix(2));
    // Drop every kept prefix, as a budget too small for them would.
    m.keptPrefixes = [];
    await prefixCacheFor(m, prefix(1));
    expect(calls).toHaveLength(3);
  });
});

describe('the kept prefixes’ budget follows the device', () => {
  const GiB = 2 ** 30;
  const qwen3Int8 = 627e6;
  it('is the fixed 256 MiB without a device figure, and on an 8 GB laptop beside a 0.6B model', () => {
    expect(keptPrefixBudget(undefined, qwen3Int8)).toBe(KEPT_PREFIX_BYTES);
    expect(keptPrefixBudget(0, qwen3Int8)).toBe(KEPT_PREFIX_BYTES);
    expect(keptPrefixBudget(8, qwen3Int8)).toBe(KEPT_PREFIX_BYTES);
  });
  it('is a quarter of the tab’s half of the device beside the weights on a small one, never under the floor', () => {
    expect(keptPrefixBudget(2, qwen3Int8)).toBe(Math.floor((GiB - qwen3Int8) / 4));
    expect(keptPrefixBudget(2, qwen3Int8)).toBeLessThan(KEPT_PREFIX_BYTES / 2);
    expect(keptPrefixBudget(1, qwen3Int8)).toBe(MIN_KEPT_PREFIX_BYTES);
    expect(keptPrefixBudget(0.5, null)).toBe(GiB / 16);
  });
  it('keepPrefix uses the loaded model’s budget when none is given', async () => {
    const { m } = fakeModel();
    const one = 1000;
    m.keptPrefixBytes = 2 * one;
    const entries = [1, 2, 3, 4].map((task) => ({ ids: [task], cache: { dispose: async () => {} } as unknown as DynamicCache, bytes: one }));
    for (const e of entries) await keepPrefix(m, e);
    expect(m.keptPrefixes?.map((e) => e.ids[0])).toEqual([2, 3]);
  });
});
