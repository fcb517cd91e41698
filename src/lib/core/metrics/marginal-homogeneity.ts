// Marginal homogeneity of a K×K table of paired letters (rows: the gold letter, columns: the letter
// the model chose, one count per item): the Stuart–Maxwell test (Stuart 1955, Biometrika 42:412;
// Maxwell 1970, Br. J. Psychiatry 116:651; Agresti, Categorical Data Analysis, 2nd ed., §10.3.1).
// A model that likes a letter chooses it more often than it is gold, so the row and column margins
// differ. Why not a goodness of fit of the chosen letters against the gold counts: that takes the
// sample's gold counts as the exact expected distribution, so a letter chosen but never gold made
// the statistic infinite on any n, and golds all of one letter gave a test with 0 degrees of freedom.
// Method (stated in `method`):
//  - Letters absent from both margins are dropped. Fewer than two left: nothing to test ('one-letter').
//  - d = row margins − column margins; S_ii = n_i. + n_.i − 2 n_ii, S_ij = −(n_ij + n_ji): S is the
//    Laplacian of the graph whose edge {i, j} weighs m_ij = n_ij + n_ji, the discordant items between
//    i and j. X² = dᵀ S⁺ d. With the graph connected this is Stuart–Maxwell's dᵀ S⁻¹ d over K − 1
//    letters; with it split into pieces (a letter the model always got right has no edge) S⁺ is the
//    block inverse, each piece's reduced S inverted, and df = rank S = Σ (piece size − 1), as coin's
//    mh_test does with its Moore–Penrose inverse (Hothorn et al. 2008, J. Stat. Softw. 28(8)). No
//    discordant item at all: rank 0, nothing to test ('no-discordant'). So df is never 0.
//  - Why S is the right covariance, and the exact test: conditional on the unordered pair {gold,
//    chosen} of each item, the null that the two letters of an item are exchangeable makes each of
//    the m_ij items of edge {i, j} point either way with probability ½, independently; d's covariance
//    under that is exactly S, and S does not change under the swaps. The exact p is the probability,
//    over those Π (m_ij + 1) outcomes (x_ij items i→j: C(m_ij, x_ij)/2^m_ij each), of an X² at least
//    the observed one (within a relative 1e-7, so that equal values are not lost to rounding). It is
//    used while Π (m_ij + 1) ≤ EXACT_ARRANGEMENT_LIMIT (50,000; every table with at most 30 discordant
//    items, however spread, since 6 edges of 5 give 6⁶ = 46,656); past it the chi-square
//    approximation with df = rank S, where the discordant items are many enough for it. With two
//    letters the exact test is exact McNemar.
//  - smallestPValue (exact only): the p of the most extreme outcome, the least this test can give on
//    these pairs. Above 0.05 the test cannot show a bias at 5% whatever the model did: too few items
//    differ from their answer, and the page says so rather than reading p as "no bias".
import { chiSquareSurvival } from './goodness-of-fit.ts';

export const MARGINAL_HOMOGENEITY_VERSION = 1;
export const EXACT_ARRANGEMENT_LIMIT = 50_000;
const RELATIVE_TOLERANCE = 1e-7;

export type HomogeneityMethod = 'exact-permutation' | 'chi-square';
export type Untestable = 'one-letter' | 'no-discordant';

export interface StuartMaxwell {
  /** X² = dᵀ S⁺ d. */
  statistic: number;
  /** rank S: letters kept minus the pieces of the discordance graph; ≥ 1. */
  df: number;
  pValue: number;
  method: HomogeneityMethod;
  /** Items whose two letters differ. */
  discordant: number;
  /** Π (m_ij + 1): the outcomes the exact test visits (or would: past the limit, chi-square). */
  arrangements: number;
  /** Exact only: the smallest p any outcome on these pairs could give; null for chi-square. */
  smallestPValue: number | null;
}

export type MarginalHomogeneity = StuartMaxwell | { untestable: Untestable; discordant: number };

export function homogeneitySignature(): string {
  return `stuart-maxwell(d=gold-minus-chosen,S=laplacian-of-discordant-pairs,X2=dT.pinv(S).d,df=rank)|p:exact-permutation-within-items<=${EXACT_ARRANGEMENT_LIMIT}-arrangements-else-chi-square|v${MARGINAL_HOMOGENEITY_VERSION}`;
}

/** The inverse of a small symmetric positive definite matrix, Gauss–Jordan with partial pivoting. */
function invert(a: number[][]): number[][] {
  const n = a.length;
  const m = a.map((row, i) => [...row, ...row.map((_, j) => (i === j ? 1 : 0))]);
  for (let c = 0; c < n; c++) {
    let pivot = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(m[r][c]) > Math.abs(m[pivot][c])) pivot = r;
    [m[c], m[pivot]] = [m[pivot], m[c]];
    const p = m[c][c];
    for (let j = 0; j < 2 * n; j++) m[c][j] /= p;
    for (let r = 0; r < n; r++) {
      if (r === c || m[r][c] === 0) continue;
      const f = m[r][c];
      for (let j = 0; j < 2 * n; j++) m[r][j] -= f * m[c][j];
    }
  }
  return m.map((row) => row.slice(n));
}

interface Edge {
  i: number;
  j: number;
  m: number;
}

/** S⁺ as a K×K matrix (zero outside each piece's reduced inverse) and its rank. */
function pseudoInverse(k: number, edges: readonly Edge[]): { inverse: number[][]; rank: number } {
  const parent = Array.from({ length: k }, (_, i) => i);
  const root = (x: number): number => (parent[x] === x ? x : (parent[x] = root(parent[x])));
  for (const e of edges) parent[root(e.i)] = root(e.j);
  const pieces = new Map<number, number[]>();
  for (const e of edges)
    for (const v of [e.i, e.j]) {
      const list = pieces.get(root(v)) ?? [];
      if (!list.includes(v)) list.push(v);
      pieces.set(root(v), list);
    }
  const weight = (a: number, b: number): number => edges.find((e) => (e.i === a && e.j === b) || (e.i === b && e.j === a))?.m ?? 0;
  const degree = (a: number): number => edges.reduce((s, e) => s + (e.i === a || e.j === a ? e.m : 0), 0);
  const inverse = Array.from({ length: k }, () => new Array<number>(k).fill(0));
  let rank = 0;
  for (const members of pieces.values()) {
    // d sums to 0 over a piece, so one letter's row and column may go: the rest is invertible
    // (the matrix-tree theorem: a connected graph's reduced Laplacian has full rank).
    const kept = members.sort((x, y) => x - y).slice(0, -1);
    const laplacian = kept.map((a) => kept.map((b) => (a === b ? degree(a) : -weight(a, b))));
    const inv = invert(laplacian);
    kept.forEach((a, x) => kept.forEach((b, y) => (inverse[a][b] = inv[x][y])));
    rank += kept.length;
  }
  return { inverse, rank };
}

const quadratic = (d: ArrayLike<number>, p: readonly number[][]): number => {
  let x2 = 0;
  for (let a = 0; a < p.length; a++) for (let b = 0; b < p.length; b++) if (p[a][b] !== 0) x2 += d[a] * p[a][b] * d[b];
  return x2;
};

/**
 * The Stuart–Maxwell test of `table` (table[g][c]: items with gold letter g whose chosen letter is
 * c; square, whole counts), or why it cannot be run.
 */
export function stuartMaxwell(table: readonly (readonly number[])[]): MarginalHomogeneity {
  const size = table.length;
  for (const row of table) {
    if (row.length !== size) throw new RangeError(`the table must be square: a row has ${row.length} cells, not ${size}`);
    for (const x of row) if (!Number.isInteger(x) || x < 0) throw new RangeError(`counts must be whole and ≥ 0, got ${x}`);
  }
  const rowSum = table.map((row) => row.reduce((s, x) => s + x, 0));
  const colSum = table.map((_, c) => table.reduce((s, row) => s + row[c], 0));
  const letters = table.map((_, i) => i).filter((i) => rowSum[i] + colSum[i] > 0);
  const k = letters.length;
  const edges: Edge[] = [];
  for (let a = 0; a < k; a++)
    for (let b = a + 1; b < k; b++) {
      const m = table[letters[a]][letters[b]] + table[letters[b]][letters[a]];
      if (m > 0) edges.push({ i: a, j: b, m });
    }
  const discordant = edges.reduce((s, e) => s + e.m, 0);
  if (k < 2) return { untestable: 'one-letter', discordant };
  if (discordant === 0) return { untestable: 'no-discordant', discordant };

  const { inverse, rank } = pseudoInverse(k, edges);
  const observed = letters.map((l) => rowSum[l] - colSum[l]);
  const statistic = quadratic(observed, inverse);
  const arrangements = edges.reduce((p, e) => p * (e.m + 1), 1);
  if (arrangements > EXACT_ARRANGEMENT_LIMIT) {
    return { statistic, df: rank, pValue: chiSquareSurvival(statistic, rank), method: 'chi-square', discordant, arrangements, smallestPValue: null };
  }

  // Exact: every outcome x (x_e items of edge e pointing i→j), d built edge by edge.
  const maxM = Math.max(...edges.map((e) => e.m));
  const logFactorial = new Float64Array(maxM + 1);
  for (let i = 2; i <= maxM; i++) logFactorial[i] = logFactorial[i - 1] + Math.log(i);
  const weights = edges.map((e) => Float64Array.from({ length: e.m + 1 }, (_, x) => Math.exp(logFactorial[e.m] - logFactorial[x] - logFactorial[e.m - x] - e.m * Math.LN2)));
  const threshold = statistic * (1 - RELATIVE_TOLERANCE);
  const d = new Float64Array(k);
  let pValue = 0;
  let most = -Infinity;
  let mostMass = 0;
  const visit = (edge: number, weight: number): void => {
    if (edge === edges.length) {
      const x2 = quadratic(d, inverse);
      if (x2 >= threshold) pValue += weight;
      if (x2 > most * (1 + RELATIVE_TOLERANCE)) {
        most = x2;
        mostMass = weight;
      } else if (x2 >= most * (1 - RELATIVE_TOLERANCE)) mostMass += weight;
      return;
    }
    const { i, j, m } = edges[edge];
    for (let x = 0; x <= m; x++) {
      const y = 2 * x - m;
      d[i] += y;
      d[j] -= y;
      visit(edge + 1, weight * weights[edge][x]);
      d[i] -= y;
      d[j] += y;
    }
  };
  visit(0, 1);
  return { statistic, df: rank, pValue: Math.min(1, pValue), method: 'exact-permutation', discordant, arrangements, smallestPValue: Math.min(1, mostMass) };
}
