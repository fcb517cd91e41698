// Hands transformers.js' session a graph that keeps only the last logits row, with its weights left
// where they are. transformers.js reads the model file and calls onnxruntime-web's
// InferenceSession.create(bytes, options) (src/backends/onnx.js, the same 'onnxruntime-web/webgpu'
// module this imports: one InferenceSession class in the worker's bundle, as session-guard.ts relies
// on too). While a load asks for it, that call is wrapped:
// - the graph's initializers become references into the bytes transformers.js read
//   (src/lib/core/models/external-weights.ts), and those bytes are mounted as the session's external
//   data: ORT copies each weight once, straight into its tensor (or GPU buffer), where it would
//   otherwise copy the whole file into its heap, parse it into a second copy and fill the tensors
//   from that; a refused session falls back to the file as it came;
// - a graph that lacks num_logits_to_keep is rewritten (src/lib/core/models/logits-rewrite.ts), and
//   the statistics and lens outputs added when asked, all on the small graph;
// - the options (external data included) are passed through, the mount added.
// Nothing here keeps a buffer: transformers.js drops the file as soon as create returns.
import { InferenceSession } from 'onnxruntime-web/webgpu';
import { markStage } from './memory-marks.ts';
import { refusalOf, rewriteForLastLogits, type LogitsRewriteRefusal, type RewriteOptions } from '../src/lib/core/models/logits-rewrite.ts';
import { rewriteForStatistics, statsRefusalOf, type StatsRewriteOptions, type StatsRewriteRefusal } from '../src/lib/core/models/stats-rewrite.ts';
import { blockDequantizedHead, gemmTiedHead } from '../src/lib/core/models/head-blocks.ts';
import { externalizeWeights, externalLocations, foldedInputOffsets, EXTERNAL_WEIGHTS_LOCATION, type WeightsOutcome } from '../src/lib/core/models/external-weights.ts';
import { takeMount, type MountedWeights } from './streamed-weights.ts';
import { installLensGate } from './lens-gate.ts';
import { withoutPrepacking } from './session-options.ts';
import { lensRefusalOf, rewriteForLens, type LensRewriteOptions, type LensRewriteRefusal } from '../src/lib/core/models/lens-rewrite.ts';
import { rewriteForAttention, type AttentionLayout, type AttentionRewriteOptions, type AttentionRewriteRefusal } from '../src/lib/core/models/attention-rewrite.ts';

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

/** What became of the attention tap, when a load asked for it (attention-rewrite.ts). */
export type AttentionOutcome =
  | { kind: 'added'; ms: number; layers: number; layout: AttentionLayout[]; addedBytes: number }
  | { kind: 'unrecognised'; refusal: AttentionRewriteRefusal }
  /** ORT would not create a session from the bytes with the tap; the bytes without it were used. */
  | { kind: 'session-refused'; detail: string }
  | { kind: 'not-seen' };

/** What a load asks the wrapped create for. */
export interface RewriteRequest {
  /** The one-row rewrite (rewriteForLastLogits), with a test's deliberate fault; null: not asked. */
  keep: RewriteOptions | null;
  /** The statistics outputs (rewriteForStatistics), with a test's deliberate fault; null: not asked. */
  statistics: StatsRewriteOptions | null;
  /** The logit lens outputs (rewriteForLens) behind their gate (lens-gate.ts); null or absent: not asked. */
  lens?: LensRewriteOptions | null;
  /**
   * The attention tap (rewriteForAttention) behind its own gate (lens-gate.ts); null or absent: not
   * asked. It goes on the first graph a session is made from (with the lens, or without it where the
   * lens was refused), so it does not depend on the lens.
   */
  attention?: AttentionRewriteOptions | null;
  /** false: the session reads the weights from the graph's own bytes (the bench's "before"); default true. */
  externalWeights?: boolean;
  /** false: a dequantized tied head is left whole (head-blocks.ts; the bench's "before"); default true. */
  headBlocks?: boolean;
  /**
   * onnxruntime's weight prepacking as the load asked for it (LoadParams.ortMemoryOptions); absent:
   * off for a session whose tied float head is a Gemm on the embedding, ORT's default otherwise.
   * Prepacked, that Gemm keeps a packed copy of the whole embedding beside it: Qwen2.5-0.5B q4's wasm
   * Memory after load 1,446 MB against 898 MB (a 785 MB file), with no speed measured either way
   * (3 five-shot items 23.8 s against 21.9 s; 24 generated tokens 0.89–0.99 s a token either way,
   * at 1 and 2 threads; 2026-12-06). q8 sessions measured the same with and without (591 MB).
   */
  prepacking?: boolean;
}

type Create = (model: unknown, options?: unknown) => Promise<unknown>;


interface Active {
  request: RewriteRequest;
  outcome: RewriteOutcome;
  statistics: StatisticsOutcome | null;
  lens: LensOutcome | null;
  attention: AttentionOutcome | null;
  weights: WeightsOutcome;
  /** Blocks the session's head was computed in (head-blocks.ts; 1: a float tied head as a Gemm): 0 when left as it came. */
  headBlocks: number;
  /** A streamed file's weights, mounted for this load's session (released once it is created). */
  mount: MountedWeights | null;
  mountLocation?: string;
  seen: boolean;
}

/** The streamed weights a graph names (streamed-weights.ts), or null. */
function streamedMount(model: Uint8Array): { location: string; mount: MountedWeights } | null {
  let locations: Set<string>;
  try {
    locations = externalLocations(model);
  } catch {
    return null;
  }
  return locations.size > 0 ? takeMount(locations) : null;
}

function withMount(options: unknown, location: string, mount: MountedWeights): unknown {
  const given = (options ?? {}) as SessionOptionsWithData;
  return { ...given, externalData: [...(given.externalData ?? []), { path: location, data: mount }] };
}

interface SessionOptionsWithData {
  externalData?: readonly unknown[];
}

/**
 * The graph with its weights referenced in `model`, and the options that mount `model` as their
 * file; null when nothing moves or the bytes cannot be read (the rewrites then say what they found).
 */
function externalizeFor(model: Uint8Array, options: unknown): { graph: Uint8Array; options: unknown; moved: number; movedBytes: number; ms: number } | null {
  const started = performance.now();
  let result: ReturnType<typeof externalizeWeights>;
  try {
    result = externalizeWeights(model);
  } catch {
    return null;
  }
  if (!result) return null;
  const given = (options ?? {}) as SessionOptionsWithData;
  const externalData = [...(given.externalData ?? []), { path: EXTERNAL_WEIGHTS_LOCATION, data: model }];
  return { graph: result.graph, options: { ...given, externalData }, moved: result.moved, movedBytes: result.movedBytes, ms: performance.now() - started };
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

/** Whether a session's options put it on WebGPU (transformers.js names its execution providers there). */
function onWebGpu(options: unknown): boolean {
  const providers = (options as { executionProviders?: unknown[] } | undefined)?.executionProviders ?? [];
  return providers.some((p) => p === 'webgpu' || (typeof p === 'object' && p !== null && (p as { name?: string }).name === 'webgpu'));
}

/** Wraps InferenceSession.create once. Install before guardSessionCreation, so the guard wraps this. */
export function installLogitsRewrite(): void {
  if (installed) return;
  installed = true;
  const session = InferenceSession as unknown as { create: Create };
  const createSession: Create = session.create.bind(InferenceSession);
  // Every session this load creates from a streamed file keeps the tensors its optimizer may read twice.
  const create: Create = (model, options) => {
    const mount = active?.mount;
    if (mount && active?.mountLocation && model instanceof Uint8Array) {
      try {
        mount.keepUntilCreated(foldedInputOffsets(model, active.mountLocation, { gathered: onWebGpu(options) }));
      } catch {
        // An unreadable graph: ORT's own error will say so.
      }
    }
    return createSession(model, options);
  };
  /**
   * A session from `graph` with a dequantized tied head computed in blocks (head-blocks.ts) when it
   * has one, else from `graph` itself; a session refused with the blocks is made without them.
   */
  const createBlocked = async (graph: Uint8Array, options: unknown, current: Active): Promise<unknown> => {
    // The attention tap, when asked and not yet settled, on whichever graph comes first; a session
    // ORT refuses with it is made without it (and, refused as well, leaves the tap to the next graph).
    if (current.request.attention && current.attention?.kind === 'not-seen') {
      const started = performance.now();
      const tapped = rewriteForAttention(graph, current.request.attention);
      if (tapped.kind === 'unrecognised') current.attention = { kind: 'unrecognised', refusal: tapped.refusal };
      else {
        const added: AttentionOutcome = { kind: 'added', ms: performance.now() - started, layers: tapped.layers, layout: tapped.layout, addedBytes: tapped.addedBytes };
        let detail: string;
        try {
          const made = await createUntapped(tapped.bytes, options, current);
          current.attention = added;
          // Every pass of this session feeds the gates; only an attention pass feeds its own true (lens-gate.ts).
          installLensGate(made as Parameters<typeof installLensGate>[0]);
          return made;
        } catch (error) {
          detail = error instanceof Error ? error.message : String(error);
        }
        const made = await createUntapped(graph, options, current);
        current.attention = { kind: 'session-refused', detail };
        return made;
      }
    }
    return createUntapped(graph, options, current);
  };
  const createUntapped = async (graph: Uint8Array, options: unknown, current: Active): Promise<unknown> => {
    let blocked: { bytes: Uint8Array; blocks: number; options: unknown } | null = null;
    if (current.request.headBlocks !== false) {
      try {
        // The hub's q8 head in blocks; else a float tied head as a Gemm on the embedding (one block).
        const q8 = blockDequantizedHead(graph);
        const gemm = q8 ? null : gemmTiedHead(graph);
        blocked = q8 ? { ...q8, options } : gemm ? { bytes: gemm.bytes, blocks: 1, options: current.request.prepacking === true ? options : withoutPrepacking(options) } : null;
      } catch {
        blocked = null; // a graph it cannot read: the rewrites before it would have said so
      }
    }
    if (!blocked) return create(graph, options);
    try {
      const made = await create(blocked.bytes, blocked.options);
      current.headBlocks = blocked.blocks;
      return made;
    } catch {
      current.headBlocks = 0;
      return create(graph, options);
    }
  };
  /**
   * The graph as it came, else (weights external and refused) the file as it came. A streamed file
   * has no such fallback once ORT has read from it (its blocks are gone): its refusal is the load's.
   */
  const createOrInline = async (model: unknown, options: unknown, original: unknown, originalOptions: unknown, current: Active): Promise<unknown> => {
    if (model === original) return createBlocked(model as Uint8Array, options, current);
    try {
      return await createBlocked(model as Uint8Array, options, current);
    } catch (error) {
      current.weights = { kind: 'session-refused', detail: error instanceof Error ? error.message : String(error) };
      return create(original, originalOptions);
    }
  };
  session.create = async (model: unknown, options?: unknown) => {
    const current = active;
    try {
      return await createRewritten(model, options);
    } finally {
      // Whatever became of the session, the streamed blocks are released (those ORT read already are).
      const mount = current?.mount;
      if (mount && current) {
        mount.releaseAll();
        if (current.weights.kind === 'streamed') current.weights = { ...current.weights, given: mount.counts.given };
        current.mount = null;
      }
      markStage('session-created');
    }
  };
  const createRewritten = async (model: unknown, options?: unknown) => {
    const original = model;
    const originalOptions = options;
    const current = active;
    // Only the first buffer of a load is the causal LM's graph (a causal LM has one session).
    if (!current || current.seen || !(model instanceof Uint8Array)) return create(model, options);
    current.seen = true;
    markStage('bytes-fetched');
    // A streamed file's graph names its weights' mount; any other file's weights stay in the bytes
    // transformers.js read. Every rewrite below works on the small graph.
    const streamed = streamedMount(model);
    if (streamed) {
      options = withMount(options, streamed.location, streamed.mount);
      current.mount = streamed.mount;
      current.mountLocation = streamed.location;
      current.weights = { kind: 'streamed', moved: streamed.mount.moved, movedBytes: streamed.mount.movedBytes, given: 0 };
    } else {
      const external = current.request.externalWeights === false ? null : externalizeFor(model, options);
      current.weights = external ? { kind: 'external', moved: external.moved, movedBytes: external.movedBytes, ms: external.ms } : { kind: 'inline' };
      if (external) {
        model = external.graph;
        options = external.options;
      }
    }
    const keep = keepRewrite(model as Uint8Array, current.request);
    markStage('graph-rewritten');
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
        // The lens's heads as the main head is computed (head-blocks.ts), unless the load asked for the head as it came.
        result = rewriteForLens(withStatistics ?? keep.bytes, { ...current.request.lens, tiedHead: current.request.headBlocks !== false });
      } catch (error) {
        result = { kind: 'unrecognised', refusal: lensRefusalOf({ kind: 'rewrite-threw', message: error instanceof Error ? error.message : String(error) }) };
      }
      if (result.kind === 'rewritten') {
        current.lens = { kind: 'added', ms: performance.now() - started, layers: result.layers, addedBytes: result.addedBytes };
        try {
          const lensSession = await createBlocked(result.bytes, options, current);
          // Every pass of this session feeds the lens gate; only a lens pass feeds it true (lens-gate.ts).
          installLensGate(lensSession as Parameters<typeof installLensGate>[0]);
          return lensSession;
        } catch (error) {
          current.lens = { kind: 'session-refused', detail: error instanceof Error ? error.message : String(error) };
        }
      } else current.lens = { kind: 'unrecognised', refusal: result.refusal };
    }
    if (withStatistics) {
      try {
        return await createBlocked(withStatistics, options, current);
      } catch (error) {
        current.statistics = { kind: 'session-refused', detail: error instanceof Error ? error.message : String(error) };
      }
    }
    if (!keep.rewritten) return createOrInline(model, options, original, originalOptions, current);
    try {
      return await createBlocked(keep.bytes, options, current);
    } catch (error) {
      // The original is still held by transformers.js for this call, so falling back costs nothing more.
      current.outcome = { kind: 'session-refused', detail: error instanceof Error ? error.message : String(error) };
      return createOrInline(model, options, original, originalOptions, current);
    }
  };
}

/**
 * Runs `load` (one from_pretrained) with the rewrites it asks for, and says what became of each.
 * The request's faults go to the rewrites as they are (tests only: LoadParams.logitsRewriteFault,
 * LoadParams.statisticsFault).
 */
export async function withLogitsRewrite<T>(
  load: () => Promise<T>,
  request: RewriteRequest = { keep: {}, statistics: null },
): Promise<{ value: T; outcome: RewriteOutcome; statistics: StatisticsOutcome | null; lens: LensOutcome | null; attention: AttentionOutcome | null; weights: WeightsOutcome; headBlocks: number }> {
  const current: Active = {
    request,
    outcome: { kind: 'not-seen' },
    statistics: request.statistics ? { kind: 'not-seen' } : null,
    lens: request.lens ? { kind: 'not-seen' } : null,
    attention: request.attention ? { kind: 'not-seen' } : null,
    weights: { kind: 'not-seen' },
    headBlocks: 0,
    mount: null,
    seen: false,
  };
  active = current;
  try {
    const value = await load();
    return { value, outcome: current.outcome, statistics: current.statistics, lens: current.lens, attention: current.attention, weights: current.weights, headBlocks: current.headBlocks };
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
