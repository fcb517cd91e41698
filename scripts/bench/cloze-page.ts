// What the cloze bench runs inside the harness page: a sequence of items scored through the page's
// ModelClient (letters with scoreItem, option texts with scoreClozeItem, as a run asks them), and a
// profile of the cloze work replayed on a bare onnxruntime-web session in the page (mc-page.ts's
// pageBareSetup), phase by phase. Every time is taken in the page with performance.now().
//
// These functions are serialised by page.evaluate, so each must be self-contained: no imports used at
// run time. Named inner functions are allowed only because the bench defines esbuild's `__name`
// helper in the page first (installNameHelper): tsx compiles with keepNames.
import type * as Ort from 'onnxruntime-web';
import type { Page } from 'playwright-core';
import type { MultipleChoiceItem } from '../../src/lib/core/benchmarks/types.ts';
import type { McProtocolId } from '../../src/lib/core/protocols/mc-protocols.ts';
import type { ScoreClozeItemResult, ScoreItemResult } from '../../src/lib/engine/messages.ts';
import type { ModelClient } from '../../src/lib/engine/model-client.ts';

/** What mc-page.ts keeps on the page (its pageLoad and pageBareSetup fill it; this file reads it). */
interface BenchWindow {
  mcClient?: ModelClient;
  /** The same model loaded as cloze runs load it (with Jiangu's statistics outputs); see pageLoadCloze. */
  clozeClient?: ModelClient;
  mcBare?: {
    ort: typeof Ort;
    session: Ort.InferenceSession;
    layers: number;
    kvHeads: number;
    headDim: number;
  };
}

/** esbuild's keepNames helper (`__name(fn, "name")`), which tsx's output calls and the page lacks. */
export async function installNameHelper(page: Page): Promise<void> {
  await page.evaluate('globalThis.__name ??= (target) => target');
}

export type Formulation = 'letter' | 'cloze';

export interface SequenceArgs {
  formulation: Formulation;
  protocolId: McProtocolId;
  items: MultipleChoiceItem[];
  /** Dev items per task. */
  exemplars: Record<string, MultipleChoiceItem[]>;
  shots: number;
  reusePrefix: boolean;
  /** Cloze: also score each option after the answer cue alone (PMI), as runs do. */
  unconditional: boolean;
  /** Letter: name the next item (ScoreItemParams.next) as a run does; never on the last item. */
  readAhead: boolean;
  contextLimit: number;
  /** Scored first and not timed (it puts the mode's exemplar prefix in the worker's cache). */
  prime?: MultipleChoiceItem;
  /** Return each item's whole result (for metrics), not only its counters. */
  keepResults: boolean;
}

export interface SequenceItem {
  id: string;
  task: string;
  /** Page time of this request. */
  ms: number;
  /** The worker's own time (ScoreResult.forwardMs / ScoreClozeItemResult.forwardMs). */
  workerMs: number;
  logitsCopied: number;
  forwardPasses: number;
  reusedPrefixTokens: number;
  /** Letter: the prompt's tokens; cloze: the context's. */
  contextTokens: number;
  /** Cloze: each option's continuation tokens. */
  optionTokens?: number[];
  letter?: ScoreItemResult;
  cloze?: ScoreClozeItemResult;
}

export interface SequenceRun {
  /** Page time around the timed requests (the prime excluded). */
  totalMs: number;
  primeMs?: number;
  items: SequenceItem[];
  error?: string;
}

/** Scores the items one after another, as a run does, timing each request in the page. */
export const pageSequence = async (a: SequenceArgs): Promise<SequenceRun> => {
  const client = (window as unknown as BenchWindow).mcClient;
  const items: SequenceItem[] = [];
  let primeMs: number | undefined;
  let totalMs = 0;
  let error: string | undefined;
  function request(item: MultipleChoiceItem) {
    return { protocolId: a.protocolId, item, exemplars: a.exemplars[item.task] ?? [], shots: a.shots, contextLimit: a.contextLimit, chatTemplate: false, reusePrefix: a.reusePrefix };
  }
  async function one(item: MultipleChoiceItem, next: MultipleChoiceItem | undefined): Promise<SequenceItem> {
    if (!client) throw new Error('no client: load first');
    const t0 = performance.now();
    if (a.formulation === 'letter') {
      const r = await client.scoreItem(next && a.readAhead ? { ...request(item), next: request(next) } : request(item));
      const ms = performance.now() - t0;
      const s = r.score;
      return { id: item.id, task: item.task, ms, workerMs: s.forwardMs, logitsCopied: s.logitsCopied, forwardPasses: s.forwardPasses, reusedPrefixTokens: s.reusedPrefixTokens, contextTokens: s.inputIds.length, ...(a.keepResults ? { letter: r } : {}) };
    }
    const r = await ((window as unknown as BenchWindow).clozeClient ?? client).scoreClozeItem({ ...request(item), unconditional: a.unconditional });
    const ms = performance.now() - t0;
    return {
      id: item.id,
      task: item.task,
      ms,
      workerMs: r.forwardMs,
      logitsCopied: r.logitsCopied,
      forwardPasses: r.forwardPasses,
      reusedPrefixTokens: r.reusedPrefixTokens,
      contextTokens: r.contextIds.length,
      optionTokens: r.options.map((o) => o.tokenIds.length),
      ...(a.keepResults ? { cloze: r } : {}),
    };
  }
  try {
    if (a.prime) {
      const t0 = performance.now();
      await one(a.prime, undefined);
      primeMs = performance.now() - t0;
    }
    const started = performance.now();
    for (let i = 0; i < a.items.length; i++) items.push(await one(a.items[i], a.items[i + 1]));
    totalMs = performance.now() - started;
  } catch (e) {
    const err = e as { code?: string; message?: string; detail?: string };
    error = [err.code, err.message ?? String(e), err.detail].filter((p) => p).join(': ');
  }
  return { totalMs, primeMs, items, error };
};

// ---- the profile: the cloze work replayed on a bare session, phase by phase -----------------------

export interface ProfileItem {
  id: string;
  /** The cloze context's tokens (ScoreClozeItemResult.contextIds). */
  contextIds: number[];
  /** Leading context tokens on the exemplar prefix cache (0: none). */
  prefixLength: number;
  /** Each option's continuation tokens. */
  options: number[][];
  /** PMI: the answer cue's own tokens, and each option's continuation tokens after it. */
  cueIds: number[];
  cueOptions: number[][];
}

export interface ProfileArgs {
  items: ProfileItem[];
  vocab: number;
  /** Each item's phases run this many times; each phase's median is kept (2 shared cores are noisy). */
  repeats: number;
}

/** Page ms per item of each phase (sums over the item's options where there are several). */
export interface ProfilePhases {
  id: string;
  contextTokens: number;
  /** Context tokens run on the prefix cache. */
  newContextTokens: number;
  /** Logits rows of the option passes (Σ over options of tokens − 1), conditional and after the cue. */
  optionRows: number;
  /** Option passes (options of two tokens or more: a one-token option is scored from the context's row alone). */
  optionPassCount: number;
  cueRows: number;
  /** The context's new tokens on the prefix cache, last row only, logits and present.* fetched (both the letter and the cloze path pay this). */
  contextPrefill: number;
  /** Every option's pass on the context's state, every row kept, logits and present.* fetched (what the worker does). */
  optionPasses: number;
  /** The same passes keeping one logits row: the difference is the full-vocabulary rows' cost in the graph (the LM head) and their copy out. */
  optionPassesOneRow: number;
  /** The same passes, every row kept, only `logits` fetched: the difference is copying present.* (the whole context's KV) out of the session. */
  optionPassesLogitsOnly: number;
  /** Copying the option passes' logits rows once in JS (what copying them out of the wasm heap costs, about). */
  logitsCopy: number;
  /** The option rows' full-vocabulary log-softmax and argmax in JS, as continuationScore does it (the context's last row again for every option). */
  logSoftmax: number;
  /** The same with the context's last row normalised once per item. */
  logSoftmaxOnce: number;
  /** PMI: every option's pass on the cached answer-cue state, every row kept. */
  cuePasses: number;
  /** PMI: those rows' log-softmax and argmax, as continuationScore does it. */
  cueLogSoftmax: number;
}

export interface ProfileRun {
  items: ProfilePhases[];
  /** The exemplar prefix and the answer cue, computed once (ms). */
  setupMs: number;
  error?: string;
}

/**
 * Replays each item's cloze work on the bare session (set up by mc-page.ts's pageBareSetup): the
 * context on the prefix's cache, then each option's tokens but the last on the context's state, as
 * workers/cloze.ts does, timing each phase, and variants that isolate what the full-vocabulary rows
 * and the KV outputs cost. The log-softmax is the same arithmetic as src/lib/core/logprobs.ts.
 */
export const pageProfile = async (a: ProfileArgs): Promise<ProfileRun> => {
  const bare = (window as unknown as BenchWindow).mcBare;
  const out: ProfilePhases[] = [];
  let setupMs = 0;
  if (!bare) return { items: out, setupMs, error: 'no bare session: set it up first' };
  const { ort, session, layers, kvHeads, headDim } = bare;
  const hasKeep = session.inputNames.includes('num_logits_to_keep');
  const presentNames: string[] = [];
  for (let l = 0; l < layers; l++) presentNames.push(`present.${l}.key`, `present.${l}.value`);
  type Cache = Record<string, Ort.Tensor> | null;
  async function run(ids: readonly number[], past: Cache, pastLength: number, keep: number, fetch: string[]): Promise<Ort.InferenceSession.ReturnType> {
    const n = ids.length;
    const feeds: Record<string, Ort.Tensor> = {
      input_ids: new ort.Tensor('int64', BigInt64Array.from(ids, BigInt), [1, n]),
      attention_mask: new ort.Tensor('int64', new BigInt64Array(pastLength + n).fill(1n), [1, pastLength + n]),
      position_ids: new ort.Tensor('int64', BigInt64Array.from({ length: n }, (_, k) => BigInt(pastLength + k)), [1, n]),
    };
    for (let l = 0; l < layers; l++) {
      feeds[`past_key_values.${l}.key`] = past ? past[`present.${l}.key`] : new ort.Tensor('float32', new Float32Array(0), [1, kvHeads, 0, headDim]);
      feeds[`past_key_values.${l}.value`] = past ? past[`present.${l}.value`] : new ort.Tensor('float32', new Float32Array(0), [1, kvHeads, 0, headDim]);
    }
    if (hasKeep) feeds.num_logits_to_keep = new ort.Tensor('int64', BigInt64Array.of(BigInt(keep)), []);
    return session.run(feeds, fetch);
  }
  let greedy = 0;
  /** continuationScore's arithmetic on one row: max, Σ exp in float64, the token's log-probability, argmax. */
  function rowScore(row: Float32Array, offset: number, vocab: number, token: number): number {
    let max = -Infinity;
    for (let i = 0; i < vocab; i++) if (row[offset + i] > max) max = row[offset + i];
    let sum = 0;
    for (let i = 0; i < vocab; i++) sum += Math.exp(row[offset + i] - max);
    let best = 0;
    for (let v = 1; v < vocab; v++) if (row[offset + v] > row[offset + best]) best = v;
    if (best === token) greedy++;
    return row[offset + token] - (max + Math.log(sum));
  }
  const vocab = a.vocab;
  try {
    const t0 = performance.now();
    let prefix: Cache = null;
    let prefixIds: number[] = [];
    let cue: Cache = null;
    let cueRow: Float32Array = new Float32Array(0);
    let cueKey = '';
    setupMs += performance.now() - t0;
    for (const item of a.items) {
      const s0 = performance.now();
      const p = item.contextIds.slice(0, item.prefixLength);
      if (p.length > 0 && (p.length !== prefixIds.length || p.some((t, k) => t !== prefixIds[k]))) {
        prefix = (await run(p, null, 0, 1, presentNames)) as Record<string, Ort.Tensor>;
        prefixIds = p;
      } else if (p.length === 0) {
        prefix = null;
        prefixIds = [];
      }
      if (item.cueIds.join(',') !== cueKey) {
        const r = await run(item.cueIds, null, 0, 1, ['logits', ...presentNames]);
        cueRow = r.logits.data as Float32Array;
        cue = r as Record<string, Ort.Tensor>;
        cueKey = item.cueIds.join(',');
      }
      setupMs += performance.now() - s0;

      const reps: ProfilePhases[] = [];
      for (let rep = 0; rep < a.repeats; rep++) {
        const phases: ProfilePhases = {
          id: item.id,
          contextTokens: item.contextIds.length,
          newContextTokens: item.contextIds.length - item.prefixLength,
          optionRows: item.options.reduce((n, o) => n + o.length - 1, 0),
          optionPassCount: item.options.filter((o) => o.length > 1).length,
          cueRows: item.cueOptions.reduce((n, o) => n + o.length - 1, 0),
          contextPrefill: 0,
          optionPasses: 0,
          optionPassesOneRow: 0,
          optionPassesLogitsOnly: 0,
          logitsCopy: 0,
          logSoftmax: 0,
          logSoftmaxOnce: 0,
          cuePasses: 0,
          cueLogSoftmax: 0,
        };
        let t = performance.now();
        const ctx = await run(item.contextIds.slice(item.prefixLength), prefix, item.prefixLength, 1, ['logits', ...presentNames]);
        phases.contextPrefill = performance.now() - t;
        const lastRow = ctx.logits.data as Float32Array;
        const length = item.contextIds.length;
        let sink = 0;
        const rows: Float32Array[] = [];
        for (const tokens of item.options) {
          if (tokens.length < 2) {
            rows.push(new Float32Array(0));
            continue;
          }
          const feed = tokens.slice(0, -1);
          const past = ctx as Record<string, Ort.Tensor>;
          // The three variants of the pass, in an order rotated per repeat.
          let data: Float32Array = new Float32Array(0);
          for (let v = 0; v < 3; v++) {
            const variant = (v + rep) % 3;
            t = performance.now();
            if (variant === 0) {
              const full = await run(feed, past, length, feed.length, ['logits', ...presentNames]);
              phases.optionPasses += performance.now() - t;
              data = full.logits.data as Float32Array;
            } else if (variant === 1) {
              await run(feed, past, length, 1, ['logits', ...presentNames]);
              phases.optionPassesOneRow += performance.now() - t;
            } else {
              await run(feed, past, length, feed.length, ['logits']);
              phases.optionPassesLogitsOnly += performance.now() - t;
            }
          }
          rows.push(data);
          t = performance.now();
          sink += new Float32Array(data)[0];
          phases.logitsCopy += performance.now() - t;
        }
        // The log-softmax as continuationScore: per option, the context's last row, then its own rows.
        t = performance.now();
        for (const [k, tokens] of item.options.entries()) {
          sink += rowScore(lastRow, 0, vocab, tokens[0]);
          for (let i = 1; i < tokens.length; i++) sink += rowScore(rows[k], (i - 1) * vocab, vocab, tokens[i]);
        }
        phases.logSoftmax = performance.now() - t;
        t = performance.now();
        const first = rowScore(lastRow, 0, vocab, item.options[0][0]);
        sink += first;
        for (const [k, tokens] of item.options.entries()) for (let i = 1; i < tokens.length; i++) sink += rowScore(rows[k], (i - 1) * vocab, vocab, tokens[i]);
        phases.logSoftmaxOnce = performance.now() - t;
        // PMI: each option after the cached answer cue.
        const cueRows: Float32Array[] = [];
        for (const tokens of item.cueOptions) {
          if (tokens.length < 2) {
            cueRows.push(new Float32Array(0));
            continue;
          }
          const feed = tokens.slice(0, -1);
          t = performance.now();
          const r = await run(feed, cue, item.cueIds.length, feed.length, ['logits', ...presentNames]);
          phases.cuePasses += performance.now() - t;
          cueRows.push(r.logits.data as Float32Array);
        }
        t = performance.now();
        for (const [k, tokens] of item.cueOptions.entries()) {
          sink += rowScore(cueRow, 0, vocab, tokens[0]);
          for (let i = 1; i < tokens.length; i++) sink += rowScore(cueRows[k], (i - 1) * vocab, vocab, tokens[i]);
        }
        phases.cueLogSoftmax = performance.now() - t;
        if (!Number.isFinite(sink) || greedy < 0) throw new Error(`item ${item.id}: a log-probability is not finite`);
        reps.push(phases);
      }
      // Per phase, the median over the repeats.
      const phases = { ...reps[0] };
      for (const key of Object.keys(phases) as (keyof ProfilePhases)[]) {
        if (key === 'id') continue;
        const values = reps.map((x) => x[key] as number).sort((x, y) => x - y);
        const mid = values.length >> 1;
        (phases as unknown as Record<string, number>)[key] = values.length % 2 === 1 ? values[mid] : (values[mid - 1] + values[mid]) / 2;
      }
      out.push(phases);
    }
  } catch (e) {
    return { items: out, setupMs, error: e instanceof Error ? e.message : String(e) };
  }
  return { items: out, setupMs };
};

/**
 * A second worker with the same model loaded as a cloze run loads it (statistics: true), so the cloze
 * modes are timed as runs make them and the letter mode on the plain graph, as letter runs load it.
 */
export const pageLoadCloze = async (a: { model: string; dtype: 'fp32' | 'q8' | 'q4' }): Promise<{ statisticsPath: string | null; error?: string }> => {
  const w = window as unknown as BenchWindow;
  w.clozeClient ??= new window.jiangu.ModelClient();
  try {
    const result = await w.clozeClient.load({ source: { kind: 'site', name: a.model }, dtype: a.dtype, backend: 'wasm', statistics: true });
    return { statisticsPath: result.statisticsPath?.kind ?? null };
  } catch (e) {
    return { statisticsPath: null, error: String(e) };
  }
};

/** Stops the cloze worker. */
export const pageTerminateCloze = async (): Promise<void> => {
  const w = window as unknown as BenchWindow;
  w.clozeClient?.terminate();
  w.clozeClient = undefined;
};
