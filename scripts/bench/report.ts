// The bench's output: a Markdown table of the configurations, the machine it ran on, and the JSON
// record written to bench-results/.
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, release, totalmem, type as osType } from 'node:os';
import { join } from 'node:path';
import type { ConfigResult } from './measure.ts';

/** Nearest-rank percentile (p in 0..100) of the values; NaN when there are none. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1];
}

export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

export interface MachineInfo {
  os: string;
  cpuCount: number;
  cpuModel: string;
  totalMemoryGiB: number;
  node: string;
  chromium: string;
}

export function machineInfo(chromium: string): MachineInfo {
  const list = cpus();
  return {
    os: `${osType()} ${release()}`,
    cpuCount: list.length,
    cpuModel: list[0]?.model ?? 'unknown',
    totalMemoryGiB: totalmem() / 2 ** 30,
    node: process.version,
    chromium,
  };
}

const DASH = '—';
function ms(v: number | undefined): string {
  if (v === undefined || Number.isNaN(v)) return DASH;
  return v >= 100 ? v.toFixed(0) : v.toFixed(1);
}
function pair(a: number | undefined, b: number | undefined): string {
  return a === undefined ? DASH : `${ms(a)} / ${ms(b)}`;
}
function rate(v: number): string {
  return v >= 10 ? v.toFixed(1) : v.toFixed(2);
}
function count(n: number): string {
  return n.toLocaleString('en-US');
}
function bytes(n: number): string {
  if (n >= 1e6) return `${(n / 1e6).toFixed(1)} MB`;
  if (n >= 1e3) return `${(n / 1e3).toFixed(1)} kB`;
  return `${n} B`;
}
function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ');
}

/** Whether the copied logits are the whole [seq × vocab] block, and how many vocab rows they are. */
function logitsRows(r: ConfigResult): string {
  const { logitsCopied, seqLength, load } = r.measurement;
  if (logitsCopied === undefined || seqLength === undefined || load === undefined) return DASH;
  const rows = logitsCopied / load.vocabSize;
  const shape = `${Number.isInteger(rows) ? rows : rows.toFixed(2)} × ${count(load.vocabSize)}`;
  return rows === seqLength ? `yes (${shape})` : `no (${shape})`;
}

function backendCell(r: ConfigResult): string {
  const info = r.measurement.load?.backendInfo;
  if (info === undefined) return DASH;
  const where = info.adapter ? `${info.adapter.architecture || info.adapter.vendor}${info.adapter.isFallbackAdapter ? ' (fallback)' : ''}` : 'cpu';
  return `${where}, ${info.wasmThreads} thr, ${info.crossOriginIsolated ? 'COI' : 'not COI'}`;
}

function repeatsCell(r: ConfigResult): string {
  const warm = r.measurement.warm;
  if (warm === undefined) return DASH;
  if (warm.wallMs.length === warm.requested) return String(warm.requested);
  return `${warm.wallMs.length} of ${warm.requested}${warm.budgetCut ? ' (time budget)' : ''}`;
}

function noteCell(r: ConfigResult): string {
  const notes: string[] = [];
  if (r.error !== undefined) notes.push(`ERROR: ${r.error.length > 300 ? `${r.error.slice(0, 300)}…` : r.error}`);
  if (r.leaks.length > 0) notes.push(`${r.leaks.length} request(s) left 127.0.0.1`);
  const gen = r.measurement.generation;
  if (gen !== undefined) {
    if (gen.stoppedBy === 'cancelled') {
      notes.push(`generation cut by its time budget after ${gen.tokens} token(s) (warm-up: ${gen.warmupTokens} in ${ms(gen.warmupMs)} ms)`);
    } else if (gen.stoppedBy === 'eos') notes.push(`generation stopped at EOS after ${gen.tokens} token(s)`);
  }
  if (r.measurement.load?.backendInfo.fallbackReason) notes.push(`fell back: ${r.measurement.load.backendInfo.fallbackReason}`);
  return notes.join('; ');
}

const HEADER = [
  'backend',
  'model',
  'dtype',
  'load ms (wall / worker)',
  'seq',
  'first fwd ms (wall / worker)',
  'warm wall ms (median / p90)',
  'warm forwardMs (median / p90)',
  'warm n',
  'logits copied / item',
  'bytes (×4)',
  '= seq × vocab?',
  'gen tok/s (tokens)',
  'first token ms',
  'decode tok/s',
  'backend info',
  'total s',
  'notes',
];

export function markdownTable(results: readonly ConfigResult[]): string {
  const lines = [`| ${HEADER.join(' | ')} |`, `|${HEADER.map(() => '---').join('|')}|`];
  for (const r of results) {
    const m = r.measurement;
    const gen = m.generation;
    const row = [
      r.backend,
      r.model,
      r.dtype,
      pair(m.load?.wallMs, m.load?.workerMs),
      m.seqLength === undefined ? DASH : String(m.seqLength),
      pair(m.first?.wallMs, m.first?.forwardMs),
      m.warm && m.warm.wallMs.length > 0 ? pair(median(m.warm.wallMs), percentile(m.warm.wallMs, 90)) : DASH,
      m.warm && m.warm.forwardMs.length > 0 ? pair(median(m.warm.forwardMs), percentile(m.warm.forwardMs, 90)) : DASH,
      repeatsCell(r),
      m.logitsCopied === undefined ? DASH : count(m.logitsCopied),
      m.logitsCopied === undefined ? DASH : bytes(m.logitsCopied * 4),
      logitsRows(r),
      gen === undefined ? DASH : `${rate(gen.tokens / (gen.ms / 1000))} (${gen.tokens})`,
      ms(gen?.firstTokenMs),
      gen?.decodeTokensPerS === undefined ? DASH : rate(gen.decodeTokensPerS),
      backendCell(r),
      r.totalS.toFixed(1),
      noteCell(r),
    ];
    lines.push(`| ${row.map(cell).join(' | ')} |`);
  }
  return lines.join('\n');
}

export function machineLines(machine: MachineInfo, date: Date, durationS: number): string {
  return [
    `- machine: ${machine.os}, ${machine.cpuCount} × ${machine.cpuModel}, ${machine.totalMemoryGiB.toFixed(1)} GiB memory`,
    `- Chromium ${machine.chromium}, Node ${machine.node}`,
    `- date: ${date.toISOString()}; run took ${durationS.toFixed(1)} s`,
  ].join('\n');
}

/**
 * Writes a bench's full record to bench-results/<prefix><timestamp>.json and says where. The ISO
 * timestamp has ':' and '.' replaced, so the name is valid on every file system.
 */
export function writeBenchRecord(root: string, prefix: string, date: Date, record: unknown): string {
  const dir = join(root, 'bench-results');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${prefix}${date.toISOString().replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, `${JSON.stringify(record, null, 2)}\n`);
  console.log(`- JSON: ${file}`);
  return file;
}
