// Cloze scoring in the real worker (WASM, fp32 and q4; WebGPU on SwiftShader, q4): each option's
// log-likelihood, summed over its tokens after the item's context, equals the independent
// TypeScript reference run over context + option in one pass, within 1e-4, for jiangu-tiny
// (native num_logits_to_keep), jiangu-tiny-nokeep (chunked, the rewrite off, continuations longer
// than one pass), jiangu-tiny-gqa (GroupQueryAttention; on WebGPU 16 rows a pass) and stories260k
// (the trained SentencePiece model). With prefix reuse on and off, and with the options reversed:
// four continuations branch from one context state, so an option scored last must score as it does
// when scored first (a kernel that wrote into the shared state would move it). is_greedy and the
// answer-cue-alone scores (PMI) are checked against the reference too.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { continuationLogLikelihood, loadReferenceModel, referenceFromWeights, encodeFixture, type ReferenceModel } from '../../scripts/fixtures/reference.ts';
import { generateStories260k, storiesWeights } from '../../scripts/fixtures/stories260k.ts';
import type { MultipleChoiceItem } from '../../src/lib/core/benchmarks/types.ts';
import type { Dtype, ScoreClozeItemResult } from '../../src/lib/engine/messages.ts';
import { loadStories260kTokenizer, storiesPresent } from '../unit/stories260k-tokenizer.ts';
import { harnessReady, useBrowserSession } from './session.ts';

const item = (id: string, split: 'dev' | 'test', order: number, question: string, options: string[]): MultipleChoiceItem => ({
  kind: 'multiple-choice', id, datasetId: 'aclue', task: '古汉语', split, order, source: { file: 'fixture', line: order }, question, options, answer: 'B',
});

/** In jiangu-tiny's vocabulary: options of 1, 3, 4 and 20 tokens (longer than a GQA WebGPU pass and an 8-row chunk). */
const TINY_ITEMS = {
  exemplar: item('dev-0', 'dev', 0, '有朋自远方来，不亦乐乎？', ['天', '地', '人', '之']),
  test: item('test-0', 'test', 0, '学而时习之，不亦说乎？', ['说', '喜悦也', '解说之言', '子曰学而时习之不亦说乎有朋自远方来不亦']),
  // Its third option is the first item's first: its score after the answer cue alone comes from the worker's cache.
  second: item('test-1', 'test', 1, '温故而知新', ['温', '故旧', '说', '可以为师矣']),
};
/** English for stories260k's TinyStories vocabulary (the instruction's Chinese is byte-fallback tokens). */
const STORY_ITEMS = {
  exemplar: item('dev-0', 'dev', 0, 'Lily saw a big red ball.', ['a cat', 'a ball', 'a tree', 'the sun']),
  test: item('test-0', 'test', 0, 'One day, Tom went to the park. He saw', ['a dog', 'a big tree with many red apples on it', 'his mom', 'a little bird']),
  second: item('test-1', 'test', 1, 'Sue liked to play with', ['her toys', 'the ball', 'a dog', 'friends']),
};

interface Case {
  name: string;
  maxLogitsBytes?: number;
  logitsRewrite?: boolean;
  /** Load with Jiangu's statistics outputs (as cloze runs do): the options' rows never leave the session. */
  statistics?: boolean;
}

interface Scored {
  name: string;
  inputNames: string[];
  statisticsPath: string | null;
  /** reuse on (unconditional too), reversed options (reuse on), reuse off, the second item (reuse on). */
  runs: ScoreClozeItemResult[];
}

function scoreAll(page: Page, backend: 'wasm' | 'webgpu', dtype: Dtype, cases: readonly Case[], items: typeof TINY_ITEMS): Promise<Scored[]> {
  return page.evaluate(
    async ({ backend, dtype, cases, items }) => {
      const out: Scored[] = [];
      // One worker for these loads: a worker's next load (the playground's and a run's path too) skips a fresh worker's start, about 1.2 s each.
      const client = new window.jiangu.ModelClient();
      try {
        for (const c of cases) {
          const info = await client.load({ source: { kind: 'site', name: c.name }, dtype, backend, maxLogitsBytes: c.maxLogitsBytes, logitsRewrite: c.logitsRewrite, statistics: c.statistics });
          const base = { protocolId: 'aclue' as const, exemplars: [items.exemplar], shots: 1, contextLimit: 2048, chatTemplate: false };
          const reversed = { ...items.test, options: [...items.test.options].reverse() };
          const runs = [
            await client.scoreClozeItem({ ...base, item: items.test, reusePrefix: true, unconditional: true }),
            await client.scoreClozeItem({ ...base, item: reversed, reusePrefix: true, unconditional: false }),
            await client.scoreClozeItem({ ...base, item: items.test, reusePrefix: false, unconditional: false }),
            await client.scoreClozeItem({ ...base, item: items.second, reusePrefix: true, unconditional: true }),
          ];
          out.push({ name: c.name, inputNames: info.inputNames, statisticsPath: info.statisticsPath?.kind ?? null, runs });
        }
      } finally {
        client.terminate();
      }
      return out;
    },
    { backend, dtype, cases, items },
  );
}

function checkAgainstReference(scored: Scored, items: typeof TINY_ITEMS, model: ReferenceModel, encode: (text: string) => number[], cue: string, label: string): number {
  let worst = 0;
  const options = [items.test.options, [...items.test.options].reverse(), items.test.options, items.second.options];
  const [first, reversed, noReuse, second] = scored.runs;
  for (const [k, run] of scored.runs.entries()) {
    expect(run.contextIds, `${label} run ${k}: the context's tokens`).toEqual(encode(run.text));
    for (const [i, option] of run.options.entries()) {
      expect(option.tokenIds.length, `${label} run ${k} option ${i}: a continuation has tokens`).toBeGreaterThan(0);
      const want = continuationLogLikelihood(model, run.contextIds, option.tokenIds);
      const d = Math.abs(option.logLikelihood - want.logLikelihood);
      worst = Math.max(worst, d);
      expect(d, `${label} run ${k} option ${i} (${option.tokenIds.length} tokens) vs the reference`).toBeLessThan(1e-4);
      expect(option.isGreedy, `${label} run ${k} option ${i}: is_greedy`).toBe(want.isGreedy);
      if (option.unconditional !== undefined) {
        // PMI's unconditional context: the cue alone, the option split after it as the harness would.
        const cueIds = encode(cue);
        const alone = continuationLogLikelihood(model, cueIds, encode(cue + options[k][i]).slice(cueIds.length));
        expect(Math.abs(option.unconditional - alone.logLikelihood), `${label} run ${k} option ${i} after the cue alone`).toBeLessThan(1e-4);
      }
    }
  }
  // The prefix cache was used with reuse on (and its tokens are the exemplar block's), not with it off.
  expect(first.reusedPrefixTokens).toBeGreaterThan(0);
  expect(second.reusedPrefixTokens).toBe(first.reusedPrefixTokens);
  expect(noReuse.reusedPrefixTokens).toBe(0);
  // One context state, four branches: the order the options run in changes nothing.
  const n = first.options.length;
  for (let i = 0; i < n; i++) {
    const back = reversed.options[n - 1 - i];
    expect(back.tokenIds).toEqual(first.options[i].tokenIds);
    expect(Math.abs(back.logLikelihood - first.options[i].logLikelihood), `${label}: option ${i} scored ${i + 1}st and ${n - i}th`).toBeLessThan(1e-5);
    expect(Math.abs(noReuse.options[i].logLikelihood - first.options[i].logLikelihood), `${label}: option ${i} with reuse off`).toBeLessThan(1e-4);
  }
  expect(first.options.every((o) => o.unconditional !== undefined)).toBe(true);
  expect(reversed.options.every((o) => o.unconditional === undefined)).toBe(true);
  return worst;
}

// Whole rows read out (jiangu-tiny), and Jiangu's statistics outputs on the author's graph without
// num_logits_to_keep (-nokeep) and on GroupQueryAttention (-gqa, where WebGPU runs their kernels too).
const TINY_CASES: Case[] = [
  { name: 'jiangu-tiny' },
  // 8 rows a pass: the context and the 20-token option both take several passes.
  { name: 'jiangu-tiny-nokeep', logitsRewrite: false, maxLogitsBytes: 8 * 4 * loadReferenceModel('jiangu-tiny', 'fp32').vocabSize, statistics: true },
  { name: 'jiangu-tiny-gqa', statistics: true },
];

for (const backend of ['wasm', 'webgpu'] as const) {
  describe(`cloze scoring on ${backend}`, () => {
    const session = useBrowserSession({ webgpu: backend === 'webgpu', path: '/harness.html', ready: harnessReady, setup: () => void (storiesPresent && generateStories260k()) });
    const inPage = <T,>(run: () => Promise<T>): Promise<T> =>
      run().catch((e: unknown) => {
        throw new Error(`${String(e)}\nconsole:\n${session.opened.console.join('\n')}`);
      });

    // WebGPU: q4, cloze's one WebGPU case (its branched context states are GPU buffers there), on the
    // graph shapes whose path differs most (chunked rows; GroupQueryAttention, 16 rows a pass on
    // WebGPU, with the statistics graph). The fp32 numbers of each graph kind have their WebGPU cases in
    // worker-parity, logits-rewrite and gqa.test.ts.
    const dtypes = backend === 'wasm' ? (['fp32', 'q4'] as const) : (['q4'] as const);
    for (const dtype of dtypes) {
      it(`${dtype}: jiangu-tiny, -nokeep and -gqa equal the reference per option (1e-4), in any order, with reuse on and off`, async () => {
        // q4 on the graph shapes whose q4 path differs most (chunked rows, GroupQueryAttention).
        const cases = dtype === 'q4' ? TINY_CASES.filter((c) => c.name !== 'jiangu-tiny') : TINY_CASES;
        const scored = await inPage(() => scoreAll(session.opened.page, backend, dtype, cases, TINY_ITEMS));
        const model = loadReferenceModel('jiangu-tiny', dtype);
        const worst = scored.map((s) => checkAgainstReference(s, TINY_ITEMS, model, encodeFixture, '答案是：', `${backend} ${dtype} ${s.name}`));
        expect(scored.find((s) => s.name === 'jiangu-tiny-gqa')!.inputNames).not.toContain('position_ids');
        // The statistics graph passed its load check where asked for; no case fell back.
        for (const s of scored) expect(s.statisticsPath, s.name).toBe(cases.find((c) => c.name === s.name)!.statistics ? 'graph' : null);
        console.log(`${backend} ${dtype} cloze max |Δ| vs reference: ${scored.map((s, i) => `${s.name} ${worst[i].toExponential(1)} (${s.runs[0].forwardPasses} passes)`).join(', ')}`);
      });
    }

    // On WASM: the SentencePiece split is the worker's, whatever the backend, and stories260k's WebGPU
    // cases are its documented greedy paragraph (fp32, stories260k.test.ts) and its statistics graph (q4, statistics.test.ts).
    const storyDtypes = ['fp32', 'q4'] as const;
    it.runIf(backend === 'wasm' && storiesPresent)(`stories260k ${storyDtypes.join(' and ')}: per-option log-likelihoods equal the reference (1e-4), SentencePiece split as the harness`, async () => {
      const tokenizer = await loadStories260kTokenizer();
      const encode = (text: string) => tokenizer.encode(text, { add_special_tokens: true });
      for (const dtype of storyDtypes) {
        const [scored] = await inPage(() => scoreAll(session.opened.page, backend, dtype, [{ name: 'stories260k', statistics: true }], STORY_ITEMS));
        expect(scored.statisticsPath).toBe('graph');
        const worst = checkAgainstReference(scored, STORY_ITEMS, referenceFromWeights(storiesWeights(), dtype), encode, '答案是：', `${backend} ${dtype} stories260k`);
        console.log(`${backend} ${dtype} stories260k cloze max |Δ| ${worst.toExponential(1)}; options ${scored.runs[0].options.map((o) => o.logLikelihood.toFixed(3)).join(', ')}`);
      }
    });
  });
}
