// How long a run as configured should take on this device, before it starts (issue 35, item 3):
// from a measured pace, an earlier run of the same model here or a short timed probe, in seconds of
// wall-clock time (what the user waits, tokenizing, storing and drawing included), loading apart.
//
// A prompt's wall-clock time is two parts, measured apart: the model's (the worker's forward or
// generation time, recorded with each result) and the page's (tokenizing, storing, drawing: the rest
// of the time between two results). The first grows with the prompt; the second is the same for
// every prompt, and dominates for a small model (jiangu-tiny: about 5 ms of model time in an item of
// 60 to 400 ms, measured in the browser tests). A probe has no page part (nothing is stored or
// drawn): it takes the page's share per prompt from this browser's newest run of any model, and says
// so when there is none.
//
// The model's pace is counted in the work a prompt makes the model do, so it carries across item counts,
// benchmarks and shots: letters and cloze count the prompt tokens the model really processed (a
// prefix reused from the KV cache is not processed again: 5-shot prompts with reuse cost little more
// than 0-shot ones, without reuse (q8) several times as much); generation counts decode steps (one per
// token generated, plus the prompt's pass); generate-then-extract counts prompts, as its records keep
// no count of the tokens generated. A pace is never carried across scoring kinds (a cloze item scores
// each option's text twice, a generated answer costs one pass per token: no token count of one says
// what the other costs), nor across backends (WebGPU and WASM differ many times over).
import type { Backend, BackendChoice } from '../models/model-types.ts';
import type { ItemResult, McItemResult, McRotationResult, RunRecord } from '../record/run.ts';

/** How items are scored, as far as their cost goes; `generation` is a generation run (C3Bench). */
export type PaceScoring = 'letter-logits' | 'cloze' | 'generate-extract' | 'generation';

/** What a prompt costs depends on these; two runs that share them share a pace per unit of work. */
export interface RunShape {
  /** The model's id as the pages name it (modelId). */
  model: string;
  dtype: string;
  scoring: PaceScoring;
  /** 0 for generation runs. */
  shots: number;
  chatTemplate: boolean;
  /** Generation kinds: the most tokens an answer may have; null for letters and cloze. */
  maxNewTokens: number | null;
}

/** One item as measured: its first prompt's work (rotation 0), and its size for tokens per character. */
export interface MeasuredItem {
  itemId: string;
  /** Work units of its first prompt (see PaceUnit). */
  work: number;
  /** Tokens of the whole prompt (letters) or context (cloze), reused prefix included. */
  tokens: number;
  /** Characters of the same text. */
  chars: number;
  /** Generation: tokens generated, and whether it stopped at the token limit. */
  generated?: { tokens: number; atLimit: boolean };
  /** The item could not be run (too long for the model, or the model threw): it cost next to nothing, and would again. */
  failed?: true;
}

/** A measured pace: an earlier run of this browser, or a probe of its first items just now. */
export interface PaceSample {
  from: { kind: 'run'; runId: string; createdAt: string } | { kind: 'probe'; items: number };
  shape: RunShape;
  /** What the run asked for, and where it really ran (backendInfo; the choice itself when not Auto). */
  backendChoice: BackendChoice;
  backend: Backend | null;
  /** ORT's wasm threads the run had (backendInfo.wasmThreads), null when not recorded. */
  wasmThreads: number | null;
  items: MeasuredItem[];
  /** Each prompt's completion time (ms since the epoch), its work and the model's time on it (ms), in any order. */
  timed: TimedPrompt[];
}

export interface TimedPrompt {
  at: number;
  work: number;
  modelMs: number;
}

/** letters and cloze: prompt tokens processed; generation: decode steps; generate-extract: prompts. */
export type PaceUnit = 'token' | 'step' | 'prompt';

export function paceUnit(scoring: PaceScoring): PaceUnit {
  return scoring === 'generation' ? 'step' : scoring === 'generate-extract' ? 'prompt' : 'token';
}

/** The run the user has configured, as far as its cost goes. */
export interface EstimateTarget {
  shape: RunShape;
  backendChoice: BackendChoice;
  /** Where it would run here: the choice, or what Auto picks on this device; null when not known yet. */
  backend: Backend | null;
  /** The wasm threads a load here would use, when known. */
  wasmThreads: number | null;
  /** The run's items, in order. */
  itemIds: readonly string[];
  /** Prompts per item: 1, or more with rotations (circular, PriDe's estimation set: RunCost.factor). */
  promptFactor: number;
  /** The page's share of a prompt in this browser's newest run of any model (runOverhead), for a probe; null when none. */
  pageShare: PageShare | null;
  /**
   * Characters of the text the model would process, built as the run builds it (see promptChars):
   * per item (letters: the prompt after a reused prefix; cloze: that context and every option's text
   * twice), and the reused prefixes once per task. Null when not built (then only the same items, or
   * a pace per prompt, can be used).
   */
  chars: { perItem: readonly number[]; prefixes: number } | null;
}

/** How the sample's pace was carried over to the configured run. */
export type EstimateScaling =
  /** The sample holds every configured item with the same shots and template: their own work is summed. */
  | 'same-items'
  /** Work from the configured prompts' characters at the sample's tokens per character. */
  | 'tokens-from-characters'
  /** The sample's mean work per prompt (generation: per item, output capped at the configured limit). */
  | 'per-prompt';

export interface RunEstimate {
  seconds: number;
  from: PaceSample['from'];
  /** The backend the estimate assumes (the sample's), and its thread count. */
  backend: Backend | null;
  backendChoice: BackendChoice;
  wasmThreads: number | null;
  /** The thread count this page would use, when it differs from the sample's. */
  threadsNow: number | null;
  unit: PaceUnit;
  /** Work units per second of the model's time in the sample. */
  perSecond: number;
  /** Seconds per prompt besides the model's: the sample's own, or (a probe) another run's, or none known. */
  pageSeconds: number;
  pageFrom: 'sample' | { runId: string; createdAt: string } | 'unknown';
  /** Work units of the configured run. */
  work: number;
  scaling: EstimateScaling;
  /** Set when the sample had other shots: it was scaled from these by tokens. */
  shotsFrom: number | null;
  tokensPerChar: number | null;
  promptFactor: number;
  /** Generation with a larger limit than the sample, whose answers reached its limit: may take longer. */
  mayRunLonger: boolean;
}

export type NoEstimateReason =
  /** No earlier run of this model and dtype here, and no probe. */
  | 'no-runs'
  /** Runs of this model exist, but with another scoring kind. */
  | 'other-scoring'
  /** Runs of this model and scoring exist, but on another backend than this one would use. */
  | 'other-backend'
  /** Matching runs have fewer than two timed prompts. */
  | 'too-few-timed'
  /** The sample had other shots or template and the configured prompts are not built yet. */
  | 'needs-prompts';

export type EstimateOutcome = { estimate: RunEstimate; reason: null } | { estimate: null; reason: NoEstimateReason };

/**
 * A gap between two results longer than this (and than PAUSE_FACTOR times the median gap) is a
 * pause (cancelled and resumed, the tab slept), not time the run took (as first-run.ts's wallPace).
 */
export const PAUSE_SECONDS = 30;
export const PAUSE_FACTOR = 50;

/** A sample's pace: its work per second of model time, and the page's seconds per prompt besides. */
export interface WallPace {
  /** Work per second of the model's time. */
  perSecond: number;
  /** Wall-clock seconds per prompt beyond the model's time (at least 0). */
  pageSeconds: number;
  seconds: number;
  work: number;
  prompts: number;
}

/**
 * The pace over timed prompts: each gap between two completions counts the later prompt's work and
 * model time (the first prompt's own time, after loading, is unknown); pauses are left out. Null
 * with fewer than two timed prompts or no time between them. Without model times (0), all the time
 * is the model's.
 */
export function wallWorkPace(timed: readonly TimedPrompt[]): WallPace | null {
  const sorted = timed.filter((t) => Number.isFinite(t.at)).sort((a, b) => a.at - b.at);
  if (sorted.length < 2) return null;
  const gaps = sorted.slice(1).map((t, i) => (t.at - sorted[i].at) / 1000);
  const median = [...gaps].sort((a, b) => a - b)[Math.floor(gaps.length / 2)];
  const pause = Math.max(PAUSE_SECONDS, PAUSE_FACTOR * median);
  let seconds = 0;
  let work = 0;
  let model = 0;
  let prompts = 0;
  gaps.forEach((gap, i) => {
    if (gap > pause) return;
    seconds += gap;
    work += sorted[i + 1].work;
    model += sorted[i + 1].modelMs / 1000;
    prompts++;
  });
  if (!(seconds > 0 && work > 0)) return null;
  // Model time past the wall time (clocks of two threads) leaves the page no share, never a negative one.
  const modelSeconds = model > 0 ? Math.min(model, seconds) : seconds;
  return { perSecond: work / modelSeconds, pageSeconds: (seconds - modelSeconds) / prompts, seconds, work, prompts };
}

/** The page's seconds per prompt in an earlier run, for a probe (which stores and draws nothing). */
export interface PageShare {
  seconds: number;
  runId: string;
  createdAt: string;
}

/** The page's share per prompt in this browser's newest timed run among `samples` (any model), or null. */
export function pageShareOf(samples: readonly PaceSample[]): PageShare | null {
  const runs = samples.flatMap((s) => (s.from.kind === 'run' ? [{ s, from: s.from }] : [])).sort((a, b) => b.from.createdAt.localeCompare(a.from.createdAt));
  for (const { s, from } of runs) {
    const pace = wallWorkPace(s.timed);
    if (pace) return { seconds: pace.pageSeconds, runId: from.runId, createdAt: from.createdAt };
  }
  return null;
}

type McPrompt = Pick<McItemResult, 'tokenCount' | 'reusedPrefixTokens' | 'failure'> & Partial<Pick<McItemResult, 'cloze'>>;

/** A letters or cloze prompt's work: the tokens processed (cloze: every option's, twice with PMI). */
function mcWork(scoring: PaceScoring, prompt: McPrompt): number {
  if (scoring === 'generate-extract') return 1;
  const own = Math.max(0, prompt.tokenCount - prompt.reusedPrefixTokens);
  if (scoring !== 'cloze' || !prompt.cloze?.tokenCounts) return own;
  const options = prompt.cloze.tokenCounts.reduce((a, b) => a + b, 0);
  return own + options * (prompt.cloze.unconditional ? 2 : 1);
}

/** The shape of a stored run. */
export function shapeOf(run: RunRecord, model: string): RunShape {
  const c = run.config;
  if (c.kind === 'generation') return { model, dtype: c.model.dtype, scoring: 'generation', shots: 0, chatTemplate: c.chatTemplate, maxNewTokens: c.maxNewTokens };
  return { model, dtype: c.model.dtype, scoring: c.scoring, shots: c.shots, chatTemplate: c.chatTemplate, maxNewTokens: c.scoring === 'generate-extract' ? (c.maxNewTokens ?? 32) : null };
}

/**
 * An earlier run's pace sample, from its record and stored results; null for a run imported from a
 * file (it ran elsewhere). Failed items cost next to nothing: they count no work and no time.
 */
export function sampleOfRun(run: RunRecord, results: readonly ItemResult[], model: string): PaceSample | null {
  if (run.origin) return null;
  const shape = shapeOf(run, model);
  const items: MeasuredItem[] = [];
  const timed: PaceSample['timed'] = [];
  for (const r of results) {
    if (r.failure) {
      items.push({ itemId: r.itemId, work: 0, tokens: 0, chars: 0, failed: true });
      continue;
    }
    if ('output' in r) {
      const work = 1 + r.outputTokenIds.length;
      items.push({ itemId: r.itemId, work, tokens: r.tokenCount, chars: r.prompt.length, generated: { tokens: r.outputTokenIds.length, atLimit: r.stoppedBy === 'max-tokens' } });
      timed.push({ at: Date.parse(r.completedAt), work, modelMs: r.ms });
      continue;
    }
    const work = mcWork(shape.scoring, r);
    items.push({ itemId: r.itemId, work, tokens: r.tokenCount, chars: r.prompt.length });
    timed.push({ at: Date.parse(r.completedAt), work, modelMs: r.forwardMs });
    for (const rotation of (r.rotations ?? []) as McRotationResult[]) {
      if (!rotation.failure) timed.push({ at: Date.parse(rotation.completedAt), work: mcWork(shape.scoring, rotation), modelMs: rotation.forwardMs });
    }
  }
  const info = run.environment?.backendInfo;
  const choice = run.config.model.backend;
  return {
    from: { kind: 'run', runId: run.id, createdAt: run.createdAt },
    shape,
    backendChoice: choice,
    backend: info?.backend ?? (choice === 'auto' ? null : choice),
    wasmThreads: info?.wasmThreads ?? null,
    items,
    timed,
  };
}

/** Whether a sample ran where the target would: the same backend, or (Auto not resolved here) the same choice. */
function sameBackend(sample: PaceSample, target: EstimateTarget): boolean {
  if (target.backend !== null && sample.backend !== null) return sample.backend === target.backend;
  return sample.backendChoice === target.backendChoice;
}

/**
 * The configured run's time from the best sample: one of the same model, dtype, scoring kind and
 * backend; among those, a probe of this very configuration first, then the same shots and template,
 * then the same thread count, then the newest. Null with the reason when none fits.
 */
export function estimateRun(target: EstimateTarget, samples: readonly PaceSample[]): EstimateOutcome {
  const model = samples.filter((s) => s.shape.model === target.shape.model && s.shape.dtype === target.shape.dtype);
  if (model.length === 0) return { estimate: null, reason: 'no-runs' };
  const scoring = model.filter((s) => s.shape.scoring === target.shape.scoring);
  if (scoring.length === 0) return { estimate: null, reason: 'other-scoring' };
  const backend = scoring.filter((s) => sameBackend(s, target));
  if (backend.length === 0) return { estimate: null, reason: 'other-backend' };
  const paced = backend.flatMap((s) => {
    const pace = wallWorkPace(s.timed);
    return pace ? [{ s, pace }] : [];
  });
  if (paced.length === 0) return { estimate: null, reason: 'too-few-timed' };
  const alike = (s: PaceSample) => s.shape.shots === target.shape.shots && s.shape.chatTemplate === target.shape.chatTemplate;
  const rank = ({ s }: { s: PaceSample }) => [
    s.from.kind === 'probe' && alike(s) && s.shape.maxNewTokens === target.shape.maxNewTokens ? 1 : 0,
    alike(s) ? 1 : 0,
    target.wasmThreads !== null && s.wasmThreads === target.wasmThreads ? 1 : 0,
  ];
  const newest = (s: PaceSample) => (s.from.kind === 'run' ? s.from.createdAt : '');
  paced.sort((a, b) => {
    const [x, y] = [rank(a), rank(b)];
    for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return y[i] - x[i];
    return newest(b.s).localeCompare(newest(a.s));
  });
  for (const { s, pace } of paced) {
    const work = targetWork(target, s);
    if (!work) continue;
    const probe = s.from.kind === 'probe';
    const pageSeconds = probe ? (target.pageShare?.seconds ?? pace.pageSeconds) : pace.pageSeconds;
    const pageFrom: RunEstimate['pageFrom'] = !probe ? 'sample' : target.pageShare ? { runId: target.pageShare.runId, createdAt: target.pageShare.createdAt } : 'unknown';
    return {
      reason: null,
      estimate: {
        seconds: work.work / pace.perSecond + work.prompts * pageSeconds,
        pageSeconds,
        pageFrom,
        from: s.from,
        backend: s.backend,
        backendChoice: s.backendChoice,
        wasmThreads: s.wasmThreads,
        threadsNow: target.wasmThreads !== null && s.wasmThreads !== null && target.wasmThreads !== s.wasmThreads ? target.wasmThreads : null,
        unit: paceUnit(target.shape.scoring),
        perSecond: pace.perSecond,
        work: work.work,
        scaling: work.scaling,
        shotsFrom: s.shape.shots !== target.shape.shots ? s.shape.shots : null,
        tokensPerChar: work.tokensPerChar,
        promptFactor: target.promptFactor,
        mayRunLonger: work.mayRunLonger,
      },
    };
  }
  return { estimate: null, reason: 'needs-prompts' };
}

/** The configured run's work in the sample's units, and how it was carried over; null when it cannot be. */
function targetWork(target: EstimateTarget, s: PaceSample): { work: number; prompts: number; scaling: EstimateScaling; tokensPerChar: number | null; mayRunLonger: boolean } | null {
  const n = target.itemIds.length;
  const factor = target.promptFactor;
  const alike = s.shape.shots === target.shape.shots && s.shape.chatTemplate === target.shape.chatTemplate;
  const unit = paceUnit(target.shape.scoring);
  if (unit === 'step') {
    // Decode steps per item: the sample's answers, each cut at the configured limit.
    const limit = target.shape.maxNewTokens ?? Infinity;
    const generated = s.items.flatMap((i) => (i.generated ? [i.generated] : []));
    if (generated.length === 0) return null;
    const mean = generated.reduce((a, g) => a + 1 + Math.min(g.tokens, limit), 0) / generated.length;
    const mayRunLonger = limit > (s.shape.maxNewTokens ?? Infinity) && generated.some((g) => g.atLimit);
    return { work: n * mean, prompts: n, scaling: 'per-prompt', tokensPerChar: null, mayRunLonger };
  }
  if (unit === 'prompt') {
    // generate-then-extract: a prompt's cost is mostly its answer's tokens, which the records do not
    // count; other shots or another answer limit would be a guess.
    if (!alike || s.shape.maxNewTokens !== target.shape.maxNewTokens) return null;
    return { work: n * factor, prompts: n * factor, scaling: 'per-prompt', tokensPerChar: null, mayRunLonger: false };
  }
  const byId = new Map(s.items.map((i) => [i.itemId, i]));
  if (alike && n > 0 && target.itemIds.every((id) => byId.has(id))) {
    // An item that failed (too long for the model) will fail again: no model time, no page time to speak of.
    const ran = target.itemIds.filter((id) => !byId.get(id)!.failed);
    const work = ran.reduce((sum, id) => sum + byId.get(id)!.work, 0);
    return { work: work * factor, prompts: ran.length * factor, scaling: 'same-items', tokensPerChar: null, mayRunLonger: false };
  }
  const tokens = s.items.reduce((a, i) => a + i.tokens, 0);
  const chars = s.items.reduce((a, i) => a + i.chars, 0);
  if (target.chars && tokens > 0 && chars > 0) {
    const tokensPerChar = tokens / chars;
    const perItem = target.chars.perItem.reduce((a, b) => a + b, 0);
    return { work: (perItem * factor + target.chars.prefixes) * tokensPerChar, prompts: n * factor, scaling: 'tokens-from-characters', tokensPerChar, mayRunLonger: false };
  }
  const ran = s.items.filter((i) => !i.failed);
  if (!alike || ran.length === 0) return null;
  const mean = ran.reduce((a, i) => a + i.work, 0) / ran.length;
  return { work: n * factor * mean, prompts: n * factor, scaling: 'per-prompt', tokensPerChar: null, mayRunLonger: false };
}

/** One prompt of a probe as the worker answered it (the numbers a stored result would carry). */
export interface ProbePrompt {
  itemId: string;
  /** When it completed (ms since the epoch, or any monotonic clock shared by the probe's prompts). */
  at: number;
  tokenCount: number;
  reusedPrefixTokens: number;
  /** Characters of the prompt (letters) or context (cloze). */
  chars: number;
  /** The worker's own time on it (forwardMs; generation: ms). */
  modelMs: number;
  /** Cloze: each option's tokens, and whether each was scored again after the answer cue alone. */
  optionTokens?: number[];
  unconditional?: boolean;
  /** Generation: tokens generated and whether the answer stopped at the limit. */
  generated?: { tokens: number; atLimit: boolean };
}

/** A probe's pace sample: the first items of the configured run, scored just now, timed as a run's. */
export function sampleOfProbe(shape: RunShape, backendChoice: BackendChoice, backend: Backend, wasmThreads: number, prompts: readonly ProbePrompt[]): PaceSample {
  const items: MeasuredItem[] = prompts.map((p) => {
    const work =
      shape.scoring === 'generation'
        ? 1 + (p.generated?.tokens ?? 0)
        : mcWork(shape.scoring, {
            tokenCount: p.tokenCount,
            reusedPrefixTokens: p.reusedPrefixTokens,
            ...(p.optionTokens ? { cloze: { logLikelihoods: [], tokenCounts: p.optionTokens, charCounts: [], byteCounts: [], isGreedy: [], ...(p.unconditional ? { unconditional: [] } : {}) } } : {}),
          });
    return { itemId: p.itemId, work, tokens: p.tokenCount, chars: p.chars, ...(p.generated ? { generated: p.generated } : {}) };
  });
  return { from: { kind: 'probe', items: prompts.length }, shape, backendChoice, backend, wasmThreads, items, timed: items.map((item, i) => ({ at: prompts[i].at, work: item.work, modelMs: prompts[i].modelMs })) };
}
