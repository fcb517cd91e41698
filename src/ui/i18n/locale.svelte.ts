// The interface language: 中文 or English, chosen from the browser's languages on a first visit,
// switchable in the header and remembered in localStorage. Every text a component shows goes through
// t(en, zh), so a string can never exist in one language only; every number and date goes through
// `fmt`, which formats for the chosen language (and the browser's region within it).
//
// Text from a dataset, a model or a link is never translated: it is shown as it is.

import { formattingTag, localeFromLanguages, type Locale } from './choose.ts';
import { intervalText } from './interval.ts';
import { numberFormats } from './number-format.ts';

export { LOCALES, type Locale } from './choose.ts';
const STORAGE_KEY = 'jiangu.locale';

function browserLanguages(): readonly string[] {
  return typeof navigator === 'undefined' ? [] : navigator.languages?.length ? navigator.languages : [navigator.language];
}

function savedLocale(): Locale | null {
  try {
    const saved = localStorage.getItem(STORAGE_KEY);
    return saved === 'zh' || saved === 'en' ? saved : null;
  } catch {
    return null;
  }
}

class LocaleState {
  current = $state<Locale>(savedLocale() ?? localeFromLanguages(browserLanguages()));
  /** The tag Intl formats with. */
  tag = $derived(formattingTag(this.current, browserLanguages()));

  constructor() {
    if (typeof document !== 'undefined') document.documentElement.lang = this.current === 'zh' ? 'zh-Hans' : 'en';
  }

  /** Switches the interface language and remembers the choice. */
  set(locale: Locale): void {
    this.current = locale;
    try {
      localStorage.setItem(STORAGE_KEY, locale);
    } catch {
      // Storage can be off (private windows); the choice then lasts for this visit.
    }
    document.documentElement.lang = locale === 'zh' ? 'zh-Hans' : 'en';
  }
}

export const locale = new LocaleState();

/** The text in the interface language. Both are required, so no string exists in one language only. */
export function t(en: string, zh: string): string {
  return locale.current === 'zh' ? zh : en;
}

const cache = new Map<string, Intl.DateTimeFormat>();
// Numbers: number-format.ts, in the chosen language's tag at each call.
const numbers = numberFormats(() => locale.tag);
function dateFormat(withTime: boolean): Intl.DateTimeFormat {
  const key = `d|${locale.tag}|${withTime}`;
  let f = cache.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat(locale.tag, withTime ? { dateStyle: 'medium', timeStyle: 'short' } : { dateStyle: 'medium' });
    cache.set(key, f);
  }
  return f;
}

/** Numbers and dates in the interface language's conventions; null and undefined show as an em dash. */
export const fmt = {
  ...numbers,
  /**
   * A count with its noun: `1 task`, `3 tasks`, `3 个任务`. `zh` is the Chinese noun with its
   * measure word (`个任务`, `题`), which has no plural.
   */
  countOf(n: number, one: string, many: string, zh: string): string {
    return locale.current === 'zh' ? `${fmt.count(n)} ${zh}` : `${fmt.count(n)} ${n === 1 ? one : many}`;
  },
  /** A 95% interval's ends, each put through `format`, joined by a word and written with minus signs (interval.ts). */
  interval(low: number, high: number, format: (x: number) => string): string {
    return intervalText(format(low), format(high), locale.current);
  },
  date(iso: string | Date): string {
    return dateFormat(false).format(typeof iso === 'string' ? new Date(iso) : iso);
  },
  dateTime(iso: string | Date): string {
    return dateFormat(true).format(typeof iso === 'string' ? new Date(iso) : iso);
  },
};
