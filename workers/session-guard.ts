// transformers.js 4.3.2 queues every web session creation on one module-level promise
// (`webInitChain = webInitChain.then(load)` in src/backends/onnx.js) and never recovers it: once one
// InferenceSession.create rejects (a damaged ONNX file, external data missing or cut short), every
// later load in this worker rejects with that same error, so a user who picked a broken model could
// not load a good one without reloading the page. Wrapped here so that queue always settles
// resolved: a failed creation resolves to a stand-in whose first use throws the real error, and
// transformers.js uses it at once (`session.config = …`), so the load still fails with that error.
import { InferenceSession } from 'onnxruntime-web/webgpu';

let guarded = false;

/** A value that is not a thenable and throws `error` on any other read or any write. */
function failedSession(error: unknown): object {
  return new Proxy(
    {},
    {
      get(_target, key) {
        // Promise resolution reads `then`: answering undefined keeps the queue resolved.
        if (key === 'then') return undefined;
        throw error;
      },
      set() {
        throw error;
      },
    },
  );
}

/** Installs the wrapper once; idempotent. */
export function guardSessionCreation(): void {
  if (guarded) return;
  guarded = true;
  const session = InferenceSession as unknown as { create: (...args: unknown[]) => Promise<unknown> };
  const create = session.create.bind(InferenceSession);
  session.create = (...args: unknown[]) => create(...args).catch((error: unknown) => failedSession(error));
}
