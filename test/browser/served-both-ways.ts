// One client, one model served two ways: a plain load, then the same model loaded again with extra
// outputs in the same worker (the lens behind its gate, or the statistics after the logits). Each
// answers the same letter scores, a passage reading (every row's log-probability) and a greedy
// generation, and the lens load a lens too. The tests of one session per model compare the two.
import type { Page } from 'playwright-core';
import type { Dtype } from '../../src/lib/engine/messages.ts';

export interface Served {
  letters: number[][];
  reading: number[];
  generated: number[];
  lensPath: string | null;
  lensRows: number | null;
  statisticsPath: string | null;
}

export function servedBothWays(page: Page, backend: 'wasm' | 'webgpu', dtype: Dtype, vocab: number, text: string, extra: 'lens' | 'statistics'): Promise<{ plain: Served; withExtra: Served }> {
  return page.evaluate(
    async ({ backend, dtype, vocab, text, extra }) => {
      const client = window.jiangu.reader();
      const serve = async (more: boolean): Promise<Served> => {
        const info = await client.load({ source: { kind: 'site', name: 'jiangu-tiny' }, dtype, backend, maxLogitsBytes: 8 * 4 * vocab, ...(more ? { [extra]: true } : {}) });
        const letters: number[][] = [];
        for (const prompt of ['子曰学而时习之答案：', '有朋自远方来不亦乐乎答案：']) letters.push((await client.score({ prompt, candidates: ['A', 'B', 'C', 'D'] })).candidates.map((c) => c.logProb));
        const reading = (await client.readPassage({ text, punctuation: false })).reading.rows.flatMap((r) => [r.logprob ?? NaN, ...r.topLogprobs]);
        const generated = (await client.generate({ prompt: '学而时习之', maxNewTokens: 8 })).tokenIds;
        const grid = more && extra === 'lens' ? await client.logitLens({ text }) : null;
        return { letters, reading, generated, lensPath: info.lensPath?.kind ?? null, lensRows: grid?.rows ?? null, statisticsPath: info.statisticsPath?.kind ?? null };
      };
      return { plain: await serve(false), withExtra: await serve(true) };
    },
    { backend, dtype, vocab, text, extra },
  );
}
