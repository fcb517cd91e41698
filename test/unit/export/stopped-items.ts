// A run on a random sample of three synthetic ACLUE-shaped tasks (no benchmark text) whose precision
// rule stopped it part-way (issue 44), for the tests that export it to the harness stand-in and import
// it back (test/unit/record/lm-eval-stopped-run.test.ts, test/unit/data/lm-eval-stopped-store.test.ts).
import type { MultipleChoiceItem, OptionLetter } from '../../../src/lib/core/benchmarks/types.ts';
import { scoreLetters } from '../../../src/lib/core/protocols/mc-scoring.ts';
import { newRunSampling, sampleRun, type StopRule } from '../../../src/lib/core/protocols/run-sampling.ts';
import type { McItemResult, McRunRecord } from '../../../src/lib/core/record/run.ts';
import { HARNESS_FILES } from './harness-items.ts';

export const TASKS = ['古文单字多义', '通假字', '古文断句'];
export const N = 20;
export const LIMIT = 12;
export const SEED = 2_718_281_828;
export const RULE: StopRule = { kind: 'precision', halfWidth: 0.05, alpha: 0.05 };
export const LETTERS: OptionLetter[] = ['A', 'B', 'C', 'D'];

const item = (task: string, split: 'dev' | 'test', i: number): MultipleChoiceItem => ({
  kind: 'multiple-choice',
  id: `${task}/${split}/${i}`,
  datasetId: 'aclue',
  task,
  split,
  order: i,
  source: { file: `data/${split}/${task}.csv`, line: i + 2 },
  question: `虚构${split === 'dev' ? '例' : ''}题（${task}${i}）：下列哪一项正确？`,
  options: ['甲', '乙', '丙', '丁'].map((o) => `${o}${i}`),
  answer: LETTERS[split === 'dev' ? i % 4 : (i * 3) % 4],
});
export const ITEMS: MultipleChoiceItem[] = TASKS.flatMap((task) => [...Array.from({ length: 2 }, (_, i) => item(task, 'dev', i)), ...Array.from({ length: N }, (_, i) => item(task, 'test', i))]);
export const byId = new Map(ITEMS.map((i) => [i.id, i]));
export const population = TASKS.map((task) => ({ task, itemIds: ITEMS.filter((i) => i.task === task && i.split === 'test').map((i) => i.id) }));
export const SAMPLING = newRunSampling('random', SEED, Object.fromEntries(TASKS.map((t) => [t, N])));
export const PLAN = sampleRun(population, LIMIT, SAMPLING).itemIds;

/** The model's log-likelihoods of an item's options: some letter preferred, which one varies by item. */
export const logLiksOf = (id: string): number[] => {
  const k = [...id].reduce((h, c) => (h * 31 + c.codePointAt(0)!) % 997, 7);
  return LETTERS.map((_, j) => (j === k % 4 ? -0.25 : -1.5 - j - (k % 5) / 10));
};

/** A 0-shot run on the plan whose precision rule stopped it after `asked` items; the item at `failedAt` could not be run. */
export function stoppedRun(asked: number, failedAt: number | null = 2): { run: McRunRecord; results: McItemResult[] } {
  const run: McRunRecord = {
    id: 'run-stopped-1',
    createdAt: '2026-11-30T00:00:00.000Z',
    updatedAt: '2026-11-30T01:00:00.000Z',
    datasetId: 'aclue',
    status: 'completed',
    config: {
      kind: 'multiple-choice',
      model: { source: { kind: 'hub', id: 'example/tiny-model' }, dtype: 'fp32', backend: 'wasm' },
      protocolId: 'aclue',
      protocolVersion: 1,
      templateHash: 'ab'.repeat(32),
      scoring: 'letter-logits',
      shots: 0,
      contextLimit: 2048,
      chatTemplate: false,
      prefixReuse: false,
      datasetId: 'aclue',
      datasetFiles: HARNESS_FILES.map(({ path, sha256 }) => ({ path, sha256 })),
      tasks: [...TASKS],
      limitPerTask: LIMIT,
      itemIds: [...PLAN],
      sampling: SAMPLING,
      stopRule: RULE,
      appVersion: '0.1.0+test',
    },
    warnings: [],
  };
  const results = PLAN.slice(0, asked).map((id, index): McItemResult => {
    const it = byId.get(id)!;
    const scored = scoreLetters(LETTERS, logLiksOf(id), it.answer);
    const failed = index === failedAt;
    return {
      runId: run.id,
      itemId: id,
      task: it.task,
      index,
      prompt: failed ? '' : `prompt ${id}`,
      promptHash: '',
      tokenCount: failed ? 3000 : 40,
      shotsUsed: 0,
      exemplarIds: [],
      letters: [...LETTERS],
      tokenIds: [],
      logProbs: failed ? [] : scored.logProbs,
      probs: failed ? [] : scored.letterProbs,
      prediction: failed ? null : scored.prediction,
      gold: it.answer,
      correct: failed ? null : scored.correct,
      reusedPrefixTokens: 0,
      forwardMs: 1,
      completedAt: '2026-11-30T00:30:00.000Z',
      ...(failed ? { failure: { code: 'run.item-too-long', params: { itemId: id, tokens: 3000, limit: 2048 } } } : {}),
    };
  });
  return { run, results };
}
