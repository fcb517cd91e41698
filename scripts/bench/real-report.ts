// The real-shapes bench's figures, computed from the raw page times of real-measure.ts: the load
// checks, a speed table per configuration, the targets on real shapes, the speed-up from one thread to
// the most, and the minutes a user waits for whole benchmarks. Pure functions of the results, so the
// tables can be rebuilt from a bench-results/real-*.json record.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SequenceRun } from './cloze-page.ts';
import { attentionMacs, bodyMacs, headMacs, type Shape } from './model-shapes.ts';
import type { RealResult, RealSetName } from './real-measure.ts';
import { REAL_OUT_ROOT } from '../fixtures/real-specs.ts';

/** The issue's targets on real shapes (reported, never enforced). */
export const REAL_TARGETS = { clozeOverLetter: 2, statisticsOverOneRow: 1.3, pipelineOverBare: 0.9 } as const;

/** Whole benchmarks, their test items and tasks (a 5-shot run computes one exemplar prefix per task). */
export const BENCHMARK_SIZES: readonly { label: string; items: number; tasks: number; set: RealSetName }[] = [
  { label: 'CMMLU 古汉语', items: 164, tasks: 1, set: 'cmmlu-ancient' },
  { label: 'one ACLUE task', items: 500, tasks: 1, set: 'aclue' },
  { label: 'all of ACLUE', items: 4966, tasks: 15, set: 'aclue' },
  { label: 'AncientBench (paper size)', items: 28707, tasks: 10, set: 'ancientbench' },
];

export function realShape(model: string): Shape {
  const c = JSON.parse(readFileSync(join(REAL_OUT_ROOT, model, 'config.json'), 'utf8')) as { num_hidden_layers: number; hidden_size: number; num_attention_heads: number; num_key_value_heads: number; head_dim?: number; intermediate_size: number; vocab_size: number };
  return { name: model, layers: c.num_hidden_layers, hidden: c.hidden_size, heads: c.num_attention_heads, kvHeads: c.num_key_value_heads, headDim: c.head_dim ?? c.hidden_size / c.num_attention_heads, intermediate: c.intermediate_size, vocab: c.vocab_size };
}

/** Floating-point operations of one forward over `tokens` new tokens after `past` cached ones, keeping one logits row. */
export function forwardFlops(shape: Shape, tokens: number, past = 0): number {
  // Attention: token i (1-based) attends to past + i positions.
  const attended = tokens * past + (tokens * (tokens + 1)) / 2;
  return 2 * (tokens * bodyMacs(shape) + headMacs(shape) + attentionMacs(shape, 1) * attended);
}

const mean = (xs: readonly number[]) => (xs.length === 0 ? NaN : xs.reduce((a, b) => a + b, 0) / xs.length);
const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);

/** Mean page ms per timed item of a sequence. */
export function msPerItem(run: SequenceRun | undefined): number {
  return run ? mean(run.items.map((i) => i.ms)) : NaN;
}

/** The exemplar prefix's own cost: the 5-shot set's first item (which computed it) less a reusing item's mean. */
export function prefixMs(run: SequenceRun | undefined): number {
  if (!run || run.primeMs === undefined || run.items.length === 0) return NaN;
  return Math.max(0, run.primeMs - msPerItem(run));
}

export interface RealFigures {
  model: string;
  dtype: string;
  threads: number;
  /** The threads the worker reported using. */
  usedThreads: number | null;
  loadS: number;
  zeroPerS: Partial<Record<RealSetName, number>>;
  fivePerS: Partial<Record<RealSetName, number>>;
  prefixS: Partial<Record<RealSetName, number>>;
  clozeOverLetter: number;
  clozePmiOverLetter: number;
  statisticsOverOneRow: number;
  genTokPerS: number;
  decodeTokPerS: number;
  peakWasmMb: number;
  pipelineGflops: number;
  bareGflops: number;
  pipelineOverBare: number;
  /** The same ratio with the pipeline's run after the bare one (pipelineAgain). */
  pipelineAgainOverBare: number;
  /** The machine's 1-minute load average at the configuration's start and end. */
  machineLoad: [number, number];
}

/** A configuration's figures; the shape is read from the model's config.json unless given. */
export function figures(r: RealResult, shape: Shape = realShape(r.model)): RealFigures {
  const perSet = <T,>(f: (run: NonNullable<RealResult['letters'][RealSetName]>) => T) =>
    Object.fromEntries(Object.entries(r.letters).map(([k, v]) => [k, f(v!)])) as Partial<Record<RealSetName, T>>;
  const zero = r.letters['cmmlu-ancient']?.zero;
  const letterMs = msPerItem(zero);
  const gen = r.generation;
  const tokens = gen?.result.tokenIds.length ?? 0;
  const decodeSpan = gen && gen.tokenMs.length > 1 ? gen.tokenMs.at(-1)! - gen.tokenMs[0] : NaN;
  // GFLOP/s over the 0-shot CMMLU prompts, the same token ids for the pipeline and the bare session.
  const flops = sum((zero?.items ?? []).map((i) => forwardFlops(shape, i.contextTokens)));
  const pipelineMs = sum((zero?.items ?? []).map((i) => i.ms));
  const bareMs = sum((r.bareZero?.items ?? []).map((i) => i.ms));
  const againMs = sum((r.pipelineAgain?.items ?? []).map((i) => i.ms));
  const peaks = [r.lettersMemory?.wasmMemoryBytes, r.statsMemory?.wasmMemoryBytes].filter((x): x is number => typeof x === 'number');
  return {
    model: r.model,
    dtype: r.dtype,
    threads: r.threads,
    usedThreads: r.load?.result.backendInfo.wasmThreads ?? null,
    loadS: r.load ? r.load.wallMs / 1000 : NaN,
    zeroPerS: perSet((v) => 1000 / msPerItem(v.zero)),
    fivePerS: perSet((v) => 1000 / msPerItem(v.five)),
    prefixS: perSet((v) => prefixMs(v.five) / 1000),
    clozeOverLetter: msPerItem(r.cloze?.plain) / letterMs,
    clozePmiOverLetter: msPerItem(r.cloze?.pmi) / letterMs,
    statisticsOverOneRow: r.statistics && r.oneRow ? r.statistics.ms / r.oneRow.ms : NaN,
    genTokPerS: gen ? (tokens * 1000) / gen.wallMs : NaN,
    decodeTokPerS: ((tokens - 1) * 1000) / decodeSpan,
    peakWasmMb: peaks.length ? Math.max(...peaks) / 2 ** 20 : NaN,
    pipelineGflops: pipelineMs > 0 ? flops / pipelineMs / 1e6 : NaN,
    bareGflops: bareMs > 0 && r.bareZero?.items.length === zero?.items.length ? flops / bareMs / 1e6 : NaN,
    pipelineOverBare: bareMs > 0 && pipelineMs > 0 ? bareMs / pipelineMs : NaN,
    pipelineAgainOverBare: bareMs > 0 && againMs > 0 && r.pipelineAgain?.items.length === zero?.items.length ? bareMs / againMs : NaN,
    machineLoad: r.machineLoad ?? [NaN, NaN],
  };
}

const f = (x: number, digits = 2) => (Number.isFinite(x) ? x.toFixed(digits) : '–');

export function speedTable(rows: readonly RealFigures[]): string {
  const head = '| model | dtype | threads | machine load | load s | 0-shot items/s CMMLU · ACLUE · AB | 5-shot reuse items/s CMMLU · ACLUE · AB | prefix s CMMLU · ACLUE · AB | cloze ÷ letter (PMI) | statistics ÷ one-row | gen tok/s (decode) | peak wasm MB | GFLOP/s pipeline / bare (ratio; again after bare) |';
  const lines = [head, `|${'---|'.repeat(13)}`];
  const three = (o: Partial<Record<RealSetName, number>>, d: number) => (['cmmlu-ancient', 'aclue', 'ancientbench'] as const).map((k) => f(o[k] ?? NaN, d)).join(' · ');
  for (const x of rows) {
    lines.push(
      `| ${x.model} | ${x.dtype} | ${x.threads}${x.usedThreads !== null && x.usedThreads !== x.threads ? ` (used ${x.usedThreads})` : ''} | ${f(x.machineLoad[0], 1)}–${f(x.machineLoad[1], 1)} | ${f(x.loadS, 1)} | ${three(x.zeroPerS, 3)} | ${three(x.fivePerS, 3)} | ${three(x.prefixS, 1)} | ${f(x.clozeOverLetter)} (${f(x.clozePmiOverLetter)}) | ${f(x.statisticsOverOneRow)} | ${f(x.genTokPerS)} (${f(x.decodeTokPerS)}) | ${f(x.peakWasmMb, 0)} | ${f(x.pipelineGflops, 1)} / ${f(x.bareGflops, 1)} (${f(x.pipelineOverBare)}; ${f(x.pipelineAgainOverBare)}) |`,
    );
  }
  return lines.join('\n');
}

/** Minutes for a whole benchmark from one configuration's pace: items × item time, plus one prefix per task at 5-shot. */
export function benchmarkMinutes(x: RealFigures, size: (typeof BENCHMARK_SIZES)[number]): { zero: number; five: number } {
  const zero = (size.items / (x.zeroPerS[size.set] ?? NaN)) / 60;
  const five = (size.tasks * (x.prefixS[size.set] ?? NaN) + size.items / (x.fivePerS[size.set] ?? NaN)) / 60;
  return { zero, five };
}

const duration = (minutes: number) => (!Number.isFinite(minutes) ? '–' : minutes < 90 ? `${minutes.toFixed(minutes < 10 ? 1 : 0)} min` : `${(minutes / 60).toFixed(1)} h`);

export function minutesTable(rows: readonly RealFigures[]): string {
  const head = `| model | dtype | threads | ${BENCHMARK_SIZES.map((s) => `${s.label} (${s.items.toLocaleString('en-US')}) 0-shot · 5-shot`).join(' | ')} |`;
  const lines = [head, `|${'---|'.repeat(3 + BENCHMARK_SIZES.length)}`];
  for (const x of rows) {
    lines.push(`| ${x.model} | ${x.dtype} | ${x.threads} | ${BENCHMARK_SIZES.map((s) => {
      const m = benchmarkMinutes(x, s);
      return `${duration(m.zero)} · ${duration(m.five)}`;
    }).join(' | ')} |`);
  }
  return lines.join('\n');
}

/** The speed-up from one thread to the most, per model and dtype measured both ways (0-shot CMMLU items/s). */
export function threadLines(rows: readonly RealFigures[]): string[] {
  const out: string[] = [];
  for (const one of rows.filter((x) => x.threads === 1)) {
    for (const more of rows.filter((x) => x.model === one.model && x.dtype === one.dtype && x.threads > 1)) {
      const a = one.zeroPerS['cmmlu-ancient'] ?? NaN;
      const b = more.zeroPerS['cmmlu-ancient'] ?? NaN;
      out.push(`- ${one.model} ${one.dtype}: ${more.threads} threads ÷ 1 thread = ${f(b / a)}× (0-shot CMMLU items/s ${f(a, 3)} → ${f(b, 3)}); 5-shot ${f((more.fivePerS['cmmlu-ancient'] ?? NaN) / (one.fivePerS['cmmlu-ancient'] ?? NaN))}×; decode ${f(more.decodeTokPerS / one.decodeTokPerS)}×`);
    }
  }
  return out;
}

export function targetLines(rows: readonly RealFigures[]): string[] {
  const out: string[] = [];
  for (const x of rows) {
    const name = `${x.model} ${x.dtype} ${x.threads} thr`;
    const check = (label: string, value: number, target: number, atMost: boolean) =>
      Number.isFinite(value) ? `${label} ${f(value)} (target ${atMost ? '≤' : '≥'} ${target}: ${(atMost ? value <= target : value >= target) ? 'met' : 'NOT MET'})` : null;
    const parts = [
      check('cloze ÷ letter', x.clozeOverLetter, REAL_TARGETS.clozeOverLetter, true),
      check('cloze with PMI ÷ letter', x.clozePmiOverLetter, REAL_TARGETS.clozeOverLetter, true),
      check('statistics ÷ one-row', x.statisticsOverOneRow, REAL_TARGETS.statisticsOverOneRow, true),
      check('pipeline ÷ bare', x.pipelineOverBare, REAL_TARGETS.pipelineOverBare, false),
    ].filter((p): p is string => p !== null);
    if (parts.length > 0) out.push(`- ${name}: ${parts.join('; ')}`);
  }
  return out;
}

/** The worker's load checks, once per model and dtype: what the issue asks to see pass on real shapes. */
export function loadCheckLines(results: readonly RealResult[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const r of results) {
    const key = `${r.model} ${r.dtype}`;
    if (seen.has(key) || (!r.load && !r.statsLoad)) continue;
    seen.add(key);
    const l = r.load?.result;
    const lp = l?.logitsPath;
    const sp = r.statsLoad?.result.statisticsPath;
    const mc = l?.modelCheck;
    const parts = [
      lp ? `logits ${lp.kind}${lp.check ? ` (checked on ${lp.check.tokens} tokens, max |Δ log p| ${lp.check.maxAbsDiff.toExponential(1)})` : ''}${lp.refusal ? `, refused: ${lp.refusal.code}` : ''}` : 'logits: not loaded',
      sp ? `statistics ${sp.kind}${sp.check ? ` (checked on ${sp.check.tokens} tokens, max |Δ| ${sp.check.maxAbsDiff.toExponential(1)})` : ''}${sp.refusal ? `, refused: ${sp.refusal.code}` : ''}` : 'statistics: not measured',
      mc ? `model check: ${mc.attention} attention, KV ${mc.kvDtype ?? '?'}, logits ${mc.logitsDtype ?? '?'}, ${mc.externalData.length ? `external data ${mc.externalData.map((e) => e.file).join(', ')}, ` : ''}${mc.letters.length} letters, ${mc.warnings.length} warning(s)${mc.warnings.length ? ` (${mc.warnings.map((w) => w.code).join(', ')})` : ''}` : 'model check: none',
    ];
    out.push(`- ${key}: ${parts.join('; ')}`);
  }
  for (const r of results.filter((x) => x.errors.length > 0)) out.push(`- ${r.model} ${r.dtype} ${r.threads} thr FAILED STEPS: ${r.errors.join(' | ')}`);
  return out;
}
