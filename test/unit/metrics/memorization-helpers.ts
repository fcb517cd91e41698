// What the memorization tests share: a test's own per-position statistics from a full logits row,
// and the call into memorization_reference.py.
import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PositionStatistics } from '../../../src/lib/core/metrics/memorization/index.ts';

const HERE = dirname(fileURLToPath(import.meta.url));

/**
 * log-softmax in float64, μ = Σ p·log p and σ² = Σ p·(log p − μ)² in two passes (the reference
 * script takes E[(log p)²] − μ², one pass), so the two sides compute the moments differently. What
 * the worker's statistics mode must equal.
 */
export function positionStatistics(row: Float32Array, next: number): PositionStatistics {
  let max = -Infinity;
  for (const x of row) if (x > max) max = x;
  let sum = 0;
  for (const x of row) sum += Math.exp(x - max);
  const lse = max + Math.log(sum);
  let mean = 0;
  for (const x of row) mean += Math.exp(x - lse) * (x - lse);
  let variance = 0;
  for (const x of row) variance += Math.exp(x - lse) * (x - lse - mean) ** 2;
  return { logprob: row[next] - lse, mean, std: Math.sqrt(variance) };
}

export interface ReferenceOutput {
  texts: { positions: PositionStatistics[]; minK: (number | null)[]; minKPlusPlus: (number | null)[] }[];
  positionTexts: { minK: (number | null)[]; minKPlusPlus: (number | null)[] }[];
  shardSets: { mean: number; sd: number; t: number; p: number; upstreamStatistic: number }[];
  tValues: number[];
  summaries: { n: number; min: number; q1: number; median: number; q3: number; max: number; mean: number }[];
}

/** memorization_reference.py on one case (its docstring says the input). */
export function reference(input: unknown): ReferenceOutput {
  return JSON.parse(execFileSync('python3', [join(HERE, 'memorization_reference.py')], { input: JSON.stringify(input), encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 })) as ReferenceOutput;
}

/** `sentence` with its words in a seeded Fisher–Yates order other than its own (the separation tests' shuffles). */
export function shuffledWords(sentence: string, random: () => number): string {
  const words = sentence.split(/\s+/);
  let order: string[];
  do {
    order = words.slice();
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [order[i], order[j]] = [order[j], order[i]];
    }
  } while (order.join(' ') === words.join(' '));
  return order.join(' ');
}
