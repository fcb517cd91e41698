// Hands transformers.js' session a graph that keeps only the last logits row. transformers.js reads
// the model file and calls onnxruntime-web's InferenceSession.create(bytes, options) (src/backends/
// onnx.js, the same 'onnxruntime-web/webgpu' module this imports: one InferenceSession class in the
// worker's bundle, as session-guard.ts relies on too). While a load asks for it, that call is wrapped:
// bytes whose graph lacks num_logits_to_keep are rewritten (src/lib/core/models/logits-rewrite.ts)
// and the session is created from the rewritten copy, with the options (external data included)
// passed through unchanged. Nothing here keeps either buffer: transformers.js drops the original as
// soon as create returns, and ORT copies the rewritten one into its own memory.
import { InferenceSession } from 'onnxruntime-web/webgpu';
import { refusalOf, rewriteForLastLogits, type LogitsRewriteRefusal, type RewriteOptions } from '../src/lib/core/models/logits-rewrite.ts';
import { rewriteForStatistics, statsRefusalOf, type StatsRewriteOptions, type StatsRewriteRefusal } from '../src/lib/core/models/stats-rewrite.ts';
import { lensRefusalOf, rewriteForLens, type LensRewriteOptions, type LensRewriteRefusal } from '../src/lib/core/models/lens-rewrite.ts';

/** What the wrapped create did with the model file of one load. */
export type RewriteOutcome =
  | { kind: 'not-needed' }
  | { kind: 'rewritten'; head: { ops: string[]; sliceAt: string }; graphBytes: number; ms: number }
  | { kind: 'unrecognised'; refusal: LogitsRewriteRefusal }
  /** ORT would not create a session from the rewritten bytes; the original graph was used. */
  | { kind: 'session-refused'; detail: string }
  /** The bytes never came through create as a buffer (a path), so nothing was rewritten. */
  | { kind: 'not-seen' }
  /** The one-row rewrite was not asked for (statistics alone were). */
  | { kind: 'off' };

/** What became of the statistics outputs, when a load asked for them (stats-rewrite.ts). */
export type StatisticsOutcome =
  | { kind: 'added'; ms: number }
  | { kind: 'unrecognised'; refusal: StatsRewriteRefusal }
  /** ORT would not create a session from the bytes with statistics; the bytes without them were used. */
  | { kind: 'session-refused'; detail: string }
  | { kind: 'not-seen' };

/** What became of the logit lens outputs, when a load asked for them (lens-rewrite.ts). */
export type LensOutcome =
  | { kind: 'added'; ms: number; layers: number; addedBytes: number }
  | { kind: 'unrecognised'; refusal: LensRewriteRefusal }
  /** ORT would not create a session from the bytes with the lens; the bytes without it were used. */
  | { kind: 'session-refused'; detail: string }
  | { kind: 'not-seen' };

/** What a load asks the wrapped create for. */
export interface RewriteRequest {
  /** The one-row rewrite (rewriteForLastLogits), with a test's deliberate fault; null: not asked. */
  keep: RewriteOptions | null;
  /** The statistics outputs (rewriteForStatistics), with a test's deliberate fault; null: not asked. */
  statistics: StatsRewriteOptions | null;
  /** The logit lens outputs (rewriteForLens), on a load of its own (they cost every pass); null or absent: not asked. */
  lens?: LensRewriteOptions | null;
}

type Create = (model: unknown, options?: unknown) => Promise<unknown>;

interface Active {
  request: RewriteRequest;
  outcome: RewriteOutcome;
  statistics: StatisticsOutcome | null;
  lens: LensOutcome | null;
  seen: boolean;
}

let installed = false;
/** The load in progress, or null when no load asks for a rewrite. */
let active: Active | null = null;

/** The one-row rewrite of `model` as the load asked for it: the bytes to go on with, and the outcome. */
function keepRewrite(model: Uint8Array, request: RewriteRequest): { bytes: Uint8Array; outcome: RewriteOutcome; rewritten: boolean } {
  if (!request.keep) return { bytes: model, outcome: { kind: 'off' }, rewritten: false };
  const started = performance.now();
  let result: ReturnType<typeof rewriteForLastLogits>;
  try {
    result = rewriteForLastLogits(model, request.keep);
  } catch (error) {
    // The rewrite returns its refusals as values; a throw is a graph it could not even read.
    result = { kind: 'unrecognised', refusal: refusalOf({ kind: 'rewrite-threw', message: error instanceof Error ? error.message : String(error) }) };
  }
  if (result.kind === 'not-needed') return { bytes: model, outcome: { kind: 'not-needed' }, rewritten: false };
  if (result.kind === 'unrecognised') return { bytes: model, outcome: { kind: 'unrecognised', refusal: result.refusal }, rewritten: false };
  return { bytes: result.bytes, outcome: { kind: 'rewritten', head: result.head, graphBytes: result.graphBytes, ms: performance.now() - started }, rewritten: true };
}

/** Wraps InferenceSession.create once. Install before guardSessionCreation, so the guard wraps this. */
export function installLogitsRewrite(): void {
  if (installed) return;
  installed = true;
  const session = InferenceSession as unknown as { create: Create };
  const create: Create = session.create.bind(InferenceSession);
  session.create = async (model: unknown, options?: unknown) => {
    const current = active;
    // Only the first buffer of a load is the causal LM's graph (a causal LM has one session).
    if (!current || current.seen || !(model instanceof Uint8Array)) return create(model, options);
    current.seen = true;
    const keep = keepRewrite(model, current.request);
    current.outcome = keep.outcome;
    // The statistics go on the graph the session would otherwise get (rewritten or the author's).
    let withStatistics: Uint8Array | null = null;
    if (current.request.statistics) {
      const started = performance.now();
      const result = rewriteForStatistics(keep.bytes, current.request.statistics);
      if (result.kind === 'rewritten') {
        withStatistics = result.bytes;
        current.statistics = { kind: 'added', ms: performance.now() - started };
      } else current.statistics = { kind: 'unrecognised', refusal: result.refusal };
    }
    if (current.request.lens) {
      const started = performance.now();
      let result: ReturnType<typeof rewriteForLens>;
      try {
        result = rewriteForLens(withStatistics ?? keep.bytes, current.request.lens);
      } catch (error) {
        result = { kind: 'unrecognised', refusal: lensRefusalOf({ kind: 'rewrite-threw', message: error instanceof Error ? error.message : String(error) }) };
      }
      if (result.kind === 'rewritten') {
        current.lens = { kind: 'added', ms: performance.now() - started, layers: result.layers, addedBytes: result.addedBytes };
        try {
          return await create(result.bytes, options);
        } catch (error) {
          current.lens = { kind: 'session-refused', detail: error instanceof Error ? error.message : String(error) };
        }
      } else current.lens = { kind: 'unrecognised', refusal: result.refusal };
    }
    if (withStatistics) {
      try {
        return await create(withStatistics, options);
      } catch (error) {
        current.statistics = { kind: 'session-refused', detail: error instanceof Error ? error.message : String(error) };
      }
    }
    if (!keep.rewritten) return create(model, options);
    try {
      return await create(keep.bytes, options);
    } catch (error) {
      // The original is still held by transformers.js for this call, so falling back costs nothing more.
      current.outcome = { kind: 'session-refused', detail: error instanceof Error ? error.message : String(error) };
      return create(model, options);
    }
  };
}

/**
 * Runs `load` (one from_pretrained) with the rewrites it asks for, and says what became of each.
 * The request's faults go to the rewrites as they are (tests only: LoadParams.logitsRewriteFault,
 * LoadParams.statisticsFault).
 */
export async function withLogitsRewrite<T>(load: () => Promise<T>, request: RewriteRequest = { keep: {}, statistics: null }): Promise<{ value: T; outcome: RewriteOutcome; statistics: StatisticsOutcome | null; lens: LensOutcome | null }> {
  const current: Active = { request, outcome: { kind: 'not-seen' }, statistics: request.statistics ? { kind: 'not-seen' } : null, lens: request.lens ? { kind: 'not-seen' } : null, seen: false };
  active = current;
  try {
    const value = await load();
    return { value, outcome: current.outcome, statistics: current.statistics, lens: current.lens };
  } finally {
    active = null;
  }
}

/** A statistics outcome that is not `added`, as the refusal the load reports. */
export function statisticsRefusalDetail(outcome: StatisticsOutcome): string {
  switch (outcome.kind) {
    case 'added':
      return '';
    case 'unrecognised':
      return outcome.refusal.detail;
    case 'session-refused':
      return outcome.detail;
    case 'not-seen':
      return statsRefusalOf({ kind: 'malformed', message: 'the model file did not reach the session as bytes' }).detail;
  }
}
