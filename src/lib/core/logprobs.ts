// Log-probabilities from one row of logits. Pure, so the worker, the tests and later the metrics
// code share one definition.

/**
 * log softmax(row)[id] for each id, where row = logits[offset, offset + vocab). The log-sum-exp is
 * accumulated in float64 with the max subtracted, so a 150k vocabulary loses no precision.
 */
export function logSoftmaxPick(
  logits: ArrayLike<number>,
  offset: number,
  vocab: number,
  ids: readonly number[],
): number[] {
  if (offset < 0 || offset + vocab > logits.length) {
    throw new RangeError(`logits row [${offset}, ${offset + vocab}) is outside an array of ${logits.length}`);
  }
  let max = -Infinity;
  for (let i = 0; i < vocab; i++) {
    const v = logits[offset + i];
    if (v > max) max = v;
  }
  let sum = 0;
  for (let i = 0; i < vocab; i++) sum += Math.exp(logits[offset + i] - max);
  const logZ = max + Math.log(sum);
  return ids.map((id) => {
    if (!Number.isInteger(id) || id < 0 || id >= vocab) throw new RangeError(`token id ${id} is outside the vocabulary of ${vocab}`);
    return logits[offset + id] - logZ;
  });
}

/** Softmax restricted to the given log-probabilities (e.g. the four letters), in float64. */
export function renormalize(logProbs: readonly number[]): number[] {
  const max = Math.max(...logProbs);
  const exps = logProbs.map((lp) => Math.exp(lp - max));
  const sum = exps.reduce((a, b) => a + b, 0);
  return exps.map((e) => e / sum);
}

/** Index of the largest value; ties go to the earliest (the earlier option letter). */
export function argmax(values: readonly number[]): number {
  let best = 0;
  for (let i = 1; i < values.length; i++) if (values[i] > values[best]) best = i;
  return best;
}

/** A continuation's score from the logits rows that predict its tokens (see continuationScore). */
export interface ContinuationScore {
  /** Σ log softmax(row_i)[token_i], each row's log-sum-exp in float64. */
  logLikelihood: number;
  /** Every token was its row's argmax (lm-evaluation-harness's is_greedy; an argmax tie counts as greedy only for the first index, as torch's argmax). */
  isGreedy: boolean;
}

/** A logits row's log-sum-exp (float64, max subtracted) and its argmax (the first of equal maxima). */
export interface RowStats {
  logZ: number;
  best: number;
}

/** RowStats of logits[offset, offset + vocab): one pass for the max and argmax, one for the sum. */
export function rowStats(row: ArrayLike<number>, offset: number, vocab: number): RowStats {
  if (offset < 0 || offset + vocab > row.length) throw new RangeError(`logits row [${offset}, ${offset + vocab}) is outside an array of ${row.length}`);
  let best = 0;
  let max = row[offset];
  for (let v = 1; v < vocab; v++) {
    const x = row[offset + v];
    if (x > max) {
      max = x;
      best = v;
    }
  }
  let sum = 0;
  for (let v = 0; v < vocab; v++) sum += Math.exp(row[offset + v] - max);
  return { logZ: max + Math.log(sum), best };
}

/**
 * One position's numbers for the memorization probes (Min-K% Prob, Min-K%++), from one logits row.
 * `logprob`: log p(target); `mean` μ = Σ_v p_v log p_v and `std` σ = sqrt(max(0, Σ_v p_v (log p_v)² − μ²)),
 * the mean and standard deviation of log p under the model's own next-token distribution p;
 * `argmax`: the most likely token (the first of equal maxima).
 */
export interface RowStatistics {
  logprob: number;
  mean: number;
  std: number;
  argmax: number;
}

/**
 * RowStatistics of logits[offset, offset + vocab) at `target`, in float64: rowStats' two passes
 * (max and argmax, then the log-sum-exp), and one more for both moments. The moments are taken of
 * s = logit − max rather than of log p = s − log Σ e^s (σ is the same, μ shifts by the constant):
 * s is near 0 where the mass is, so Σ p s² − (Σ p s)² cancels little (a uniform row gives σ = 0
 * exactly, where log p's moments leave 3e-8). A token of probability 0 (a logit of −∞) adds nothing
 * to either sum, the limit of p·log p as p → 0.
 */
export function rowStatistics(row: ArrayLike<number>, offset: number, vocab: number, target: number): RowStatistics {
  if (!Number.isInteger(target) || target < 0 || target >= vocab) throw new RangeError(`token id ${target} is outside the vocabulary of ${vocab}`);
  const { logZ, best } = rowStats(row, offset, vocab);
  const max = row[offset + best];
  const logSum = logZ - max;
  let first = 0;
  let second = 0;
  for (let v = 0; v < vocab; v++) {
    const shifted = row[offset + v] - max;
    const p = Math.exp(shifted - logSum);
    if (p === 0) continue;
    first += p * shifted;
    second += p * shifted * shifted;
  }
  return { logprob: row[offset + target] - logZ, mean: first - logSum, std: Math.sqrt(Math.max(0, second - first * first)), argmax: best };
}

/**
 * The score of `tokens` from `rows[i]`, the logits row that predicts tokens[i] (the context's last
 * row for the first token, then the rows of the continuation's own positions), each of `vocab`
 * values at `offsets[i]` of its array. This is the harness's per-request number for causal models:
 * log-softmax over the full vocabulary, gathered at the continuation's tokens and summed.
 * `firstStats`: rowStats of rows[0] when the caller already has them (a context's last row is shared
 * by every option after it).
 */
export function continuationScore(rows: readonly ArrayLike<number>[], offsets: readonly number[], vocab: number, tokens: readonly number[], firstStats?: RowStats): ContinuationScore {
  if (rows.length !== tokens.length || offsets.length !== tokens.length) throw new RangeError(`expected one logits row per token, got ${rows.length} rows for ${tokens.length} tokens`);
  if (tokens.length === 0) throw new RangeError('a continuation needs at least one token');
  let logLikelihood = 0;
  let isGreedy = true;
  tokens.forEach((token, i) => {
    if (!Number.isInteger(token) || token < 0 || token >= vocab) throw new RangeError(`token id ${token} is outside the vocabulary of ${vocab}`);
    const stats = i === 0 && firstStats ? firstStats : rowStats(rows[i], offsets[i], vocab);
    logLikelihood += rows[i][offsets[i] + token] - stats.logZ;
    if (stats.best !== token) isGreedy = false;
  });
  return { logLikelihood, isGreedy };
}
