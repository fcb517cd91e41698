// The model worker's V8 heap, read from Node over the Chrome DevTools Protocol while a request
// runs. Playwright gives CDP sessions for pages only, so the page's session auto-attaches to its
// dedicated workers (non-flat mode) and talks to the worker's target through
// Target.sendMessageToTarget. DevTools messages reach a busy worker through V8 interrupts, so
// samples keep coming during a long forward pass (at interrupt points).
import type { CDPSession, Page } from 'playwright-core';
import { PeakTracker, type HeapPeaks, type HeapSample } from './memory-peaks.ts';

interface Pending {
  resolve: (value: Record<string, unknown>) => void;
  reject: (error: Error) => void;
}

export class WorkerHeap {
  private cdp!: CDPSession;
  private workerSession: string | null = null;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private sampling: { tracker: PeakTracker; done: Promise<void>; stop: boolean } | null = null;

  /** Attaches before the worker exists; it is found as soon as the page creates it. */
  static async attach(page: Page): Promise<WorkerHeap> {
    const heap = new WorkerHeap();
    heap.cdp = await page.context().newCDPSession(page);
    heap.cdp.on('Target.attachedToTarget', (event: { sessionId: string; targetInfo: { type: string } }) => {
      if (event.targetInfo.type === 'worker') heap.workerSession = event.sessionId;
    });
    heap.cdp.on('Target.receivedMessageFromTarget', (event: { sessionId: string; message: string }) => {
      const message = JSON.parse(event.message) as { id?: number; result?: Record<string, unknown>; error?: { message: string } };
      const waiting = message.id === undefined ? undefined : heap.pending.get(message.id);
      if (!waiting) return;
      heap.pending.delete(message.id!);
      if (message.error) waiting.reject(new Error(message.error.message));
      else waiting.resolve(message.result ?? {});
    });
    await heap.cdp.send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: false, flatten: false });
    return heap;
  }

  get attached(): boolean {
    return this.workerSession !== null;
  }

  private call(method: string, params: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
    const sessionId = this.workerSession;
    if (!sessionId) return Promise.reject(new Error('no model worker attached (the page has not created it yet)'));
    const id = this.nextId++;
    const answer = new Promise<Record<string, unknown>>((resolve, reject) => this.pending.set(id, { resolve, reject }));
    void this.cdp.send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id, method, params }) }).catch((e: Error) => {
      this.pending.get(id)?.reject(e);
      this.pending.delete(id);
    });
    return answer;
  }

  async sample(): Promise<HeapSample> {
    const r = (await this.call('Runtime.getHeapUsage')) as unknown as HeapSample;
    return { usedSize: r.usedSize, totalSize: r.totalSize, backingStorageSize: r.backingStorageSize };
  }

  async collectGarbage(): Promise<void> {
    await this.call('HeapProfiler.collectGarbage');
  }

  /** Forces a GC, takes the baseline sample and keeps sampling every `intervalMs` until `stop`. */
  async start(intervalMs: number): Promise<void> {
    if (this.sampling) throw new Error('already sampling');
    await this.collectGarbage();
    const tracker = new PeakTracker();
    tracker.add(await this.sample());
    const state = { tracker, stop: false, done: Promise.resolve() };
    state.done = (async () => {
      while (!state.stop) {
        await new Promise((r) => setTimeout(r, intervalMs));
        if (state.stop) break;
        try {
          tracker.add(await this.sample());
        } catch {
          break; // the worker went away (terminated or crashed): the peaks so far stand
        }
      }
    })();
    this.sampling = state;
  }

  async stop(): Promise<HeapPeaks> {
    const state = this.sampling;
    if (!state) throw new Error('not sampling');
    state.stop = true;
    await state.done;
    this.sampling = null;
    // One more after the request: what it left behind counts too.
    await this.sample().then((s) => state.tracker.add(s), () => {});
    return state.tracker.result();
  }

  async detach(): Promise<void> {
    await this.cdp.detach().catch(() => {});
  }
}
