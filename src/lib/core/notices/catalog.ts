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
import type { Notice, NoticeText, NoticeTexts } from './notice.ts';

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

/**
 * The sentence for a notice in `language`. A code this build does not know (a record written by a
 * newer version) is shown as its code and parameters rather than dropped.
 */
export function renderNotice(n: Notice, language: Language): string {
  const entry = (catalog as Record<string, NoticeText<never> | undefined>)[n.code];
  if (!entry) return `${n.code} ${JSON.stringify(n.params)}`;
  try {
    return entry[language](n.params as never);
  } catch {
    return `${n.code} ${JSON.stringify(n.params)}`;
  }
}
