// The resident memory of a page's renderer process, read from Linux's /proc while the page works:
// Chromium runs a page and its dedicated workers (the model worker, ORT's wasm threads) in one
// renderer process, so its RSS is what the tab costs the machine. The renderer's pid comes from
// the DevTools protocol (SystemInfo.getProcessInfo); the kernel's own high-water mark (VmHWM,
// reset through clear_refs) catches a peak the 50 ms samples miss.
import { readFileSync, writeFileSync } from 'node:fs';
import type { Browser } from 'playwright-core';

export interface RssSample {
  at: number;
  bytes: number;
}

/** The renderer processes Chromium has now (pids). */
export async function rendererPids(browser: Browser): Promise<number[]> {
  const cdp = await browser.newBrowserCDPSession();
  try {
    const info = (await cdp.send('SystemInfo.getProcessInfo')) as { processInfo: { type: string; id: number }[] };
    return info.processInfo.filter((p) => p.type === 'renderer').map((p) => p.id);
  } finally {
    await cdp.detach().catch(() => {});
  }
}

function statusKb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  try {
    const m = readFileSync(`/proc/${pid}/status`, 'utf8').match(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm'));
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0; // the process has ended
  }
}

/** Samples the summed RSS of `pids` every `intervalMs` until stopped. */
export class RssSampler {
  readonly samples: RssSample[] = [];
  private timer: ReturnType<typeof setInterval> | null = null;

  constructor(private readonly pids: readonly number[]) {}

  now(): number {
    return this.pids.reduce((sum, pid) => sum + statusKb(pid, 'VmRSS'), 0);
  }

  /** The kernel's peak RSS of each process since the last reset, summed (an upper bound of the sum's peak). */
  highWater(): number {
    return this.pids.reduce((sum, pid) => sum + statusKb(pid, 'VmHWM'), 0);
  }

  /** Resets the kernel's peak to the current RSS (root, or the processes' owner). */
  resetHighWater(): void {
    for (const pid of this.pids) {
      try {
        writeFileSync(`/proc/${pid}/clear_refs`, '5');
      } catch {
        // Not allowed here: the samples still bound the peak from below.
      }
    }
  }

  start(intervalMs = 50): void {
    this.samples.push({ at: Date.now(), bytes: this.now() });
    this.timer = setInterval(() => this.samples.push({ at: Date.now(), bytes: this.now() }), intervalMs);
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.samples.push({ at: Date.now(), bytes: this.now() });
  }

  /** The largest sample in [from, to). */
  peakBetween(from: number, to: number): number {
    let peak = 0;
    for (const s of this.samples) if (s.at >= from && s.at < to && s.bytes > peak) peak = s.bytes;
    return peak;
  }
}
