// Issue 23 items 9 and 11, as the run page words them: a context limit claims nothing about a
// config.json that was not read, and a run's backend says why Auto chose WASM.
import { describe, expect, it } from 'vitest';
import { limitSourceOf, resolveContextLimit } from '../../../src/lib/core/protocols/context-limit.ts';
import { runBackendText } from '../../../src/ui/evaluate/run-backend.ts';
import { notice, renderNotice } from '../../../src/lib/core/notices/index.ts';
import type { RunRecord } from '../../../src/lib/core/record/run.ts';

describe('limitSourceOf', () => {
  it('says "default" (the config states no positions) only once the model loaded', () => {
    // As run-setup.ts records a run before its model loads.
    const created = { tokens: 2048, from: 'default', asked: 'default', modelPositions: null } as const;
    expect(limitSourceOf(created, false)).toBe('unread');
    expect(limitSourceOf(resolveContextLimit('default', 2048, null), true)).toBe('default');
    expect(limitSourceOf(resolveContextLimit('default', 2048, { tokens: 512, key: 'n_positions' }), true)).toBe('config');
    expect(limitSourceOf({ ...created, from: 'user', asked: 'user' }, false)).toBe('user');
  });
});

describe('runBackendText', () => {
  const run = (backendInfo: unknown) => ({ config: { model: { backend: 'auto' } }, environment: { backendInfo } }) as unknown as RunRecord;
  it('says why Auto ran on WASM, in the page language', () => {
    const why = notice('model.fallback-software-adapter', { adapter: 'SwiftShader' });
    const info = { backend: 'wasm', wasmThreads: 2, crossOriginIsolated: true, fallbackReason: renderNotice(why, 'en'), fallbackNotice: why };
    expect(runBackendText(run(info), false)).toBe('wasm (Auto: WebGPU here is a software adapter (SwiftShader), slower than WASM; using WASM. Choose WebGPU to use it anyway.)');
    expect(runBackendText(run(info), true)).toBe(`wasm（自动选择：${renderNotice(why, 'zh')}）`);
    // An older record has the English only.
    expect(runBackendText(run({ ...info, fallbackNotice: undefined }), true)).toContain('（自动选择：WebGPU here is a software adapter');
    expect(runBackendText(run({ backend: 'wasm', wasmThreads: 2, crossOriginIsolated: true }), false)).toBe('wasm');
  });
});
