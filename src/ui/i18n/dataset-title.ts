// A catalog title in one interface language. Titles are mostly names (ACLUE, C³Bench); one carries a
// Chinese name and an English key, "CMMLU 古汉语 (ancient_chinese)": each language gets its half.
import type { Locale } from './choose.ts';

const BOTH = /^(.*?)\s*(\p{Script=Han}[\p{Script=Han}\s]*?)\s*\(([^()]+)\)$/u;

export function titleIn(title: string, lang: Locale): string {
  const match = BOTH.exec(title);
  if (!match) return title;
  const [, name, zh, en] = match;
  return lang === 'zh' ? `${name} ${zh}`.trim() : `${name} (${en})`.trim();
}
