// Which interface language a visitor gets, from the browser's language list (pure, for tests).

export type Locale = 'zh' | 'en';
export const LOCALES: readonly Locale[] = ['zh', 'en'];

/** The first of the browser's languages that is Chinese or English; English when neither is listed. */
export function localeFromLanguages(languages: readonly string[]): Locale {
  for (const tag of languages) {
    const base = tag.toLowerCase().split('-')[0];
    if (base === 'zh') return 'zh';
    if (base === 'en') return 'en';
  }
  return 'en';
}

/** The BCP 47 tag numbers and dates are formatted with: the browser's own tag when it is of the chosen language. */
export function formattingTag(locale: Locale, languages: readonly string[]): string {
  const own = languages.find((tag) => tag.toLowerCase().split('-')[0] === locale);
  return own ?? (locale === 'zh' ? 'zh-CN' : 'en-US');
}
