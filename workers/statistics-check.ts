// The check a statistics graph passes before Jiangu trusts it (as logits-path.ts checks the one-row
// rewrite): a short text run once with every row kept, fetching the logits and the statistics of the
// same pass; every statistic must equal rowStatistics of its row in float64. One pass of a few rows.
import { Tensor, type PreTrainedModel, type PreTrainedTokenizer } from '@huggingface/transformers';
import { ANSWER_CUE, sampleCmmluPrompt } from '../src/lib/core/models/model-check.ts';
import { STATS_OUTPUTS } from '../src/lib/core/models/stats-rewrite.ts';
import { rowStatistics, rowStats } from '../src/lib/core/logprobs.ts';
import { logitsRows } from './logits.ts';
import { encode, idsTensor, onesTensor } from './loaded-model.ts';
import { disposeOutputs } from './scoring.ts';
import { CHECK_TOKENS } from './logits-path.ts';

/**
 * How closely the graph's statistics must agree with rowStatistics of the same pass's rows. They read
 * the same logits, so only float32 against float64 arithmetic differs (under 2e-6 on the fixtures),
 * except fp16: onnxruntime folds the graph's float16 round trip of the logits away, so its statistics
 * see the logits before rounding (up to 4.8e-3). A wrong statistic (another row, μ without the
 * probabilities, σ² for σ) is off by whole units.
 */
export function statisticsTolerance(dtype: string): number {
  return dtype === 'fp16' ? 2e-2 : 1e-4;
}

export interface StatisticsCheck {
  passed: boolean;
  tokens: number;
  /** Largest |difference| over every statistic; Number.MAX_VALUE when not comparable (a shape, an argmax, a NaN). */
  maxAbsDiff: number;
}

const numbers = (t: Tensor | undefined): number[] | null => (t ? (t.type === 'int64' ? Array.from(t.data as BigInt64Array, Number) : Array.from(t.data as Float32Array)) : null);

export async function checkStatistics(model: PreTrainedModel, tokenizer: PreTrainedTokenizer, dtype: string, declaresKeep: boolean): Promise<StatisticsCheck> {
  const ids = encode(tokenizer, sampleCmmluPrompt(CHECK_TOKENS + ANSWER_CUE.length), true).slice(-CHECK_TOKENS);
  const inputs: Record<string, unknown> = { input_ids: idsTensor(ids), attention_mask: onesTensor(ids.length) };
  if (declaresKeep) inputs.num_logits_to_keep = new Tensor('int64', [0n], []);
  const outputs = (await model.forward(inputs)) as Record<string, Tensor>;
  try {
    const failed = { passed: false, tokens: ids.length, maxAbsDiff: Number.MAX_VALUE };
    const logits = outputs.logits;
    const [, rows, vocab] = logits.dims as [number, number, number];
    const within = numbers(outputs[STATS_OUTPUTS.tokenLogprob]);
    const argmax = numbers(outputs[STATS_OUTPUTS.argmax]);
    const mean = numbers(outputs[STATS_OUTPUTS.mean]);
    const std = numbers(outputs[STATS_OUTPUTS.std]);
    const last = numbers(outputs[STATS_OUTPUTS.lastLogprobs]);
    if (rows !== ids.length || !within || !argmax || !mean || !std || !last) return failed;
    if (within.length !== rows - 1 || argmax.length !== rows || mean.length !== rows || std.length !== rows || last.length !== vocab) return failed;
    const data = logitsRows(logits);
    let worst = 0;
    const compare = (a: number, b: number) => {
      const d = Math.abs(a - b);
      worst = Number.isNaN(d) ? Number.MAX_VALUE : Math.max(worst, d);
    };
    for (let i = 0; i < rows; i++) {
      // The last row's target is not in the pass: its whole row of log-probabilities is checked instead.
      const want = rowStatistics(data, i * vocab, vocab, i < rows - 1 ? ids[i + 1] : 0);
      if (argmax[i] !== want.argmax) return failed;
      compare(mean[i], want.mean);
      compare(std[i], want.std);
      if (i < rows - 1) compare(within[i], want.logprob);
      else {
        const { logZ } = rowStats(data, i * vocab, vocab);
        for (let v = 0; v < vocab; v++) compare(last[v], data[i * vocab + v] - logZ);
      }
    }
    return { passed: worst <= statisticsTolerance(dtype), tokens: ids.length, maxAbsDiff: worst };
  } finally {
    await disposeOutputs(outputs);
  }
}
