import { describe, expect, it } from 'vitest';
import type { OptionLetter } from '../../../src/lib/core/benchmarks/types.ts';
import { wilsonInterval } from '../../../src/lib/core/metrics/accuracy.ts';
import { allRotationsCorrect, circularSummary } from '../../../src/lib/core/metrics/circular.ts';
import { letterBias } from '../../../src/lib/core/metrics/letter-bias.ts';
import { mulberry32 } from '../../../src/lib/core/metrics/generation/bootstrap.ts';
import { itemPrior, prideDebias, prideEstimationItems, type PrideInput } from '../../../src/lib/core/metrics/pride.ts';
import { drawEstimationSet, PRIDE_MIN_ESTIMATION_ITEMS } from '../../../src/lib/core/protocols/estimation-set.ts';
import { rotatedLetter } from '../../../src/lib/core/protocols/rotation.ts';
import type { McItemResult } from '../../../src/lib/core/record/run.ts';

const ABCD: OptionLetter[] = ['A', 'B', 'C', 'D'];
const argmax = (probs: readonly number[]): number => probs.indexOf(Math.max(...probs));

/** A letter-logits result: prediction = argmax of probs; rotations' probs given in order 1, 2, …. */
function result(itemId: string, probs: number[], gold: OptionLetter | null, rotations?: number[][], letters = ABCD): PrideInput {
  const prediction = letters[argmax(probs)];
  return {
    itemId,
    letters: letters.slice(0, probs.length),
    probs,
    prediction,
    gold,
    correct: gold === null ? null : prediction === gold,
    ...(rotations ? { rotations: rotations.map((p, i) => ({ rotation: i + 1, probs: p })) } : {}),
  };
}

// The hand-worked 3-item, 4-option example.
// The model's position prior is π = (½, ¼, ⅛, ⅛); the estimation item e1's options have content
// weights c = (1, 2, 1, 1) (option B, as the benchmark orders them, is liked twice as much). Rotation k
// shows at position j the option originally at (j + k) mod 4, and observed_k[j] = π_j·c_(j+k)/Z_k:
//   k = 0: c = (1,2,1,1): (½, ½, ⅛, ⅛)/1.25   = (0.4, 0.4, 0.1, 0.1)
//   k = 1: c = (2,1,1,1): (1, ¼, ⅛, ⅛)/1.5    = (2/3, 1/6, 1/12, 1/12)
//   k = 2: c = (1,1,1,2): (½, ¼, ⅛, ¼)/1.125  = (4/9, 2/9, 1/9, 2/9)
//   k = 3: c = (1,1,2,1): (½, ¼, ¼, ⅛)/1.125  = (4/9, 2/9, 2/9, 1/9)
// Mean over k of log observed_k[j] = log π_j + ¼·log 2 − ¼·Σ_k log Z_k: the last two terms are the
// same for every j, so the softmax over j gives back π exactly: prior = (0.5, 0.25, 0.125, 0.125).
// x1: probs (0.4, 0.3, 0.2, 0.1), gold C: raw A (wrong); p/π = (0.8, 1.2, 1.6, 0.8): debiased C (right).
// x2: probs (0.6, 0.2, 0.1, 0.1), gold A: raw A; p/π = (1.2, 0.8, 0.8, 0.8): debiased A (right).
// Raw accuracy 1/2, debiased 2/2, one prediction changed.
const e1 = result('e1', [0.4, 0.4, 0.1, 0.1], 'B', [
  [2 / 3, 1 / 6, 1 / 12, 1 / 12],
  [4 / 9, 2 / 9, 1 / 9, 2 / 9],
  [4 / 9, 2 / 9, 2 / 9, 1 / 9],
]);
const x1 = result('x1', [0.4, 0.3, 0.2, 0.1], 'C');
const x2 = result('x2', [0.6, 0.2, 0.1, 0.1], 'A');

/** `count` estimation items with the same results as `item` (ids e0, e1, …): a prior from 20 and up. */
const copies = (item: PrideInput, count: number, prefix = 'e'): PrideInput[] => Array.from({ length: count }, (_, i) => ({ ...item, itemId: `${prefix}${i}` }));
const ids = (items: readonly PrideInput[]): string[] => items.map((r) => r.itemId);
const E1 = copies(e1, PRIDE_MIN_ESTIMATION_ITEMS);

describe('prideDebias', () => {
  it('the hand-worked example (its estimation item 20 times): prior, predictions, accuracies', () => {
    const pride = prideDebias([...E1, x1, x2], ids(E1))!;
    expect(pride.priors).toHaveLength(1);
    expect(pride.priors[0].optionCount).toBe(4);
    expect(pride.priors[0].estimationItems).toBe(20);
    pride.priors[0].prior.forEach((p, j) => expect(p).toBeCloseTo([0.5, 0.25, 0.125, 0.125][j], 12));
    // Twenty equal per-item priors: no spread, standard error 0.
    pride.priors[0].standardError.forEach((se) => expect(se).toBeCloseTo(0, 12));
    expect(pride.predictions).toEqual({ x1: 'C', x2: 'A' });
    expect(pride.evaluated).toBe(2);
    expect(pride.withoutPrior).toBe(0);
    expect(pride.raw).toEqual({ k: 1, n: 2, accuracy: 0.5, wilson: wilsonInterval(1, 2) });
    expect(pride.debiased).toMatchObject({ k: 2, n: 2, accuracy: 1, wilson: wilsonInterval(2, 2) });
    expect(pride.changed).toBe(1);
    expect(pride.belowMinimum).toEqual([]);
    expect(pride.signature).toMatch(/^pride\|.*\|min-estimation-items:20\|.*debiased-interval:bs:1000\|seed:12345\|.*prior-re-estimated,right-count:binomial-kemp-modal\|version:2$/);
  });

  it('the prior is the mean over estimation items', () => {
    // e2 ignores content and position: uniform under every rotation, prior ¼ each. Ten of each with e1:
    // (3/8, 1/4, 3/16, 3/16); x1's p/prior = (1.067, 1.2, 1.067, 0.533): debiased B.
    const uniform = [0.25, 0.25, 0.25, 0.25];
    const estimation = [...copies(e1, 10, 'a'), ...copies(result('e2', uniform, 'D', [uniform, uniform, uniform]), 10, 'b')];
    const pride = prideDebias([...estimation, x1, x2], ids(estimation))!;
    pride.priors[0].prior.forEach((p, j) => expect(p).toBeCloseTo([3 / 8, 1 / 4, 3 / 16, 3 / 16][j], 12));
    expect(pride.priors[0].estimationItems).toBe(20);
    // Per-item priors (½, ¼, ⅛, ⅛) and ¼ each, ten of each: SD = |difference|/2 · √(20/19), over √20.
    // python3 -c "import numpy as np; print([float(np.std([a]*10+[b]*10, ddof=1)/np.sqrt(20)) for a,b in [(.5,.25),(.25,.25),(.125,.25),(.125,.25)]])"
    // → [0.028676966733820225, 0.0, 0.014338483366910113, 0.014338483366910113]
    [0.028676966733820225, 0, 0.014338483366910113, 0.014338483366910113].forEach((se, j) => expect(pride.priors[0].standardError[j]).toBeCloseTo(se, 12));
    expect(pride.predictions.x1).toBe('B');
  });

  it(`refuses to debias from fewer than ${PRIDE_MIN_ESTIMATION_ITEMS} complete estimation items (the walk: 2 items)`, () => {
    const two = copies(e1, 2);
    expect(prideDebias([...two, x1, x2], ids(two))).toBeNull();
    expect(prideEstimationItems([...two, x1, x2], ids(two))).toEqual([{ optionCount: 4, items: 2 }]);
    const nineteen = copies(e1, 19);
    expect(prideDebias([...nineteen, x1, x2], ids(nineteen))).toBeNull();
    // An incomplete twentieth does not count.
    const incomplete = result('e19', [0.4, 0.4, 0.1, 0.1], 'B', [[0.25, 0.25, 0.25, 0.25]]);
    expect(prideDebias([...nineteen, incomplete, x1], [...ids(nineteen), 'e19'])).toBeNull();
    expect(prideEstimationItems([...nineteen, incomplete, x1], [...ids(nineteen), 'e19'])).toEqual([{ optionCount: 4, items: 19 }]);
  });

  it('a prior per option count from 20 of them; a count with fewer gets none and keeps its raw predictions', () => {
    // Three options, prior (0.2, 0.2, 0.6) (the model likes C): every rotation shows it.
    const t = [0.2, 0.2, 0.6];
    const E3 = copies(result('e3', t, 'A', [t, t]), 20, 'f');
    const y3 = result('y3', [0.3, 0.3, 0.4], 'A'); // p/prior = (1.5, 1.5, 0.67): A (tie of A and B goes to A)
    const z2 = result('z2', [0.3, 0.7], 'A'); // two options: no two-option prior
    const pride = prideDebias([...E1, ...E3, x1, y3, z2], [...ids(E1), ...ids(E3)])!;
    expect(pride.priors.map((p) => [p.optionCount, p.estimationItems])).toEqual([
      [3, 20],
      [4, 20],
    ]);
    pride.priors[0].prior.forEach((p, j) => expect(p).toBeCloseTo(t[j], 12));
    expect(pride.predictions).toEqual({ x1: 'C', y3: 'A', z2: 'B' });
    expect(pride.withoutPrior).toBe(1);
    expect(pride.evaluated).toBe(3);
    expect(pride.changed).toBe(2);
    expect(pride.debiased.k).toBe(2);
    // Only 3 three-option estimation items: no three-option prior; y3 keeps its raw C.
    const few = prideDebias([...E1, ...E3.slice(0, 3), x1, y3], [...ids(E1), ...ids(E3.slice(0, 3))])!;
    expect(few.priors.map((p) => p.optionCount)).toEqual([4]);
    expect(few.belowMinimum).toEqual([{ optionCount: 3, items: 3 }]);
    expect(few.predictions.y3).toBe('C');
    expect(few.withoutPrior).toBe(1);
  });

  it('leaves out failed, unkeyed and generated items, and estimation items from the evaluation', () => {
    const failed = { ...result('f', [0.1, 0.2, 0.3, 0.4], 'A'), failure: { code: 'model.failed' } };
    const unkeyed = result('u', [0.4, 0.3, 0.2, 0.1], null);
    const generated: PrideInput = { itemId: 'g', letters: ABCD, probs: [], prediction: 'B', gold: 'B', correct: true };
    const pride = prideDebias([...E1, x1, failed, unkeyed, generated], ids(E1))!;
    expect(pride.evaluated).toBe(1);
    expect(Object.keys(pride.predictions)).toEqual(['x1']);
  });

  it('null when no estimation item is complete; incomplete or failed ones give no prior', () => {
    const incomplete = result('e1', [0.4, 0.4, 0.1, 0.1], 'B', [[0.25, 0.25, 0.25, 0.25]]);
    expect(prideDebias([incomplete, x1], ['e1'])).toBeNull();
    expect(prideDebias([...E1, x1], [])).toBeNull();
    expect(prideEstimationItems([...E1, x1], [])).toEqual([]);
    const failedRotation = { ...e1, rotations: e1.rotations!.map((r, i) => (i === 1 ? { ...r, failure: { code: 'model.failed' } } : r)) };
    expect(itemPrior(failedRotation)).toBeNull();
  });

  it('full-vocabulary log-probs would give the same prior: a constant per rotation cancels', () => {
    // Scaling every rotation's probabilities by its own factor (log-probs shifted by a constant).
    const scaled = { ...e1, probs: e1.probs.map((p) => p * 0.3), rotations: e1.rotations!.map((r, i) => ({ ...r, probs: r.probs.map((p) => p * (0.05 + 0.2 * i)) })) };
    itemPrior(scaled)!.forEach((p, j) => expect(p).toBeCloseTo(itemPrior(e1)![j], 12));
  });
});

describe("the debiased accuracy's interval carries the prior's error", () => {
  // An independent Python port (python3, numpy 2.4.6) of mulberry32, the data below, PriDe and the
  // bootstrap the header of pride.ts states, run once:
  //   import math, numpy as np
  //   def mulberry32(seed):
  //       a=[seed & 0xffffffff]
  //       def imul(x,y): return ((x & 0xffffffff)*(y & 0xffffffff)) & 0xffffffff
  //       def nxt():
  //           a[0]=(a[0]+0x6d2b79f5) & 0xffffffff; x=a[0]
  //           t=imul(x ^ (x>>15), 1 | x)
  //           t=((t + imul(t ^ (t>>7), 61 | t)) & 0xffffffff) ^ t
  //           return ((t ^ (t>>14)) & 0xffffffff)/4294967296
  //       return nxt
  //   r=mulberry32(2024); LIKE=[1,1,2.5,1]
  //   def probs(boost=None):
  //       w=[(0.05+r())*LIKE[j]*(2 if j==boost else 1) for j in range(4)]; s=0
  //       for x in w: s+=x
  //       return [x/s for x in w]
  //   est=[[probs() for k in range(4)] for i in range(24)]                    # rotation 0..3 of e0..e23
  //   ev=[(probs(boost=(3*i)%4),(3*i)%4) for i in range(60)]                  # x0..x59: probs, gold position
  //   def item_prior(obs):
  //       ml=[sum(math.log(p[j]) for p in obs)/len(obs) for j in range(4)]; mx=max(ml); e=[math.exp(v-mx) for v in ml]; s=0
  //       for x in e: s+=x
  //       return [x/s for x in e]
  //   ip=[item_prior(o) for o in est]
  //   def mean(ps, idx):
  //       s=[0.0]*4
  //       for i in idx:
  //           for j in range(4): s[j]+=ps[i][j]
  //       return [x/len(idx) for x in s]
  //   def argmax_debiased(lp, lprior):
  //       best,bs=0,-math.inf
  //       for j in range(4):
  //           sc=lp[j]-lprior[j]
  //           if sc>bs: best,bs=j,sc
  //       return best
  //   prior=mean(ip,range(24)); lpr=[math.log(x) for x in prior]
  //   lps=[[math.log(x) for x in p] for p,_ in ev]
  //   raw=sum(1 for p,g in ev if p.index(max(p))==g); deb=sum(1 for lp,(p,g) in zip(lps,ev) if argmax_debiased(lp,lpr)==g)
  //   se=[float(np.std([q[j] for q in ip],ddof=1)/math.sqrt(24)) for j in range(4)]
  //   def logfact(n):
  //       t=[0.0]*(n+1)
  //       for k in range(2,n+1): t[k]=t[k-1]+math.log(k)
  //       return t
  //   def binom_draw(u,n,p,lf):  # Kemp (1986): from the mode down and up in turn until u is spent
  //       if p==0: return 0
  //       if p==1: return n
  //       q=1-p; m=min(n,math.floor((n+1)*p)); pm=math.exp(lf[n]-lf[m]-lf[n-m]+m*math.log(p)+(n-m)*math.log(q))
  //       left=u-pm
  //       if left<0: return m
  //       lo=hi=m; plo=phi=pm
  //       while lo>0 or hi<n:
  //           if lo>0:
  //               plo*=(lo/(n-lo+1))*(q/p); lo-=1; left-=plo
  //               if left<0: return lo
  //           if hi<n:
  //               phi*=((n-hi)/(hi+1))*(p/q); hi+=1; left-=phi
  //               if left<0: return hi
  //       return m
  //   def boot2(ipr, lps_, golds, B=1000, seed=12345):  # estimation items drawn, prior re-estimated, then the right count
  //       m=len(ipr); n=len(lps_); lf=logfact(n); u=mulberry32(seed); vals=[]
  //       for b in range(B):
  //           idx=[math.floor(u()*m) for _ in range(m)]; lp_=[math.log(x) for x in mean(ipr,idx)]
  //           k=sum(1 for lp,g in zip(lps_,golds) if argmax_debiased(lp,lp_)==g)
  //           vals.append(binom_draw(u(),n,k/n,lf)/n)
  //       return [float(x) for x in np.percentile(vals,[2.5,97.5])], vals
  //   print(prior, se, raw, deb)
  //   for seed,B in [(12345,1000),(1,200),(2,200),(3,50)]: print(seed,B,boot2(ip,lps,[g for _,g in ev],B=B,seed=seed)[0])
  // → prior [0.19137978306208228, 0.2040180019721006, 0.42022383867241686, 0.1843783762934004]
  //   se [0.012062752212911702, 0.015275853952223601, 0.02059654076117428, 0.012710463691739478]
  //   raw 33, debiased 39; intervals: 12345/1000 [0.5166666666666667, 0.7666666666666667],
  //   1/200 [0.5329166666666667, 0.7670833333333335], 2/200 [0.5495833333333334, 0.7666666666666667],
  //   3/50 [0.5333333333333333, 0.74625]
  it('matches the Python port: prior, standard errors, accuracies and the bootstrap interval', () => {
    const random = mulberry32(2024);
    const like = [1, 1, 2.5, 1];
    const draw = (boost: number | null = null): number[] => {
      const w = like.map((l, j) => (0.05 + random()) * l * (j === boost ? 2 : 1));
      const sum = w.reduce((s, x) => s + x, 0);
      return w.map((x) => x / sum);
    };
    const estimation = Array.from({ length: 24 }, (_, i) => {
      const [r0, ...rotations] = [draw(), draw(), draw(), draw()];
      return result(`e${i}`, r0, 'A', rotations);
    });
    const evaluated = Array.from({ length: 60 }, (_, i) => result(`x${i}`, draw((3 * i) % 4), ABCD[(3 * i) % 4]));
    const pride = prideDebias([...estimation, ...evaluated], ids(estimation))!;
    [0.19137978306208228, 0.2040180019721006, 0.42022383867241686, 0.1843783762934004].forEach((p, j) => expect(pride.priors[0].prior[j]).toBeCloseTo(p, 14));
    [0.012062752212911702, 0.015275853952223601, 0.02059654076117428, 0.012710463691739478].forEach((se, j) => expect(pride.priors[0].standardError[j]).toBeCloseTo(se, 14));
    expect(pride.raw.k).toBe(33);
    expect(pride.debiased.k).toBe(39);
    expect(pride.debiased.interval).toMatchObject({ resamples: 1000, used: 1000, seed: 12345, level: 0.95 });
    expect(pride.debiased.interval!.low).toBeCloseTo(0.5166666666666667, 12);
    expect(pride.debiased.interval!.high).toBeCloseTo(0.7666666666666667, 12);
    // Other seeds and replicate counts (B small, so the percentiles fall between replicates).
    const others: [number, number, number, number][] = [
      [1, 200, 0.5329166666666667, 0.7670833333333335],
      [2, 200, 0.5495833333333334, 0.7666666666666667],
      [3, 50, 0.5333333333333333, 0.74625],
    ];
    for (const [seed, resamples, low, high] of others) {
      const again = prideDebias([...estimation, ...evaluated], ids(estimation), { seed, resamples })!;
      expect(again.debiased.interval!.low, `seed ${seed}`).toBeCloseTo(low, 12);
      expect(again.debiased.interval!.high, `seed ${seed}`).toBeCloseTo(high, 12);
      expect(again.signature).toContain(`bs:${resamples}|seed:${seed}|`);
    }
    // Seeded: the same again.
    expect(prideDebias([...estimation, ...evaluated], ids(estimation))!.debiased.interval).toEqual(pride.debiased.interval);
  });

  it('evaluated items all alike: Wilson is narrow, the bootstrap spans 0–1 because the prior decides', () => {
    // Ten estimation items with prior (0.4, 0.2, 0.2, 0.2), ten with (0.1, 0.3, 0.3, 0.3): mean ¼ each.
    // Thirty identical evaluated items (0.3, 0.28, 0.21, 0.21), gold A: right under the mean prior, wrong
    // under any replicate with 11 or more of the first kind (π_A/π_B > 0.3/0.28), P ≈ 0.41.
    // The Python port above: ip2=[[0.4,0.2,0.2,0.2]]*10+[[0.1,0.3,0.3,0.3]]*10;
    // boot2(ip2,[[math.log(x) for x in [0.3,0.28,0.21,0.21]]]*30,[0]*30) → [0.0, 1.0]; 431 replicates at 0, 569 at 1.
    const a = [0.4, 0.2, 0.2, 0.2];
    const b = [0.1, 0.3, 0.3, 0.3];
    const estimation = [...copies(result('a', a, 'A', [a, a, a]), 10, 'a'), ...copies(result('b', b, 'A', [b, b, b]), 10, 'b')];
    const evaluated = copies(result('x', [0.3, 0.28, 0.21, 0.21], 'A'), 30, 'x');
    const pride = prideDebias([...estimation, ...evaluated], ids(estimation))!;
    expect(pride.debiased).toMatchObject({ k: 30, n: 30, accuracy: 1 });
    expect(pride.debiased.wilson!.low).toBeGreaterThan(0.88);
    expect(pride.debiased.interval).toMatchObject({ low: 0, high: 1 });
  });
});

describe('the three robustness metrics on stored McItemResult records', () => {
  // A model that answers C whatever the prompt (as the browser tests' fixture model does), with the
  // same letter probabilities under every rotation, on 40 four-option items whose gold letters cycle
  // A, B, C, D, A, …, plus two more gold A (so raw and debiased accuracy differ), in one circular run.
  // PriDe's estimation set is half the items (21; 5% of 42 would be 2, below the minimum of 20). The
  // other items lean a little to A (0.21 against 0.2), so that against the prior, which is the model's
  // constant distribution, A wins by more than rounding rather than by a tie.
  const probs = [0.2, 0.2, 0.4, 0.2];
  const leaning = [0.21, 0.2, 0.39, 0.2];
  const golds: OptionLetter[] = [...Array.from({ length: 40 }, (_, i) => ABCD[i % 4]), 'A', 'A'];
  const estimation = drawEstimationSet(
    golds.map((_, index) => `i${index}`),
    0.5,
    1,
  );
  const base = { runId: 'r', prompt: 'p', promptHash: 'h', tokenCount: 10, shotsUsed: 0, exemplarIds: [], tokenIds: [1, 2, 3, 4], reusedPrefixTokens: 0, forwardMs: 1, completedAt: '2026-01-01T00:00:00.000Z' };
  const records: McItemResult[] = golds.map((gold, index) => ({
    ...base,
    itemId: `i${index}`,
    task: index % 2 === 0 ? 'even' : 'odd',
    index,
    letters: ABCD,
    logProbs: (estimation.includes(`i${index}`) ? probs : leaning).map((p) => Math.log(p) - 3),
    probs: estimation.includes(`i${index}`) ? probs : leaning,
    prediction: 'C',
    gold,
    correct: gold === 'C',
    rotations: [1, 2, 3].map((rotation) => {
      const moved = rotatedLetter(gold, rotation, 4);
      return { ...base, rotation, letters: ABCD, logProbs: probs.map((p) => Math.log(p) - 3), probs, prediction: 'C' as const, gold: moved, correct: moved === 'C' };
    }),
  }));

  it('a significant letter bias, perf 0, and a debiased accuracy that differs from the raw one', () => {
    const bias = letterBias(records).overall;
    expect(bias.top).toMatchObject({ letter: 'C', share: 1 });
    expect(bias.fit!.pValue).toBeLessThan(0.001);
    const circular = circularSummary(records)!;
    expect(circular.perf.accuracy).toBe(0);
    // Each item is right under exactly the one rotation that shows its gold at C.
    expect(circular.mean.accuracy).toBeCloseTo(0.25, 12);
    expect(circular.atLeast.map((a) => a.k)).toEqual([42, 0, 0, 0]);
    expect(records.map(allRotationsCorrect).every((x) => x === false)).toBe(true);
    const pride = prideDebias(records, estimation)!;
    // The prior is the model's constant distribution; log p − log prior is log(0.21/0.2) at A and
    // at most 0 elsewhere, so every prediction goes to A.
    pride.priors[0].prior.forEach((p, j) => expect(p).toBeCloseTo(probs[j], 12));
    expect(Object.values(pride.predictions).every((l) => l === 'A')).toBe(true);
    expect(pride.evaluated).toBe(42 - estimation.length);
    const goldC = records.filter((r) => !estimation.includes(r.itemId) && r.gold === 'C').length;
    const goldA = records.filter((r) => !estimation.includes(r.itemId) && r.gold === 'A').length;
    expect(pride.raw.k).toBe(goldC);
    expect(pride.debiased.k).toBe(goldA);
    expect(pride.debiased.k).not.toBe(pride.raw.k);
  });
});
