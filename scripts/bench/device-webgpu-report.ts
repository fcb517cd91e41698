// The arithmetic and the words of the WebGPU device bench (device-webgpu.ts): which adapter is a
// software one, which dtype the adapter cannot run, the rates from page times, and the Markdown table.
// Pure, so test/unit/bench/device-webgpu-report.test.ts checks it without a browser.
import type { FixtureDtype } from '../fixtures/specs.ts';
import type { BackendCheck } from '../../src/lib/core/record/run.ts';
import type { BackendInfo, LoadResult } from '../../src/lib/engine/messages.ts';

/** The page's WebGPU adapter as requestAdapter() gives it (the worker asks for the same default adapter). */
export interface AdapterProbe {
  error?: string;
  vendor?: string;
  architecture?: string;
  device?: string;
  description?: string;
  isFallbackAdapter?: boolean;
  features?: string[];
  maxBufferSize?: number;
  maxStorageBufferBindingSize?: number;
}

/** A CPU adapter (SwiftShader, Mesa's llvmpipe/lavapipe), whatever the flags asked for. */
export function isSoftwareAdapter(a: AdapterProbe): boolean {
  const text = [a.vendor, a.architecture, a.device, a.description].filter(Boolean).join(' ');
  return a.isFallbackAdapter === true || /swiftshader|llvmpipe|lavapipe|softpipe/i.test(text);
}

/** fp16 and q4f16 graphs compute in float16: WebGPU runs them only with the shader-f16 feature. */
export const needsShaderF16 = (dtype: FixtureDtype): boolean => dtype === 'fp16' || dtype === 'q4f16';

export const NO_SHADER_F16 = 'not supported by this adapter (no shader-f16)';

/** Why `dtype` is not measured on this adapter, or null when it is. */
export function skipReason(dtype: FixtureDtype, features: readonly string[]): string | null {
  return needsShaderF16(dtype) && !features.includes('shader-f16') ? NO_SHADER_F16 : null;
}

export interface DtypeResult {
  dtype: FixtureDtype;
  /** Why it was not measured (NO_SHADER_F16, a missing file). */
  skipped?: string;
  load?: { wallMs: number; backendInfo: BackendInfo; logitsPath: LoadResult['logitsPath'] | null };
  prefill?: PrefillFigures;
  decode?: DecodeFigures;
  letters?: { items: number; totalMs: number; itemsPerS: number; meanTokens: number };
  agreement?: { runId: string; status: string; check: BackendCheck | null; backendInfo: BackendInfo | null; error?: string };
  errors: string[];
  pageFaults: string[];
}

export interface PrefillFigures {
  tokens: number;
  runsMs: number[];
  medianMs: number;
  tokensPerS: number;
  forwardPasses: number;
}

export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

/** Prefill at batch 1: the prompt's tokens ÷ the median time of the timed forwards over it. */
export function prefillFigures(tokens: number, runsMs: number[], forwardPasses: number): PrefillFigures {
  const m = median(runsMs);
  return { tokens, runsMs, medianMs: m, tokensPerS: (tokens * 1000) / m, forwardPasses };
}

export interface DecodeFigures {
  tokens: number;
  /** Page ms from the request to the first streamed token (the prompt's prefill and one step). */
  firstTokenMs: number | null;
  wallMs: number;
  /** Tokens after the first ÷ the time between the first and the last; null with fewer than 2 tokens. */
  tokensPerS: number | null;
  stoppedBy: string;
}

/** Decode speed from a generation's streamed token times (page ms since the request). */
export function decodeFigures(tokenMs: readonly number[], wallMs: number, stoppedBy: string): DecodeFigures {
  const n = tokenMs.length;
  const span = n > 1 ? tokenMs[n - 1] - tokenMs[0] : 0;
  return { tokens: n, firstTokenMs: n ? tokenMs[0] : null, wallMs, tokensPerS: span > 0 ? ((n - 1) * 1000) / span : null, stoppedBy };
}

const fixed = (v: number | null | undefined, digits = 1): string => (v === null || v === undefined || Number.isNaN(v) ? '—' : v.toFixed(digits));

/** The run's check in words: passed or FAILED, the largest difference against its tolerance, the items. */
export function checkText(r: DtypeResult): string {
  const c = r.agreement?.check;
  if (c) {
    const diff = `max \\|Δ log p\\| ${c.maxLogProbDiff.toExponential(1)}, tolerance ${c.tolerance}`;
    return `${c.passed ? 'passed' : 'FAILED'} (${diff}; ${c.itemIds.length} items, ${c.mismatchedPredictions.length} prediction(s) differ)`;
  }
  return r.agreement ? `no check (run ${r.agreement.status})` : '—';
}

export function resultsTable(results: readonly DtypeResult[]): string {
  const lines = ['| dtype | load s | prefill tok/s (tokens, passes) | decode tok/s (tokens) | letter items/s (mean tokens) | WebGPU ÷ WASM check (the run\'s own) |', '| --- | --- | --- | --- | --- | --- |'];
  for (const r of results) {
    if (r.skipped) {
      lines.push(`| ${r.dtype} | ${r.skipped} | | | | |`);
      continue;
    }
    lines.push(
      `| ${r.dtype} | ${fixed(r.load ? r.load.wallMs / 1000 : null)} | ${fixed(r.prefill?.tokensPerS)} (${r.prefill ? `${r.prefill.tokens}, ${r.prefill.forwardPasses}` : '—'}) | ${fixed(r.decode?.tokensPerS)} (${r.decode?.tokens ?? '—'}) | ${fixed(r.letters?.itemsPerS, 2)} (${fixed(r.letters?.meanTokens, 0)}) | ${checkText(r)} |`,
    );
  }
  return lines.join('\n');
}

/** The adapter as a reader checks it: vendor, architecture, a loud mark on a software one, its features. */
export function adapterLines(probe: AdapterProbe, software: boolean): string[] {
  if (probe.error) return [`- WebGPU adapter: none (${probe.error})`];
  const mib = (v: number | undefined) => `${((v ?? 0) / 2 ** 20).toFixed(0)} MiB`;
  return [
    `- WebGPU adapter: vendor ${probe.vendor || '?'}, architecture ${probe.architecture || '?'}, device ${probe.device || '?'}, description ${probe.description || '?'}${software ? ' — a SOFTWARE adapter (on the CPU), not a GPU' : ''}`,
    `- adapter features: ${(probe.features ?? []).join(', ') || 'none'}; shader-f16 ${probe.features?.includes('shader-f16') ? 'yes' : 'NO'}; maxBufferSize ${mib(probe.maxBufferSize)}, maxStorageBufferBindingSize ${mib(probe.maxStorageBufferBindingSize)}`,
  ];
}
