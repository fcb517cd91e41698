// A run's pace in words. Below one item a second, "0.0 items/s" said nothing (a slow backend
// showed "0.0 items/s · 21 min left", issue 23): the pace is then given as seconds per item.

/** "2.5 items/s", or "82 s per item" when slower than one item a second; "…" before any item. */
export function paceText(itemsPerSecond: number, zh: boolean, unit: { en: [string, string]; zh: string } = { en: ['item', 'items'], zh: '题' }): string {
  if (!Number.isFinite(itemsPerSecond) || itemsPerSecond <= 0) return '…';
  const tag = zh ? 'zh-CN' : 'en-US';
  if (itemsPerSecond >= 1) {
    const n = itemsPerSecond.toLocaleString(tag, { minimumFractionDigits: 1, maximumFractionDigits: 1 });
    return zh ? `每秒 ${n} ${unit.zh}` : `${n} ${unit.en[1]}/s`;
  }
  const seconds = 1 / itemsPerSecond;
  const s = seconds.toLocaleString(tag, { maximumFractionDigits: seconds < 10 ? 1 : 0 });
  return zh ? `每${unit.zh} ${s} 秒` : `${s} s per ${unit.en[0]}`;
}

/**
 * A time to wait, as a person says it before starting: "about 40 s" under a minute and a half,
 * "about 12 min" under an hour, then "about 3 h 20 min" (rounded to 10 minutes from ten hours up,
 * where minutes say nothing). An estimate is never "0": at least 1 s.
 */
export function durationText(seconds: number, zh: boolean): string {
  const tag = zh ? 'zh-CN' : 'en-US';
  const n = (x: number) => x.toLocaleString(tag, { maximumFractionDigits: 0 });
  if (!Number.isFinite(seconds)) return '…';
  if (seconds < 90) return zh ? `约 ${n(Math.max(1, Math.round(seconds)))} 秒` : `about ${n(Math.max(1, Math.round(seconds)))} s`;
  if (seconds < 59.5 * 60) return zh ? `约 ${n(Math.round(seconds / 60))} 分钟` : `about ${n(Math.round(seconds / 60))} min`;
  const step = seconds >= 10 * 3600 ? 10 : 1;
  const minutes = Math.round(seconds / 60 / step) * step;
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  if (m === 0) return zh ? `约 ${n(h)} 小时` : `about ${n(h)} h`;
  return zh ? `约 ${n(h)} 小时 ${n(m)} 分钟` : `about ${n(h)} h ${n(m)} min`;
}
