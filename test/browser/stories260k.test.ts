// stories260k (the trained stories260K checkpoint, converted by scripts/fixtures/stories260k.ts)
// in the page's model worker, on WASM and on WebGPU (SwiftShader), fp32, q8 and q4: greedy
// generation from bos alone (an empty prompt: the tokenizer adds <s> and nothing else) prints
// the paragraph llama2.c documents for its C runner (fp32 and q8), and every dtype produces the
// very token ids of the independent TypeScript reference (q4's 4-bit weights change the story).
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { OpenedPage } from '../../scripts/browser.ts';
import { greedyGenerate, referenceFromWeights } from '../../scripts/fixtures/reference.ts';
import { generateStories260k, STORIES260K_GGUF, storiesWeights } from '../../scripts/fixtures/stories260k.ts';
import type { Backend, Dtype, GenerateResult, LoadResult } from '../../src/lib/engine/messages.ts';
import { harnessReady, useBrowserSession } from './session.ts';

/** The first paragraph of llama2.c's doc/stories260K.md greedy run (quoted in ../shared/models/stories260K/SOURCE.md). */
const ORACLE =
  'Once upon a time, there was a little girl named Lily. She loved to play outside in the park. One day, she saw a big, red ball. She wanted to play with it, but it was too high.';
/** The paragraph's 61 tokens and the newline after it. */
const NEW_TOKENS = 62;
const BOS = 1;
const EOS = 2;

// Under CI a missing checkpoint is a failure, not a skip (as for `npm run fixtures`).
const present = existsSync(STORIES260K_GGUF) || (process.env.CI ?? '') !== '';
if (!present) console.warn(`stories260k browser tests skipped: ${STORIES260K_GGUF} is absent`);

async function generateFromBos(opened: OpenedPage, dtype: Dtype, backend: Backend): Promise<{ info: LoadResult; generation: GenerateResult }> {
  return opened.page.evaluate(
    async ({ dtype, backend, maxNewTokens }) => {
      const client = window.jiangu.reader();
      const info = await client.load({ source: { kind: 'site', name: 'stories260k' }, dtype, backend });
      const generation = await client.generate({ prompt: '', maxNewTokens });
      return { info, generation };
    },
    { dtype, backend, maxNewTokens: NEW_TOKENS },
  );
}

for (const backend of ['wasm', 'webgpu'] as const) {
  describe.skipIf(!present)(`stories260k in the model worker on ${backend}`, () => {
    const session = useBrowserSession({ webgpu: true, path: '/harness.html', ready: harnessReady, setup: () => void generateStories260k() });

    // WebGPU: fp32 alone (q8 and q4 on WebGPU are checked on the fixtures in worker-parity; CI time).
    for (const dtype of backend === 'wasm' ? (['fp32', 'q8', 'q4'] as const) : (['fp32'] as const)) {
      it(`${dtype}: greedy generation from bos ${dtype === 'q4' ? 'equals the reference of the 4-bit weights' : "prints llama2.c's documented paragraph"}`, async () => {
        const { opened } = session;
        const run = await generateFromBos(opened, dtype, backend).catch((e: unknown) => {
          throw new Error(`${String(e)}\nconsole:\n${opened.console.join('\n')}`);
        });
        expect(run.info.backendInfo.backend).toBe(backend);
        if (backend === 'webgpu') expect(run.info.backendInfo.adapter?.architecture).toBe('swiftshader');
        expect(run.generation.inputIds).toEqual([BOS]);
        console.log(`${backend} ${dtype}: ${JSON.stringify(run.generation.text)}`);
        const reference = referenceFromWeights(storiesWeights(), dtype);
        expect(run.generation.tokenIds).toEqual(greedyGenerate(reference, [BOS], NEW_TOKENS, EOS));
        if (dtype === 'q4') {
          expect(run.generation.text.startsWith('Once upon a time, there was a little girl named Lily.')).toBe(true);
        } else {
          expect(run.generation.text.startsWith(ORACLE)).toBe(true);
          if (dtype === 'fp32') expect(run.generation.text).toBe(`${ORACLE}\n`);
        }
      });
    }
  });
}
