// The WebGPU device bench's judgement and arithmetic (scripts/bench/device-webgpu-report.ts): a software
// adapter is never taken for a GPU, float16 dtypes are set aside on an adapter without shader-f16, and
// the rates come from the page times as the report says, against sums written out by hand.
import { describe, expect, it } from 'vitest';
import { adapterLines, decodeFigures, isSoftwareAdapter, NO_SHADER_F16, prefillFigures, resultsTable, skipReason, type DtypeResult } from '../../../scripts/bench/device-webgpu-report.ts';

describe('device WebGPU bench', () => {
  it('takes SwiftShader and Mesa for software adapters, and a GPU for a GPU', () => {
    // What Chromium 156 reports for its SwiftShader adapter (seen in the bench's run here).
    expect(isSoftwareAdapter({ vendor: 'google', architecture: 'swiftshader', device: '', description: '' })).toBe(true);
    expect(isSoftwareAdapter({ vendor: 'mesa', architecture: '', description: 'llvmpipe (LLVM 17.0.6, 256 bits)' })).toBe(true);
    expect(isSoftwareAdapter({ vendor: 'nvidia', architecture: 'hopper', description: 'NVIDIA H200', isFallbackAdapter: true })).toBe(true);
    expect(isSoftwareAdapter({ vendor: 'nvidia', architecture: 'hopper', description: 'NVIDIA H200' })).toBe(false);
  });

  it('sets fp16 and q4f16 aside without shader-f16, and nothing else', () => {
    expect(skipReason('fp16', ['timestamp-query'])).toBe(NO_SHADER_F16);
    expect(skipReason('q4f16', [])).toBe(NO_SHADER_F16);
    expect(skipReason('fp16', ['shader-f16'])).toBeNull();
    expect(skipReason('q4', [])).toBeNull();
    expect(skipReason('fp32', [])).toBeNull();
  });

  it('rates prefill by the median forward and decode between the first and last token', () => {
    // 500 tokens; forwards of 250, 100 and 400 ms: median 250 ms, 2000 tok/s.
    expect(prefillFigures(500, [250, 100, 400], 1)).toEqual({ tokens: 500, runsMs: [250, 100, 400], medianMs: 250, tokensPerS: 2000, forwardPasses: 1 });
    expect(prefillFigures(10, [40, 10], 1).medianMs).toBe(25);
    // 5 tokens, first at 300 ms, last at 700: 4 tokens in 400 ms, 10 tok/s (the first token's prefill left out).
    expect(decodeFigures([300, 400, 500, 600, 700], 720, 'length')).toEqual({ tokens: 5, firstTokenMs: 300, wallMs: 720, tokensPerS: 10, stoppedBy: 'length' });
    expect(decodeFigures([300], 310, 'eos').tokensPerS).toBeNull();
    expect(decodeFigures([], 5, 'eos').firstTokenMs).toBeNull();
  });

  it('tables a measured dtype, the run check, and a dtype the adapter cannot run', () => {
    const measured: DtypeResult = {
      dtype: 'q4',
      load: { wallMs: 12_340, backendInfo: { backend: 'webgpu', wasmThreads: 4, crossOriginIsolated: true }, logitsPath: null },
      prefill: prefillFigures(500, [250], 1),
      decode: decodeFigures([0, 50, 100], 100, 'length'),
      letters: { items: 4, totalMs: 2000, itemsPerS: 2, meanTokens: 120.4 },
      agreement: { runId: 'r', status: 'completed', backendInfo: null, check: { itemIds: ['a', 'b', 'c'], tolerance: 0.01, maxLogProbDiff: 0.00031, mismatchedPredictions: [], passed: true } },
      errors: [],
      pageFaults: [],
    };
    const lines = resultsTable([measured, { dtype: 'fp16', skipped: NO_SHADER_F16, errors: [], pageFaults: [] }]).split('\n');
    expect(lines[2]).toBe('| q4 | 12.3 | 2000.0 (500, 1) | 20.0 (3) | 2.00 (120) | passed (max \\|Δ log p\\| 3.1e-4, tolerance 0.01; 3 items, 0 prediction(s) differ) |');
    expect(lines[3]).toBe('| fp16 | not supported by this adapter (no shader-f16) | | | | |');
  });

  it('marks a software adapter and says whether it has shader-f16', () => {
    const [adapter, features] = adapterLines({ vendor: 'google', architecture: 'swiftshader', features: ['subgroups'], maxBufferSize: 2 ** 30 }, true);
    expect(adapter).toContain('vendor google, architecture swiftshader');
    expect(adapter).toContain('SOFTWARE adapter');
    expect(features).toContain('shader-f16 NO');
    expect(features).toContain('maxBufferSize 1024 MiB');
    expect(adapterLines({ error: 'no adapter' }, false)).toEqual(['- WebGPU adapter: none (no adapter)']);
  });
});
