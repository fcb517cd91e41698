// The model worker in real Chromium, on WASM and on WebGPU (SwiftShader), for each fixture dtype:
// its letter log-probabilities equal the independent TypeScript reference, a cached prefix
// continuation equals a full recomputation, and greedy generation is the same everywhere.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OpenedPage } from '../../scripts/browser.ts';
import { fixtureCommit } from '../../scripts/site-routes.ts';
import { harnessReady, useBrowserSession } from './session.ts';
import {
  encodeFixture,
  forward,
  greedyGenerate,
  lastLogProbs,
  loadReferenceModel,
  logSoftmax,
  type ReferenceModel,
} from '../../scripts/fixtures/reference.ts';
import type { Backend, Dtype, GenerateResult, LoadResult, ScoreResult } from '../../src/lib/engine/messages.ts';

const LETTERS = ['A', 'B', 'C', 'D'];
const PROMPTS = [
  '子曰',
  'Question: 1 + 1 = ? Answer (A/B/C/D):',
  '以下是关于古汉语的单项选择题，请直接给出正确答案的选项。\n\n题目：学而时习之，不亦说乎？\nA. 说话\nB. 喜悦\nC. 解说\nD. 劝说\n答案是：',
  '子曰：温故而知新，可以为师矣。有朋自远方来，不亦乐乎？人不知而不愠，不亦君子乎？答案是：',
];
// The few-shot shape: a shared prefix (instruction and exemplars) and an item on top of it.
const PREFIX = '以下是关于古汉语的单项选择题，请直接给出正确答案的选项。\n\n题目：有朋自远方来\nA. 天\nB. 地\nC. 人\nD. 之\n答案是：C\n\n';
const SUFFIXES = ['题目：学而时习之\nA. 学\nB. 习\nC. 时\nD. 之\n答案是：', '题目：温故而知新\nA. 温\nB. 故\nC. 知\nD. 新\n答案是：'];
const GEN_PROMPT = '不需要解释，直接输出下列文言文添加标点符号后的结果：子曰学而时习之不亦说乎';
const GEN_TOKENS = 12;
const EOS = 2;

interface WorkerRun {
  info: LoadResult;
  scores: ScoreResult[];
  prefixed: ScoreResult[];
  full: ScoreResult[];
  generation: GenerateResult;
  streamed: { ids: number[]; text: string };
}

/** Loads the fixture in the page's worker and runs every request the assertions need. */
async function runInWorker(opened: OpenedPage, dtype: Dtype, backend: Backend): Promise<WorkerRun> {
  return opened.page.evaluate(
    async ({ dtype, backend, prompts, prefix, suffixes, genPrompt, genTokens, letters }) => {
      const client = window.jiangu.reader();
      const info = await client.load({ source: { kind: 'site', name: 'jiangu-tiny' }, dtype, backend });
      const scores = [];
      for (const prompt of prompts) scores.push(await client.score({ prompt, candidates: letters }));
      const prefixed = [];
      for (const s of suffixes) prefixed.push(await client.score({ prompt: prefix + s, prefix, candidates: letters }));
      const full = [];
      for (const s of suffixes) full.push(await client.score({ prompt: prefix + s, candidates: letters }));
      const streamed = { ids: [] as number[], text: '' };
      const generation = await client.generate(
        { prompt: genPrompt, maxNewTokens: genTokens },
        { onToken: (id, text) => { streamed.ids.push(id); streamed.text += text; } },
      );
      return { info, scores, prefixed, full, generation, streamed };
    },
    { dtype, backend, prompts: PROMPTS, prefix: PREFIX, suffixes: SUFFIXES, genPrompt: GEN_PROMPT, genTokens: GEN_TOKENS, letters: LETTERS },
  );
}

const letterIds = LETTERS.map((l) => encodeFixture(l)[0]);

/** The reference's letter log-probabilities when the prefix is run first and the rest on its cache. */
function referenceSplit(model: ReferenceModel, prefixIds: number[], restIds: number[]): number[] {
  const { cache } = forward(model, prefixIds);
  const { logits } = forward(model, restIds, cache);
  const row = logSoftmax(logits[logits.length - 1]);
  return letterIds.map((id) => row[id]);
}
const generations: Record<string, number[]> = {};

for (const backend of ['wasm', 'webgpu'] as const) {
  describe(`model worker on ${backend}`, () => {
    const session = useBrowserSession({ webgpu: backend === 'webgpu', path: '/harness.html', ready: harnessReady });

    for (const dtype of ['fp32', 'q8', 'q4'] as const) {
      it(`${dtype}: log-probabilities, prefix cache and greedy generation match the reference`, async () => {
        const { opened } = session;
        const run = await runInWorker(opened, dtype, backend).catch((e: unknown) => {
          throw new Error(`${String(e)}\nconsole:\n${opened.console.join('\n')}`);
        });
        const reference = loadReferenceModel('jiangu-tiny', dtype);
        expect(run.info.backendInfo.backend).toBe(backend);
        if (backend === 'webgpu') expect(run.info.backendInfo.adapter?.architecture).toBe('swiftshader');
        expect(run.info.backendInfo.crossOriginIsolated).toBe(true);

        const diffs: number[] = [];
        PROMPTS.forEach((prompt, i) => {
          const got = run.scores[i];
          // The page tokenised exactly as the fixture's own encoder does.
          expect(got.inputIds).toEqual(encodeFixture(prompt));
          expect(got.candidates.map((c) => c.tokenId)).toEqual(letterIds);
          expect(got.candidates.every((c) => c.tokenCount === 1)).toBe(true);
          const want = lastLogProbs(reference, got.inputIds, letterIds);
          got.candidates.forEach((c, k) => diffs.push(Math.abs(c.logProb - want[k])));
          expect(got.reusedPrefixTokens).toBe(0);
          // The graph declares num_logits_to_keep: one row of logits, whatever the prompt's length.
          expect(got.logitsCopied).toBe(reference.vocabSize);
          expect(got.forwardPasses).toBe(1);
        });
        console.log(`${backend} ${dtype}: max |Δ log p| vs reference = ${Math.max(...diffs).toExponential(2)}`);
        expect(Math.max(...diffs)).toBeLessThan(1e-4);

        // The cached continuation ran only the item's tokens on the prefix's KV cache: it equals the
        // reference computed the same way, and for fp32 and q4 it equals one full pass. q8 quantizes
        // each call's activations with one scale over the whole call, so splitting a prompt changes
        // the numbers by design (the reference shows the same difference).
        const prefixIds = encodeFixture(PREFIX);
        run.prefixed.forEach((p, i) => {
          expect(p.reusedPrefixTokens).toBe(prefixIds.length);
          expect(p.inputIds).toEqual(run.full[i].inputIds);
          // The first item also computes the prefix's cache (one more pass, one more row); the next reuses it.
          expect(p.logitsCopied).toBe((i === 0 ? 2 : 1) * reference.vocabSize);
          expect(p.forwardPasses).toBe(i === 0 ? 2 : 1);
          const want = referenceSplit(reference, prefixIds, p.inputIds.slice(prefixIds.length));
          p.candidates.forEach((c, k) => expect(Math.abs(c.logProb - want[k])).toBeLessThan(1e-4));
          if (dtype !== 'q8') {
            p.candidates.forEach((c, k) => expect(Math.abs(c.logProb - run.full[i].candidates[k].logProb)).toBeLessThan(1e-5));
          }
        });

        const wantIds = greedyGenerate(reference, encodeFixture(GEN_PROMPT), GEN_TOKENS, EOS);
        expect(run.generation.tokenIds).toEqual(wantIds);
        expect(run.streamed.ids).toEqual(run.generation.tokenIds);
        expect(run.streamed.text).toBe(run.generation.text);
        generations[`${backend}/${dtype}`] = run.generation.tokenIds;
      });
    }
  });
}

describe('requests on WebGPU', () => {
  const session = useBrowserSession({ webgpu: true, path: '/harness.html', ready: harnessReady });
  // One loaded jiangu-tiny for both tests: SwiftShader compiles a session's shaders once.
  beforeAll(() =>
    session.opened.page.evaluate(async () => {
      const client = new window.jiangu.ModelClient();
      await client.load({ source: { kind: 'site', name: 'jiangu-tiny' }, dtype: 'fp32', backend: 'webgpu' });
      (window as unknown as { gpuClient: typeof client }).gpuClient = client;
    }),
  );
  afterAll(() => session.opened.page.evaluate(() => (window as unknown as { gpuClient: { terminate(): void } }).gpuClient.terminate()));

  it('release their GPU outputs: repeated requests leave no more GPU buffers alive', async () => {
    const counts = await session.opened.page.evaluate(
      async ({ prompt, prefix, letters }) => {
        const client = (window as unknown as { gpuClient: InstanceType<typeof window.jiangu.ModelClient> }).gpuClient;
        const round = async () => {
          await client.score({ prompt, candidates: letters });
          await client.score({ prompt, prefix, candidates: letters });
          await client.generate({ prompt, maxNewTokens: 4 });
        };
        for (let i = 0; i < 3; i++) await round(); // warm ORT's buffer pool
        const before = await client.stats();
        for (let i = 0; i < 10; i++) await round();
        const after = await client.stats();
        return { before, after };
      },
      { prompt: PREFIX + SUFFIXES[0], prefix: PREFIX, letters: LETTERS },
    );
    // ORT destroys its staging buffers after each run and pools the rest, so buffers alive
    // (created − destroyed) stay level when every output is disposed; a leak of the 4 present.*
    // tensors of one forward would add 4 live buffers per request.
    const live = (s: { gpuBuffersCreated: number; gpuBuffersDestroyed: number }) => s.gpuBuffersCreated - s.gpuBuffersDestroyed;
    expect(counts.before.gpuBuffersCreated).toBeGreaterThan(0);
    expect(live(counts.after)).toBe(live(counts.before));
  });

  it('cancel a generation between two tokens and keep what was produced', async () => {
    const result = await session.opened.page.evaluate(async (prompt) => {
      const client = (window as unknown as { gpuClient: InstanceType<typeof window.jiangu.ModelClient> }).gpuClient;
      const abort = new AbortController();
      let streamed = 0;
      const generation = await client.generate(
        { prompt, maxNewTokens: 400 },
        { signal: abort.signal, onToken: () => { if (++streamed === 3) abort.abort(); } },
      );
      // The worker goes on serving after a cancel.
      const after = await client.score({ prompt, candidates: ['A', 'B'] });
      return { generation, streamed, afterIds: after.inputIds.length };
    }, GEN_PROMPT);
    expect(result.generation.stoppedBy).toBe('cancelled');
    expect(result.generation.tokenIds.length).toBeGreaterThanOrEqual(3);
    expect(result.generation.tokenIds.length).toBeLessThan(400);
    expect(result.afterIds).toBe(encodeFixture(GEN_PROMPT).length);
  });
});

describe('a model from a hub', () => {
  const session = useBrowserSession({ webgpu: false, path: '/harness.html', ready: harnessReady });

  it('records the commit the files came from: X-Repo-Commit of the cached config.json, or the revision when it is one', async () => {
    const host = `${session.url}/hub/`;
    const load = (revision?: string) =>
      session.opened.page.evaluate(
        async ({ host, revision }) => {
          const client = new window.jiangu.ModelClient();
          try {
            const info = await client.load({ source: { kind: 'hub', id: 'jiangu/jiangu-tiny', host, revision }, dtype: 'fp32', backend: 'wasm' });
            const scored = await client.score({ prompt: '子曰', candidates: ['A', 'B'] });
            return { revision: info.resolvedRevision, ids: scored.inputIds };
          } finally {
            client.terminate();
          }
        },
        { host, revision },
      );
    const main = await load();
    expect(main.revision).toEqual({ commit: fixtureCommit('jiangu-tiny', 'main'), how: 'response-header' });
    expect(main.ids).toEqual(encodeFixture('子曰'));
    const pinned = 'ab'.repeat(20);
    expect((await load(pinned)).revision).toEqual({ commit: pinned, how: 'pinned' });
  });
});

describe('a graph without num_logits_to_keep', () => {
  const session = useBrowserSession({ webgpu: true, path: '/harness.html', ready: harnessReady });

  for (const backend of ['wasm', 'webgpu'] as const) {
    // The chunked path itself (the load-time rewrite off: logits-rewrite.test.ts covers the rewritten one).
    it(`is prefilled in chunks on ${backend}, copying at most the chunk's logits, with the reference's numbers`, async () => {
      const vocab = loadReferenceModel('jiangu-tiny', 'fp32').vocabSize;
      const rows = 8;
      const run = await session.opened.page.evaluate(
        async ({ backend, prompts, letters, maxLogitsBytes, prefix, suffix }) => {
          const client = new window.jiangu.ModelClient();
          const info = await client.load({ source: { kind: 'site', name: 'jiangu-tiny-nokeep' }, dtype: 'fp32', backend, maxLogitsBytes, logitsRewrite: false });
          const scores = [];
          for (const prompt of prompts) scores.push(await client.score({ prompt, candidates: letters }));
          const prefixed = await client.score({ prompt: prefix + suffix, prefix, candidates: letters });
          client.terminate();
          return { inputNames: info.inputNames, scores, prefixed };
        },
        { backend, prompts: PROMPTS, letters: LETTERS, maxLogitsBytes: rows * vocab * 4, prefix: PREFIX, suffix: SUFFIXES[0] },
      );
      expect(run.inputNames).not.toContain('num_logits_to_keep');
      const reference = loadReferenceModel('jiangu-tiny-nokeep', 'fp32');
      for (const got of [...run.scores, run.prefixed]) {
        // Every chunk's rows, never more than `rows` in one pass; the prefix (computed here) likewise.
        const prefix = got.reusedPrefixTokens;
        const fresh = got.inputIds.length - prefix;
        expect(got.forwardPasses).toBe(Math.ceil(prefix / rows) + Math.ceil(fresh / rows));
        expect(got.logitsCopied).toBe(got.inputIds.length * vocab);
        const want = lastLogProbs(reference, got.inputIds, letterIds);
        got.candidates.forEach((c, k) => expect(Math.abs(c.logProb - want[k])).toBeLessThan(1e-4));
      }
      expect(run.scores.some((s) => s.forwardPasses > 1)).toBe(true);
      expect(run.prefixed.reusedPrefixTokens).toBe(encodeFixture(PREFIX).length);
    });
  }
});

describe('across backends', () => {
  it('greedy generations are identical on WASM and WebGPU for every dtype', () => {
    for (const dtype of ['fp32', 'q8', 'q4']) {
      expect(generations[`wasm/${dtype}`], `wasm/${dtype} did not run`).toBeDefined();
      expect(generations[`webgpu/${dtype}`]).toEqual(generations[`wasm/${dtype}`]);
    }
  });
});
