import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { generationCsv, predictionsCsv, runJson, withBom } from '../../../src/lib/core/formats/jiangu-run/export.ts';
import type { McItemResult } from '../../../src/lib/core/record/run.ts';
import { runSummary } from '../../../src/lib/core/metrics/run-summary.ts';
import { makeGenRun, makeMcRun } from '../../fixtures/run-records/build.ts';

const result = (over: Partial<McItemResult>): McItemResult => ({
  runId: 'r',
  itemId: 'translation/test/0',
  task: 'translation',
  index: 0,
  prompt: 'p',
  promptHash: 'ab'.repeat(32),
  tokenCount: 3,
  shotsUsed: 0,
  exemplarIds: [],
  letters: ['A', 'B', 'C', 'D'],
  tokenIds: [1, 2, 3, 4],
  logProbs: [-1, -2, -3, -4],
  probs: [0.6, 0.2, 0.15, 0.05],
  prediction: 'A',
  gold: null,
  correct: null,
  reusedPrefixTokens: 0,
  forwardMs: 1,
  completedAt: '2026-01-01T00:00:00Z',
  ...over,
});

describe('predictionsCsv', () => {
  it('writes predictions without keys as unscored, and fewer letters as empty cells', () => {
    const csv = predictionsCsv([
      result({}),
      result({ itemId: 'x,"quoted"', letters: ['A', 'B', 'C'], logProbs: [-1, -2, -3], probs: [0.5, 0.3, 0.2], prediction: 'B', gold: 'B', correct: true }),
    ]);
    const parsed = Papa.parse<Record<string, string>>(csv, { header: true });
    expect(parsed.meta.fields).toEqual(['item_id', 'task', 'prediction', 'gold', 'correct', 'p_A', 'logp_A', 'p_B', 'logp_B', 'p_C', 'logp_C', 'p_D', 'logp_D', 'p_gold', 'logp_gold', 'prompt_sha256', 'shots_used', 'failed_code', 'failed']);
    // No key: no continuous score; with one, the gold letter's probability and log-probability.
    expect(parsed.data[0]).toMatchObject({ item_id: 'translation/test/0', prediction: 'A', gold: '', correct: '', p_A: '0.6', logp_D: '-4', p_gold: '', logp_gold: '' });
    expect(parsed.data[1]).toMatchObject({ item_id: 'x,"quoted"', prediction: 'B', gold: 'B', correct: '1', p_D: '', logp_D: '', p_gold: '0.3', logp_gold: '-2' });
  });

  it('a cloze run adds per option its characters, bytes, is_greedy and the sum after the cue, the gold text\'s bits per byte, and each rule\'s pick', () => {
    // Sums −6, −4, −9 over 3, 1, 9 characters (9, 3, 27 bytes): acc picks B, acc_norm and acc_bytes C (−1 per char), PMI A (−6 − (−8) = 2).
    const cloze = { logLikelihoods: [-6, -4, -9], tokenCounts: [2, 1, 5], charCounts: [3, 1, 9], byteCounts: [9, 3, 27], isGreedy: [false, true, false], unconditional: [-8, -5, -10], contextTokens: 12, contextIsPrefix: [true, true, true] };
    const probs = [-6, -4, -9].map((x) => Math.exp(x) / (Math.exp(-6) + Math.exp(-4) + Math.exp(-9)));
    const csv = predictionsCsv([
      result({ letters: ['A', 'B', 'C'], tokenIds: [], logProbs: cloze.logLikelihoods, probs, prediction: 'B', gold: 'C', correct: false, cloze }),
      result({ itemId: 'failed', prediction: null, tokenIds: [], logProbs: [], probs: [], failure: { code: 'run.item-too-long', params: { itemId: 'failed', tokens: 3000, limit: 2048 } } }),
    ]);
    const parsed = Papa.parse<Record<string, string>>(csv, { header: true });
    expect(parsed.meta.fields).toContain('bits_per_byte_gold');
    expect(parsed.meta.fields).toEqual(expect.arrayContaining(['chars_A', 'bytes_D', 'greedy_B', 'logp_cue_C', 'prediction_acc_norm', 'prediction_acc_bytes', 'prediction_pmi']));
    const [row, failed] = parsed.data;
    expect(row).toMatchObject({ prediction: 'B', logp_C: '-9', chars_A: '3', bytes_C: '27', greedy_A: '0', greedy_B: '1', logp_cue_A: '-8', chars_D: '', prediction_acc_norm: 'C', prediction_acc_bytes: 'C', prediction_pmi: 'A' });
    expect(Number(row.p_gold)).toBeCloseTo(probs[2], 15);
    expect(Number(row.logp_gold)).toBe(-9);
    expect(Number(row.bits_per_byte_gold)).toBeCloseTo(9 / Math.LN2 / 27, 15);
    expect(failed).toMatchObject({ item_id: 'failed', p_gold: '', bits_per_byte_gold: '', chars_A: '', prediction_pmi: '' });
  });
});

describe('CSV exports', () => {
  it('puts one UTF-8 BOM in front, so Excel reads Chinese as Chinese', () => {
    const csv = withBom(predictionsCsv([result({ task: '古文单字多义' })]));
    expect(csv.charCodeAt(0)).toBe(0xfeff);
    expect(new TextEncoder().encode(csv).slice(0, 3)).toEqual(new Uint8Array([0xef, 0xbb, 0xbf]));
    expect(withBom(csv)).toBe(csv);
  });

  it('writes an item that could not run with its reason and code, no prediction', () => {
    const failure = { code: 'run.item-too-long', params: { itemId: 'translation/test/1', tokens: 3000, limit: 2048 } };
    const csv = predictionsCsv([result({ itemId: 'translation/test/1', prediction: null, letters: ['A', 'B', 'C', 'D'], tokenIds: [], logProbs: [], probs: [], failure })]);
    const row = Papa.parse<Record<string, string>>(csv, { header: true }).data[0];
    expect(row).toMatchObject({ item_id: 'translation/test/1', prediction: '', correct: '', p_A: '', failed_code: 'run.item-too-long' });
    expect(row.failed).toContain('3000 tokens');
    expect(row.failed).toContain('2048-token');
  });

  it('exports a generation run\'s outputs, references and how each stopped', () => {
    const { results } = makeGenRun();
    const parsed = Papa.parse<Record<string, string>>(generationCsv(results), { header: true });
    expect(parsed.meta.fields).toEqual(['item_id', 'task', 'generation_task', 'output', 'references', 'stopped_by', 'output_tokens', 'prompt_sha256', 'failed_code', 'failed']);
    expect(parsed.data).toHaveLength(results.length);
    results.forEach((r, i) => expect(parsed.data[i]).toMatchObject({ item_id: r.itemId, output: r.output, references: r.references.join('\n\n'), stopped_by: r.stoppedBy }));
  });
});

describe('runJson', () => {
  it('round-trips the run and its results, with the summary the page computed', () => {
    const { run, results } = makeMcRun('r');
    const parsed = JSON.parse(runJson(run, results));
    expect(parsed).toMatchObject({ format: 'jiangu-run', formatVersion: 1, run: { id: 'r' } });
    expect(parsed.run).toEqual(run);
    expect(parsed.results).toEqual(results);
    // Two of three right in 古文单字多义, one of two in 通假字: mean of tasks 58.33, pooled 60.
    expect(parsed.summary).toEqual(runSummary(run, results));
    expect(parsed.summary).toMatchObject({ items: 5, pooled: 60, 'task:通假字': 50 });
    expect(parsed.summary.overall).toBeCloseTo(58.3333, 3);
  });

  it('carries a generation run\'s summary too', () => {
    const { run, results } = makeGenRun();
    const parsed = JSON.parse(runJson(run, results));
    expect(parsed.summary).toMatchObject({ items: 3, 'task:classification': 50, overall: null });
  });
});
