// A worker failure that already carries its message for the user (a code and a notice). Its own
// file, free of transformers.js, so pure worker modules (backend-choice.ts) and Node tests use it.
import type { ModelErrorInfo } from '../src/lib/engine/messages.ts';

/** A failure with a message for the user; anything else thrown is classified by the dispatcher. */
export class RequestError extends Error {
  constructor(readonly info: ModelErrorInfo) {
    super(info.message);
  }
}
