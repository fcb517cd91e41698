// The model file streamed into the worker: as its bytes arrive (from the network or from Cache
// Storage) they are split into the graph and one buffer per large initializer
// (src/lib/core/models/weights-stream.ts), and transformers.js is handed the graph alone. When the
// session is created (logits-rewrite-hook.ts), the buffers are mounted as the graph's external data
// (MountedWeights), and each is released the moment ORT has copied it: the file's bytes move from
// the JS heap into ORT's one tensor at a time, instead of the whole file waiting in JS beside ORT's
// copy of it. Measured in scripts/bench/memory-stages.ts (the README's memory table).
//
// Where the bytes are met: transformers.js fetches through env.fetch (a miss, and the site's own
// folders) and looks in its cache through env.customCache (a hub model loaded before). A hub file
// fetched here is stored in Cache Storage whole, as transformers.js would have stored it, so a
// later visit, offline, finds it; transformers.js's own put of the small graph is skipped.
import { splitOnnxStream, type WeightBlock } from '../src/lib/core/models/weights-stream.ts';

/**
 * A file of `size` bytes that holds only the moved initializers, each at its offset, handed to ORT
 * as an external data file. onnxruntime-web's loader asks for each tensor's bytes with
 * `subarray(offset, offset + length)` and copies them into the tensor before it asks for the next
 * (ort-wasm's external data callback, synchronous); so each call releases the block the previous
 * one returned, and releaseAll the last. A block is released by transferring its buffer to length
 * 0, which frees it at once rather than at the next garbage collection.
 */
export class MountedWeights extends Uint8Array {
  private readonly blocks = new Map<number, Uint8Array>();
  private readonly size: number;
  private given: Uint8Array | null = null;
  /** Blocks and bytes mounted. */
  readonly moved: number;
  readonly movedBytes: number;
  /** Blocks handed to ORT so far, and blocks it never asked for (released unread). */
  readonly counts = { given: 0, unread: 0 };

  constructor(blocks: readonly WeightBlock[], size: number) {
    super(0);
    for (const b of blocks) this.blocks.set(b.offset, b.data);
    this.size = size;
    this.moved = blocks.length;
    this.movedBytes = blocks.reduce((n, b) => n + b.data.length, 0);
  }

  override get byteLength(): number {
    return this.size;
  }

  override subarray(begin?: number, end?: number): Uint8Array<ArrayBuffer> {
    this.releaseGiven();
    const start = begin ?? 0;
    const data = this.blocks.get(start);
    if (!data || end === undefined || data.length !== end - start) throw new Error(`no weights at bytes ${start}–${end} of the mounted file (already read, or not a tensor)`);
    this.counts.given++;
    // A tensor ORT may read twice stays until the session exists (see keepUntilCreated).
    if (this.kept.has(start)) return data as Uint8Array<ArrayBuffer>;
    this.blocks.delete(start);
    this.given = data;
    return data as Uint8Array<ArrayBuffer>;
  }

  private readonly kept = new Set<number>();

  /**
   * Keeps the tensors at these offsets until releaseAll. ORT reads a tensor twice when its graph
   * optimizer folds a node of constants that reads it (a tied head's Transpose of the embedding):
   * once to fold, once for the session's own copy. Measured: Qwen2.5's q4 failed to load when its
   * embedding was released after the first read.
   */
  keepUntilCreated(offsets: Iterable<number>): void {
    for (const o of offsets) if (this.blocks.has(o)) this.kept.add(o);
  }

  /** Whether ORT has taken any block (after which the file cannot be mounted again). */
  get started(): boolean {
    return this.counts.given > 0;
  }

  private releaseGiven(): void {
    if (this.given) release(this.given);
    this.given = null;
  }

  /** Releases every block: the last one ORT read, and any it never asked for. */
  releaseAll(): void {
    this.releaseGiven();
    for (const data of this.blocks.values()) {
      release(data);
      this.counts.unread++;
    }
    this.blocks.clear();
  }
}

function release(data: Uint8Array): void {
  const buffer = data.buffer as ArrayBuffer & { transfer?: (length: number) => ArrayBuffer; detached?: boolean };
  if (buffer.detached) return;
  // Detaching frees the bytes now; without transfer (older engines) they go at the next collection.
  buffer.transfer?.(0);
}

/** Streamed files whose sessions are not created yet, by the location their graph names. */
const pending = new Map<string, { mount: MountedWeights; key: string }>();
let counter = 0;

/** The mount for a graph naming `location`, taken out of the pending ones (null: not a streamed graph). */
export function takeMount(locations: Iterable<string>): { location: string; mount: MountedWeights } | null {
  for (const location of locations) {
    const found = pending.get(location);
    if (found) {
      pending.delete(location);
      return { location, mount: found.mount };
    }
  }
  return null;
}

/** Drops every pending file (a new load, or a load that failed before its session). */
export function dropPending(): void {
  for (const { mount } of pending.values()) mount.releaseAll();
  pending.clear();
}

export type StreamProgress = (loaded: number, total: number) => void;

/**
 * The body split (splitOnnxStream): the graph alone, the weights pending for the session. A body
 * with nothing to move gives the whole file back as its graph.
 */
async function splitBody(body: ReadableStream<Uint8Array>, total: number, key: string, onProgress: StreamProgress | undefined, ownChunks: boolean): Promise<Uint8Array> {
  const reader = body.getReader();
  let loaded = 0;
  const chunks = {
    async *[Symbol.asyncIterator]() {
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) return;
          loaded += value.length;
          onProgress?.(loaded, total);
          yield value;
        }
      } finally {
        reader.releaseLock();
      }
    },
  };
  const location = `jiangu-stream-${++counter}.bin`;
  const split = await splitOnnxStream(chunks, location, undefined, ownChunks);
  if (split.blocks.length > 0) pending.set(location, { mount: new MountedWeights(split.blocks, split.fileBytes), key });
  return split.graph;
}

/**
 * The response as one whose body, when read, is the graph alone (the split happens on that first
 * read, not before: transformers.js also GETs a site file only to read its headers, and never reads
 * that body). Its length is unknown until then, so it carries no Content-Length; transformers.js
 * then grows its buffer to what arrives. `store`, when given, keeps the whole file (a hub file, in
 * Cache Storage) as it is read.
 */
export function splitResponse(response: Response, key: string, onProgress?: StreamProgress, store?: (whole: Response) => Promise<void>): Response {
  const source = response.body;
  if (!source) return response;
  const total = Number(response.headers.get('content-length')) || 0;
  let started = false;
  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (started) return;
        started = true;
        try {
          let graph: Uint8Array;
          if (store) {
            const [forStore, forSplit] = source.tee();
            // A tee may hand both branches the same chunk objects: this branch's are not freed early.
            [graph] = await Promise.all([splitBody(forSplit, total, key, onProgress, false), store(new Response(forStore, { status: response.status, statusText: response.statusText, headers: response.headers }))]);
          } else graph = await splitBody(source, total, key, onProgress, true);
          controller.enqueue(graph);
          controller.close();
        } catch (error) {
          controller.error(error);
        }
      },
      cancel(reason) {
        return source.cancel(reason);
      },
    },
    // Nothing is pulled before a reader asks.
    { highWaterMark: 0 },
  );
  const headers = new Headers(response.headers);
  headers.delete('content-length');
  return new Response(body, { status: response.status, statusText: response.statusText, headers });
}

/** What the worker streams: the load's model file URL, and where its progress goes. */
export interface StreamTarget {
  url: string;
  onProgress?: StreamProgress;
  /** The Cache Storage to keep a hub file in (absent: the site's own folders, never cached). */
  cache?: () => Promise<Cache>;
}

let target: StreamTarget | null = null;

/** Sets (or clears) the file the next fetch or cache lookup streams; drops what an earlier load left. */
export function streamNext(next: StreamTarget | null): void {
  dropPending();
  target = next;
}

const sameUrl = (a: string, b: string) => {
  try {
    return new URL(a, self.location.href).href === new URL(b, self.location.href).href;
  } catch {
    return false;
  }
};

function isPlainGet(init?: RequestInit): boolean {
  if ((init?.method ?? 'GET').toUpperCase() !== 'GET') return false;
  const headers = new Headers(init?.headers);
  return !headers.has('range');
}

/** env.fetch: the target file split as it is read (kept whole in Cache Storage as it is, for a hub file). */
export function streamingFetch(inner: typeof fetch): typeof fetch {
  return async (input: RequestInfo | URL, init?: RequestInit) => {
    const response = await inner(input, init);
    const t = target;
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    if (!t || !response.ok || !response.body || !sameUrl(url, t.url)) return response;
    // transformers.js reads a hub file's size from a one-byte Range GET and sizes its buffer by it
    // when the response itself says no length: the target's size is the graph's, known only once read.
    if (!isPlainGet(init)) return withoutLength(response);
    const cache = t.cache;
    return splitResponse(response, t.url, t.onProgress, cache ? async (whole) => (await cache()).put(t.url, whole) : undefined);
  };
}

function withoutLength(response: Response): Response {
  const headers = new Headers(response.headers);
  headers.delete('content-range');
  headers.delete('content-length');
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

/**
 * env.customCache over the real Cache Storage: the target file found there is split as it is read;
 * transformers.js's put of the graph it got is skipped (the cache keeps the whole file, stored as the
 * download was read).
 */
export function streamingCache(open: () => Promise<Cache>): { match(key: string): Promise<Response | undefined>; put(key: string, response: Response): Promise<void> } {
  return {
    async match(key: string) {
      const t = target;
      const found = await (await open()).match(key);
      if (!found || !t || !sameUrl(key, t.url)) return found;
      return splitResponse(found, t.url, t.onProgress);
    },
    async put(key: string, response: Response) {
      const t = target;
      if (t && sameUrl(key, t.url)) return;
      await (await open()).put(key, response);
    },
  };
}
