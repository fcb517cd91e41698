// The worker's read-ahead in the real worker (WASM, jiangu-tiny, 5-shot with prefix reuse): a request
// that names the next one has it scored while its answer travels; asked next, that item's answer is
// bit for bit what asking afresh gives (the prefix cache sees the same calls in the same order), and a
// wrong guess is dropped without changing the answer to what was really asked.
import { describe, expect, it } from 'vitest';
import type { MultipleChoiceItem } from '../../src/lib/core/benchmarks/types.ts';
import type { ScoreItemParams, ScoreItemResult, WorkerStats } from '../../src/lib/engine/messages.ts';
import { loadSampleItems } from '../../scripts/bench/mc-items.ts';
import { harnessReady, useBrowserSession } from './session.ts';

const data = loadSampleItems();
// Two tasks: the prefix changes between the third and the fourth item.
const items = data.items.slice(0, 5);
const ask = (item: MultipleChoiceItem): ScoreItemParams => ({ protocolId: 'ancientbench', item, exemplars: data.exemplars[item.task] ?? [], shots: 5, contextLimit: 2048, chatTemplate: false, reusePrefix: true });

interface Asked {
  results: ScoreItemResult[];
  stats: WorkerStats;
}

describe('read-ahead in the model worker (WASM)', () => {
  const session = useBrowserSession({ webgpu: false, path: '/harness.html', ready: harnessReady });

  /** Scores `requests` in order on a fresh worker; `nextOf[k]` is the guess sent with request k (or none). */
  const score = (requests: ScoreItemParams[], nextOf: (ScoreItemParams | null)[]) =>
    session.opened.page.evaluate(
      async ({ requests, nextOf }) => {
        const client = new window.jiangu.ModelClient();
        try {
          await client.load({ source: { kind: 'site', name: 'jiangu-tiny' }, dtype: 'fp32', backend: 'wasm' });
          const results = [];
          for (let k = 0; k < requests.length; k++) results.push(await client.scoreItem(nextOf[k] ? { ...requests[k], next: nextOf[k]! } : requests[k]));
          return { results, stats: await client.stats() };
        } finally {
          client.terminate();
        }
      },
      { requests, nextOf },
    ) as Promise<Asked>;

  const comparable = (r: ScoreItemResult) => ({ prompt: r.prompt, inputIds: r.score.inputIds, candidates: r.score.candidates, reused: r.score.reusedPrefixTokens, passes: r.score.forwardPasses, copied: r.score.logitsCopied });

  it('answers a guessed request with what asking afresh gives, and drops a wrong guess', async () => {
    const requests = items.map(ask);
    const plain = await score(requests, requests.map(() => null));
    expect(plain.stats.readAhead).toEqual({ started: 0, used: 0 });

    // Each request names the one that follows, as a run does.
    const ahead = await score(requests, requests.map((_, k) => requests[k + 1] ?? null));
    expect(ahead.stats.readAhead).toEqual({ started: 4, used: 4 });
    expect(ahead.results.map(comparable)).toEqual(plain.results.map(comparable));

    // Wrong guesses: item 0 guesses item 2, then item 1 is asked (dropped); item 1 guesses item 3 of the
    // other task, then item 2 is asked (dropped; the current prefix is now the other task's).
    const wrong = await score(requests.slice(0, 3), [requests[2], requests[3], null]);
    expect(wrong.stats.readAhead).toEqual({ started: 2, used: 0 });
    expect(wrong.results.map((r) => r.score.candidates)).toEqual(plain.results.slice(0, 3).map((r) => r.score.candidates));
    // Item 2's prefix was kept among the earlier prefixes (workers/scoring.ts keepPrefix, for runs
    // that move between tasks): found again, not computed again, after the other task's guess.
    expect(wrong.results[2].score.forwardPasses).toBe(1);
    expect(wrong.results[2].score.reusedPrefixTokens).toBe(plain.results[2].score.reusedPrefixTokens);
    expect(plain.results[2].score.forwardPasses).toBe(1);
  });
});
