// Where a run's model ran, as the pages name it: the backend this browser really used (else the one
// the run asked for), or, for a run imported from lm-evaluation-harness, the harness's model backend
// and device as its results file says them (issue 21: no backend of this site ran such a run, though
// its record's `config.model.backend` holds a placeholder).
import type { RunRecord } from '../../lib/core/record/run.ts';
import { renderNotice } from '../../lib/core/notices/index.ts';

type BackendOf = Pick<RunRecord, 'config' | 'environment' | 'origin'>;

/** The harness's part, or null for a run of this site: `lm-evaluation-harness (hf, cuda:0)` (`short`: `lm-eval hf`). */
export function harnessBackendText(run: { origin?: Pick<NonNullable<RunRecord['origin']>, 'kind' | 'harnessBackend'> }, zh: boolean, short = false): string | null {
  if (run.origin?.kind !== 'lm-eval') return null;
  const b = run.origin.harnessBackend;
  if (short) return b ? `lm-eval ${b.model}` : 'lm-eval';
  if (!b) return 'lm-evaluation-harness';
  const parts = [b.model, ...(b.device ? [b.device] : [])];
  return zh ? `lm-evaluation-harness（${parts.join('，')}）` : `lm-evaluation-harness (${parts.join(', ')})`;
}

/**
 * The run page's backend: the one used with its adapter, and why Auto chose WASM when it did (a
 * software WebGPU adapter, no WebGPU, no shader-f16); or the harness's.
 */
export function runBackendText(run: BackendOf, zh: boolean): string {
  const harness = harnessBackendText(run, zh);
  if (harness) return harness;
  const info = run.environment?.backendInfo;
  if (!info) return run.config.model.backend;
  const why = info.fallbackNotice ? renderNotice(info.fallbackNotice, zh ? 'zh' : 'en') : info.fallbackReason;
  const auto = why ? (zh ? `（自动选择：${why}）` : ` (Auto: ${why})`) : '';
  return `${info.backend}${info.adapter ? ` (${info.adapter.architecture})` : ''}${auto}`;
}
