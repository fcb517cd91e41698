// Issue 21: a run imported from lm-evaluation-harness ran in the harness, not on a backend of this
// site, though its record's config.model.backend holds a placeholder ('wasm'); and its --limit counts
// docs, which in a circular export are rotations, not items.
import { describe, expect, it } from 'vitest';
import type { McRunConfig, RunOrigin, RunRecord } from '../../../src/lib/core/record/run.ts';
import { harnessBackendText, runBackendText } from '../../../src/ui/evaluate/run-backend.ts';
import { describedStored, distinguishingLabels, type LabelWords } from '../../../src/ui/compare/run-label.ts';

const en: LabelWords = { lang: 'en', countOf: (n, one, many) => `${n} ${n === 1 ? one : many}`, dateTime: (iso) => iso.slice(0, 16) };

const config: McRunConfig = {
  kind: 'multiple-choice',
  model: { source: { kind: 'hub', id: 'Qwen/Qwen3-0.6B' }, dtype: 'fp32', backend: 'wasm' },
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
  tasks: ['古音学'],
  limitPerTask: null,
  itemIds: [],
  appVersion: 'lm-eval 0.4.9',
};
const origin = (extra: Partial<RunOrigin>): RunOrigin => ({ kind: 'lm-eval', fileName: 'results.json', importedAt: '2026-12-01T00:00:00Z', originalRunId: null, storedSummary: null, summaryMismatches: [], ...extra });
const run = (o: RunOrigin | undefined, environment?: RunRecord['environment']): RunRecord =>
  ({ id: 'r', createdAt: '2026-12-01T00:00:00Z', updatedAt: '2026-12-01T00:00:00Z', datasetId: 'aclue', status: 'completed', config, warnings: [], ...(o ? { origin: o } : {}), ...(environment ? { environment } : {}) }) as RunRecord;

describe('where an imported harness run ran', () => {
  it('names the harness and its --model and device, never the placeholder backend', () => {
    const imported = run(origin({ harnessBackend: { model: 'hf', device: 'cuda:0' } }));
    expect(runBackendText(imported, false)).toBe('lm-evaluation-harness (hf, cuda:0)');
    expect(runBackendText(imported, true)).toBe('lm-evaluation-harness（hf，cuda:0）');
    expect(harnessBackendText(imported, false, true)).toBe('lm-eval hf');
    expect(runBackendText(run(origin({})), false)).toBe('lm-evaluation-harness');
    expect(runBackendText(run(origin({ harnessBackend: { model: 'vllm', device: null } })), false)).toBe('lm-evaluation-harness (vllm)');
  });

  it('a run of this site (or a Jiangu run file) keeps the backend it used, with its adapter', () => {
    const env = { backendInfo: { backend: 'webgpu', adapter: { architecture: 'swiftshader' } } } as unknown as RunRecord['environment'];
    expect(runBackendText(run(undefined, env), false)).toBe('webgpu (swiftshader)');
    expect(runBackendText(run(undefined), false)).toBe('wasm');
    expect(harnessBackendText(run({ ...origin({}), kind: 'jiangu-file' }), false)).toBeNull();
  });

  it('Compare tells a harness run from a run here by the backend, and says the harness limit in docs', () => {
    const here = describedStored(run(undefined, { backendInfo: { backend: 'wasm', adapter: null } } as unknown as RunRecord['environment']));
    const there = describedStored(run(origin({ harnessBackend: { model: 'hf', device: null }, harnessLimit: 8 })));
    expect(distinguishingLabels([here, there], en).map((l) => l.short)).toEqual(['WASM · all items', 'lm-eval hf · lm-eval --limit 8']);
  });
});
