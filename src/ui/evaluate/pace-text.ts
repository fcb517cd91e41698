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
