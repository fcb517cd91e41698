// "5-shot", or "5-shot; 8 items with 4 exemplars: context limit" when the context limit cut
// exemplars from some prompts (metrics/shots-used.ts): wherever a run's shots are named beside its
// numbers (run page, shared link, Compare's labels), so a number is never called 5-shot silently.
import type { ShotShortfall } from '../../lib/core/metrics/shots-used.ts';

type Short = Pick<ShotShortfall, 'fewer' | 'fewest'> | null;

const items = (n: number, zh: boolean) => (zh ? `${n.toLocaleString('zh-CN')} 题` : `${n.toLocaleString('en-US')} ${n === 1 ? 'item' : 'items'}`);

/** The shots and, when some items had fewer, how many and how few. `limit`: the context limit in tokens, when known. */
export function shotsText(shots: number, short: Short, zh: boolean, limit?: number | null): string {
  const base = zh ? `${shots} 个示例` : `${shots}-shot`;
  if (!short || short.fewer <= 0) return base;
  const cause = limit ? (zh ? `上下文上限 ${limit.toLocaleString('zh-CN')} 个词元` : `context limit ${limit.toLocaleString('en-US')} tokens`) : zh ? '上下文上限' : 'context limit';
  // All short items have the same count exactly when the fewest is one below the shots asked.
  const how =
    short.fewest === shots - 1
      ? zh ? `${items(short.fewer, zh)}只有 ${short.fewest} 个示例` : `${items(short.fewer, zh)} with ${short.fewest} ${short.fewest === 1 ? 'exemplar' : 'exemplars'}`
      : zh ? `${items(short.fewer, zh)}示例较少（最少 ${short.fewest} 个）` : `${items(short.fewer, zh)} with fewer exemplars (as few as ${short.fewest})`;
  return zh ? `${base}；${how}：${cause}` : `${base}; ${how}: ${cause}`;
}
