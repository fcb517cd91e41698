// The client's bookkeeping against a fake worker (unit test only; the real worker is tested in
// Chromium): replies reach the right promise, callbacks stream, aborts send a cancel, a crash fails
// everything pending.
import { describe, expect, it } from 'vitest';
import { ModelClient, ModelError } from '../../../src/lib/engine/model-client.ts';
import { modelError } from '../../../src/lib/engine/model-errors.ts';
import type { WorkerRequest } from '../../../src/lib/engine/messages.ts';
import { FakeWorker } from './fake-worker.ts';

function setup() {
  const fake = new FakeWorker();
  const client = new ModelClient(() => fake as unknown as Worker);
  return { fake, client };
}

describe('ModelClient', () => {
  it('matches replies to requests by id, in any order', async () => {
    const { fake, client } = setup();
    const a = client.score({ prompt: 'a', candidates: ['A'] });
    const b = client.score({ prompt: 'b', candidates: ['A'] });
    const [ra, rb] = fake.sent as WorkerRequest[];
    expect(ra.kind).toBe('score');
    expect(ra.id).not.toBe(rb.id);
    const result = (n: number) => ({ inputIds: [n], candidates: [], reusedPrefixTokens: 0, logitsCopied: 0, forwardPasses: 1, text: '', forwardMs: 0, lastRow: new Float32Array([0]) });
    fake.reply({ id: rb.id, kind: 'result', result: result(2) });
    fake.reply({ id: ra.id, kind: 'result', result: result(1) });
    expect((await a).inputIds).toEqual([1]);
    expect((await b).inputIds).toEqual([2]);
  });

  it('normalises a score over the vocabulary from the row the worker sent (log-softmax in float64)', async () => {
    const { fake, client } = setup();
    const pending = client.score({ prompt: 'p', candidates: ['A', 'B'] });
    const row = new Float32Array([2, -1, 0.5, 3]);
    const candidate = (text: string, tokenId: number) => ({ text, tokenId, tokenCount: 1, mergesWithPrompt: false });
    fake.reply({ id: fake.sent[0].id, kind: 'result', result: { inputIds: [1], candidates: [candidate('A', 0), candidate('B', 3)], reusedPrefixTokens: 0, logitsCopied: 4, forwardPasses: 1, text: 'p', forwardMs: 1, lastRow: row } });
    const scored = await pending;
    const logZ = Math.log(Math.exp(2) + Math.exp(-1) + Math.exp(0.5) + Math.exp(3));
    expect(scored.candidates.map((c) => c.logProb)).toEqual([2 - logZ, 3 - logZ].map((v) => expect.closeTo(v, 14)));
    expect(scored.candidates[1]).toMatchObject({ text: 'B', tokenId: 3 });
    expect('lastRow' in scored).toBe(false);
  });

  it('streams tokens and progress to the callbacks of their request', async () => {
    const { fake, client } = setup();
    const texts: string[] = [];
    const gen = client.generate({ prompt: 'p', maxNewTokens: 3 }, { onToken: (_id, t) => texts.push(t) });
    const { id } = fake.sent[0];
    fake.reply({ id, kind: 'token', tokenId: 5, text: '子' });
    fake.reply({ id, kind: 'token', tokenId: 6, text: '曰' });
    fake.reply({ id, kind: 'result', result: { inputIds: [], promptText: 'p', tokenIds: [5, 6], text: '子曰', stoppedBy: 'eos', ms: 1 } });
    expect((await gen).text).toBe('子曰');
    expect(texts).toEqual(['子', '曰']);
  });

  it('sends a cancel when the signal aborts, and rejects with the worker error', async () => {
    const { fake, client } = setup();
    const abort = new AbortController();
    const gen = client.score({ prompt: 'p', candidates: ['A'] }, { signal: abort.signal });
    abort.abort();
    const { id } = fake.sent[0];
    expect(fake.sent[1]).toEqual({ id, kind: 'cancel' });
    fake.reply({ id, kind: 'error', error: modelError('cancelled', 'model.cancelled', []) });
    await expect(gen).rejects.toMatchObject({ name: 'ModelError', code: 'cancelled' });
  });

  it('fails every pending request when the worker crashes, and refuses new ones', async () => {
    const { fake, client } = setup();
    const pending = client.load({ source: { kind: 'site', name: 'x' }, dtype: 'fp32', backend: 'wasm' });
    fake.crash('RuntimeError: unreachable');
    await expect(pending).rejects.toBeInstanceOf(ModelError);
    await expect(pending).rejects.toMatchObject({ code: 'internal', detail: 'RuntimeError: unreachable' });
    await expect(client.unload()).rejects.toMatchObject({ code: 'internal' });
  });
});
