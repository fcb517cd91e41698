// The worker's read-ahead (workers/read-ahead.ts) and the guesses the scheduler gives it: a guess
// answers only the request it was made for, exactly; anything else drops it; a guessed error is the
// request's error. A run's guesses name the request it really asks next (plain, circular, PriDe),
// so on the real worker no forward pass is spent on a guess a plain run never asks.
import { describe, expect, it } from 'vitest';
import type { MultipleChoiceItem } from '../../../src/lib/core/benchmarks/types.ts';
import type { ModelClient } from '../../../src/lib/engine/model-client.ts';
import type { LoadResult, ScoreItemOnTheWire, ScoreItemParams } from '../../../src/lib/engine/messages.ts';
import { createMcRun } from '../../../src/lib/engine/run-setup.ts';
import { executeRun } from '../../../src/lib/engine/run-scheduler.ts';
import { saveDataset } from '../../../src/lib/store/datasets.ts';
import { ReadAhead, readAheadKey } from '../../../workers/read-ahead.ts';
import { freshDb, makeRecord } from '../store/helpers.ts';

const LETTERS = ['A', 'B', 'C', 'D'];

function item(id: string, task = 'Radical', split: 'dev' | 'test' = 'test', order = 0): MultipleChoiceItem {
  return { kind: 'multiple-choice', id, datasetId: 'ancientbench', task, split, order, source: { file: 's.csv', line: order + 2 }, question: `问 ${id}`, options: ['甲', '乙', '丙', '丁'], answer: LETTERS[order % 4] as 'A' };
}

function request(it: MultipleChoiceItem, extra: Partial<ScoreItemParams> = {}): ScoreItemParams {
  return { protocolId: 'ancientbench', item: it, exemplars: [], shots: 0, contextLimit: 2048, chatTemplate: false, reusePrefix: true, ...extra };
}

function result(it: MultipleChoiceItem): ScoreItemOnTheWire {
  return { prompt: it.id, prefix: '', shotsUsed: 0, exemplarIds: [], droppedExemplarIds: [], overLimit: false, score: { inputIds: [1], candidates: [], reusedPrefixTokens: 0, logitsCopied: 1, forwardPasses: 1, text: it.id, forwardMs: 1, lastRow: new Float32Array([0, 1, 2, 3]) } };
}

describe('ReadAhead', () => {
  it('answers the request it guessed, exactly, once', async () => {
    const ahead = new ReadAhead();
    const b = item('b');
    const scored: string[] = [];
    await ahead.start(request(b), async (p) => (scored.push(p.item.id), result(p.item)));
    expect(scored).toEqual(['b']);
    // The asked request names its own next guess: that is not part of the match.
    const answer = ahead.take(request(b, { next: request(item('c')) }));
    expect(answer).not.toBeNull();
    expect(await answer).toEqual({ ok: true, result: result(b) });
    expect(ahead.take(request(b))).toBeNull();
  });

  it('drops the guess for anything else: another item, other settings, another kind of request', async () => {
    const ahead = new ReadAhead();
    const b = item('b');
    for (const other of [request(item('c')), request(b, { shots: 5 }), request(b, { contextLimit: 1024 }), null]) {
      await ahead.start(request(b), async (p) => result(p.item));
      expect(ahead.take(other)).toBeNull();
      expect(ahead.take(request(b))).toBeNull();
    }
    await ahead.start(request(b), async (p) => result(p.item));
    ahead.clear();
    expect(ahead.take(request(b))).toBeNull();
  });

  it('keeps a guessed failure as the answer, not a throw', async () => {
    const ahead = new ReadAhead();
    const failure = new Error('too long');
    await ahead.start(request(item('b')), async () => {
      throw failure;
    });
    expect(await ahead.take(request(item('b')))).toEqual({ ok: false, error: failure });
  });

  it('keys by every field but next', () => {
    const b = request(item('b'));
    expect(readAheadKey({ ...b, next: request(item('z')) })).toBe(readAheadKey(b));
    expect(readAheadKey({ ...b, reusePrefix: false })).not.toBe(readAheadKey(b));
  });
});

describe('the scheduler’s guesses', () => {
  async function runAsked(extra: { circular?: boolean; resumeAfter?: number } = {}) {
    const db = await freshDb();
    const all = [...[0, 1, 2, 3].map((k) => item(`R/dev/${k}`, 'Radical', 'dev', k)), ...[0, 1, 2].map((k) => item(`R/test/${k}`, 'Radical', 'test', k)), ...[0, 1].map((k) => item(`C/test/${k}`, 'Cloze', 'test', k))];
    await saveDataset(db, makeRecord('ancientbench', all), all);
    const run = await createMcRun(db, { model: { source: { kind: 'site', name: 'jiangu-tiny' }, dtype: 'fp32', backend: 'auto' }, datasetId: 'ancientbench', tasks: ['Radical', 'Cloze'], shots: 2, limitPerTask: 3, chatTemplate: false, ...(extra.circular ? { circular: true } : {}) });
    const asked: ScoreItemParams[] = [];
    const abort = new AbortController();
    const client = {
      async load(): Promise<LoadResult> {
        return { backendInfo: { backend: 'wasm', wasmThreads: 1, crossOriginIsolated: true }, modelType: 'llama', vocabSize: 10, inputNames: ['input_ids'], loadMs: 1, transformersVersion: 't', ortVersion: 'o', context: { tokens: 2048, key: 'max_position_embeddings' } };
      },
      async scoreItem(params: ScoreItemParams) {
        asked.push(params);
        if (extra.resumeAfter !== undefined && asked.length === extra.resumeAfter) abort.abort();
        const r = result(params.item);
        return { ...r, score: { ...r.score, candidates: params.item.options.map((_, k) => ({ text: LETTERS[k], tokenId: 4 + k, tokenCount: 1, logProb: -1 - k, mergesWithPrompt: false })) } };
      },
      terminate() {},
    } as unknown as ModelClient;
    await executeRun(db, run.id, client, { signal: abort.signal });
    if (extra.resumeAfter !== undefined) {
      const before = asked.length;
      await executeRun(db, run.id, client);
      return { asked, resumedAt: before, itemIds: run.config.itemIds };
    }
    return { asked, resumedAt: 0, itemIds: run.config.itemIds };
  }

  const strip = (p: ScoreItemParams | undefined) => (p ? readAheadKey(p) : undefined);

  it('a plain run: every request guesses the one that follows, the last guesses nothing', async () => {
    const { asked, itemIds } = await runAsked();
    // In the run's (seeded, shuffled) order: the 3 Radical and 2 Cloze test items.
    expect([...itemIds].sort()).toEqual(['C/test/0', 'C/test/1', 'R/test/0', 'R/test/1', 'R/test/2']);
    expect(asked.map((p) => p.item.id)).toEqual(itemIds);
    for (let k = 0; k < asked.length - 1; k++) expect(asked[k].next && readAheadKey(asked[k].next!)).toBe(strip(asked[k + 1]));
    expect(asked.at(-1)!.next).toBeUndefined();
  });

  it('a circular run: each rotation guesses the next rotation, the last rotation the next item', async () => {
    const { asked } = await runAsked({ circular: true });
    expect(asked).toHaveLength(5 * 4);
    for (let k = 0; k < asked.length - 1; k++) expect(asked[k].next && readAheadKey(asked[k].next!)).toBe(strip(asked[k + 1]));
    expect(asked.at(-1)!.next).toBeUndefined();
  });

  it('a resumed run (cancelled while its second item was in flight, so that item runs again) guesses the same way', async () => {
    const { asked, resumedAt, itemIds } = await runAsked({ resumeAfter: 2 });
    const resumed = asked.slice(resumedAt);
    expect(resumed.map((p) => p.item.id)).toEqual(itemIds.slice(1));
    for (let k = 0; k < resumed.length - 1; k++) expect(resumed[k].next && readAheadKey(resumed[k].next!)).toBe(strip(resumed[k + 1]));
  });
});
