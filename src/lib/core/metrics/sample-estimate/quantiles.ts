// The two quantiles the fixed-n intervals need, for any α (not only 95%): the normal's (Acklam's
// rational approximation, relative error below 1.2e-9) and Student's t
// (exact for 1 and 2 degrees of freedom, the Cornish–Fisher expansion in 1/ν from 3 on: within 1e-3
// of the table; a fractional ν below 3 interpolates).

/** Φ⁻¹(p) for p in (0, 1). */
export function normalQuantile(p: number): number {
  if (!(p > 0 && p < 1)) throw new RangeError(`normal quantile needs p in (0, 1), got ${p}`);
  const a = [-3.969683028665376e1, 2.209460984245205e2, -2.759285104469687e2, 1.38357751867269e2, -3.066479806614716e1, 2.506628277459239];
  const b = [-5.447609879822406e1, 1.615858368580409e2, -1.556989798598866e2, 6.680131188771972e1, -1.328068155288572e1];
  const c = [-7.784894002430293e-3, -3.223964580411365e-1, -2.400758277161838, -2.549732539343734, 4.374664141464968, 2.938163982698783];
  const d = [7.784695709041462e-3, 3.224671290700398e-1, 2.445134137142996, 3.754408661907416];
  const low = 0.02425;
  let x: number;
  if (p < low) {
    const q = Math.sqrt(-2 * Math.log(p));
    x = (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) / ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
  } else if (p <= 1 - low) {
    const q = p - 0.5;
    const r = q * q;
    x = ((((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q) / (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
  } else {
    const q = Math.sqrt(-2 * Math.log(1 - p));
    x = -(((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) / ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
  }
  return x;
}

/** The p-quantile of Student's t with ν degrees of freedom, p in (0.5, 1). */
export function studentQuantile(p: number, nu: number): number {
  if (!(nu >= 1)) throw new RangeError(`Student's t needs ν ≥ 1, got ${nu}`);
  if (nu === 1) return Math.tan(Math.PI * (p - 0.5));
  if (nu === 2) return (2 * p - 1) / Math.sqrt(2 * p * (1 - p));
  if (nu < 3) {
    // Welch–Satterthwaite's fractional ν: linear in 1/ν between the neighbouring whole ν.
    const below = Math.floor(nu);
    const share = (1 / below - 1 / nu) / (1 / below - 1 / (below + 1));
    return (1 - share) * studentQuantile(p, below) + share * studentQuantile(p, below + 1);
  }
  if (!Number.isFinite(nu)) return normalQuantile(p);
  const z = normalQuantile(p);
  const z2 = z * z;
  const g1 = (z * (z2 + 1)) / 4;
  const g2 = (z * ((5 * z2 + 16) * z2 + 3)) / 96;
  const g3 = (z * (((3 * z2 + 19) * z2 + 17) * z2 - 15)) / 384;
  const g4 = (z * ((((79 * z2 + 776) * z2 + 1482) * z2 - 1920) * z2 - 945)) / 92160;
  return z + g1 / nu + g2 / nu ** 2 + g3 / nu ** 3 + g4 / nu ** 4;
}
