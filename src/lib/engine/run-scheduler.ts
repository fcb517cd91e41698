// Runs a stored multiple-choice run to the end: item by item, each result written the moment it
// exists, so a reload, a closed tab or a crashed worker loses at most the item in flight and
// "Resume" (this same function) finishes the rest. One tab at a time per run (Web Locks).
import { argmax } from '../core/logprobs.ts';
import { OPTION_LETTERS, scoreLetters } from '../core/protocols/index.ts';
import { extractChoiceDetailed } from '../core/metrics/index.ts';
import type { GenerationItem, Item, MultipleChoiceItem, OptionLetter } from '../core/benchmarks/types.ts';
import type { BackendCheck, GenItemResult, GenRunRecord, ItemResult, LetterToken, McItemResult, McRunRecord, RunRecord } from '../core/record/run.ts';
import { buildGenerationPrompt } from '../core/protocols/generation.ts';
import { sha256Hex } from '../data/hash.ts';
import { loadItems } from '../store/datasets.ts';
import { getRun, loadResults, saveResult, updateRun } from '../store/runs.ts';
import type { JianguDatabase } from '../store/schema.ts';
import type { ModelClient } from './model-client.ts';
import type { LoadResult, ScoreItemResult } from './messages.ts';

export class RunLockedError extends Error {
  constructor(readonly runId: string) {
    super('This run is already running in another tab or window. Close it there, or wait for it to finish.');
    this.name = 'RunLockedError';
  }
}

export interface RunProgress {
  done: number;
  total: number;
  perTask: Record<string, { done: number; total: number }>;
  /** Over the items scored since this (re)start. */
  itemsPerSecond: number;
  etaSeconds: number | null;
}

export interface ExecuteOptions {
  signal?: AbortSignal;
  onProgress?: (progress: RunProgress) => void;
  onResult?: (result: ItemResult) => void;
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

/** Holds the run's Web Lock while `body` runs; refuses at once when another tab holds it. */
async function withRunLock<T>(runId: string, body: () => Promise<T>): Promise<T> {
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
    throw new Error(`${missing.length} items of this run are no longer stored (e.g. ${missing[0]}): download ${run.datasetId} again.`);
  }
  return { run, items, devByTask };
}

function scoreRequest(ctx: RunContext<McRunRecord>, item: MultipleChoiceItem) {
  const c = ctx.run.config;
  return {
    protocolId: c.protocolId,
    item,
    exemplars: ctx.devByTask.get(item.task) ?? [],
    shots: c.shots,
    contextLimit: c.contextLimit,
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

/** What the first scored item says about the letter tokens, as warnings a reader should see. */
function letterFindings(scored: ScoreItemResult): { letterTokens: LetterToken[]; warnings: string[] } {
  const warnings: string[] = [];
  const letterTokens = scored.score.candidates.map((c) => {
    if (c.tokenCount !== 1) warnings.push(`The letter ${c.text} is ${c.tokenCount} tokens for this tokenizer; only its first token (${c.tokenId}) is scored.`);
    if (c.mergesWithPrompt) warnings.push(`The letter ${c.text} merges with the prompt's last token when written after it; the scored token ${c.tokenId} is the letter on its own.`);
    return { letter: c.text, tokenId: c.tokenId, singleToken: c.tokenCount === 1 };
  });
  return { letterTokens, warnings };
}

/** Scores the first items on WASM too and compares; quantized WebGPU kernels are wrong on some devices. */
async function backendCheck(ctx: RunContext<McRunRecord>, gpu: ModelClient, wasm: ModelClient, count: number, tolerance: number): Promise<BackendCheck> {
  const c = ctx.run.config;
  await wasm.load({ source: c.model.source, dtype: c.model.dtype, backend: 'wasm' });
  const ids = c.itemIds.slice(0, count);
  let maxDiff = 0;
  const mismatched: string[] = [];
  for (const id of ids) {
    const item = ctx.items.get(id) as MultipleChoiceItem;
    const [a, b] = await Promise.all([gpu.scoreItem(scoreRequest(ctx, item)), wasm.scoreItem(scoreRequest(ctx, item))]);
    const la = a.score.candidates.map((x) => x.logProb);
    const lb = b.score.candidates.map((x) => x.logProb);
    la.forEach((v, i) => (maxDiff = Math.max(maxDiff, Math.abs(v - lb[i]))));
    if (argmax(la) !== argmax(lb)) mismatched.push(id);
  }
  return { itemIds: ids, tolerance, maxLogProbDiff: maxDiff, mismatchedPredictions: mismatched, passed: mismatched.length === 0 && maxDiff <= tolerance };
}

function environmentOf(info: LoadResult) {
  return {
    backendInfo: info.backendInfo,
    modelInputNames: info.inputNames,
    transformersVersion: info.transformersVersion,
    ortVersion: info.ortVersion,
    userAgent: typeof navigator === 'undefined' ? 'node' : navigator.userAgent,
    ...(info.resolvedRevision ? { resolvedRevision: info.resolvedRevision } : {}),
  };
}

/** Generates one item's output with the run's decoding, streaming its tokens. */
async function generateOne(run: GenRunRecord, index: number, item: GenerationItem, client: ModelClient, options: ExecuteOptions): Promise<GenItemResult> {
  const c = run.config;
  const prompt = buildGenerationPrompt(item);
  const generated = await client.generate(
    {
      prompt,
      maxNewTokens: c.maxNewTokens,
      chatTemplate: c.chatTemplate,
      ...(c.decoding.kind === 'sample' ? { sampling: { topK: c.decoding.topK, topP: c.decoding.topP, seed: c.decoding.seed } } : {}),
    },
    { signal: options.signal, onToken: (_id, text) => options.onToken?.(item.id, text) },
  );
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
async function generateChoice(ctx: RunContext<McRunRecord>, index: number, item: MultipleChoiceItem, client: ModelClient, options: ExecuteOptions): Promise<McItemResult> {
  const run = ctx.run;
  const answered = await client.generateItem(
    { ...scoreRequest(ctx, item), reusePrefix: false, maxNewTokens: run.config.maxNewTokens ?? 32 },
    { signal: options.signal },
  );
  const letters = OPTION_LETTERS.slice(0, item.options.length) as OptionLetter[];
  const extraction = extractChoiceDetailed(answered.generation.text, letters, item.options);
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
async function scoreOne(db: JianguDatabase, ctx: RunContext<McRunRecord>, index: number, item: MultipleChoiceItem, client: ModelClient, signal?: AbortSignal): Promise<McItemResult> {
  const scored = await client.scoreItem(scoreRequest(ctx, item), { signal });
  const run = ctx.run;
  if (!run.letterTokens) {
    const findings = letterFindings(scored);
    ctx.run = await updateRun<McRunRecord>(db, run.id, { letterTokens: findings.letterTokens, warnings: [...run.warnings, ...findings.warnings] });
  }
  if (scored.overLimit && !ctx.run.warnings.some((w) => typeof w === 'string' && w.startsWith('Some prompts are longer'))) {
    const warning = `Some prompts are longer than the ${run.config.contextLimit}-token limit even with no exemplars (first: ${item.id}); they were scored as they are.`;
    ctx.run = await updateRun<McRunRecord>(db, run.id, { warnings: [...ctx.run.warnings, warning] });
  }
  return toResult(ctx.run, index, item, scored);
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
    if (!stored) throw new Error(`No run ${runId} is stored.`);
    if (stored.status === 'completed') return stored;
    try {
      const ctx = await contextFor(db, stored);
      ctx.run = await updateRun(db, runId, { status: 'running' });
      const model = ctx.run.config.model;
      const info = await client.load({ source: model.source, dtype: model.dtype, backend: model.backend });
      ctx.run = await updateRun(db, runId, { environment: environmentOf(info) });

      const mc = ctx.run.config.kind === 'multiple-choice' ? (ctx as RunContext<McRunRecord>) : null;
      if (mc && mc.run.config.scoring === 'letter-logits' && info.backendInfo.backend === 'webgpu' && options.wasmClient && !mc.run.check?.passed && !mc.run.check?.overridden) {
        const wasm = options.wasmClient();
        try {
          const check = await backendCheck(mc, client, wasm, options.checkItems ?? 3, options.checkTolerance ?? 1e-2);
          ctx.run = await updateRun(db, runId, { check, ...(check.passed ? {} : { status: 'paused' }) });
          if (!check.passed) return ctx.run;
        } finally {
          wasm.terminate();
        }
      }

      const itemIds = ctx.run.config.itemIds;
      const done = new Set((await loadResults(db, runId)).map((r) => r.itemId));
      const perTask: RunProgress['perTask'] = {};
      for (const id of itemIds) {
        const entry = (perTask[ctx.items.get(id)!.task] ??= { done: 0, total: 0 });
        entry.total++;
        if (done.has(id)) entry.done++;
      }
      const started = performance.now();
      let doneNow = 0;
      const report = () => {
        const elapsed = (performance.now() - started) / 1000;
        const rate = doneNow > 0 && elapsed > 0 ? doneNow / elapsed : 0;
        const left = itemIds.length - done.size;
        options.onProgress?.({ done: done.size, total: itemIds.length, perTask, itemsPerSecond: rate, etaSeconds: rate > 0 ? left / rate : null });
      };
      report();
      for (const [index, id] of itemIds.entries()) {
        if (done.has(id)) continue;
        if (options.signal?.aborted) return await updateRun(db, runId, { status: 'paused' });
        const item = ctx.items.get(id)!;
        const result: ItemResult =
          mc && item.kind === 'multiple-choice'
            ? mc.run.config.scoring === 'generate-extract'
              ? await generateChoice(mc, index, item, client, options)
              : await scoreOne(db, mc, index, item, client, options.signal)
            : await generateOne(ctx.run as GenRunRecord, index, item as GenerationItem, client, options);
        // A generation cancelled mid-way is not a result: the item runs again on resume.
        if (options.signal?.aborted) return await updateRun(db, runId, { status: 'paused' });
        await saveResult(db, result);
        done.add(id);
        perTask[item.task].done++;
        doneNow++;
        options.onResult?.(result);
        report();
      }
      return await updateRun(db, runId, { status: 'completed' });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      // A cancel is a pause: the item in flight is dropped, everything before it is kept.
      if (options.signal?.aborted) return await updateRun(db, runId, { status: 'paused' });
      await updateRun(db, runId, { status: 'failed', error: message });
      throw error;
    }
  });
}
