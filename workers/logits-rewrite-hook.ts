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

/** What the wrapped create did with the model file of one load. */
export type RewriteOutcome =
  | { kind: 'not-needed' }
  | { kind: 'rewritten'; head: { ops: string[]; sliceAt: string }; graphBytes: number; ms: number }
  | { kind: 'unrecognised'; refusal: LogitsRewriteRefusal }
  /** ORT would not create a session from the rewritten bytes; the original graph was used. */
  | { kind: 'session-refused'; detail: string }
  /** The bytes never came through create as a buffer (a path), so nothing was rewritten. */
  | { kind: 'not-seen' };

type Create = (model: unknown, options?: unknown) => Promise<unknown>;

let installed = false;
/** The outcome of the load in progress, or null when no load asks for a rewrite. */
let active: { outcome: RewriteOutcome; options: RewriteOptions } | null = null;

/** Wraps InferenceSession.create once. Install before guardSessionCreation, so the guard wraps this. */
export function installLogitsRewrite(): void {
  if (installed) return;
  installed = true;
  const session = InferenceSession as unknown as { create: Create };
  const create: Create = session.create.bind(InferenceSession);
  session.create = async (model: unknown, options?: unknown) => {
    const current = active;
    // Only the first buffer of a load is the causal LM's graph (a causal LM has one session).
    if (!current || current.outcome.kind !== 'not-seen' || !(model instanceof Uint8Array)) return create(model, options);
    const started = performance.now();
    let result: ReturnType<typeof rewriteForLastLogits>;
    try {
      result = rewriteForLastLogits(model, current.options);
    } catch (error) {
      // The rewrite returns its refusals as values; a throw is a graph it could not even read.
      result = { kind: 'unrecognised', refusal: refusalOf({ kind: 'rewrite-threw', message: error instanceof Error ? error.message : String(error) }) };
    }
    if (result.kind === 'not-needed') {
      current.outcome = { kind: 'not-needed' };
      return create(model, options);
    }
    if (result.kind === 'unrecognised') {
      current.outcome = { kind: 'unrecognised', refusal: result.refusal };
      return create(model, options);
    }
    const ms = performance.now() - started;
    try {
      const created = await create(result.bytes, options);
      current.outcome = { kind: 'rewritten', head: result.head, graphBytes: result.graphBytes, ms };
      return created;
    } catch (error) {
      // The original is still held by transformers.js for this call, so falling back costs nothing more.
      current.outcome = { kind: 'session-refused', detail: error instanceof Error ? error.message : String(error) };
      return create(model, options);
    }
  };
}

/**
 * Runs `load` (one from_pretrained) with the rewrite on, and says what it did with the graph.
 * `options` go to rewriteForLastLogits as they are (a test's deliberate fault, LoadParams.logitsRewriteFault).
 */
export async function withLogitsRewrite<T>(load: () => Promise<T>, options: RewriteOptions = {}): Promise<{ value: T; outcome: RewriteOutcome }> {
  const current: { outcome: RewriteOutcome; options: RewriteOptions } = { outcome: { kind: 'not-seen' }, options };
  active = current;
  try {
    return { value: await load(), outcome: current.outcome };
  } finally {
    active = null;
  }
}
