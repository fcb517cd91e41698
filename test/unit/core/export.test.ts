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
    expect(parsed.meta.fields).toEqual(['item_id', 'task', 'prediction', 'gold', 'correct', 'p_A', 'logp_A', 'p_B', 'logp_B', 'p_C', 'logp_C', 'p_D', 'logp_D', 'prompt_sha256', 'shots_used', 'failed_code', 'failed']);
    expect(parsed.data[0]).toMatchObject({ item_id: 'translation/test/0', prediction: 'A', gold: '', correct: '', p_A: '0.6', logp_D: '-4' });
    expect(parsed.data[1]).toMatchObject({ item_id: 'x,"quoted"', prediction: 'B', gold: 'B', correct: '1', p_D: '', logp_D: '' });
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
