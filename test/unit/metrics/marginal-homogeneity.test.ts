// The Stuart–Maxwell test against an independent numpy/scipy computation, on the tables of the
// issue 23 walk (3 items; 5 items all gold A), published data and tables that take each path.
// The reference (python3, scipy 1.17.1, numpy 2.4.6), run once; each case below names its call:
//   import numpy as np, itertools
//   from scipy.stats import chi2, binom
//   def parts(n):  # drop letters absent from both margins; d = row − column margins; S as in Stuart (1955)
//       n=np.array(n,float); keep=[i for i in range(len(n)) if n[i].sum()+n[:,i].sum()>0]; n=n[np.ix_(keep,keep)]
//       d=n.sum(1)-n.sum(0); S=-(n+n.T); np.fill_diagonal(S,0); np.fill_diagonal(S,-S.sum(1)); return n,d,S
//   def reduced(n):  # K−1 letters: S_ii = n_i. + n_.i − 2n_ii, S_ij = −(n_ij + n_ji); X² = dᵀS⁻¹d; p = chi2.sf(X², K−1)
//       n,d,S=parts(n); x2=d[:-1]@np.linalg.solve(S[:-1,:-1],d[:-1]); k=len(d)-1; return x2,k,chi2.sf(x2,k)
//   def pinv(n):  # the same with the Moore–Penrose inverse, df = rank S (a disconnected table)
//       n,d,S=parts(n); x2=d@np.linalg.pinv(S)@d; r=np.linalg.matrix_rank(S); return x2,r,chi2.sf(x2,r)
//   def exact_items(n):  # every discordant item's two letters swapped or not: 2^D outcomes, 1/2^D each
//       n,d,S=parts(n); P=np.linalg.pinv(S); items=[(i,j) for i in range(len(n)) for j in range(len(n)) if i!=j for _ in range(int(n[i,j]))]
//       obs=d@P@d; xs=[]
//       for s in itertools.product([0,1],repeat=len(items)):
//           dd=d.copy()
//           for (i,j),f in zip(items,s):
//               if f: dd[i]-=2; dd[j]+=2
//           xs.append(dd@P@dd)
//       xs=np.array(xs); return obs,(xs>=obs*(1-1e-7)).mean(),(xs>=xs.max()*(1-1e-7)).mean()
//   def exact_pairs(n):  # the same through x_ij ~ Bin(m_ij, ½) per pair of letters (for D too large for 2^D)
//       n,d,S=parts(n); P=np.linalg.pinv(S); K=len(n); pr=[(i,j,int(n[i,j]+n[j,i])) for i in range(K) for j in range(i+1,K) if n[i,j]+n[j,i]>0]
//       obs=d@P@d; xs=[]
//       for x in itertools.product(*[range(m+1) for _,_,m in pr]):
//           dd=np.zeros(K); w=1
//           for (i,j,m),xi in zip(pr,x): dd[i]+=2*xi-m; dd[j]-=2*xi-m; w*=binom.pmf(xi,m,.5)
//           xs.append((dd@P@dd,w))
//       mx=max(v for v,_ in xs); return obs,sum(w for v,w in xs if v>=obs*(1-1e-7)),sum(w for v,w in xs if v>=mx*(1-1e-7))
// exact_* return (X², p, smallest possible p).
import { describe, expect, it } from 'vitest';
import { EXACT_ARRANGEMENT_LIMIT, stuartMaxwell, type StuartMaxwell } from '../../../src/lib/core/metrics/marginal-homogeneity.ts';
import { mcnemarExactFromCounts } from '../../../src/lib/core/metrics/mcnemar.ts';

const tested = (table: number[][]): StuartMaxwell => {
  const r = stuartMaxwell(table);
  if ('untestable' in r) throw new Error(`untestable: ${r.untestable}`);
  return r;
};
const close = (actual: number, expected: number, relative = 1e-12): void => expect(Math.abs(actual - expected)).toBeLessThanOrEqual(relative * Math.max(1e-300, Math.abs(expected)));

describe('stuartMaxwell: exact permutation within items', () => {
  it('the walk’s 3 items (gold A, A, B; chosen A, C, B): X² 1, df 1, p 1, not ∞ and p < 0.001', () => {
    // Version 1 gave X² = ∞, df 1, p = 0 (C chosen, never gold). B's item is on the diagonal: no edge.
    // pinv([[1,0,1,0],[0,1,0,0],[0,0,0,0],[0,0,0,0]]) → (0.9999999999999998, 1, 0.3173…)
    // exact_items(same) → (0.9999999999999998, 1.0, 1.0)
    const r = tested([
      [1, 0, 1, 0],
      [0, 1, 0, 0],
      [0, 0, 0, 0],
      [0, 0, 0, 0],
    ]);
    expect(r).toMatchObject({ df: 1, method: 'exact-permutation', discordant: 1, arrangements: 2 });
    close(r.statistic, 1);
    expect(r.pValue).toBe(1);
    expect(r.smallestPValue).toBe(1);
  });

  it('the walk’s 5 items, all gold A (chosen A, A, A, B, C): df 2, never 0; p 1', () => {
    // reduced([[3,1,1,0],[0,0,0,0],[0,0,0,0],[0,0,0,0]]) → (2.0, 2, 0.36787944117144245)
    // exact_items(same) → (2.0000000000000004, 1.0, 1.0)
    const r = tested([
      [3, 1, 1, 0],
      [0, 0, 0, 0],
      [0, 0, 0, 0],
      [0, 0, 0, 0],
    ]);
    expect(r).toMatchObject({ df: 2, method: 'exact-permutation', discordant: 2, arrangements: 4 });
    close(r.statistic, 2);
    close(r.pValue, 1);
    close(r.smallestPValue!, 1);
  });

  it('a mixed 4 × 4 table of 30 items', () => {
    // reduced([[5,2,1,0],[0,4,3,1],[1,0,6,2],[0,1,0,4]]) → (2.2, 3, 0.5319483712104882)
    // exact_items(same) → (2.2000000000000006, 0.56640625, 0.0048828125); 324 arrangements
    const r = tested([
      [5, 2, 1, 0],
      [0, 4, 3, 1],
      [1, 0, 6, 2],
      [0, 1, 0, 4],
    ]);
    expect(r).toMatchObject({ df: 3, method: 'exact-permutation', discordant: 11, arrangements: 324 });
    close(r.statistic, 2.2);
    close(r.pValue, 0.56640625);
    close(r.smallestPValue!, 0.0048828125);
  });

  it('a table in two pieces (A↔B, C↔D): the Moore–Penrose form, df = rank 2', () => {
    // reduced(...) raises "Singular matrix"; pinv([[3,4,0,0],[1,2,0,0],[0,0,5,0],[0,0,3,1]]) → (4.799999999999997, 2, 0.0907…)
    // exact_items(same) → (4.799999999999997, 0.140625, 0.015625)
    const r = tested([
      [3, 4, 0, 0],
      [1, 2, 0, 0],
      [0, 0, 5, 0],
      [0, 0, 3, 1],
    ]);
    expect(r).toMatchObject({ df: 2, method: 'exact-permutation', discordant: 8, arrangements: 24 });
    close(r.statistic, 4.799999999999997);
    close(r.pValue, 0.140625);
    close(r.smallestPValue!, 0.015625);
  });

  it('two letters: X² is McNemar’s and the exact p is the exact McNemar test', () => {
    // reduced([[4,7],[1,3]]) → (4.5, 1, 0.0339); exact_items(same) → (4.5, 0.0703125, 0.0078125)
    const r = tested([
      [4, 7],
      [1, 3],
    ]);
    close(r.statistic, (7 - 1) ** 2 / 8);
    close(r.pValue, 0.0703125);
    close(r.pValue, mcnemarExactFromCounts(7, 1).pValue);
    close(r.smallestPValue!, 0.0078125);
  });

  it('a model that always says C on 40 items spread evenly: exact, p = 8/2^30', () => {
    // reduced([[0,0,10,0],[0,0,10,0],[0,0,10,0],[0,0,10,0]]) → (30.0, 3, 1.38e-06)
    // exact_pairs(same) → (29.999999999999993, 7.4505805969238165e-09, 7.4505805969238165e-09); 1331 arrangements
    const r = tested([
      [0, 0, 10, 0],
      [0, 0, 10, 0],
      [0, 0, 10, 0],
      [0, 0, 10, 0],
    ]);
    expect(r).toMatchObject({ df: 3, method: 'exact-permutation', discordant: 30, arrangements: 1331 });
    close(r.statistic, 30);
    close(r.pValue, 7.4505805969238165e-9, 1e-9);
    close(r.smallestPValue!, 7.4505805969238165e-9, 1e-9);
  });
});

describe('stuartMaxwell: chi-square past the exact limit', () => {
  it('Stuart’s (1955) unaided vision data, 7,477 women: X² 11.96, df 3 (Agresti 2002, §10.3)', () => {
    // reduced([[1520,266,124,66],[234,1512,432,78],[117,362,1772,205],[36,82,179,492]]) → (11.956569622982554, 3, 0.007533425054800539)
    const r = tested([
      [1520, 266, 124, 66],
      [234, 1512, 432, 78],
      [117, 362, 1772, 205],
      [36, 82, 179, 492],
    ]);
    expect(r).toMatchObject({ df: 3, method: 'chi-square', smallestPValue: null });
    expect(r.arrangements).toBeGreaterThan(EXACT_ARRANGEMENT_LIMIT);
    close(r.statistic, 11.956569622982554, 1e-10);
    close(r.pValue, 0.007533425054800539, 1e-8);
  });

  it('a 220-item table with 96 discordant items spread over every pair', () => {
    // reduced([[30,9,8,7],[6,28,9,10],[5,8,31,6],[12,7,9,25]]) → (1.2469545957918051, 3, 0.7417660687421666); 23,224,320 arrangements
    const r = tested([
      [30, 9, 8, 7],
      [6, 28, 9, 10],
      [5, 8, 31, 6],
      [12, 7, 9, 25],
    ]);
    expect(r).toMatchObject({ df: 3, method: 'chi-square', discordant: 96, arrangements: 23_224_320 });
    close(r.statistic, 1.2469545957918051, 1e-10);
    close(r.pValue, 0.7417660687421666, 1e-9);
  });
});

describe('stuartMaxwell: nothing to test', () => {
  it('one letter in both margins (5 items, all gold A, all chosen A): untestable, not df 0', () => {
    expect(stuartMaxwell([[5, 0], [0, 0]])).toEqual({ untestable: 'one-letter', discordant: 0 });
  });
  it('every chosen letter its item’s answer: no discordant item, rank 0', () => {
    expect(stuartMaxwell([[3, 0, 0], [0, 2, 0], [0, 0, 4]])).toEqual({ untestable: 'no-discordant', discordant: 0 });
  });
  it('refuses a table that is not square or not whole counts', () => {
    expect(() => stuartMaxwell([[1, 2], [3]])).toThrow(RangeError);
    expect(() => stuartMaxwell([[1, 0.5], [0, 1]])).toThrow(RangeError);
  });
});
