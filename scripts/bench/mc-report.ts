// The multiple-choice throughput bench's output: one row per mode (pipeline and bare session) per
// configuration, and a line per target of the issue saying met or not met, with the numbers.
import type { BareItem, ModeRun, PipelineItem } from './mc-page.ts';
import { BARE_MODES, PIPELINE_MODES, type BareMode, type McResult, type PipelineMode } from './mc-measure.ts';

/** Targets of the issue (reported, never enforced). */
export const TARGETS = {
  /** Pipeline items/s ÷ bare session items/s, same prompts. */
  ratioToBare: 0.9,
  /** 5-shot-with-reuse ms per item ÷ 0-shot ms per item, pipeline. */
  reuseCost: 1.5,
} as const;

export interface ModeSummary {
  kind: 'pipeline' | 'bare';
  mode: PipelineMode | BareMode;
  label: string;
  /** Items per round (all rounds time the same items). */
  items: number;
  requested: number;
  budgetCut: boolean;
  rounds: number;
  /** items / page seconds of each round. */
  roundItemsPerS: number[];
  /** The median round's items/s (the mean of the two middle ones for an even count). */
  itemsPerS: number;
  /** 1000 / itemsPerS. */
  msPerItem: number;
  promptTokensMean: number;
  /** Tokens actually run per item: the whole prompt, or only what follows a cached prefix (a prefix's first item runs it all). */
  tokensRunMean: number;
  /** Items per round whose prefix was (re)computed; reuse modes only. */
  prefixRuns: number;
  /** Per item, every round. */
  logitsCopied: number[];
  forwardPasses: number[];
  /** Pipeline only: mean ScoreResult.forwardMs (the worker's score()), every round. */
  workerMsMean?: number;
  /** Reuse modes: mean ms of the items whose prefix was already cached, every round. */
  cachedItemMsMean?: number;
  /** Pipeline: the median over rounds of this round's items/s ÷ the matching bare mode's in the same round. */
  ratioToBare?: number;
  /** Pipeline: that ratio per round. */
  roundRatiosToBare?: number[];
  /** 5-shot modes: ms per item ÷ the 0-shot ms per item of the same kind (pipeline or bare). */
  costVsZero?: number;
  error?: string;
}

const mean = (xs: readonly number[]): number => (xs.length === 0 ? Number.NaN : xs.reduce((a, b) => a + b, 0) / xs.length);
const median = (xs: readonly number[]): number => {
  if (xs.length === 0) return Number.NaN;
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/** Which pipeline items computed their prefix: the first of each run of equal prefixes (the worker keeps one, reset before each round). */
function pipelinePrefixRuns(run: ModeRun<PipelineItem>): boolean[] {
  let last: number[] | null = null;
  return run.items.map((item) => {
    if (item.reusedPrefixTokens === 0) return false;
    const prefix = item.inputIds.slice(0, item.reusedPrefixTokens);
    const same = last !== null && last.length === prefix.length && last.every((v, k) => v === prefix[k]);
    last = prefix;
    return !same;
  });
}

interface Common {
  items: number;
  requested: number;
  budgetCut: boolean;
  rounds: number;
  roundItemsPerS: number[];
  itemsPerS: number;
  msPerItem: number;
  error?: string;
}

function common<T>(runs: readonly ModeRun<T>[]): Common {
  const full = runs.filter((run) => run.items.length > 0);
  const roundItemsPerS = full.map((run) => run.items.length / (run.totalMs / 1000));
  const itemsPerS = median(roundItemsPerS);
  return {
    items: runs[0].items.length,
    requested: runs[0].requested,
    budgetCut: runs[0].budgetCut,
    rounds: full.length,
    roundItemsPerS,
    itemsPerS,
    msPerItem: 1000 / itemsPerS,
    error: runs.find((run) => run.error)?.error,
  };
}

function summarisePipeline(mode: PipelineMode, runs: readonly ModeRun<PipelineItem>[]): ModeSummary {
  const all = runs.flatMap((run) => run.items);
  const prefixRuns = runs.flatMap((run) => pipelinePrefixRuns(run));
  const cached = all.filter((item, k) => item.reusedPrefixTokens > 0 && !prefixRuns[k]);
  return {
    kind: 'pipeline',
    mode,
    label: PIPELINE_MODES[mode].label,
    ...common(runs),
    promptTokensMean: mean(all.map((i) => i.inputIds.length)),
    tokensRunMean: mean(all.map((i, k) => (prefixRuns[k] ? i.inputIds.length : i.inputIds.length - i.reusedPrefixTokens))),
    prefixRuns: pipelinePrefixRuns(runs[0]).filter(Boolean).length,
    logitsCopied: all.map((i) => i.logitsCopied),
    forwardPasses: all.map((i) => i.forwardPasses),
    workerMsMean: mean(all.map((i) => i.workerMs)),
    cachedItemMsMean: PIPELINE_MODES[mode].reusePrefix && cached.length > 0 ? mean(cached.map((i) => i.ms)) : undefined,
  };
}

function summariseBare(mode: BareMode, runs: readonly ModeRun<BareItem>[]): ModeSummary {
  const all = runs.flatMap((run) => run.items);
  const cached = all.filter((i) => i.newTokens < i.promptTokens);
  return {
    kind: 'bare',
    mode,
    label: BARE_MODES[mode].label,
    ...common(runs),
    promptTokensMean: mean(all.map((i) => i.promptTokens)),
    tokensRunMean: mean(all.map((i) => i.newTokens)),
    prefixRuns: runs[0].items.filter((i) => i.prefixRun).length,
    logitsCopied: all.map((i) => i.logitsCopied),
    forwardPasses: all.map((i) => i.forwardPasses),
    cachedItemMsMean: BARE_MODES[mode].reuse && cached.length > 0 ? mean(cached.map((i) => i.ms)) : undefined,
  };
}

export function summarise(r: McResult): ModeSummary[] {
  const rows: ModeSummary[] = [];
  for (const mode of Object.keys(PIPELINE_MODES) as PipelineMode[]) {
    const runs = r.pipeline[mode];
    if (runs && runs.length > 0 && runs[0].items.length > 0) rows.push(summarisePipeline(mode, runs));
  }
  for (const mode of Object.keys(BARE_MODES) as BareMode[]) {
    const runs = r.bare[mode];
    if (runs && runs.length > 0 && runs[0].items.length > 0) rows.push(summariseBare(mode, runs));
  }
  const find = (mode: PipelineMode | BareMode) => rows.find((row) => row.mode === mode);
  for (const row of rows) {
    if (row.kind === 'pipeline') {
      const bareMode = (Object.keys(BARE_MODES) as BareMode[]).find((b) => BARE_MODES[b].of === row.mode)!;
      const bare = find(bareMode);
      if (bare) {
        // Per round, then the median: each round's pipeline and bare runs are close in time (from
        // round 2 back to back), so the machine's drift between rounds cancels.
        const n = Math.min(row.roundItemsPerS.length, bare.roundItemsPerS.length);
        const ratios = Array.from({ length: n }, (_, k) => row.roundItemsPerS[k] / bare.roundItemsPerS[k]);
        row.roundRatiosToBare = ratios;
        row.ratioToBare = n > 0 ? median(ratios) : row.itemsPerS / bare.itemsPerS;
      }
    }
    const zero = find(row.kind === 'pipeline' ? 'zero' : 'bareZero');
    if (zero && row !== zero) row.costVsZero = row.msPerItem / zero.msPerItem;
  }
  return rows;
}

// ---- formatting ---------------------------------------------------------------------------------

const DASH = '—';
function num(v: number | undefined, digits = 2): string {
  return v === undefined || Number.isNaN(v) ? DASH : v.toFixed(digits);
}
function ms(v: number | undefined): string {
  if (v === undefined || Number.isNaN(v)) return DASH;
  return v >= 100 ? v.toFixed(0) : v.toFixed(1);
}
function rate(v: number): string {
  return v >= 10 ? v.toFixed(1) : v.toFixed(2);
}
export function count(n: number): string {
  return n.toLocaleString('en-US');
}
export function bytes(n: number): string {
  if (n >= 1e6) return `${(n / 1e6).toFixed(2)} MB`;
  if (n >= 1e3) return `${(n / 1e3).toFixed(1)} kB`;
  return `${n} B`;
}
/** A per-item count: the value when every item has it, else min–max and mean. */
function perItem(values: readonly number[], withBytes: boolean): string {
  if (values.length === 0) return DASH;
  const lo = Math.min(...values);
  const hi = Math.max(...values);
  const b = (v: number) => (withBytes ? ` (${bytes(v * 4)})` : '');
  if (lo === hi) return `${count(lo)}${b(lo)}`;
  const m = mean(values);
  return `${count(lo)}–${count(hi)}, mean ${withBytes ? count(Math.round(m)) : m.toFixed(2)}${b(m)}`;
}
function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ');
}

const HEADER = [
  'backend',
  'model / dtype',
  'mode',
  'items × rounds',
  'prompt tokens (mean)',
  'tokens run / item (mean)',
  'items/s (median round; range)',
  'ms / item',
  'ratio to bare (median round; range)',
  'cost ÷ 0-shot cost',
  'logits copied / item (values, ×4 bytes)',
  'forward passes / item',
  'worker score() ms / item',
  'notes',
];

function notes(row: ModeSummary): string {
  const out: string[] = [];
  if (row.error) out.push(`ERROR: ${row.error}`);
  if (row.budgetCut) out.push(`cut by the time budget (${row.items} of ${row.requested})`);
  if (row.prefixRuns > 0) {
    out.push(`${row.prefixRuns} prefix computation(s) per round; items on a cached prefix ${ms(row.cachedItemMsMean)} ms each (mean)`);
  }
  return out.join('; ');
}

export function markdownTable(results: readonly McResult[]): string {
  const lines = [`| ${HEADER.join(' | ')} |`, `|${HEADER.map(() => '---').join('|')}|`];
  for (const r of results) {
    const rows = summarise(r);
    if (rows.length === 0) {
      lines.push(`| ${[r.backend, `${r.label ?? r.model} ${r.dtype}`, DASH, ...HEADER.slice(3, -1).map(() => DASH), cell(`ERROR: ${r.error ?? 'nothing measured'}`)].join(' | ')} |`);
      continue;
    }
    for (const row of rows) {
      const values = [
        r.backend,
        `${r.label ?? r.model} ${r.dtype}`,
        row.label,
        `${row.items === row.requested ? String(row.items) : `${row.items} of ${row.requested}`} × ${row.rounds}`,
        num(row.promptTokensMean, 1),
        num(row.tokensRunMean, 1),
        row.rounds > 1 ? `${rate(row.itemsPerS)} (${rate(Math.min(...row.roundItemsPerS))}–${rate(Math.max(...row.roundItemsPerS))})` : rate(row.itemsPerS),
        ms(row.msPerItem),
        row.roundRatiosToBare && row.roundRatiosToBare.length > 1 ? `${num(row.ratioToBare)} (${num(Math.min(...row.roundRatiosToBare))}–${num(Math.max(...row.roundRatiosToBare))})` : num(row.ratioToBare),
        num(row.costVsZero),
        perItem(row.logitsCopied, true),
        perItem(row.forwardPasses, false),
        ms(row.workerMsMean),
        notes(row),
      ];
      lines.push(`| ${values.map(cell).join(' | ')} |`);
    }
    if (r.error && rows.length > 0) lines.push(`| ${r.backend} | ${r.label ?? r.model} ${r.dtype} | (stopped) | ${HEADER.slice(3, -1).map(() => DASH).join(' | ')} | ${cell(`ERROR: ${r.error}`)} |`);
  }
  return lines.join('\n');
}

/** One line per target of the issue, per configuration: met / not met, with the numbers. */
export function targetLines(results: readonly McResult[]): string[] {
  const lines: string[] = [];
  for (const r of results) {
    const name = `${r.backend} ${r.label ?? r.model} ${r.dtype}`;
    const rows = summarise(r);
    const find = (mode: PipelineMode | BareMode) => rows.find((row) => row.mode === mode);
    const verdict = (ok: boolean) => (ok ? 'met' : 'NOT MET');

    const pairs = (Object.keys(PIPELINE_MODES) as PipelineMode[]).map((mode) => find(mode)).filter((row) => row?.ratioToBare !== undefined) as ModeSummary[];
    if (pairs.length === 0) lines.push(`- ${name}, pipeline ≥ ${TARGETS.ratioToBare} × bare items/s: not measured`);
    for (const row of pairs) {
      const bareMode = (Object.keys(BARE_MODES) as BareMode[]).find((b) => BARE_MODES[b].of === row.mode)!;
      const bare = find(bareMode)!;
      lines.push(
        `- ${name}, ${row.label}: pipeline ≥ ${TARGETS.ratioToBare} × bare items/s — ${verdict(row.ratioToBare! >= TARGETS.ratioToBare)}: ` +
          `${rate(row.itemsPerS)} vs ${rate(bare.itemsPerS)} items/s = ${num(row.ratioToBare)} (${ms(row.msPerItem)} vs ${ms(bare.msPerItem)} ms per item)`,
      );
    }

    const zero = find('zero');
    const reuse = find('fiveReuse');
    if (zero && reuse) {
      const steady = reuse.cachedItemMsMean === undefined ? '' : `; items on an already cached prefix alone: ${ms(reuse.cachedItemMsMean)} ms = ${num(reuse.cachedItemMsMean / zero.msPerItem)} ×`;
      lines.push(
        `- ${name}: 5-shot with prefix reuse ≤ ${TARGETS.reuseCost} × 0-shot cost per item — ${verdict(reuse.costVsZero! <= TARGETS.reuseCost)}: ` +
          `${ms(reuse.msPerItem)} vs ${ms(zero.msPerItem)} ms per item = ${num(reuse.costVsZero)} × ` +
          `(${reuse.prefixRuns} prefix computation(s) in ${reuse.items} items${reuse.items === zero.items ? '' : `; 0-shot timed ${zero.items} items`}${steady})`,
      );
    } else lines.push(`- ${name}: 5-shot with prefix reuse ≤ ${TARGETS.reuseCost} × 0-shot: not measured`);

    const vocab = r.load?.result.vocabSize;
    const copied = (Object.keys(PIPELINE_MODES) as PipelineMode[]).flatMap((mode) => find(mode)?.logitsCopied ?? []);
    if (vocab !== undefined && copied.length > 0) {
      const off = copied.filter((c) => c !== vocab);
      const detail =
        off.length === 0
          ? `all ${copied.length} items copied ${count(vocab)} values (${bytes(vocab * 4)})`
          : `${off.length} of ${copied.length} items copied other amounts (${[...new Set(off)].map(count).join(', ')} values; one row is ${count(vocab)})`;
      lines.push(`- ${name}: logits copied per item = one vocabulary row (ScoreResult.logitsCopied) — ${verdict(off.length === 0)}: ${detail}`);
    } else lines.push(`- ${name}: logits copied per item: not measured`);
  }
  return lines;
}
