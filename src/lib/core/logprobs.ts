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
