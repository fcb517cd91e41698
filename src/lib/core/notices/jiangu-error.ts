// The one error class for failures a user may see: it carries a notice (code and parameters) and,
// as its `message`, the English sentence, for logs, Node tests and the console.
import { notice, renderNotice, type NoticeCode, type ParamArgs } from './catalog.ts';
import { isNotice, type Notice } from './notice.ts';

export class JianguError extends Error {
  readonly notice: Notice;

  /** Build `n` with `notice(code, params)` (or use `jianguError`), so its parameters are type-checked. */
  constructor(n: Notice, options?: { cause?: unknown }) {
    super(renderNotice(n, 'en'), options);
    this.name = 'JianguError';
    this.notice = n;
  }
}

/** `throw jianguError('run.no-items', { kind })`: the parameters are checked against the message. */
export function jianguError<C extends NoticeCode>(code: C, ...params: ParamArgs<C>): JianguError {
  return new JianguError(notice(code, ...params));
}

/**
 * The notice for anything caught: a JianguError's own, a plain notice value (from a worker or a
 * stored record), or `internal` with the thrown text for everything else.
 */
export function noticeOf(error: unknown): Notice {
  if (error instanceof JianguError) return error.notice;
  if (typeof error === 'object' && error !== null && 'notice' in error && isNotice((error as { notice: unknown }).notice)) {
    return (error as { notice: Notice }).notice;
  }
  if (isNotice(error)) return error;
  const detail = error instanceof Error ? error.message : String(error);
  return { code: 'internal', params: { detail } };
}
