// The lens gate of a session whose graph carries the logit lens (src/lib/core/models/lens-rewrite.ts):
// the graph has one more input, LENS_GATE, a bool scalar that runs the lens branch when true. One
// session then serves every view: scoring, generation, statistics and reading feed it false and pay
// nothing for the lens; a lens pass feeds it true and fetches only the lens outputs and the cache.
//
// transformers.js feeds every name in session.inputNames and refuses a call that lacks one, so the
// gate is taken out of the session's inputNames (an own property over onnxruntime-common's getter;
// the handler underneath keeps its own list) and added to every run's feeds here.
import { LENS_GATE } from '../src/lib/core/models/lens-rewrite.ts';

interface GatedSession {
  run: (feeds: Record<string, unknown>, ...rest: unknown[]) => Promise<unknown>;
  readonly inputNames: readonly string[];
}

type TensorConstructor = new (type: 'bool', data: Uint8Array, dims: number[]) => unknown;

/** Outputs the lens pass in progress fetches; null: no lens pass is running (the gate is fed false). */
let lensPass: string[] | null = null;
const gated = new WeakSet<object>();

/**
 * Takes the gate out of the session's inputNames and feeds it on every run: true (with the lens
 * pass's fetches) inside withLensPass, false otherwise. Does nothing to a session without the gate,
 * or twice. Composes with statistics.ts' installFetchControl in either order: outside a lens pass the
 * call goes through with the caller's own arguments.
 */
export function installLensGate(session: GatedSession): void {
  if (gated.has(session) || !session.inputNames.includes(LENS_GATE)) return;
  gated.add(session);
  Object.defineProperty(session, 'inputNames', { value: session.inputNames.filter((n) => n !== LENS_GATE), configurable: true });
  const run = session.run.bind(session);
  session.run = (feeds: Record<string, unknown>, ...rest: unknown[]) => {
    // The gate is made of the runtime's own Tensor class (each runtime checks its feeds with instanceof).
    const any = Object.values(feeds)[0] as { constructor: TensorConstructor } | undefined;
    if (!any) return run(feeds, ...rest);
    const gate = new any.constructor('bool', Uint8Array.of(lensPass ? 1 : 0), []);
    const withGate = { ...feeds, [LENS_GATE]: gate };
    return lensPass && lensPass.length > 0 ? run(withGate, lensPass) : run(withGate, ...rest);
  };
}

/**
 * Runs `pass` with the gate on. `fetches`: the outputs its runs fetch (the lens outputs and the
 * cache), or an empty list for every output (the load check compares the lens with the logits).
 */
export async function withLensPass<T>(fetches: string[], pass: () => Promise<T>): Promise<T> {
  lensPass = fetches;
  try {
    return await pass();
  } finally {
    lensPass = null;
  }
}
