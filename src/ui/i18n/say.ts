// Notices (errors and warnings as code + parameters) in the interface language. Components keep the
// Notice, not the sentence, so switching language rewords what is already on the page.
import { noticeOf, renderNotice, type Notice } from '../../lib/core/notices/index.ts';
import { locale } from './locale.svelte.ts';

/** The notice's sentence in the current interface language. */
export function say(n: Notice): string {
  return renderNotice(n, locale.current);
}

/** Anything caught, as a sentence in the current language (see noticeOf for what has no code). */
export function sayError(error: unknown): string {
  return say(noticeOf(error));
}

/** A stored warning or error: a Notice, or a plain English string from a record of an older version. */
export function sayStored(value: Notice | string): string {
  return typeof value === 'string' ? value : say(value);
}
