// What watching a live run costs it, measured within one run: the page alternates between the run's
// own page and another page (the Data page) in stretches of items, other-run-run-other-other-…, so a
// pace that drifts along the run (the machine's load, the run's length so far) weighs on both sides
// alike, and the items/s of each, summed over their stretches, give the ratio that says what drawing
// the run costs (issue 35, item 4). Along the way the
// run page's shown time left (its data-eta-seconds) is read at 10, 25 and 50 % of the run (a short
// look at the run page when another page is open then) and set against the true time left,
// known once the run ends from its last result's completedAt (issue 35, item 3).
//
// Items done are counted in IndexedDB (the results stored for the run), the same way on both
// pages, so the count itself costs both sides alike.
import type { Page } from 'playwright-core';

/** One look at the page: its clock (epoch ms), results stored, and the shown ETA (null: not on the run page). */
interface Probe {
  t: number;
  done: number;
  eta: number | null;
  status: string | null;
}

/** Installed in the page once; `go` is a hash to move to right after counting (null: stay). */
const PROBE = `globalThis.__benchProbe = async (runId, go, withStatus) => {
  const db = (globalThis.__benchDb ??= await new Promise((resolve, reject) => {
    const r = indexedDB.open('jiangu');
    r.onsuccess = () => resolve(r.result);
    r.onerror = () => reject(r.error);
  }));
  const ask = (request) => new Promise((resolve, reject) => { request.onsuccess = () => resolve(request.result); request.onerror = () => reject(request.error); });
  const tx = db.transaction(['results', 'runs']);
  const done = await ask(tx.objectStore('results').count(IDBKeyRange.bound([runId], [runId, []])));
  // The run record holds every item id: read only now and then.
  const status = withStatus ? ((await ask(tx.objectStore('runs').get(runId)))?.status ?? null) : null;
  const text = document.querySelector('[data-testid=run-progress-text]');
  const shown = text?.getAttribute('data-eta-seconds');
  const eta = shown === null || shown === undefined || shown === '' ? null : Number(shown);
  const t = Date.now();
  if (go) location.hash = go;
  return { t, done, eta, status };
};`;

export interface WatchCostOptions {
  runId: string;
  /** Items the run will have stored when it ends. */
  total: number;
  /** Items per stretch: the first on the other page is one, then each page's are two in a row. */
  stretch: number;
  /** Items at the start left out of the comparison (loading, first forwards), on the run page. */
  warmup: number;
  /** The other page's hash. */
  otherHash?: string;
  timeoutMs?: number;
}

interface Stretch {
  page: 'run' | 'other';
  t0: number;
  done0: number;
  t1: number;
  done1: number;
}

export interface WatchCost {
  /** Items/s summed over every stretch of each page, and run ÷ other. */
  runPageItemsPerSecond: number;
  otherPageItemsPerSecond: number;
  ratio: number;
  stretches: { page: 'run' | 'other'; items: number; seconds: number; itemsPerSecond: number }[];
  /** Shown ETA against the true time left, at about 10, 25 and 50 % (where read). */
  eta: { atFraction: number; shownS: number; trueS: number; error: number }[];
  /** Every run-page reading of the ETA: done, shown s, true s (for the curve). */
  etaCurve: [number, number, number][];
  /** Page clock (epoch ms) of the last result. */
  endedAt: number;
  /** Items/s between items done `from` and `to`, whatever page was open. */
  paceBetween: (from: number, to: number) => number | null;
}

const rate = (items: number, ms: number) => (ms > 0 ? +((items * 1000) / ms).toFixed(1) : 0);

/**
 * Watches the run from its page (the page must be on it) until it ends, switching pages as set
 * out above. `lastResultAt` reads the epoch ms of the run's last result once it ended.
 */
export async function measureWatchCost(page: Page, options: WatchCostOptions, lastResultAt: () => Promise<number>): Promise<WatchCost> {
  await page.evaluate(PROBE);
  const runHash = `#/run/${encodeURIComponent(options.runId)}`;
  const otherHash = options.otherHash ?? '#/data';
  const probe = (go: string | null, withStatus = false) => page.evaluate(`globalThis.__benchProbe(${JSON.stringify(options.runId)}, ${JSON.stringify(go)}, ${withStatus})`) as Promise<Probe>;
  const checkpoints = [0.1, 0.25, 0.5].map((f) => ({ f, at: Math.round(f * options.total), read: null as Probe | null }));
  const samples: Probe[] = [];
  const stretches: Stretch[] = [];
  let current: Stretch | null = null;
  let onRun = true;
  let nextSwitch = options.warmup;
  let peekFor: (typeof checkpoints)[number] | null = null;
  const deadline = Date.now() + (options.timeoutMs ?? 4 * 3600_000);
  const move = (to: 'run' | 'other', s: Probe) => {
    if (current) stretches.push({ ...current, t1: s.t, done1: s.done });
    current = { page: to, t0: s.t, done0: s.done, t1: s.t, done1: s.done };
    onRun = to === 'run';
  };
  for (let i = 0; ; i++) {
    if (Date.now() > deadline) throw new Error('the run did not end in time');
    let s = await probe(null, i % 25 === 0);
    samples.push(s);
    // A line now and then on stderr: a bench of hours shows where it is (and where it stopped, should it stop).
    if (i % 100 === 0) process.stderr.write(`watch: ${s.done}/${options.total} items, on the ${onRun ? 'run' : 'other'} page, eta ${s.eta ?? '–'} s\n`);
    if (s.done >= options.total || (s.status !== null && s.status !== 'running' && s.status !== 'created')) {
      if (current) stretches.push({ ...(current as Stretch), t1: s.t, done1: s.done });
      break;
    }
    // A look at the run page for a checkpoint passed on the other page: read, then back.
    if (peekFor && onRun && s.eta !== null) {
      peekFor.read = s;
      peekFor = null;
      s = await probe(otherHash);
      move('other', s);
    } else if (!peekFor) {
      const due = checkpoints.find((c) => c.read === null && s.done >= c.at);
      if (due && onRun && s.eta !== null) due.read = s;
      else if (due && !onRun) {
        peekFor = due;
        s = await probe(runHash);
        move('run', s);
      } else if (s.done >= nextSwitch) {
        // After the first single stretch, two in a row on each page: a linear drift cancels out.
        nextSwitch = s.done + (current === null ? 1 : 2) * options.stretch;
        const to = onRun ? 'other' : 'run';
        s = await probe(to === 'run' ? runHash : otherHash);
        move(to, s);
      }
    }
    await page.waitForTimeout(150);
  }
  // Back on the run page, so that the caller sees it end.
  process.stderr.write(`watch: the run ended its items (${samples.at(-1)?.done ?? 0}); back to its page\n`);
  await page.evaluate(`location.hash = ${JSON.stringify(runHash)}`);
  const endedAt = await lastResultAt();
  process.stderr.write('watch: the last result read\n');
  const sum = (p: 'run' | 'other') => {
    const mine = stretches.filter((x) => x.page === p);
    return rate(
      mine.reduce((n, x) => n + x.done1 - x.done0, 0),
      mine.reduce((n, x) => n + x.t1 - x.t0, 0),
    );
  };
  const runPace = sum('run');
  const otherPace = sum('other');
  const eta = checkpoints.flatMap((c) => {
    if (!c.read || c.read.eta === null) return [];
    const trueS = (endedAt - c.read.t) / 1000;
    return [{ atFraction: +(c.read.done / options.total).toFixed(3), shownS: c.read.eta, trueS: +trueS.toFixed(1), error: +((c.read.eta - trueS) / trueS).toFixed(3) }];
  });
  return {
    runPageItemsPerSecond: runPace,
    otherPageItemsPerSecond: otherPace,
    ratio: otherPace > 0 ? +(runPace / otherPace).toFixed(2) : 0,
    // The warm-up stretch (the first, on the run page) is left out of the sums above.
    stretches: stretches.map((x) => ({ page: x.page, items: x.done1 - x.done0, seconds: +((x.t1 - x.t0) / 1000).toFixed(1), itemsPerSecond: rate(x.done1 - x.done0, x.t1 - x.t0) })),
    eta,
    etaCurve: samples.filter((s) => s.eta !== null).map((s) => [s.done, Math.round(s.eta!), Math.round((endedAt - s.t) / 1000)]),
    endedAt,
    paceBetween: (from, to) => {
      const a = samples.find((s) => s.done >= from);
      const b = samples.find((s) => s.done >= to) ?? samples.at(-1);
      return a && b && b.t > a.t ? rate(b.done - a.done, b.t - a.t) : null;
    },
  };
}
