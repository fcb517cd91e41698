// The lens gate of a session whose graph carries the logit lens (src/lib/core/models/lens-rewrite.ts):
// the graph has one more input, LENS_GATE, a bool scalar that runs the lens branch when true. One
// session then serves every view: scoring, generation, statistics and reading feed it false and pay
// nothing for the lens; a lens pass feeds it true and fetches only the lens outputs and the cache.
//
// transformers.js feeds every name in session.inputNames and refuses a call that lacks one, so the
// gate is taken out of the session's inputNames (an own property over onnxruntime-common's getter;
// the handler underneath keeps its own list) and added to every run's feeds here.
//
// The attention tap (attention-rewrite.ts) has a gate of its own, ATTENTION_GATE, fed the same way:
// every gate a session has is fed on every run, false but for the one tap the pass in progress asks
// for, so a lens pass does not run the attention branches and an attention pass not the lens's.
import { LENS_GATE } from '../src/lib/core/models/lens-rewrite.ts';
import { ATTENTION_GATE } from '../src/lib/core/models/attention-rewrite.ts';

/** Every gate a rewritten graph may have. */
const GATES: readonly string[] = [LENS_GATE, ATTENTION_GATE];

interface GatedSession {
  run: (feeds: Record<string, unknown>, ...rest: unknown[]) => Promise<unknown>;
  readonly inputNames: readonly string[];
}

type TensorConstructor = new (type: 'bool', data: Uint8Array, dims: number[]) => unknown;

/** The gated pass in progress: its gate and the outputs it fetches; null: none (every gate is fed false). */
let gatedPass: { gate: string; fetches: string[] } | null = null;
const gated = new WeakSet<object>();

/**
 * Takes the gates out of the session's inputNames and feeds them on every run: a gate true (with its
 * pass's fetches) inside withGatedPass for it (withLensPass: the lens's), false otherwise. Does
 * nothing to a session without a gate, or twice. Composes with statistics.ts' installFetchControl in
 * either order: outside a gated pass the call goes through with the caller's own arguments.
 */
export function installLensGate(session: GatedSession): void {
  const gates = GATES.filter((g) => session.inputNames.includes(g));
  if (gated.has(session) || gates.length === 0) return;
  gated.add(session);
  Object.defineProperty(session, 'inputNames', { value: session.inputNames.filter((n) => !gates.includes(n)), configurable: true });
  const run = session.run.bind(session);
  session.run = (feeds: Record<string, unknown>, ...rest: unknown[]) => {
    // The gate is made of the runtime's own Tensor class (each runtime checks its feeds with instanceof).
    const any = Object.values(feeds)[0] as { constructor: TensorConstructor } | undefined;
    if (!any) return run(feeds, ...rest);
    const withGates = { ...feeds };
    for (const g of gates) withGates[g] = new any.constructor('bool', Uint8Array.of(gatedPass?.gate === g ? 1 : 0), []);
    return gatedPass && gates.includes(gatedPass.gate) && gatedPass.fetches.length > 0 ? run(withGates, gatedPass.fetches) : run(withGates, ...rest);
  };
}

/** installLensGate under the name that says what it does: every gate of the session (lens, attention). */
export const installGates = installLensGate;

/**
 * Runs `pass` with the gate on. `fetches`: the outputs its runs fetch (the lens outputs and the
 * cache), or an empty list for every output (the load check compares the lens with the logits).
 */
export async function withLensPass<T>(fetches: string[], pass: () => Promise<T>): Promise<T> {
  return withGatedPass(LENS_GATE, fetches, pass);
}

/** Runs `pass` with `gate` on (the others off), fetching `fetches` (empty: every output). */
export async function withGatedPass<T>(gate: string, fetches: string[], pass: () => Promise<T>): Promise<T> {
  gatedPass = { gate, fetches };
  try {
    return await pass();
  } finally {
    gatedPass = null;
  }
}
