// Issue 35's q8 statistics ÷ one-row forward, through the page's ModelClient and worker
// (statistics-page.ts), on any served model: a plain load scores a passage as a prompt, a
// `statistics: true` load runs textStatistics on it; each twice (the first warms up). With
// JIANGU_MODELS pointing at a cut (`generate.ts --real --layers 2 --out DIR`), the head and the
// statistics ops dominate. With a cloze count, that many CMMLU 古汉语 items are scored as option texts
// (plain, then with PMI) on the statistics load first, as real-measure.ts does. A measurement, not a test.
//
//   JIANGU_DIST=dist-x JIANGU_MODELS=/tmp/cut npx tsx scripts/bench/statistics-q8-walk.ts [model] [dtype] [chars] [cloze items]
import { openPage, withChromium } from '../browser.ts';
import { loadSharedItems } from './cloze-items.ts';
import { installNameHelper } from './cloze-page.ts';
import { pageStatsCall, pageStatsLoad, pageStatsTerminate } from './statistics-page.ts';

async function main(): Promise<void> {
  const [model = 'real-qwen2.5-0.5b', dtype = 'q8', chars = '300', clozeItems = '0'] = process.argv.slice(2);
  // As real-measure.ts does before its statistics step: cloze items (plain, then with PMI) on the statistics load.
  const shared = Number(clozeItems) > 0 ? loadSharedItems('cmmlu-ancient') : null;
  // About 250 Qwen tokens of classical Chinese (the real-shapes passage is 300 characters of ACLUE).
  const base = '子曰學而時習之不亦說乎有朋自遠方來不亦樂乎人不知而不慍不亦君子乎有子曰其為人也孝弟而好犯上者鮮矣不好犯上而好作亂者未之有也君子務本本立而道生孝弟也者其為仁之本與';
  let text = '';
  while (text.length < Number(chars)) text += base;
  text = text.slice(0, Number(chars));
  await withChromium({}, async (siteUrl, browser) => {
    const opened = await openPage(browser, `${siteUrl}/harness.html`);
    const { page } = opened;
    await page.waitForFunction('document.getElementById("status")?.textContent === "ready"', undefined, { polling: 100, timeout: 30_000 });
    await installNameHelper(page);
    try {
      for (const [slot, statistics] of [['plain', false], ['stats', true]] as const) {
        const load = await page.evaluate(pageStatsLoad, { slot, model, dtype: dtype as 'q8', backend: 'wasm' as const, statistics });
        if (load.error) throw new Error(load.error);
        console.log(`${slot} load ${(load.wallMs / 1000).toFixed(1)} s, threads ${load.result?.backendInfo.wasmThreads}, prefillRows ${load.result?.prefillRows}, statistics ${load.result?.statisticsPath?.kind ?? '-'}, inputs ${load.result?.inputNames.includes('num_logits_to_keep') ? 'keep' : 'no keep'}`);
        if (statistics && shared) {
          for (const unconditional of [false, true]) {
            for (const item of shared.items.slice(0, Number(clozeItems))) {
              const args = JSON.stringify({ protocolId: shared.protocolId, item, exemplars: [], shots: 0, contextLimit: 4096, chatTemplate: false, reusePrefix: false, unconditional });
              const t0 = Date.now();
              await page.evaluate(`window.statsClients.stats.scoreClozeItem(${args}).then(() => null)`);
              console.log(`  cloze item ${item.id}${unconditional ? ' (PMI)' : ''}: ${((Date.now() - t0) / 1000).toFixed(2)} s`);
            }
          }
        }
        for (let i = 0; i < 2; i++) {
          const reply = await page.evaluate(pageStatsCall, { mode: statistics ? ('graph' as const) : ('oneRow' as const), slot, text, keepValues: false });
          if (!reply.result) throw new Error(reply.error);
          const r = reply.result;
          console.log(`  ${r.mode} ${i === 0 ? 'warm-up' : 'timed  '} ${(r.ms / 1000).toFixed(2)} s (worker ${(r.workerMs / 1000).toFixed(2)} s), ${r.tokens} tokens, ${r.forwardPasses} passes, ${r.logitsCopied} logits copied${r.path ? `, path ${r.path}` : ''}`);
        }
      }
    } finally {
      await page.evaluate(pageStatsTerminate).catch(() => {});
      await opened.context.close();
    }
  });
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.stack : e);
  process.exitCode = 1;
});
