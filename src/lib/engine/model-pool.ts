// The page's model workers, shared between the views that use models (issue 43: one session per
// model). A worker holds one model; a wasm Memory never shrinks, so a second worker loading the same
// model holds it twice for as long as the tab lives. The Playground, the Reading page's two slots,
// an Evaluate run, a memorization probe and the pace probe are each a user here: a user asking for
// the model another one holds joins that worker (the worker answers requests one at a time, in the
// order they came: model.worker.ts's queue), and a user asking for another model gets a worker no one
// else uses, so nobody's model is replaced under them.
import { ModelClient, ModelError, defaultWorkerFactory, type WorkerFactory } from './model-client.ts';
import type { LoadParams } from './messages.ts';

/** Whoever holds a client from the pool: any object, compared by identity (a page state, a slot). */
export type PoolUser = object;

interface Entry {
  client: ModelClient;
  users: Set<PoolUser>;
}

/** What clientFor chose, to be settled once the load is decided. */
export interface PoolChoice {
  client: ModelClient;
  /**
   * `true`: the choice stands, and every worker no one uses, but this one, is ended (the model the
   * user left goes with its worker). `false` (a load declined at the memory check): the user is put
   * back where it was, and a worker started for this choice is ended.
   */
  settle: (kept: boolean) => void;
}

export class ModelPool {
  private entries: Entry[] = [];

  constructor(private readonly factory: WorkerFactory = defaultWorkerFactory) {}

  /**
   * The client `user` is to load `params` on, in this order: a worker that holds (or is loading) that
   * model, shared; the user's own worker when no one else uses it (the load replaces its model); a
   * worker no one uses any more; a new one. A run that ended leaves its worker idle, so the next run
   * of the same model finds it loaded; it is ended when a choice of another worker is settled.
   */
  clientFor(user: PoolUser, params: LoadParams): PoolChoice {
    const before = this.entryOf(user);
    const found =
      this.entries.find((e) => e.client.holds(params)) ??
      (before && before.users.size === 1 && before.client.alive ? before : undefined) ??
      this.entries.find((e) => e.users.size === 0 && e.client.alive);
    const entry = found ?? this.add();
    if (entry !== before) {
      before?.users.delete(user);
      entry.users.add(user);
    }
    return {
      client: entry.client,
      settle: (kept) => {
        if (kept) return this.endIdle(entry);
        if (entry === before) return;
        entry.users.delete(user);
        if (before && this.entries.includes(before)) before.users.add(user);
        if (!found && entry.users.size === 0) this.end(entry);
      },
    };
  }

  /** The client `user` holds, or null. */
  clientOf(user: PoolUser): ModelClient | null {
    return this.entryOf(user)?.client ?? null;
  }

  /** Whether some worker holds (or is loading) the model `params` ask for: a load of it needs no more memory. */
  holds(params: LoadParams): boolean {
    return this.entries.some((e) => e.client.holds(params));
  }

  /** `user` no longer needs its client; a worker no one uses is kept until another model is asked for. */
  release(user: PoolUser): void {
    this.entryOf(user)?.users.delete(user);
  }

  /** `user` stops mid-way (a load or request it no longer waits for): its worker is ended when no one else uses it, else only left. */
  abandon(user: PoolUser): void {
    const entry = this.entryOf(user);
    if (!entry) return;
    entry.users.delete(user);
    if (entry.users.size === 0) this.end(entry);
  }

  /**
   * Ends `user`'s worker for every user of it: it crashed, ran out of memory (ORT's wasm heap is not to
   * be trusted after that) or failed inside. The others find it dead at their next request and load
   * again, as after any crash.
   */
  discard(user: PoolUser): void {
    const entry = this.entryOf(user);
    if (entry) this.end(entry);
  }

  /**
   * After `user`'s work failed with `error`: its worker is ended for everyone when the failure leaves
   * it unfit (endsWorker; returns true), else kept as it is for whoever shares it.
   */
  failed(user: PoolUser, error: unknown): boolean {
    const entry = this.entryOf(user);
    if (!entry || !endsWorker(error, entry.client)) return false;
    this.end(entry);
    return true;
  }

  /** Workers the pool holds now (for tests and the bench). */
  get size(): number {
    return this.entries.length;
  }

  private entryOf(user: PoolUser): Entry | undefined {
    return this.entries.find((e) => e.users.has(user));
  }

  private add(): Entry {
    const entry: Entry = { client: new ModelClient(this.factory, { shared: true }), users: new Set() };
    this.entries.push(entry);
    return entry;
  }

  /** Ends every worker no one uses (or that died), except `keep`. */
  private endIdle(keep: Entry): void {
    for (const e of [...this.entries]) if (e !== keep && (e.users.size === 0 || !e.client.alive)) this.end(e);
  }

  private end(entry: Entry): void {
    this.entries = this.entries.filter((e) => e !== entry);
    entry.client.terminate();
  }
}

/**
 * Whether a failure leaves `client`'s worker unfit for anyone: it died, or the failure was a memory
 * failure or an internal one (ORT's wasm heap is not to be trusted after either). A refused item, a
 * missing run or a failed download leaves the worker as it was, for whoever shares it.
 */
function endsWorker(error: unknown, client: ModelClient): boolean {
  return !client.alive || (error instanceof ModelError && (error.code === 'internal' || error.code === 'out-of-memory'));
}

/** The page's one pool: every view that loads a model takes its client from here. */
export const modelPool = new ModelPool();
