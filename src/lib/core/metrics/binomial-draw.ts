// One draw of X ~ Binomial(n, p) from one uniform: the count of right answers among n items drawn
// with replacement from items of which a share p is right, without drawing the n items (PriDe's
// bootstrap would otherwise draw 27 million indices for a 28,707-item run). Kemp's modal search
// (C. D. Kemp, "A modal method for generating binomial variables", Commun. Statist. Theory Meth.
// 15(3), 1986): start at the mode m = floor((n + 1)p) with P(m), then step down and up in turn,
// P(k − 1) = P(k)·k/(n − k + 1)·q/p and P(k + 1) = P(k)·(n − k)/(k + 1)·p/q, subtracting each
// probability from u until it is spent; about 2·|X − m| steps, a few hundred for n in the tens of
// thousands. P(m) from a table of log k! (logFactorials), so a caller drawing many times builds it
// once. Should rounding leave u unspent once every outcome is visited, the mode is returned.

/** log k! for k = 0 … n, summed term by term. */
export function logFactorials(n: number): Float64Array {
  const table = new Float64Array(n + 1);
  for (let k = 2; k <= n; k++) table[k] = table[k - 1] + Math.log(k);
  return table;
}

/** X ~ Binomial(n, p) from u in [0, 1); `logFactorial` is logFactorials(n′) for some n′ ≥ n. */
export function binomialDraw(u: number, n: number, p: number, logFactorial: Float64Array): number {
  if (!Number.isInteger(n) || n < 0 || n >= logFactorial.length) throw new RangeError(`n must be a whole number within the log-factorial table, got ${n}`);
  if (!(p >= 0 && p <= 1)) throw new RangeError(`p must be in [0, 1], got ${p}`);
  if (p === 0) return 0;
  if (p === 1) return n;
  const q = 1 - p;
  const mode = Math.min(n, Math.floor((n + 1) * p));
  const atMode = Math.exp(logFactorial[n] - logFactorial[mode] - logFactorial[n - mode] + mode * Math.log(p) + (n - mode) * Math.log(q));
  let left = u - atMode;
  if (left < 0) return mode;
  let low = mode;
  let high = mode;
  let pLow = atMode;
  let pHigh = atMode;
  while (low > 0 || high < n) {
    if (low > 0) {
      pLow *= (low / (n - low + 1)) * (q / p);
      low--;
      left -= pLow;
      if (left < 0) return low;
    }
    if (high < n) {
      pHigh *= ((n - high) / (high + 1)) * (p / q);
      high++;
      left -= pHigh;
      if (left < 0) return high;
    }
  }
  return mode;
}
