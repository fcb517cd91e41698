import { describe, expect, it } from 'vitest';
import type { BackendInfo } from '../../../src/lib/core/models/model-types.ts';
import type { GenItemResult, GenRunRecord, McItemResult, McRunRecord } from '../../../src/lib/core/record/run.ts';
import { estimateRun, pageShareOf, sampleOfProbe, sampleOfRun, wallWorkPace, type EstimateTarget, type PaceSample } from '../../../src/lib/core/metrics/run-estimate.ts';
import { promptChars } from '../../../src/lib/core/protocols/prompt-chars.ts';
import { getProtocol } from '../../../src/lib/core/protocols/index.ts';
import type { MultipleChoiceItem } from '../../../src/lib/core/benchmarks/types.ts';

const MODEL = 'jiangu-tiny';

function mcRun(id: string, createdAt: string, change: Partial<McRunRecord['config']> = {}, info?: Partial<BackendInfo>): McRunRecord {
  return {
    id,
    createdAt,
    updatedAt: createdAt,
    datasetId: 'aclue',
    status: 'completed',
    warnings: [],
    ...(info ? { environment: { backendInfo: { backend: 'wasm', wasmThreads: 4, crossOriginIsolated: true, ...info }, modelInputNames: [], transformersVersion: 't', ortVersion: 'o', userAgent: 'u' } } : {}),
    config: {
      kind: 'multiple-choice',
      model: { source: { kind: 'site', name: MODEL }, dtype: 'fp32', backend: 'wasm' },
      protocolId: 'cmmlu',
      protocolVersion: 1,
      templateHash: 'h',
      scoring: 'letter-logits',
      shots: 0,
      contextLimit: 2048,
      chatTemplate: false,
      prefixReuse: false,
      datasetId: 'aclue',
      datasetFiles: [],
      tasks: ['t'],
      limitPerTask: null,
      itemIds: [],
      appVersion: 't',
      ...change,
    },
  };
}

/** `count` results, one every `seconds`, each with a prompt of `tokens` tokens over `chars` characters. */
function results(runId: string, count: number, seconds: number, tokens: number, chars: number, more: Partial<McItemResult> = {}): McItemResult[] {
  const t0 = Date.parse('2026-12-01T00:00:00Z');
  return Array.from({ length: count }, (_, i) => ({
    runId,
    itemId: `i${i}`,
    task: 't',
    index: i,
    prompt: 'x'.repeat(chars),
    promptHash: '',
    tokenCount: tokens,
    shotsUsed: 0,
    exemplarIds: [],
    letters: ['A', 'B', 'C', 'D'],
    tokenIds: [],
    logProbs: [],
    probs: [],
    prediction: 'A',
    gold: 'A',
    correct: true,
    reusedPrefixTokens: 0,
    forwardMs: 0,
    completedAt: new Date(t0 + i * seconds * 1000).toISOString(),
    ...more,
  }));
}

function target(change: Partial<EstimateTarget> = {}, shape: Partial<EstimateTarget['shape']> = {}): EstimateTarget {
  return {
    shape: { model: MODEL, dtype: 'fp32', scoring: 'letter-logits', shots: 0, chatTemplate: false, maxNewTokens: null, ...shape },
    backendChoice: 'wasm',
    backend: 'wasm',
    wasmThreads: 4,
    itemIds: Array.from({ length: 10 }, (_, i) => `i${i}`),
    promptFactor: 1,
    chars: null,
    pageShare: null,
    ...change,
  };
}

const sample = (run: McRunRecord, rs: McItemResult[]) => sampleOfRun(run, rs, MODEL)!;

describe('wallWorkPace', () => {
  it('counts each gap with the later prompt’s work and leaves pauses out', () => {
    const timed = [0, 1000, 2000, 3000, 3000 + 3_600_000].map((at) => ({ at, work: 50, modelMs: 0 }));
    expect(wallWorkPace(timed)).toEqual({ perSecond: 50, pageSeconds: 0, seconds: 3, work: 150, prompts: 3 });
    // 250 ms of each second is the model's: 200 tokens per model-second, 0.75 s of page time per prompt.
    expect(wallWorkPace(timed.map((t) => ({ ...t, modelMs: 250 })))).toEqual({ perSecond: 200, pageSeconds: 0.75, seconds: 3, work: 150, prompts: 3 });
    expect(wallWorkPace(timed.slice(0, 1))).toBeNull();
  });
});

describe('estimateRun', () => {
  const base = mcRun('r0', '2026-12-01T00:00:00Z', {}, { backend: 'wasm' });
  // 11 items, 2 s apart, 100 tokens in 50 characters: 50 tokens/s over 10 gaps.
  const baseResults = results('r0', 11, 2, 100, 50);

  it('gives null with a reason when nothing here fits', () => {
    expect(estimateRun(target(), [])).toEqual({ estimate: null, reason: 'no-runs' });
    expect(estimateRun(target({}, { dtype: 'q8' }), [sample(base, baseResults)]).reason).toBe('no-runs');
    expect(estimateRun(target({}, { scoring: 'cloze' }), [sample(base, baseResults)]).reason).toBe('other-scoring');
    expect(estimateRun(target({ backend: 'webgpu', backendChoice: 'webgpu' }), [sample(base, baseResults)]).reason).toBe('other-backend');
    expect(estimateRun(target(), [sample(base, baseResults.slice(0, 1))]).reason).toBe('too-few-timed');
    // Other shots and no built prompts: neither the same items' work nor characters to scale by.
    expect(estimateRun(target({}, { shots: 5 }), [sample(base, baseResults)]).reason).toBe('needs-prompts');
  });

  it('sums the same items’ own work: the run’s own time for its own configuration, times the rotations', () => {
    const outcome = estimateRun(target(), [sample(base, baseResults)]);
    expect(outcome.estimate).toMatchObject({ scaling: 'same-items', unit: 'token', perSecond: 50, shotsFrom: null });
    // 10 items of 100 tokens at 50 tokens/s.
    expect(outcome.estimate!.seconds).toBeCloseTo(20, 9);
    expect(estimateRun(target({ promptFactor: 4 }), [sample(base, baseResults)]).estimate!.seconds).toBeCloseTo(80, 9);
    // Fewer items chosen: fewer seconds.
    expect(estimateRun(target({ itemIds: ['i0', 'i1'] }), [sample(base, baseResults)]).estimate!.seconds).toBeCloseTo(4, 9);
  });

  it('counts an item that failed (too long for the model) as no work, as it will fail again', () => {
    const rs = results('r0', 11, 2, 100, 50, { forwardMs: 500 }).map((r, i) => (i === 3 ? { ...r, failure: { code: 'run.item-too-long', params: { tokens: 9000 } } } : r)) as McItemResult[];
    const e = estimateRun(target(), [sample(base, rs)]).estimate!;
    expect(e.scaling).toBe('same-items');
    expect(e.work).toBe(9 * 100);
    // Nor page time: the run's own 20 s (from its first result to its last) again.
    expect(e.seconds).toBeCloseTo(20, 9);
  });

  it('uses an Auto run on WASM for a WASM run and the other way round, never a WebGPU one', () => {
    const auto = mcRun('auto', '2026-12-02T00:00:00Z', { model: { source: { kind: 'site', name: MODEL }, dtype: 'fp32', backend: 'auto' } }, { backend: 'wasm' });
    const gpu = mcRun('gpu', '2026-12-03T00:00:00Z', { model: { source: { kind: 'site', name: MODEL }, dtype: 'fp32', backend: 'auto' } }, { backend: 'webgpu' });
    const samples = [sample(auto, results('auto', 11, 2, 100, 50)), sample(gpu, results('gpu', 11, 0.1, 100, 50))];
    // Auto resolves to WASM on this device: the WASM run of Auto counts, the newer WebGPU one does not.
    const onAuto = estimateRun(target({ backendChoice: 'auto', backend: 'wasm' }), samples).estimate!;
    expect(onAuto.from).toMatchObject({ kind: 'run', runId: 'auto' });
    expect(onAuto.backend).toBe('wasm');
    expect(onAuto.seconds).toBeCloseTo(20, 9);
    expect(estimateRun(target({ backendChoice: 'wasm', backend: 'wasm' }), samples).estimate!.from).toMatchObject({ runId: 'auto' });
    expect(estimateRun(target({ backendChoice: 'auto', backend: 'webgpu' }), samples).estimate!.from).toMatchObject({ runId: 'gpu' });
    // Auto not yet resolved here: only runs asked as Auto.
    expect(estimateRun(target({ backendChoice: 'auto', backend: null }), [sample(base, baseResults)]).reason).toBe('other-backend');
  });

  it('scales another shot count by prompt tokens from characters, and says so', () => {
    // The configured 5-shot prompts: 10 items of 300 characters each, no reuse; the sample has 2 tokens per character.
    const t = target({ chars: { perItem: Array(10).fill(300), prefixes: 0 } }, { shots: 5 });
    const e = estimateRun(t, [sample(base, baseResults)]).estimate!;
    expect(e).toMatchObject({ scaling: 'tokens-from-characters', shotsFrom: 0, tokensPerChar: 2 });
    // 10 × 300 characters × 2 tokens per character at 50 tokens/s: six times the 0-shot estimate.
    expect(e.seconds).toBeCloseTo(120, 9);
    // With reuse, the prefixes count once per task.
    const reused = estimateRun(target({ chars: { perItem: Array(10).fill(60), prefixes: 240 } }, { shots: 5 }), [sample(base, baseResults)]).estimate!;
    expect(reused.seconds).toBeCloseTo(((600 + 240) * 2) / 50, 9);
  });

  it('prefers a run with the same shots over a newer one with other shots', () => {
    const fiveShot = mcRun('five', '2026-12-05T00:00:00Z', { shots: 5 }, { backend: 'wasm' });
    const samples = [sample(base, baseResults), sample(fiveShot, results('five', 11, 1, 600, 300))];
    // Both could serve (the 5-shot one scaled by characters): the same shots win over the newer.
    expect(estimateRun(target({ chars: { perItem: Array(10).fill(50), prefixes: 0 } }), samples).estimate).toMatchObject({ from: { runId: 'r0' }, scaling: 'same-items' });
    const t5 = target({ chars: { perItem: Array(10).fill(300), prefixes: 0 } }, { shots: 5 });
    expect(estimateRun(t5, samples).estimate).toMatchObject({ from: { runId: 'five' }, scaling: 'same-items' });
  });

  it('counts cloze work as the context and every option’s tokens, twice with PMI, and never a letters pace', () => {
    const cloze = mcRun('cz', '2026-12-01T00:00:00Z', { scoring: 'cloze' }, { backend: 'wasm' });
    const rs = results('cz', 11, 2, 100, 50, { cloze: { logLikelihoods: [], tokenCounts: [5, 5, 5, 5], charCounts: [], byteCounts: [], isGreedy: [], unconditional: [0, 0, 0, 0] } });
    const s = sample(cloze, rs);
    expect(s.items[0].work).toBe(100 + 2 * 20);
    expect(estimateRun(target({}, { scoring: 'cloze' }), [s]).estimate!.seconds).toBeCloseTo(20, 9);
    expect(estimateRun(target(), [s]).reason).toBe('other-scoring');
  });

  it('counts the processed tokens of a prompt with a reused prefix, and the rotations of a circular run', () => {
    const rotated = results('r0', 11, 2, 100, 50, { reusedPrefixTokens: 60 }).map((r) => ({ ...r, rotations: [{ ...r, rotation: 1, completedAt: new Date(Date.parse(r.completedAt) + 1000).toISOString() }] }));
    const s = sample(base, rotated);
    expect(s.items[0].work).toBe(40);
    expect(s.timed.length).toBe(22);
    // 1 s per prompt of 40 processed tokens.
    expect(estimateRun(target({ promptFactor: 2 }), [s]).estimate!.perSecond).toBeCloseTo(40, 9);
  });

  it('estimates generation by decode steps, with answers cut at the configured limit', () => {
    const gen: GenRunRecord = {
      ...mcRun('g', '2026-12-01T00:00:00Z', {}, { backend: 'wasm' }),
      config: { kind: 'generation', model: { source: { kind: 'site', name: MODEL }, dtype: 'fp32', backend: 'wasm' }, protocolId: 'c3bench', protocolVersion: 1, templateHash: 'h', chatTemplate: false, maxNewTokens: 64, decoding: { kind: 'greedy' }, datasetId: 'c3bench', datasetFiles: [], tasks: ['t'], limitPerTask: null, itemIds: [], appVersion: 't' },
    } as GenRunRecord;
    const t0 = Date.parse('2026-12-01T00:00:00Z');
    // Every answer 63 tokens (64 steps), 2 s each: 32 steps/s.
    const rs: GenItemResult[] = Array.from({ length: 11 }, (_, i) => ({ runId: 'g', itemId: `g${i}`, task: 't', generationTask: 'translation' as GenItemResult['generationTask'], index: i, prompt: 'p', promptHash: '', tokenCount: 10, output: 'o', outputTokenIds: Array(63).fill(1), stoppedBy: 'eos', references: [], ms: 2000, completedAt: new Date(t0 + i * 2000).toISOString() }));
    const s = sampleOfRun(gen, rs, MODEL)!;
    const t = target({ itemIds: ['a', 'b', 'c'] }, { scoring: 'generation', maxNewTokens: 64 });
    const e = estimateRun(t, [s]).estimate!;
    expect(e).toMatchObject({ unit: 'step', scaling: 'per-prompt', mayRunLonger: false });
    expect(e.seconds).toBeCloseTo(6, 9);
    // A limit of 15 cuts every answer at 15 tokens: 16 steps an item.
    expect(estimateRun({ ...t, shape: { ...t.shape, maxNewTokens: 15 } }, [s]).estimate!.seconds).toBeCloseTo((3 * 16) / 32, 9);
  });

  it('says when the thread count of the measured run is not this page’s', () => {
    const e = estimateRun(target({ wasmThreads: 1 }), [sample(base, baseResults)]).estimate!;
    expect(e).toMatchObject({ wasmThreads: 4, threadsNow: 1 });
    expect(estimateRun(target(), [sample(base, baseResults)]).estimate!.threadsNow).toBeNull();
  });

  it('never takes an imported run', () => {
    const imported = { ...base, origin: { kind: 'jiangu-file' as const, fileName: 'x', importedAt: base.createdAt, originalRunId: null, storedSummary: null, summaryMismatches: [] } };
    expect(sampleOfRun(imported, baseResults, MODEL)).toBeNull();
  });

  it('splits a run’s time into the model’s, which scales with the work, and the page’s, the same per prompt', () => {
    // Of each 2 s, 0.5 s is the model's (100 tokens: 200 tokens per model-second) and 1.5 s the page's.
    const split = sample(base, results('r0', 11, 2, 100, 50, { forwardMs: 500 }));
    const own = estimateRun(target(), [split]).estimate!;
    expect(own).toMatchObject({ perSecond: 200, pageFrom: 'sample' });
    expect(own.pageSeconds).toBeCloseTo(1.5, 9);
    expect(own.seconds).toBeCloseTo(20, 9);
    // Prompts three times as long (tokens from characters) triple the model's part only.
    const longer = estimateRun(target({ chars: { perItem: Array(10).fill(150), prefixes: 0 } }, { shots: 5 }), [split]).estimate!;
    expect(longer.seconds).toBeCloseTo((10 * 300) / 200 + 10 * 1.5, 9);
  });

  it('takes a probe’s page share from this browser’s newest run, and says when there is none', () => {
    // The probe: 3 prompts of 100 tokens 0.1 s apart, all of it model time (nothing stored or drawn).
    const probe = sampleOfProbe(target().shape, 'wasm', 'wasm', 4, [0, 100, 200].map((at, i) => ({ itemId: `i${i}`, at, tokenCount: 100, reusedPrefixTokens: 0, chars: 50, modelMs: 100 })));
    const alone = estimateRun(target(), [probe]).estimate!;
    expect(alone).toMatchObject({ pageFrom: 'unknown', pageSeconds: 0, perSecond: 1000 });
    const other = mcRun('other-model', '2026-12-04T00:00:00Z', { model: { source: { kind: 'site', name: 'jiangu-large' }, dtype: 'q8', backend: 'wasm' } }, { backend: 'wasm' });
    const share = pageShareOf([sampleOfRun(other, results('other-model', 5, 2, 100, 50, { forwardMs: 500 }), 'jiangu-large')!]);
    expect(share).toEqual({ seconds: 1.5, runId: 'other-model', createdAt: '2026-12-04T00:00:00Z' });
    const withShare = estimateRun(target({ pageShare: share, chars: { perItem: Array(10).fill(50), prefixes: 0 } }), [probe]).estimate!;
    expect(withShare.pageFrom).toEqual({ runId: 'other-model', createdAt: '2026-12-04T00:00:00Z' });
    expect(withShare.seconds).toBeCloseTo((10 * 100) / 1000 + 10 * 1.5, 9);
  });

  it('prefers a probe of this configuration to an earlier run', () => {
    const probe: PaceSample = { ...sample(base, baseResults), from: { kind: 'probe', items: 3 } };
    expect(estimateRun(target(), [sample(base, baseResults), probe]).estimate!.from).toEqual({ kind: 'probe', items: 3 });
  });
});

describe('promptChars', () => {
  const protocol = getProtocol('aclue');
  const item = (id: string, split: 'test' | 'dev', order: number): MultipleChoiceItem =>
    ({ kind: 'multiple-choice', id, datasetId: 'aclue', task: 't', split, order, question: `问题${id}`, options: ['甲', '乙', '丙', '丁'], answer: 'A' }) as MultipleChoiceItem;
  const items = [item('q1', 'test', 0), item('q2', 'test', 1)];
  const devByTask = new Map([['t', [0, 1, 2, 3, 4].map((i) => item(`d${i}`, 'dev', i))]]);
  it('counts a reused prefix once per task, and cloze options twice', () => {
    const plain = promptChars({ protocol, scoring: 'letter-logits', shots: 5, reusePrefix: false, items, devByTask });
    const reused = promptChars({ protocol, scoring: 'letter-logits', shots: 5, reusePrefix: true, items, devByTask });
    const zero = promptChars({ protocol, scoring: 'letter-logits', shots: 0, reusePrefix: false, items, devByTask });
    expect(plain.prefixes).toBe(0);
    expect(reused.prefixes).toBeGreaterThan(0);
    expect(reused.perItem[0] + reused.prefixes).toBe(plain.perItem[0]);
    expect(plain.perItem[0]).toBeGreaterThan(3 * zero.perItem[0]);
    const cloze = promptChars({ protocol, scoring: 'cloze', shots: 0, reusePrefix: false, items, devByTask });
    expect(cloze.perItem[0]).toBeGreaterThan(2 * 4);
  });
});
