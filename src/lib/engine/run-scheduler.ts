// Runs a stored multiple-choice run to the end: item by item, each result written the moment it
// exists, so a reload, a closed tab or a crashed worker loses at most the item in flight and
// "Resume" (this same function) finishes the rest. One tab at a time per run (Web Locks).
//
// An item that cannot run never ends the run: a prompt over the context limit even with no exemplars
// (the limit is the model's own positions, from its config.json, or less if the user asked) and an
// item the model throws on are stored as failed results with their reason, and the run goes on.
// What would fail every item after it ends the run instead (failed, resumable): a dead worker, out
// of memory, WebGPU lost, a network error, an unexpected exception, or the model throwing on three
// items in a row (then those three are not recorded: they run again on resume). The worker is not restarted
// here: Resume starts a new one (the page drops a crashed client), and goes on from the item in
// flight, so nothing is retried behind the user's back.
import { argmax } from '../core/logprobs.ts';
import { OPTION_LETTERS, scoreLetters } from '../core/protocols/index.ts';
import { extractChoiceDetailed, splitThinking } from '../core/metrics/index.ts';
import type { GenerationItem, Item, MultipleChoiceItem, OptionLetter } from '../core/benchmarks/types.ts';
import type { BackendCheck, GenItemResult, GenRunRecord, ItemResult, McItemResult, McRotationResult, McRunRecord, RunContextLimit, RunRecord, StoredNotice } from '../core/record/run.ts';
import { resolveContextLimit } from '../core/protocols/context-limit.ts';
import { rotateItem } from '../core/protocols/rotation.ts';
import { asRotation, missingRotations, rotationsWanted } from './run-rotations.ts';
import { jianguError, notice, noticeOf, type Notice } from '../core/notices/index.ts';
import { buildGenerationPrompt } from '../core/protocols/generation.ts';
import { sha256Hex } from '../data/hash.ts';
import { loadItems, whyRunItemsAreMissing } from '../store/datasets.ts';
import { getRun, loadResults, saveResult, updateRun } from '../store/runs.ts';
import type { JianguDatabase } from '../store/schema.ts';
import { isQuotaError } from '../store/errors.ts';
import { ModelError, type ModelClient } from './model-client.ts';
import type { GenerateResult, LoadProgress, LoadResult, ScoreItemResult } from './messages.ts';
import { environmentOf, runLoadParams } from './run-load.ts';
import { JianguError } from '../core/notices/index.ts';
import { clozeResult } from './cloze-result.ts';
import { RunProgressCount, type RunProgress } from './run-progress.ts';
import { promptWeigher } from './prompt-weight.ts';
import { letterFindings } from './letter-findings.ts';
import { pairedBaselineFor, stopCheckFor } from './stop-rule.ts';

export { letterFindings } from './letter-findings.ts';

export class RunLockedError extends JianguError {
  constructor(readonly runId: string) {
    super(notice('run.locked'));
    this.name = 'RunLockedError';
  }
}

/**
 * What the run is doing, for the page to say: loading the model (per file, bytes when known),
 * comparing WebGPU with WASM on the first items, or running the items.
 */
export type RunPhase =
  | { kind: 'loading'; files: Record<string, { loaded: number | null; total: number | null; done: boolean }> }
  | { kind: 'checking'; done: number; total: number }
  | { kind: 'running' };

export type { RunProgress } from './run-progress.ts';

export interface ExecuteOptions {
  signal?: AbortSignal;
  onProgress?: (progress: RunProgress) => void;
  onResult?: (result: ItemResult) => void;
  /** Each change of phase (and each file progress event while loading). */
  onPhase?: (phase: RunPhase) => void;
  /** Generation runs: each token of the item in flight, as it is produced. */
  onToken?: (itemId: string, text: string) => void;
  /** A second client on WASM for the pre-run check of a WebGPU run; omitted means no check. */
  wasmClient?: () => ModelClient;
  /** Items compared in the WebGPU check. */
  checkItems?: number;
  /** Largest |Δ log p| between WebGPU and WASM that passes the check. */
  checkTolerance?: number;
}

interface RunContext<R extends RunRecord = RunRecord> {
  run: R;
  items: Map<string, Item>;
  devByTask: Map<string, MultipleChoiceItem[]>;
}

function lockName(runId: string): string {
  return `jiangu-run:${runId}`;
}

/**
 * Whether some tab holds run `runId`'s lock now, i.e. is running it; null where Web Locks are
 * missing. A stored `running` status that no tab holds was left by a closed or reloaded tab.
 */
export async function runLockHeld(runId: string): Promise<boolean | null> {
  const held = await heldRunIds();
  return held === null ? null : held.has(runId);
}

/** The ids of every run some tab holds the lock of (is running) now; null where Web Locks are missing. */
export async function heldRunIds(): Promise<Set<string> | null> {
  if (typeof navigator === 'undefined' || !navigator.locks?.query) return null;
  const state = await navigator.locks.query();
  const prefix = lockName('');
  return new Set((state.held ?? []).flatMap((lock) => (lock.name?.startsWith(prefix) ? [lock.name.slice(prefix.length)] : [])));
}

/** Holds the run's Web Lock while `body` runs; refuses at once when another tab holds it. */
export async function withRunLock<T>(runId: string, body: () => Promise<T>): Promise<T> {
  if (typeof navigator === 'undefined' || !navigator.locks) return body();
  return navigator.locks.request(lockName(runId), { ifAvailable: true }, async (lock) => {
    if (!lock) throw new RunLockedError(runId);
    return body();
  }) as Promise<T>;
}

async function contextFor(db: JianguDatabase, run: RunRecord): Promise<RunContext> {
  const all = await loadItems(db, run.datasetId);
  const items = new Map<string, Item>();
  const devByTask = new Map<string, MultipleChoiceItem[]>();
  for (const item of all) {
    items.set(item.id, item);
    if (item.kind === 'multiple-choice' && item.split === 'dev') devByTask.set(item.task, [...(devByTask.get(item.task) ?? []), item]);
  }
  const missing = run.config.itemIds.filter((id) => !items.has(id));
  if (missing.length > 0) {
    // Say why: never stored, replaced by another import (and by what), or some items gone.
    const why = await whyRunItemsAreMissing(db, run.config);
    throw why ? new JianguError(why) : jianguError('run.items-missing', { count: missing.length, first: missing[0], datasetId: run.datasetId });
  }
  return { run, items, devByTask };
}

/** The limit applied; records from before it was recorded keep their configuration's. */
function appliedLimit(run: RunRecord): number {
  return run.contextLimit?.tokens ?? (run.config.kind === 'multiple-choice' ? run.config.contextLimit : 2048);
}

function scoreRequest(ctx: RunContext<McRunRecord>, item: MultipleChoiceItem) {
  const c = ctx.run.config;
  return {
    protocolId: c.protocolId,
    item,
    exemplars: ctx.devByTask.get(item.task) ?? [],
    shots: c.shots,
    contextLimit: appliedLimit(ctx.run),
    chatTemplate: c.chatTemplate,
    reusePrefix: c.prefixReuse,
  };
}

async function toResult(run: McRunRecord, index: number, item: MultipleChoiceItem, scored: ScoreItemResult): Promise<McItemResult> {
  const letters = scored.score.candidates.map((c) => c.text as OptionLetter);
  const outcome = scoreLetters(letters, scored.score.candidates.map((c) => c.logProb), item.answer);
  return {
    runId: run.id,
    itemId: item.id,
    task: item.task,
    index,
    prompt: scored.prompt,
    promptHash: await sha256Hex(new TextEncoder().encode(scored.score.text)),
    tokenCount: scored.score.inputIds.length,
    shotsUsed: scored.shotsUsed,
    exemplarIds: scored.exemplarIds,
    letters,
    tokenIds: scored.score.candidates.map((c) => c.tokenId),
    logProbs: outcome.logProbs,
    probs: outcome.letterProbs,
    prediction: outcome.prediction,
    gold: item.answer,
    correct: outcome.correct,
    reusedPrefixTokens: scored.score.reusedPrefixTokens,
    forwardMs: scored.score.forwardMs,
    completedAt: new Date().toISOString(),
  };
}

/**
 * Scores the first items on WASM too and compares; quantized WebGPU kernels are wrong on some devices.
 * Letter runs compare each letter's log-probability; cloze runs each option's summed log-probability
 * divided by its token count (the same number for a one-token letter), and the option the acc rule picks.
 */
async function backendCheck(ctx: RunContext<McRunRecord>, gpu: ModelClient, wasm: ModelClient, count: number, tolerance: number, onPhase?: (phase: RunPhase) => void): Promise<BackendCheck> {
  const c = ctx.run.config;
  const cloze = c.scoring === 'cloze';
  await wasm.load({ source: c.model.source, dtype: c.model.dtype, backend: 'wasm', ...(cloze ? { statistics: true } : {}) });
  /** Per option the number compared, and the option predicted (the acc rule for cloze: the largest sum, first on ties). */
  const scores = async (client: ModelClient, item: MultipleChoiceItem): Promise<{ compared: number[]; predicted: number }> => {
    if (!cloze) {
      const compared = (await client.scoreItem(scoreRequest(ctx, item))).score.candidates.map((x) => x.logProb);
      return { compared, predicted: argmax(compared) };
    }
    const { options } = await client.scoreClozeItem({ ...scoreRequest(ctx, item), unconditional: false });
    return { compared: options.map((o) => o.logLikelihood / Math.max(1, o.tokenIds.length)), predicted: argmax(options.map((o) => o.logLikelihood)) };
  };
  // Items too long for the model are skipped: they are not run on either backend.
  const ids: string[] = [];
  let maxDiff = 0;
  const mismatched: string[] = [];
  for (const id of c.itemIds) {
    if (ids.length >= count) break;
    onPhase?.({ kind: 'checking', done: ids.length, total: count });
    const item = ctx.items.get(id) as MultipleChoiceItem;
    let a: Awaited<ReturnType<typeof scores>>, b: Awaited<ReturnType<typeof scores>>;
    try {
      [a, b] = await Promise.all([scores(gpu, item), scores(wasm, item)]);
    } catch (error) {
      if (error instanceof ModelError && error.code === 'too-long') continue;
      throw error;
    }
    ids.push(id);
    a.compared.forEach((v, i) => (maxDiff = Math.max(maxDiff, Math.abs(v - b.compared[i]))));
    if (a.predicted !== b.predicted) mismatched.push(id);
  }
  return { itemIds: ids, tolerance, maxLogProbDiff: maxDiff, mismatchedPredictions: mismatched, passed: mismatched.length === 0 && maxDiff <= tolerance };
}

/** Keeps the decoding options the worker actually used, once per run (every item uses the same). */
async function recordDecoding(db: JianguDatabase, ctx: RunContext, generated: GenerateResult): Promise<void> {
  if (ctx.run.decodingOptions || !generated.decoding) return;
  ctx.run = await updateRun(db, ctx.run.id, { decodingOptions: generated.decoding });
}

/** Generates one item's output with the run's decoding, streaming its tokens. */
async function generateOne(db: JianguDatabase, ctx: RunContext, index: number, item: GenerationItem, client: ModelClient, options: ExecuteOptions): Promise<GenItemResult> {
  const run = ctx.run as GenRunRecord;
  const c = run.config;
  const prompt = buildGenerationPrompt(item);
  const generated = await client.generate(
    {
      prompt,
      itemId: item.id,
      maxNewTokens: c.maxNewTokens,
      chatTemplate: c.chatTemplate,
      ...(c.decoding.kind === 'sample' ? { sampling: { topK: c.decoding.topK, topP: c.decoding.topP, seed: c.decoding.seed } } : {}),
    },
    { signal: options.signal, onToken: (_id, text) => options.onToken?.(item.id, text) },
  );
  await recordDecoding(db, ctx, generated);
  return {
    runId: run.id,
    itemId: item.id,
    task: item.task,
    generationTask: item.generationTask,
    index,
    prompt,
    promptHash: await sha256Hex(new TextEncoder().encode(generated.promptText)),
    tokenCount: generated.inputIds.length,
    output: generated.text,
    outputTokenIds: generated.tokenIds,
    stoppedBy: generated.stoppedBy,
    references: item.references,
    ms: generated.ms,
    completedAt: new Date().toISOString(),
  };
}

/** Multiple choice by generation: a greedy answer, then the letter it names (or none). */
async function generateChoice(db: JianguDatabase, ctx: RunContext<McRunRecord>, index: number, item: MultipleChoiceItem, client: ModelClient, options: ExecuteOptions): Promise<McItemResult> {
  const run = ctx.run;
  const answered = await client.generateItem(
    { ...scoreRequest(ctx, item), reusePrefix: false, maxNewTokens: run.config.maxNewTokens ?? 32 },
    { signal: options.signal },
  );
  await recordDecoding(db, ctx, answered.generation);
  const letters = OPTION_LETTERS.slice(0, item.options.length) as OptionLetter[];
  // A think block names letters it weighs; only the answer after it is read.
  const extraction = extractChoiceDetailed(splitThinking(answered.generation.text).answer, letters, item.options);
  const prediction = extraction.letter as OptionLetter | null;
  return {
    runId: run.id,
    itemId: item.id,
    task: item.task,
    index,
    prompt: answered.prompt,
    promptHash: await sha256Hex(new TextEncoder().encode(answered.generation.promptText)),
    tokenCount: answered.generation.inputIds.length,
    shotsUsed: answered.shotsUsed,
    exemplarIds: answered.exemplarIds,
    letters,
    tokenIds: [],
    logProbs: [],
    probs: [],
    prediction,
    generated: { output: answered.generation.text, rule: extraction.rule, ambiguous: extraction.ambiguous },
    gold: item.answer,
    correct: item.answer === null ? null : prediction === item.answer,
    reusedPrefixTokens: 0,
    forwardMs: answered.generation.ms,
    completedAt: new Date().toISOString(),
  };
}

/** Scores one multiple-choice item, recording what the first item says about the letter tokens. */
async function scoreOne(
  db: JianguDatabase,
  ctx: RunContext<McRunRecord>,
  index: number,
  item: MultipleChoiceItem,
  client: ModelClient,
  signal?: AbortSignal,
  next?: MultipleChoiceItem,
): Promise<McItemResult> {
  // `next`: what the run will ask after this, for the worker to score while this result is stored.
  const scored = await client.scoreItem({ ...scoreRequest(ctx, item), ...(next ? { next: scoreRequest(ctx, next) } : {}) }, { signal });
  const run = ctx.run;
  if (!run.letterTokens) {
    const findings = letterFindings(scored);
    ctx.run = await updateRun<McRunRecord>(db, run.id, { letterTokens: findings.letterTokens, warnings: [...run.warnings, ...findings.warnings] });
  }
  return toResult(ctx.run, index, item, scored);
}

/** Scores one item by its option texts (cloze), with the answer cue's scores for PMI. */
async function clozeOne(ctx: RunContext<McRunRecord>, index: number, item: MultipleChoiceItem, client: ModelClient, signal?: AbortSignal): Promise<McItemResult> {
  const scored = await client.scoreClozeItem({ ...scoreRequest(ctx, item), unconditional: true }, { signal });
  return clozeResult(ctx.run.id, index, item, scored, await sha256Hex(new TextEncoder().encode(scored.text)));
}

/**
 * Whether `error`, thrown on one item, is that item's alone (its prompt too long; the model threw on
 * it) rather than something that would fail every item after it (a dead or stopped worker, out of
 * memory, WebGPU lost, the network, a bug in this code).
 */
export function failsOnlyThisItem(error: unknown): boolean {
  if (!(error instanceof ModelError)) return false;
  if (error.code === 'too-long') return true;
  // An item's own data refused by the protocol; other bad requests (no chat template) hold for every item.
  if (error.code === 'bad-request') return error.notice.code.startsWith('run.');
  return error.code === 'internal' && error.notice.code === 'model.failed';
}

/** Model errors in a row (no item between them run) after which the run stops instead of recording them. */
const MAX_MODEL_FAILURES = 3;

/** A failed item as a result: no prediction, not scored, its reason kept (see McItemResult.failure). */
function failedResult(run: RunRecord, index: number, item: Item, failure: Notice): ItemResult {
  const base = { runId: run.id, itemId: item.id, task: item.task, index, prompt: '', promptHash: '', tokenCount: typeof failure.params.tokens === 'number' ? failure.params.tokens : 0, completedAt: new Date().toISOString(), failure };
  if (item.kind === 'multiple-choice') {
    return {
      ...base,
      shotsUsed: 0,
      exemplarIds: [],
      letters: OPTION_LETTERS.slice(0, item.options.length) as OptionLetter[],
      tokenIds: [],
      logProbs: [],
      probs: [],
      prediction: null,
      gold: item.answer,
      correct: null,
      reusedPrefixTokens: 0,
      forwardMs: 0,
    };
  }
  return { ...base, generationTask: item.generationTask, output: '', outputTokenIds: [], stoppedBy: 'max-tokens', references: item.references, ms: 0 };
}

/** A rotation that could not be run: no prediction, not scored, its reason kept. */
function failedRotation(item: MultipleChoiceItem, k: number, failure: Notice): McRotationResult {
  const rotated = rotateItem(item, k);
  return {
    rotation: k,
    promptHash: '',
    tokenCount: typeof failure.params.tokens === 'number' ? failure.params.tokens : 0,
    letters: OPTION_LETTERS.slice(0, item.options.length) as OptionLetter[],
    tokenIds: [],
    logProbs: [],
    probs: [],
    prediction: null,
    gold: rotated.answer,
    correct: null,
    reusedPrefixTokens: 0,
    forwardMs: 0,
    completedAt: new Date().toISOString(),
    failure,
  };
}

/** The applied context limit for a run on a model whose config says `info.context`. */
function contextLimitFor(run: RunRecord, info: LoadResult): RunContextLimit {
  const asked = run.contextLimit?.asked ?? 'default';
  const askedTokens = run.config.kind === 'multiple-choice' ? run.config.contextLimit : 2048;
  return resolveContextLimit(asked, askedTokens, info.context ?? null);
}

/**
 * Runs (or resumes) run `runId` with `client`, which it loads with the run's model. Returns the
 * run as it ends: completed, paused (cancelled through `signal`, or stopped by a failed WebGPU
 * check), or failed (the error is recorded and thrown). Multiple-choice and generation runs share
 * all of it but the per-item step.
 */
export async function executeRun(db: JianguDatabase, runId: string, client: ModelClient, options: ExecuteOptions = {}): Promise<RunRecord> {
  return withRunLock(runId, async () => {
    const stored = await getRun(db, runId);
    if (!stored) throw jianguError('run.not-stored', { runId });
    if (stored.status === 'completed') return stored;
    try {
      const ctx = await contextFor(db, stored);
      ctx.run = await updateRun(db, runId, { status: 'running' });
      const files: Extract<RunPhase, { kind: 'loading' }>['files'] = {};
      options.onPhase?.({ kind: 'loading', files: {} });
      const info = await client.load(runLoadParams(ctx.run.config), {
        onProgress: (p: LoadProgress) => {
          files[p.file] = { loaded: p.loaded ?? files[p.file]?.loaded ?? null, total: p.total ?? files[p.file]?.total ?? null, done: p.status === 'done' };
          options.onPhase?.({ kind: 'loading', files: { ...files } });
        },
      });
      ctx.run = await updateRun(db, runId, { environment: environmentOf(info), contextLimit: contextLimitFor(ctx.run, info), ...(info.modelCheck ? { modelCheck: info.modelCheck } : {}) });

      const mc = ctx.run.config.kind === 'multiple-choice' ? (ctx as RunContext<McRunRecord>) : null;
      if (mc && mc.run.config.scoring !== 'generate-extract' && info.backendInfo.backend === 'webgpu' && options.wasmClient && !mc.run.check?.passed && !mc.run.check?.overridden) {
        const wasm = options.wasmClient();
        try {
          options.onPhase?.({ kind: 'checking', done: 0, total: options.checkItems ?? 3 });
          const check = await backendCheck(mc, client, wasm, options.checkItems ?? 3, options.checkTolerance ?? 1e-2, options.onPhase);
          ctx.run = await updateRun(db, runId, { check, ...(check.passed ? {} : { status: 'paused' }) });
          if (!check.passed) return ctx.run;
        } finally {
          wasm.terminate();
        }
      }

      const itemIds = ctx.run.config.itemIds;
      // Rotations: every item of a circular run, else PriDe's estimation items (see run-rotations.ts).
      const mcConfig = mc?.run.config ?? null;
      const estimation = new Set(mcConfig?.pride?.estimationItemIds ?? []);
      const wanted = (item: Item) => (mcConfig && item.kind === 'multiple-choice' ? rotationsWanted(mcConfig, item.id, item.options.length, estimation) : 0);
      const missing = (result: ItemResult, item: Item) => (item.kind === 'multiple-choice' && 'letters' in result ? missingRotations(result, wanted(item)) : 0);
      const byItem = new Map((await loadResults(db, runId)).map((r) => [r.itemId, r]));
      // Items count once their result and every rotation are stored; prompts count each rotation.
      const progress = new RunProgressCount(itemIds, ctx.items, byItem, wanted, missing, promptWeigher(ctx.run.config, ctx.devByTask));
      const report = () => options.onProgress?.(progress.progress());
      // A stop rule (stop-rule.ts) sees every stored result in run order and may end the run early, completed.
      const stop = stopCheckFor(ctx.run, [...byItem.values()], await pairedBaselineFor(db, ctx.run));
      options.onPhase?.({ kind: 'running' });
      report();
      const record = async (result: ItemResult, item: Item) => {
        await saveResult(db, result);
        byItem.set(item.id, result);
        stop?.observe(result);
        progress.itemStored(result, item);
        options.onResult?.(result);
        report();
      };
      // Failed items and rotations the model threw on, stored once it succeeds on a prompt (or at the end).
      const heldBack: (() => Promise<void>)[] = [];
      const flush = async () => {
        for (const store of heldBack.splice(0)) await store();
      };
      // Model failures in a row (items or rotations), reset by any success.
      let failureStreak = 0;
      /** Asks the rotations `result` lacks, storing the result again after each; false when cancelled. */
      const askRotations = async (index: number, item: MultipleChoiceItem, first: McItemResult): Promise<boolean> => {
        let result = first;
        const want = wanted(item);
        // Failed rotations held back until the model succeeds on one (as items are), so a broken model stops the run.
        const pending: McRotationResult[] = [];
        const store = async (rotations: McRotationResult[]) => {
          result = { ...result, rotations: [...(result.rotations ?? []), ...rotations] };
          await saveResult(db, result);
          byItem.set(item.id, result);
          progress.rotationsStored(result, item, rotations);
          report();
        };
        // The page hears of the item once, with all its rotations (each is stored at once all the same):
        // a page that redrew its results after every rotation would spend more than a tiny model's forward.
        const told = () => result !== first && options.onResult?.(result);
        for (let k = (result.rotations?.length ?? 0) + 1; k <= want; k++) {
          if (options.signal?.aborted) {
            told();
            return false;
          }
          let rotation: McRotationResult;
          try {
            rotation = asRotation(await scoreAs(mc!, index, rotateItem(item, k), client, options, guessAfter(index, item, k)), k);
          } catch (error) {
            if (options.signal?.aborted || !failsOnlyThisItem(error)) throw new ItemStop(item.id, error);
            rotation = failedRotation(item, k, noticeOf(error));
            if (rotation.failure?.code !== 'run.item-too-long') {
              pending.push(rotation);
              if (++failureStreak >= MAX_MODEL_FAILURES) throw new ItemStop(item.id, error);
              continue;
            }
          }
          if (options.signal?.aborted) {
            told();
            return false;
          }
          failureStreak = 0;
          await flush();
          await store([...pending.splice(0), rotation]);
        }
        if (pending.length > 0) {
          // The item's last rotations failed: held back like failed items, so a model broken from
          // here on stops the run with them unstored (they run again on resume).
          const failed = pending.splice(0);
          heldBack.push(async () => {
            await store(failed);
            told();
          });
        } else told();
        return true;
      };
      const scoreAs = (run: RunContext<McRunRecord>, index: number, item: MultipleChoiceItem, model: ModelClient, opts: ExecuteOptions, next?: MultipleChoiceItem) =>
        run.run.config.scoring === 'generate-extract'
          ? generateChoice(db, run, index, item, model, opts)
          : run.run.config.scoring === 'cloze'
            ? clozeOne(run, index, item, model, opts.signal)
            : scoreOne(db, run, index, item, model, opts.signal, next);
      /**
       * What the run will most likely ask after rotation k of `item` (0: its own prompt): its next
       * rotation, else the next item with nothing stored. A guess for the worker's read-ahead only:
       * a wrong one costs one item's time, never a different result.
       */
      const guessAfter = (index: number, item: MultipleChoiceItem, k: number): MultipleChoiceItem | undefined => {
        if (k < wanted(item)) return rotateItem(item, k + 1);
        for (let j = index + 1; j < itemIds.length; j++) {
          const later = ctx.items.get(itemIds[j])!;
          const stored = byItem.get(itemIds[j]);
          if (!stored) return later.kind === 'multiple-choice' ? later : undefined;
          // A later item with rotations missing is asked for those: not guessed.
          if (missing(stored, later) > 0) return undefined;
        }
        return undefined;
      };
      for (const [index, id] of itemIds.entries()) {
        const item = ctx.items.get(id)!;
        let result = byItem.get(id);
        if (result && missing(result, item) === 0) continue;
        if (options.signal?.aborted) return await updateRun(db, runId, { status: 'paused' });
        if (stop?.met()) break;
        if (!result) {
          try {
            result = mc && item.kind === 'multiple-choice' ? await scoreAs(mc, index, item, client, options, guessAfter(index, item, 0)) : await generateOne(db, ctx, index, item as GenerationItem, client, options);
          } catch (error) {
            if (options.signal?.aborted || !failsOnlyThisItem(error)) throw new ItemStop(item.id, error);
            result = failedResult(ctx.run, index, item, noticeOf(error));
            // A model that throws on item after item is broken, not the items: held back until the
            // model succeeds on one, and after MAX_MODEL_FAILURES in a row the run stops (they run again on resume).
            if (result.failure?.code !== 'run.item-too-long') {
              const failed = result;
              heldBack.push(() => record(failed, item));
              if (++failureStreak >= MAX_MODEL_FAILURES) throw new ItemStop(item.id, error);
              continue;
            }
          }
          // A generation cancelled mid-way is not a result: the item runs again on resume.
          if (options.signal?.aborted) return await updateRun(db, runId, { status: 'paused' });
          failureStreak = 0;
          await flush();
          await record(result, item);
        }
        // Rotation 0 is stored; then the others, each stored as it comes (a reload resumes from the next).
        if (mc && item.kind === 'multiple-choice' && missing(result, item) > 0) {
          if (!(await askRotations(index, item, result as McItemResult))) return await updateRun(db, runId, { status: 'paused' });
        }
      }
      await flush();
      return await updateRun(db, runId, { status: 'completed' });
    } catch (caught) {
      // A cancel is a pause: the item in flight is dropped, everything before it is kept.
      if (options.signal?.aborted) return await updateRun(db, runId, { status: 'paused' });
      const error = caught instanceof ItemStop ? caught.cause : caught;
      // With no room left the failure cannot be written either: the record stays as it was (shown
      // interrupted, resumable) and the page hears why the run stopped, not that this write failed.
      await updateRun(db, runId, { status: 'failed', error: stoppedBy(caught) }).catch((e: unknown) => {
        if (!isQuotaError(e)) throw e;
      });
      throw error;
    }
  });
}

/** An error on an item that ends the run (see failsOnlyThisItem), with the item it happened on. */
class ItemStop extends Error {
  constructor(
    readonly itemId: string,
    override readonly cause: unknown,
  ) {
    super(cause instanceof Error ? cause.message : String(cause));
  }
}

/** What the run record says stopped it: a dead worker names the item it was on; anything else as caught. */
function stoppedBy(caught: unknown): StoredNotice {
  if (caught instanceof ItemStop) {
    const n = noticeOf(caught.cause);
    if (n.code.startsWith('model.worker-')) return notice('run.worker-died', { itemId: caught.itemId, detail: caught.message });
    return n;
  }
  return noticeOf(caught);
}
