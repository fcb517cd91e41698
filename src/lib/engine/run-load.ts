// What a run asks of the model load, and what it records of the load: the load parameters of a
// scoring run and of a memorization probe (the page's model pool reads them too, to give a run the
// worker that holds its model: model-pool.ts), and the environment a run stores from the load's result.
import type { ProbeRunRecord } from '../core/record/probe-run.ts';
import type { LoadParams, LoadResult } from './messages.ts';

/** The load a run asks for (the page's model pool and the pace probe read it too, to share a worker holding that model). */
export function runLoadParams(config: { kind: string; scoring?: string; model: Pick<LoadParams, 'source' | 'dtype' | 'backend'> }): LoadParams {
  const model = config.model;
  // Option texts are scored at every position of their tokens: with Jiangu's statistics outputs when the graph takes them.
  const statistics = config.kind === 'multiple-choice' && config.scoring === 'cloze';
  return { source: model.source, dtype: model.dtype, backend: model.backend, ...(statistics ? { statistics } : {}) };
}

/** What a run stores of its model's load (RunRecord.environment). */
export function environmentOf(info: LoadResult) {
  return {
    backendInfo: info.backendInfo,
    modelInputNames: info.inputNames,
    transformersVersion: info.transformersVersion,
    ortVersion: info.ortVersion,
    userAgent: typeof navigator === 'undefined' ? 'node' : navigator.userAgent,
    ...(info.resolvedRevision ? { resolvedRevision: info.resolvedRevision } : {}),
    ...(info.prefillRows !== undefined ? { prefillRows: info.prefillRows } : {}),
    ...(info.logitsPath ? { logitsPath: info.logitsPath } : {}),
    ...(info.statisticsPath ? { statisticsPath: info.statisticsPath } : {}),
  };
}

/** The load a memorization probe asks for: statistics at every position (the page's model pool reads it too). */
export function probeLoadParams(model: ProbeRunRecord['config']['model']): LoadParams {
  return { source: model.source, dtype: model.dtype, backend: model.backend, statistics: true };
}
