// Model loads in a page, for the suite's profile: every `load` request a page posts to a model worker
// (src/lib/engine/messages.ts: { id, kind: 'load', params }) is timed from the post to the worker's
// answer (result or error) and recorded as a `model-load` event with its model, dtype and backend.
// Installed only when the suite is profiled (events.ts); the page's own code is not touched.
import type { BrowserContext } from 'playwright-core';
import { profileDir, recordProfileEvent } from './events.ts';

const BINDING = '__jianguProfileLoad';

export async function profileModelLoads(context: BrowserContext): Promise<void> {
  if (!profileDir()) return;
  await context.exposeBinding(BINDING, (_source, ms: number, detail: string) => recordProfileEvent('model-load', ms, detail));
  await context.addInitScript((binding) => {
    // The clock of this moment: a test may later run the page on a clock of its own (constant-cost).
    const now = performance.now.bind(performance);
    const post = Worker.prototype.postMessage;
    const watched = new WeakSet<Worker>();
    const pending = new Map<string, { start: number; detail: string }>();
    let workers = 0;
    const ids = new WeakMap<Worker, number>();
    Worker.prototype.postMessage = function (this: Worker, message: unknown, ...rest: unknown[]) {
      const m = message as { id?: number; kind?: string; params?: { source?: { name?: string; id?: string }; dtype?: string; backend?: string; lens?: boolean; statistics?: boolean } } | null;
      if (m?.kind === 'load' && typeof m.id === 'number') {
        if (!ids.has(this)) ids.set(this, ++workers);
        const p = m.params ?? {};
        const extras = [p.lens ? 'lens' : '', p.statistics ? 'statistics' : ''].filter(Boolean).join(' ');
        const detail = `${p.source?.name ?? p.source?.id ?? '?'} ${p.dtype ?? '?'} ${p.backend ?? '?'}${extras ? ` ${extras}` : ''}`;
        pending.set(`${ids.get(this)}:${m.id}`, { start: now(), detail });
        if (!watched.has(this)) {
          watched.add(this);
          this.addEventListener('message', (e: MessageEvent) => {
            const reply = e.data as { id?: number; kind?: string } | null;
            if (reply?.kind !== 'result' && reply?.kind !== 'error') return;
            const key = `${ids.get(this)}:${reply.id}`;
            const load = pending.get(key);
            if (!load) return;
            pending.delete(key);
            const report = (window as unknown as Record<string, (ms: number, detail: string) => Promise<void>>)[binding];
            void report?.(now() - load.start, reply.kind === 'error' ? `${load.detail} (failed)` : load.detail).catch(() => {});
          });
        }
      }
      return (post as (...args: unknown[]) => void).call(this, message, ...rest);
    } as typeof Worker.prototype.postMessage;
  }, BINDING);
}
