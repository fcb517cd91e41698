// When one loaded session can answer another view's load (issue 43: one session per model). The
// Playground, the Reading page, an Evaluate run, a memorization probe and the pace probe each ask
// for a model with LoadParams; two asks name the same session when everything that shapes the graph
// and the runtime is equal. The statistics and lens outputs are the exception: they only add outputs
// (the statistics after the logits, left bit for bit; the lens behind its gate, lens-gate.ts), so a
// session loaded with them answers a load without them exactly as a plain one does (tested in
// test/browser/shared-model.test.ts and logit-lens.test.ts), and one loaded without them is loaded
// again with both sets of outputs when a sharer asks for more.
import type { LoadParams, LoadResult, ModelSource } from './messages.ts';

/** The outputs a load may add to a session without changing what it answers otherwise. */
type Feature = 'statistics' | 'lens';
const FEATURES: readonly Feature[] = ['statistics', 'lens'];

/** One key per model source, whatever order its fields came in and with `main` for no revision. */
export function sourceKey(source: ModelSource): string {
  return source.kind === 'site' ? `site|${source.name}` : `hub|${source.host ?? ''}|${source.id}|${source.revision || 'main'}`;
}

/**
 * What a session is, as a string, or null for a load that shares with nothing: one that carries a
 * test's fault (it must meet a worker of its own, and fail there every time it is asked). `params`
 * carries the thread count the client resolved; the backend is compared apart (sameSession).
 */
export function sessionKey(params: LoadParams): string | null {
  if (params.memoryFault || params.logitsRewriteFault || params.statisticsFault || params.lensFault || params.attentionFault) return null;
  const { source, dtype, maxLogitsBytes, logitsRewrite, externalWeights, headBlocks, ortMemoryOptions, wasmThreads } = params;
  // Defaults written out, so a load that leaves an option out meets one that names its default.
  const options = {
    maxLogitsBytes: maxLogitsBytes ?? null,
    logitsRewrite: logitsRewrite !== false,
    externalWeights: externalWeights !== false,
    headBlocks: headBlocks !== false,
    ortMemoryOptions: ortMemoryOptions ? Object.fromEntries(Object.entries(ortMemoryOptions).sort(([a], [b]) => a.localeCompare(b))) : null,
    wasmThreads: wasmThreads ?? null,
  };
  return `${sourceKey(source)}|${dtype}|${JSON.stringify(options)}`;
}

/**
 * Whether `asked` names the session loaded with `held` (its result, once known): the same key, and
 * the same backend, or a named backend that the held load's `auto` resolved to.
 */
export function sameSession(held: LoadParams, heldResult: LoadResult | null, asked: LoadParams): boolean {
  const key = sessionKey(asked);
  if (key === null || key !== sessionKey(held)) return false;
  return asked.backend === held.backend || (asked.backend !== 'auto' && heldResult?.backendInfo.backend === asked.backend);
}

/** Whether a session loaded with `held` already has every output `asked` wants. */
export function hasFeatures(held: LoadParams, asked: LoadParams): boolean {
  return FEATURES.every((f) => !asked[f] || held[f] === true);
}

/** `asked` with the outputs `held` has as well: the load that serves both. */
export function withFeaturesOf(asked: LoadParams, held: LoadParams): LoadParams {
  const joined: LoadParams = { ...asked };
  for (const f of FEATURES) if (held[f] || asked[f]) joined[f] = true;
  return joined;
}

/**
 * A shared session's load result as the view that asked `asked` would have had it from a load of its
 * own: the paths of outputs it did not ask for are left out, so a run's stored environment does not
 * depend on what another view had loaded.
 */
export function resultFor(result: LoadResult, asked: LoadParams): LoadResult {
  // The attention tap goes on with the lens (LoadParams.attentionFault): its path with the lens's.
  const { statisticsPath, lensPath, attentionPath, ...rest } = result;
  return { ...rest, ...(asked.statistics && statisticsPath ? { statisticsPath } : {}), ...(asked.lens && lensPath ? { lensPath } : {}), ...(asked.lens && attentionPath ? { attentionPath } : {}) };
}
