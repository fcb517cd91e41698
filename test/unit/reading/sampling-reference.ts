// The reference forward (scripts/fixtures/reference.ts) stepped by Jiangu's sampler: what a seeded
// continuation must be, for the unit tests (workers/sample-steps.ts in Node) and the browser tests.
import { forward, type KVCache, type ReferenceModel } from '../../../scripts/fixtures/reference.ts';
import { EOS_ID } from '../../../scripts/fixtures/tokenizer.ts';
import { sampler, sampleStep, type SampledStep, type SamplingOptions } from '../../../src/lib/core/reading/sampling.ts';

/** The reference forward stepped by sampleStep: step n takes the n-th draw of sampler(seed), as the worker does. */
export function referenceContinuation(model: ReferenceModel, inputIds: readonly number[], options: SamplingOptions, seed: number, maxNewTokens: number, eos: ReadonlySet<number> = new Set([EOS_ID])): SampledStep[] {
  const draws = sampler(seed);
  const steps: SampledStep[] = [];
  let out = forward(model, inputIds);
  let cache: KVCache = out.cache;
  for (;;) {
    const step = sampleStep(out.logits[out.logits.length - 1], options, draws());
    steps.push(step);
    if (eos.has(step.token) || steps.length === maxNewTokens) return steps;
    out = forward(model, [step.token], cache);
    cache = out.cache;
  }
}

