// One session per model across the page's views (issue 43): which loads one session answers
// (shared-session.ts), the client answering them without a message to its worker, and the pool
// handing views a worker that holds their model. Fake workers (unit test only); the real sharing
// between the Playground, Evaluate and the Reading page is tested in Chromium
// (test/browser/shared-model.test.ts).
import { describe, expect, it } from 'vitest';
import { ModelClient, ModelError } from '../../../src/lib/engine/model-client.ts';
import { ModelPool } from '../../../src/lib/engine/model-pool.ts';
import { modelError } from '../../../src/lib/engine/model-errors.ts';
import { hasFeatures, resultFor, sameSession, sessionKey, withFeaturesOf } from '../../../src/lib/engine/shared-session.ts';
import type { LoadParams, LoadResult } from '../../../src/lib/engine/messages.ts';
import { FakeWorker, loadResult } from './fake-worker.ts';

const tiny: LoadParams = { source: { kind: 'site', name: 'jiangu-tiny' }, dtype: 'q8', backend: 'wasm', wasmThreads: 1 };
const other: LoadParams = { ...tiny, source: { kind: 'site', name: 'jiangu-tiny-gqa' } };

function fakes() {
  const workers: FakeWorker[] = [];
  const factory = () => {
    const w = new FakeWorker();
    workers.push(w);
    return w as unknown as Worker;
  };
  return { workers, factory };
}

/** `user` takes a client for `params` from the pool and loads them there, answered by its fake worker. */
async function loadIn(pool: ModelPool, workers: FakeWorker[], user: object, params: LoadParams) {
  const choice = pool.clientFor(user, params);
  choice.settle(true);
  const loading = choice.client.load(params);
  const sent = workers.find((w) => w.sent.at(-1)?.kind === 'load' && !w.answered.has(w.sent.at(-1)!.id));
  if (sent) {
    sent.answered.add(sent.sent.at(-1)!.id);
    sent.answerLoad();
  }
  await loading;
  return choice.client;
}

describe('which loads one session answers', () => {
  it('names a session by everything that shapes it, the source in any field order and defaults written out', () => {
    const hub = (source: LoadParams['source']): LoadParams => ({ ...tiny, source });
    expect(sessionKey(hub({ kind: 'hub', id: 'a/b', revision: 'main' }))).toBe(sessionKey(hub({ id: 'a/b', kind: 'hub' })));
    expect(sessionKey(hub({ kind: 'hub', id: 'a/b', revision: 'abc' }))).not.toBe(sessionKey(hub({ kind: 'hub', id: 'a/b' })));
    expect(sessionKey({ ...tiny, logitsRewrite: true, externalWeights: true, headBlocks: true })).toBe(sessionKey(tiny));
    for (const change of [{ dtype: 'q4' }, { wasmThreads: 2 }, { headBlocks: false }, { externalWeights: false }, { maxLogitsBytes: 1024 }, { ortMemoryOptions: { prepacking: false } }] as Partial<LoadParams>[]) {
      expect(sessionKey({ ...tiny, ...change }), JSON.stringify(change)).not.toBe(sessionKey(tiny));
    }
    // The outputs a load adds are not part of it.
    expect(sessionKey({ ...tiny, statistics: true, lens: true })).toBe(sessionKey(tiny));
  });

  it('shares nothing with a load that carries a test fault: it must fail in a worker of its own', () => {
    for (const fault of [{ memoryFault: { stage: 'load' } }, { logitsRewriteFault: 'previous-row' }, { statisticsFault: 'wrong-row' }, { lensFault: 'skip-norm' }] as Partial<LoadParams>[]) {
      expect(sessionKey({ ...tiny, ...fault })).toBeNull();
      expect(sameSession({ ...tiny, ...fault }, null, { ...tiny, ...fault })).toBe(false);
    }
  });

  it('takes a named backend as the one an `auto` load resolved to, and nothing else', () => {
    const auto = { ...tiny, backend: 'auto' } as LoadParams;
    expect(sameSession(auto, loadResult(auto, 'wasm'), tiny)).toBe(true);
    expect(sameSession(auto, loadResult(auto, 'webgpu'), tiny)).toBe(false);
    expect(sameSession(auto, null, tiny)).toBe(false);
    expect(sameSession(tiny, loadResult(tiny, 'wasm'), auto)).toBe(false);
  });

  it('joins outputs and hides from a view the paths of outputs it did not ask for', () => {
    expect(hasFeatures({ ...tiny, statistics: true }, tiny)).toBe(true);
    expect(hasFeatures(tiny, { ...tiny, lens: true })).toBe(false);
    expect(withFeaturesOf({ ...tiny, lens: true }, { ...tiny, statistics: true })).toMatchObject({ statistics: true, lens: true });
    const both = loadResult({ ...tiny, statistics: true, lens: true }, 'wasm');
    expect(resultFor(both, tiny)).not.toHaveProperty('statisticsPath');
    expect(resultFor(both, tiny)).not.toHaveProperty('lensPath');
    expect(resultFor(both, { ...tiny, lens: true })).toHaveProperty('lensPath');
    expect(resultFor(both, { ...tiny, lens: true })).not.toHaveProperty('statisticsPath');
  });
});

describe('a client answering a load from the session it holds', () => {
  it('sends no second load for the same model, loads again with both outputs when a view wants more, and joins a load under way', async () => {
    const fake = new FakeWorker();
    const client = new ModelClient(() => fake as unknown as Worker, { shared: true });
    const first = client.load(tiny);
    const joined = client.load(tiny);
    expect(fake.loads()).toHaveLength(1);
    fake.answerLoad();
    expect((await first).loadMs).toBe(5);
    expect(await joined).toEqual(await first);
    await client.load(tiny);
    expect(fake.loads()).toHaveLength(1);

    const cloze = client.load({ ...tiny, statistics: true });
    expect(fake.loads()).toHaveLength(2);
    expect(fake.loads()[1]).toMatchObject({ statistics: true });
    fake.answerLoad();
    expect(await cloze).toHaveProperty('statisticsPath');
    const lens = client.load({ ...tiny, lens: true });
    expect(fake.loads()[2]).toMatchObject({ statistics: true, lens: true });
    fake.answerLoad();
    expect(await lens).not.toHaveProperty('statisticsPath');
    // Everything is loaded now: neither asks the worker again.
    await client.load({ ...tiny, statistics: true });
    expect(await client.load(tiny)).not.toHaveProperty('lensPath');
    expect(fake.loads()).toHaveLength(3);
    expect(client.holds({ ...tiny, lens: true })).toBe(true);
    expect(client.holds(other)).toBe(false);

    // Another model replaces the session: the first is no longer held.
    const next = client.load(other);
    expect(client.holds(tiny)).toBe(false);
    fake.answerLoad();
    await next;
    void client.load(tiny);
    expect(fake.loads()).toHaveLength(5);
  });

  it('loads afresh every time when it is a client of its own (the harness’s, the bench’s)', async () => {
    const fake = new FakeWorker();
    const client = new ModelClient(() => fake as unknown as Worker);
    const first = client.load(tiny);
    fake.answerLoad();
    await first;
    const again = client.load(tiny);
    fake.answerLoad();
    expect(await again).not.toHaveProperty('statisticsPath');
    expect(fake.loads()).toHaveLength(2);
    expect(client.holds(tiny)).toBe(true);
  });

  it('holds nothing after a failed load, nor once the worker is gone', async () => {
    const fake = new FakeWorker();
    const client = new ModelClient(() => fake as unknown as Worker, { shared: true });
    const failed = client.load(tiny);
    const last = fake.sent.at(-1)!;
    fake.reply({ id: last.id, kind: 'error', error: modelError('model-not-found', 'model.not-found', [{ source: 'site', name: 'jiangu-tiny' }]) });
    await expect(failed).rejects.toMatchObject({ code: 'model-not-found' });
    expect(client.holds(tiny)).toBe(false);
    const again = client.load(tiny);
    fake.answerLoad();
    await again;
    expect(client.holds(tiny)).toBe(true);
    client.terminate();
    expect(client.holds(tiny)).toBe(false);
    expect(client.alive).toBe(false);
  });
});

describe('the page’s model pool', () => {
  it('gives a view the worker that holds its model, and another model a worker of its own', async () => {
    const { workers, factory } = fakes();
    const pool = new ModelPool(factory);
    const playground = {};
    const run = {};
    const first = await loadIn(pool, workers, playground, tiny);
    const shared = await loadIn(pool, workers, run, { ...tiny, statistics: true });
    expect(shared).toBe(first);
    // The run's statistics were loaded in the same worker, the Playground's model with them.
    expect(workers).toHaveLength(1);
    expect(workers[0].loads().at(-1)).toMatchObject({ statistics: true });
    expect(pool.holds(tiny)).toBe(true);

    // The Playground moves on to another model while the run still uses the first: a new worker, the run's untouched.
    const moved = await loadIn(pool, workers, playground, other);
    expect(moved).not.toBe(first);
    expect(workers).toHaveLength(2);
    expect(workers[0].terminated).toBe(false);
    expect(pool.clientOf(run)).toBe(first);

    // The run ends: its worker stays, loaded, and the next run of that model finds it, with no load sent.
    pool.release(run);
    expect(workers[0].terminated).toBe(false);
    const loadsBefore = workers[0].loads().length;
    expect(await loadIn(pool, workers, run, tiny)).toBe(first);
    expect(workers[0].loads()).toHaveLength(loadsBefore);
    pool.release(run);
    // Until a choice of another worker is settled.
    pool.clientFor(playground, other).settle(true);
    expect(workers[0].terminated).toBe(true);
    expect(pool.size).toBe(1);
  });

  it('loads a view’s new model in its own worker when no one shares it, and reuses an idle one before starting another', async () => {
    const { workers, factory } = fakes();
    const pool = new ModelPool(factory);
    const slot = {};
    const first = await loadIn(pool, workers, slot, tiny);
    expect(await loadIn(pool, workers, slot, other)).toBe(first);
    expect(workers[0].loads()).toHaveLength(2);
    const run = {};
    expect(await loadIn(pool, workers, run, tiny)).not.toBe(first);
    pool.release(run);
    const probe = {};
    expect(pool.clientFor(probe, { ...other, dtype: 'q4' }).client).toBe(pool.clientOf(probe));
    expect(pool.clientOf(probe)).not.toBe(first);
    expect(workers).toHaveLength(2);
  });

  it('puts a view back where it was when its load is declined, ending a worker started for it', async () => {
    const { workers, factory } = fakes();
    const pool = new ModelPool(factory);
    const playground = {};
    const run = {};
    await loadIn(pool, workers, playground, tiny);
    await loadIn(pool, workers, run, tiny);
    const declined = pool.clientFor(playground, other);
    expect(declined.client).not.toBe(pool.clientOf(run));
    declined.settle(false);
    expect(pool.clientOf(playground)).toBe(pool.clientOf(run));
    expect(workers[1].terminated).toBe(true);
    expect(pool.size).toBe(1);
  });

  it('ends a broken worker for every view that shared it, and a stopped view’s worker only when it was alone there', async () => {
    const { workers, factory } = fakes();
    const pool = new ModelPool(factory);
    const [a, b, c, d] = [{}, {}, {}, {}];
    await loadIn(pool, workers, a, tiny);
    const shared = await loadIn(pool, workers, b, tiny);
    // A failure that leaves the worker sound (a refused item, a failed download) keeps it for both.
    expect(pool.failed(b, new Error('x'))).toBe(false);
    expect(pool.failed(b, new ModelError(modelError('cancelled', 'model.cancelled', [])))).toBe(false);
    expect(workers[0].terminated).toBe(false);
    pool.abandon(b);
    expect(workers[0].terminated).toBe(false);
    pool.clientFor(c, other).settle(true);
    pool.abandon(c);
    expect(workers[1].terminated).toBe(true);
    // Out of memory: ended for every view that shared it; they find their client dead.
    await loadIn(pool, workers, d, tiny);
    expect(pool.clientOf(d)).toBe(shared);
    expect(pool.failed(d, new ModelError(modelError('out-of-memory', 'model.out-of-memory', [{ on: 'tab', name: 'jiangu-tiny', dtype: 'q8' }])))).toBe(true);
    expect(workers[0].terminated).toBe(true);
    expect(shared.alive).toBe(false);
    expect(pool.clientOf(a)).toBeNull();
    expect(pool.size).toBe(0);
    // A dead worker is ended whatever the failure says.
    const next = await loadIn(pool, workers, a, tiny);
    next.terminate();
    expect(pool.failed(a, new Error('x'))).toBe(true);
    pool.clientFor(b, tiny).settle(true);
    expect(pool.clientOf(b)).not.toBe(next);
  });

  it('discard ends a view’s worker for every view that shared it', async () => {
    const { workers, factory } = fakes();
    const pool = new ModelPool(factory);
    const [a, b] = [{}, {}];
    await loadIn(pool, workers, a, tiny);
    await loadIn(pool, workers, b, tiny);
    pool.discard(a);
    expect(workers[0].terminated).toBe(true);
    expect(pool.clientOf(b)).toBeNull();
    expect(pool.size).toBe(0);
  });
});
