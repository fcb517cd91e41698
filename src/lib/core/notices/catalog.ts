// Every message a user can see, by code, in English and Chinese. Each area keeps its own file
// (catalog-<area>.ts) so the texts sit near nothing but each other; this file only joins them and
// types the codes, so `new JianguError(code, params)` is checked against its message's parameters.
import { generalNotices } from './catalog-general.ts';
import { modelNotices } from './catalog-model.ts';
import { runNotices } from './catalog-run.ts';
import { linkNotices } from './catalog-link.ts';
import { dataNotices } from './catalog-data.ts';
import { uxNotices } from './catalog-ux.ts';
import { importNotices } from './catalog-import.ts';
import { checkNotices } from './catalog-check.ts';
import { exportNotices } from './catalog-export.ts';
import { siteNotices } from './catalog-site.ts';
import { probeNotices } from './catalog-probe.ts';
import { attentionNotices } from './catalog-attention.ts';
import type { Notice, NoticeText, NoticeTexts } from './notice.ts';
import { escapeInvisible } from '../text-safety.ts';

export const catalog = {
  ...generalNotices,
  ...modelNotices,
  ...runNotices,
  ...linkNotices,
  ...dataNotices,
  ...uxNotices,
  ...importNotices,
  ...checkNotices,
  ...exportNotices,
  ...siteNotices,
  ...probeNotices,
  ...attentionNotices,
} satisfies NoticeTexts;

export type NoticeCode = keyof typeof catalog;
type Entry<C extends NoticeCode> = (typeof catalog)[C];
/** `[]` for a message without parameters, `[params]` otherwise. */
export type ParamArgs<C extends NoticeCode> = Parameters<Entry<C>['en']>;
/** The parameters of code C's message. */
export type ParamsOf<C extends NoticeCode> = ParamArgs<C>[0];

/** Builds a notice, its parameters checked against the message. */
export function notice<C extends NoticeCode>(code: C, ...params: ParamArgs<C>): Notice {
  return { code, params: (params[0] ?? {}) as Notice['params'] };
}

export type Language = 'en' | 'zh';

const LINES = { keepLineBreaks: true };

/**
 * The sentence for a notice in `language`. A code this build does not know (a record written by a
 * newer version) is shown as its code and parameters rather than dropped.
 *
 * Parameters quote ids, file names, task names and cells from files and links: an invisible or
 * direction character among them (`部首\u200b`, `sample\u202egnp.exe`) is shown as its escape. It is
 * done here, on the sentence, rather than on each parameter: the catalog's own text holds no such
 * character, a parameter that is itself a rendered sentence is not escaped twice (the escapes are
 * plain ASCII), and a message that JSON-quotes its parameter does not double the backslash. Line
 * breaks stay: a multi-line engine error reads as it was written.
 */
export function renderNotice(n: Notice, language: Language): string {
  const entry = (catalog as Record<string, NoticeText<never> | undefined>)[n.code];
  if (!entry) return escapeInvisible(`${n.code} ${JSON.stringify(n.params)}`, LINES);
  try {
    return escapeInvisible(entry[language](n.params as never), LINES);
  } catch {
    return escapeInvisible(`${n.code} ${JSON.stringify(n.params)}`, LINES);
  }
}
