// What one decode step of a generation runs, in the real worker (WASM, q4): every step after the
// prompt feeds one token on a KV cache holding everything before it, and returns one logits row, on
// each logits path (the graph's own num_logits_to_keep, the worker's one-row rewrite on a
// GroupQueryAttention graph, and the chunked prefill of a graph left without it). Each token is
// computed exactly once, so a step's work is one position, never the whole sequence again.
// Structure only: what a step costs is measured by the real-shapes bench, never asserted here.
import { describe, expect, it } from 'vitest';
import type { GenerateResult, LoadResult, WorkerStats } from '../../src/lib/engine/messages.ts';
import { harnessReady, useBrowserSession } from './session.ts';

const PROMPT = `${'子曰：学而时习之，不亦说乎？有朋自远方来，不亦乐乎？'.repeat(2)}\n答案是：`;
const NEW_TOKENS = 6;

interface Generated {
  info: LoadResult;
  generation: GenerateResult;
  stats: WorkerStats;
}

/** The three logits paths: [model, load with the one-row rewrite, the path the load must report]. */
const CASES = [
  ['jiangu-tiny', true, 'native'],
  ['jiangu-tiny-gqa', true, 'rewritten'],
  ['jiangu-tiny-nokeep', false, 'chunked'],
] as const;

describe('decode steps on wasm', () => {
  const session = useBrowserSession({ webgpu: false, path: '/harness.html', ready: harnessReady });

  for (const [model, logitsRewrite, path] of CASES) {
    it(`on ${model} (${path}) run one token per step on a cache of everything before it`, async () => {
      const { opened } = session;
      const run = (await opened.page
        .evaluate(
          async ({ model, logitsRewrite, prompt, tokens }) => {
            const client = new window.jiangu.ModelClient();
            try {
              const info = await client.load({ source: { kind: 'site', name: model }, dtype: 'q4', backend: 'wasm', logitsRewrite });
              const generation = await client.generate({ prompt, maxNewTokens: tokens });
              return { info, generation, stats: await client.stats() };
            } finally {
              client.terminate();
            }
          },
          { model, logitsRewrite, prompt: PROMPT, tokens: NEW_TOKENS },
        )
        .catch((e: unknown) => {
          throw new Error(`${String(e)}\nconsole:\n${opened.console.join('\n')}`);
        })) as Generated;
      expect(run.info.logitsPath?.kind).toBe(path);
      const promptTokens = run.generation.inputIds.length;
      const generated = run.generation.tokenIds.length;
      expect(generated).toBeGreaterThan(1);
      const forwards = run.stats.generateForwards ?? [];
      // The last generated token is never fed back, so the passes compute prompt + generated − 1 positions.
      expect(forwards.reduce((sum, f) => sum + f.tokens, 0)).toBe(promptTokens + generated - 1);
      let done = 0;
      for (const f of forwards) {
        // Each pass starts where the last one ended: the cache it is given holds every earlier token.
        expect(f.past).toBe(done);
        expect(f.tokens).toBeGreaterThan(0);
        if (done >= promptTokens) expect(f).toEqual({ tokens: 1, past: done, logitsRows: 1 });
        done += f.tokens;
      }
      const steps = forwards.filter((f) => f.past >= promptTokens);
      expect(steps).toHaveLength(generated - 1);
      // The pass that gives the first token needs one row, whatever the path.
      expect(forwards.find((f) => f.past + f.tokens === promptTokens)?.logitsRows).toBe(1);
    });
  }
});
