// A real scoring run's share link for the format tests: a letter run made by the project's own code
// (createMcRun, executeRun, the store) against a fake model client, its summary the run page's
// (runSummary), linked by the page's encoder. One item is left unrun, so the link has an unscored gap.
import type { MultipleChoiceItem } from '../../../src/lib/core/benchmarks/types.ts';
import { encodeShareLink } from '../../../src/lib/core/formats/share-link/share-link.ts';
import { runSummary } from '../../../src/lib/core/metrics/run-summary.ts';
import type { McItemResult } from '../../../src/lib/core/record/run.ts';
import type { ModelClient } from '../../../src/lib/engine/model-client.ts';
import type { LoadResult, ScoreItemParams, ScoreItemResult } from '../../../src/lib/engine/messages.ts';
import { createMcRun } from '../../../src/lib/engine/run-setup.ts';
import { executeRun } from '../../../src/lib/engine/run-scheduler.ts';
import { saveDataset } from '../../../src/lib/store/datasets.ts';
import { loadResults } from '../../../src/lib/store/runs.ts';
import { fakeLoadResult } from '../engine/fake-load.ts';
import { freshDb, makeRecord } from '../store/helpers.ts';
import { makeGenRun } from '../../fixtures/run-records/build.ts';

function items(): MultipleChoiceItem[] {
  return ['Radical', 'Cloze'].flatMap((task) =>
    (['dev', 'test'] as const).flatMap((split) =>
      [0, 1, 2, 3, 4].map((order): MultipleChoiceItem => ({ kind: 'multiple-choice', id: `${task}/${split}/${order}`, datasetId: 'ancientbench', task, split, order, source: { file: 'sample.csv', line: order + 2 }, question: `${task} 问题 ${order}`, options: ['甲', '乙', '丙', '丁'], answer: (['A', 'B', 'C', 'D'] as const)[order % 4] })),
    ),
  );
}

/** Letters from the item: right on even orders, one letter on from the gold on odd ones. */
function client(): ModelClient {
  return {
    async load(): Promise<LoadResult> {
      return fakeLoadResult('wasm');
    },
    async scoreItem(params: ScoreItemParams): Promise<ScoreItemResult> {
      const favourite = (params.item.order + (params.item.order % 2)) % 4;
      const logProbs = [0, 1, 2, 3].map((k) => (k === favourite ? -0.4 : -2.5 - k / 10));
      return {
        prompt: `prompt of ${params.item.id}`, prefix: '', shotsUsed: params.shots, exemplarIds: [], droppedExemplarIds: [], overLimit: false,
        score: { inputIds: [1, 2, 3], candidates: ['A', 'B', 'C', 'D'].map((text, k) => ({ text, tokenId: 4 + k, tokenCount: 1, logProb: logProbs[k], mergesWithPrompt: false })), reusedPrefixTokens: 0, logitsCopied: 10, forwardPasses: 1, text: `prompt of ${params.item.id}`, forwardMs: 1 },
      };
    },
    terminate() {},
  } as unknown as ModelClient;
}

export async function madeShareLink(): Promise<string> {
  const db = await freshDb();
  const all = items();
  await saveDataset(db, makeRecord('ancientbench', all), all);
  const created = await createMcRun(db, { model: { source: { kind: 'site', name: 'jiangu-tiny' }, dtype: 'fp32', backend: 'wasm' }, datasetId: 'ancientbench', tasks: ['Radical', 'Cloze'], shots: 0, limitPerTask: null, chatTemplate: false });
  const run = await executeRun(db, created.id, client());
  const results = (await loadResults(db, run.id)) as McItemResult[];
  // The third item's result goes: a gap the link marks as not yet run.
  const kept = results.filter((r) => r.index !== 2);
  return encodeShareLink(run, kept, runSummary(run, kept));
}

/** A generation run's share link (the fixtures' generation run, its summary the run page's), by the page's encoder. */
export function madeGenerationShareLink(): Promise<string> {
  const { run, results } = makeGenRun();
  return encodeShareLink(run, results, runSummary(run, results));
}
