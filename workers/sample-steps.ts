// A prompt continued by Jiangu's own seeded sampler (core/reading/sampling.ts), one forward pass a
// token, so each step's distribution can be shown (issue 37 §4, "Sampling, seen"). generate() would
// sample inside transformers.js and keep the distribution to itself; here the prompt is prefilled
// (scoring.ts prefill: chunked when the graph would return every row), then each step reads the last
// logits row, samples it, and runs the chosen token on the cache. Every cache this makes is disposed:
// each step's once the next exists, the last one when the request ends (however it ends).
import type { DynamicCache } from '@huggingface/transformers';
import { describeSampling, MAX_SHOWN_CANDIDATES, sampler, sampleStep, samplingProblem, type SampledTokenStep, type SampleStepsParams, type SampleStepsResult } from '../src/lib/core/reading/sampling.ts';
import { modelError } from '../src/lib/engine/model-errors.ts';
import { logitsRows } from './logits.ts';
import { applyChatTemplate, encode, RequestError, type Loaded } from './loaded-model.ts';
import { cacheOf, disposeOutputs, forward, prefill } from './scoring.ts';
import { tokenText } from './reading.ts';

/**
 * The ids that end a continuation: generation_config's eos_token_id (what generate() stops on) and
 * the tokenizer's eos token (the same id in every model so far; kept so a config without one still stops).
 */
export function eosIdsOf(m: Pick<Loaded, 'model' | 'tokenizer'>): Set<number> {
  const fromConfig = (m.model.generation_config as { eos_token_id?: number | number[] | null } | null)?.eos_token_id ?? [];
  const ids = new Set<number>(([] as number[]).concat(fromConfig));
  const fromTokenizer = (m.tokenizer as { eos_token_id?: number | null }).eos_token_id;
  if (typeof fromTokenizer === 'number') ids.add(fromTokenizer);
  return ids;
}

/** A token's own text, as the page lists it (special tokens written out, so `</s>` shows as the end; reading.ts' tokenText). */
const pieceOf = (m: Loaded, id: number) => tokenText(m.tokenizer, id).text;

/**
 * Continues `params.prompt` by sampleStep: step n uses the n-th draw of sampler(seed), so the same
 * model, prompt and settings give the same steps on every screen (up to the rounding sampling.ts
 * describes). `onStep` hears each step as it is chosen (to stream it); `isCancelled` is read before
 * each forward pass.
 */
export async function sampleContinuation(
  m: Loaded,
  params: SampleStepsParams,
  onStep?: (step: SampledTokenStep, index: number) => void,
  isCancelled: () => boolean = () => false,
): Promise<SampleStepsResult> {
  const started = performance.now();
  const options = { temperature: params.temperature, topK: params.topK };
  const problem = samplingProblem(options, params.seed);
  // The page's controls never send one; a request from elsewhere (the harness, a test) is told which setting.
  if (problem) throw new RequestError(modelError('bad-request', 'model.bad-sampling', [{ setting: problem.code === 'sampling.temperature' ? 'temperature' : problem.code === 'sampling.top-k' ? 'top-k' : 'seed', value: problem.value }]));
  const promptText = params.chatTemplate ? applyChatTemplate(m.tokenizer, params.prompt) : params.prompt;
  const inputIds = encode(m.tokenizer, promptText, true);
  if (inputIds.length === 0) throw new RequestError(modelError('bad-request', 'model.empty-prompt', []));
  // As generate does: a prompt at the model's positions is refused, and a continuation stops at the last one.
  const positions = m.info.context?.tokens;
  if (positions !== undefined && inputIds.length >= positions) {
    throw new RequestError(modelError('too-long', 'run.item-too-long', [{ itemId: '—', tokens: inputIds.length, limit: positions }]));
  }
  const maxNewTokens = Math.min(Math.max(1, Math.floor(params.maxNewTokens)), positions === undefined ? Infinity : positions - inputIds.length);
  const showTop = Math.max(0, Math.min(MAX_SHOWN_CANDIDATES, Math.floor(params.showTop)));
  const eos = eosIdsOf(m);
  const draws = sampler(params.seed);

  const steps: SampledTokenStep[] = [];
  const tokenIds: number[] = [];
  let stoppedBy: SampleStepsResult['stoppedBy'] = 'max-tokens';
  const first = await prefill(m, inputIds, null, 0);
  let forwardPasses = first.passes;
  let cache: DynamicCache = first.cache;
  let row: Float32Array = first.lastRow;
  let length = inputIds.length;
  const vocab = row.length;
  try {
    for (;;) {
      const draw = draws();
      const sampled = sampleStep(row, options, draw);
      const { ids, probs } = sampled.distribution;
      const step: SampledTokenStep = {
        token: sampled.token,
        text: pieceOf(m, sampled.token),
        draw,
        chosenProb: sampled.chosenProb,
        chosenRank: sampled.chosenRank,
        from: sampled.from,
        to: sampled.to,
        keptMass: sampled.keptMass,
        modelProb: sampled.modelProb,
        candidates: ids.length,
        top: Array.from(ids.subarray(0, showTop), (id, j) => ({ id, text: pieceOf(m, id), prob: probs[j] })),
      };
      steps.push(step);
      tokenIds.push(sampled.token);
      onStep?.(step, steps.length - 1);
      if (eos.has(sampled.token)) {
        stoppedBy = 'eos';
        break;
      }
      if (steps.length >= maxNewTokens) break;
      if (isCancelled()) {
        stoppedBy = 'cancelled';
        break;
      }
      const outputs = await forward(m, [sampled.token], cache, length, 1);
      const next = cacheOf(outputs);
      try {
        const logits = outputs.logits;
        const width = logits.dims[logits.dims.length - 1];
        if (width !== vocab) throw new RangeError(`a step returned logits of width ${width}, not ${vocab}`);
        // The pass's last row (one row: one token in); float16 logits come back as float32.
        row = logitsRows(logits, logits.data.length - vocab, logits.data.length);
      } finally {
        await disposeOutputs(outputs, new Set(Object.values(next)));
        await cache.dispose();
        cache = next;
      }
      forwardPasses++;
      length++;
    }
  } finally {
    await cache.dispose();
  }
  return {
    inputIds,
    promptText,
    steps,
    text: m.tokenizer.decode(tokenIds, { skip_special_tokens: true }),
    stoppedBy,
    sampling: describeSampling(options, params.seed, vocab),
    forwardPasses,
    ms: performance.now() - started,
  };
}
