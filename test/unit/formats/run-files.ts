// Real exported run files, one per scoring kind, for the field-class tests: each run is built through
// the project's own code (scoreLetters for letters, the engine's clozeResult for option texts,
// asRotation for rotations, drawEstimationSet for PriDe), exported with runJson, and carries every
// optional part the reader knows (a model check among them), so the mutation test reaches every field of the table.
import { runJson } from '../../../src/lib/core/formats/jiangu-run/export.ts';
import { clozeResult } from '../../../src/lib/engine/cloze-result.ts';
import { asRotation } from '../../../src/lib/engine/run-rotations.ts';
import { scoreLetters } from '../../../src/lib/core/protocols/mc-scoring.ts';
import { rotatedLetter } from '../../../src/lib/core/protocols/rotation.ts';
import { drawEstimationSet } from '../../../src/lib/core/protocols/estimation-set.ts';
import { FIXED_DECODING } from '../../../src/lib/core/protocols/decoding.ts';
import { notice } from '../../../src/lib/core/notices/index.ts';
import type { MultipleChoiceItem, OptionLetter } from '../../../src/lib/core/benchmarks/types.ts';
import type { McItemResult, McRunRecord, RunEnvironment } from '../../../src/lib/core/record/run.ts';
import type { ScoreClozeItemResult } from '../../../src/lib/engine/messages.ts';
import { makeGenRun, makeMcRun } from '../../fixtures/run-records/build.ts';
import { madeModelCheck } from './model-check-fixture.ts';
import type { RunSampling, StopRule } from '../../../src/lib/core/protocols/run-sampling.ts';

export type RunFileKind = 'letter-logits' | 'cloze' | 'generate-extract' | 'generation';
export const RUN_FILE_KINDS: readonly RunFileKind[] = ['letter-logits', 'cloze', 'generate-extract', 'generation'];

const HASH = 'ef'.repeat(32);

/** An environment with every optional part a run records (a WebGPU load that fell back, its paths checked). */
const ENVIRONMENT: RunEnvironment = {
  backendInfo: {
    backend: 'wasm',
    wasmThreads: 4,
    crossOriginIsolated: true,
    adapter: { vendor: 'example', architecture: 'arch', device: 'dev', description: 'a GPU', isFallbackAdapter: false, shaderF16: true },
    fallbackReason: 'WebGPU check failed',
    fallbackNotice: notice('run.items-failed', { count: 1 }),
  },
  modelInputNames: ['input_ids', 'attention_mask'],
  transformersVersion: '4.3.2',
  ortVersion: '1.31.0',
  userAgent: 'Test/1.0',
  resolvedRevision: { commit: 'a'.repeat(40), how: 'pinned', note: 'pinned in the catalog' },
  prefillRows: 256,
  logitsPath: { kind: 'rewritten', refusal: notice('run.items-failed', { count: 2 }), check: { tokens: 12, maxAbsDiff: 0.0003 } },
  statisticsPath: { kind: 'graph', check: { tokens: 8, maxAbsDiff: 0.0001 } },
};

/**
 * A sample (issue 36) whose sizes give the run's items: each task's N its items in the run, or more
 * where the run took its limit of them; and a stop rule of the kind given.
 */
function sampled<C extends { tasks: string[]; limitPerTask: number | null; itemIds: string[] }>(config: C, stopRule: StopRule, taskOf: (itemId: string) => string = (id) => id.split('/')[0]): C & { sampling: RunSampling; stopRule: StopRule } {
  const taken = (task: string) => config.itemIds.filter((id) => taskOf(id) === task).length;
  const population = Object.fromEntries(config.tasks.map((task) => [task, taken(task) === config.limitPerTask ? taken(task) + 7 : taken(task)]));
  return { ...config, sampling: { draw: 'random', seed: 4_000_000_001, order: 'shuffled', block: 4, growth: 2, maxBlock: 64, population }, stopRule };
}

/** The run-level parts every multiple-choice file carries: environment, checks, limits, an earlier import. */
function decorated(run: McRunRecord): McRunRecord {
  return {
    ...run,
    config: sampled(run.config, { kind: 'precision', halfWidth: 0.02, alpha: 0.05 }),
    environment: ENVIRONMENT,
    check: { itemIds: [run.config.itemIds[0]], tolerance: 0.05, maxLogProbDiff: 0.01, mismatchedPredictions: [], passed: true, overridden: false },
    error: notice('run.items-failed', { count: 1 }),
    contextLimit: { tokens: 2048, from: 'config.max_position_embeddings', asked: 'default', modelPositions: 2048 },
    decodingOptions: { do_sample: false, temperature: 1, top_k: 50, top_p: 1, ...FIXED_DECODING },
    origin: {
      kind: 'lm-eval',
      fileName: 'results_2026.json',
      importedAt: '2026-01-03T00:00:00.000Z',
      originalRunId: null,
      storedSummary: { overall: 60, items: 5 },
      summaryMismatches: [{ key: 'overall', stored: 60, recomputed: 40 }],
      harnessTasks: [{ name: 'aclue_polysemy_resolution', version: 1 }],
      harnessBackend: { model: 'hf', device: 'cuda:0' },
      harnessLimit: 3,
    },
    label: 'my run',
    modelCheck: madeModelCheck(),
    warnings: [...run.warnings, notice('run.items-failed', { count: 1 })],
  } as McRunRecord;
}

/** Item 1 could not run: no scores, its reason kept (as run-scheduler's failedResult writes it). */
function failedAt<T extends McItemResult>(results: T[], at: number): T[] {
  return results.map((r, i) =>
    i !== at
      ? r
      : { ...r, cloze: undefined, generated: undefined, prompt: '', promptHash: '', tokenCount: 2400, shotsUsed: 0, exemplarIds: [], tokenIds: [], logProbs: [], probs: [], prediction: null, correct: null, reusedPrefixTokens: 0, forwardMs: 0, rotations: undefined, failure: notice('run.item-too-long', { itemId: r.itemId, tokens: 2400, limit: 2048 }) },
  );
}

/** A circular letter run with PriDe, a failed item and every run-level part. */
function letterRun(): { run: McRunRecord; results: McItemResult[] } {
  const { run, results } = makeMcRun('letters-1');
  const withRotations = results.map((r): McItemResult => {
    const n = r.letters.length;
    const rotations = Array.from({ length: n - 1 }, (_, i) => {
      const k = i + 1;
      const gold = rotatedLetter(r.gold, k, n);
      const scored = scoreLetters(r.letters, r.letters.map((_, j) => -0.5 - j - 0.1 * k), gold);
      return asRotation({ ...r, promptHash: HASH, logProbs: scored.logProbs, probs: scored.letterProbs, prediction: scored.prediction, gold, correct: scored.correct, forwardMs: 3 }, k);
    });
    return { ...r, rotations };
  });
  const pride = { share: 0.4, seed: 12345, estimationItemIds: drawEstimationSet(run.config.itemIds, 0.4, 12345) };
  const letterTokens = [
    { letter: 'A', tokenId: 32, singleToken: true, aloneTokenIds: [29871, 32] },
    { letter: 'B', tokenId: 33, singleToken: true },
  ];
  return { run: decorated({ ...run, letterTokens, config: { ...run.config, circular: true, pride, maxNewTokens: 8, thinking: 'off' } }), results: failedAt(withRotations, 1) };
}

/** Made-up option texts for the cloze items (no benchmark text). */
const OPTION_TEXTS = ['甲乙', '丙', '丁戊己', '庚'];

/** A cloze run scored through the engine's clozeResult, with unconditional sums (PMI) and a failed item. */
function clozeRun(): { run: McRunRecord; results: McItemResult[] } {
  const { run, results: letters } = makeMcRun('cloze-1');
  const results = letters.map((r) => {
    const item: MultipleChoiceItem = { kind: 'multiple-choice', id: r.itemId, task: r.task, question: '虚构', options: OPTION_TEXTS.slice(0, r.letters.length), answer: r.gold } as MultipleChoiceItem;
    const scored: ScoreClozeItemResult = {
      context: r.prompt,
      prefix: '',
      shotsUsed: r.shotsUsed,
      exemplarIds: r.exemplarIds,
      droppedExemplarIds: [],
      overLimit: false,
      text: r.prompt,
      contextIds: Array.from({ length: 30 }, (_, k) => k + 1),
      options: r.letters.map((_, k) => ({
        continuation: item.options[k],
        tokenIds: Array.from({ length: [...item.options[k]].length }, (_, t) => 100 + t),
        // Sums of real-looking per-token log-probabilities: −1.3 to −4.1 per token.
        logLikelihood: r.logProbs[k] * [...item.options[k]].length * 2,
        isGreedy: k === 0,
        contextIsPrefix: true,
        unconditional: r.logProbs[k] * [...item.options[k]].length * 2 - 1,
      })),
      reusedPrefixTokens: 0,
      logitsCopied: 0,
      forwardPasses: 1,
      forwardMs: 12.5,
    };
    return { ...clozeResult(r.runId, r.index, item, scored, r.promptHash), completedAt: r.completedAt };
  });
  const { letterTokens: _, ...rest } = run;
  return { run: decorated({ ...rest, config: { ...run.config, scoring: 'cloze', protocolVersion: 1 } }), results: failedAt(results, 1) };
}

/** A generate-extract run: each answer generated and its letter extracted, no probabilities. */
function extractRun(): { run: McRunRecord; results: McItemResult[] } {
  const { run, results } = makeMcRun('extract-1');
  const extracted = results.map((r, i): McItemResult => {
    const prediction = (i % 2 === 0 ? r.letters[0] : r.letters[1]) as OptionLetter;
    const answered: McItemResult = { ...r, tokenIds: [], logProbs: [], probs: [], prediction, correct: r.gold === null ? null : prediction === r.gold, generated: { output: `答案是${prediction}`, rule: 'answer-is', ambiguous: false } };
    // Circular: every other order asked too, each answer extracted (a model that always answers A).
    const rotations = r.letters.slice(1).map((_, i) => {
      const gold = rotatedLetter(r.gold, i + 1, r.letters.length);
      return asRotation({ ...answered, prediction: 'A', gold, correct: gold === null ? null : gold === 'A', generated: { output: '答案是A', rule: 'answer-is', ambiguous: false } }, i + 1);
    });
    return { ...answered, rotations };
  });
  const { letterTokens: _, ...rest } = run;
  return { run: decorated({ ...rest, config: { ...run.config, scoring: 'generate-extract', maxNewTokens: 16, thinking: 'off', circular: true } }), results: failedAt(extracted, 1) };
}

/** The exported file of one kind, as text. */
export function runFile(kind: RunFileKind): string {
  if (kind === 'generation') {
    const { run, results } = makeGenRun();
    const failed = { ...results[1], prompt: '', promptHash: '', output: '', outputTokenIds: [], stoppedBy: 'max-tokens' as const, ms: 0, failure: notice('run.item-too-long', { itemId: results[1].itemId, tokens: 2400, limit: 2048 }) };
    return runJson({ ...run, environment: ENVIRONMENT, config: sampled({ ...run.config, thinking: 'off' as const }, { kind: 'sign-settled', baselineRunId: 'run-a', alpha: 0.05 }, (id) => results.find((r) => r.itemId === id)!.task), label: 'generation', modelCheck: madeModelCheck() }, results.map((r, i) => (i === 1 ? failed : r)));
  }
  const { run, results } = kind === 'letter-logits' ? letterRun() : kind === 'cloze' ? clozeRun() : extractRun();
  return runJson(run, results);
}
