// What every bench script does around a page call: stop a step that runs past its time, and turn a
// page's reply ({ wallMs, result } or { wallMs, error }) into its result or a thrown error naming the step.

/** `promise`, or an error naming `what` once `ms` have passed (the step is abandoned, not cancelled). */
export function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} took longer than ${Math.round(ms / 1000)} s (stopped)`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** A page reply's result with its page time, or an error naming `what` and the page's message. */
export function unwrap<T>(reply: { wallMs: number; result?: T; error?: string }, what: string): { wallMs: number; result: T } {
  if (reply.error !== undefined || reply.result === undefined) throw new Error(`${what}: ${reply.error ?? 'no result'}`);
  return { wallMs: reply.wallMs, result: reply.result };
}
