// The memory check every load passes before anything is downloaded (issue 43, item 5): the size of
// the model's files (lib/engine/model-size.ts), the memory a load of them needs (memory-need.ts), and
// what the device reports. A load that needs more than the device has room for waits for the user
// (MemoryConfirm.svelte): load anyway, or choose a smaller dtype. ModelClient asks it before each load
// (setLoadCheck, set in main.ts), so the Playground, Reading, Evaluate and memorization pages and the
// pace probe all pass it; the run and probe states ask it before a run is even stored, so a declined
// load leaves no run behind.
import { ModelError } from '../../lib/engine/model-client.ts';
import { noticeOf, type Notice } from '../../lib/core/notices/index.ts';
import { modelError, whereOf } from '../../lib/engine/model-errors.ts';
import { modelPool } from '../../lib/engine/model-pool.ts';
import { sourceKey } from '../../lib/engine/shared-session.ts';
import { memoryVerdict, reportedDeviceGiB, smallerDtype, type MemoryVerdict } from '../../lib/engine/memory-need.ts';
import { modelFilesSize, modelFolderUrl, type ModelFilesSize } from '../../lib/engine/model-size.ts';
import { presetById } from '../../lib/core/models/presets.ts';
import type { Dtype, LoadParams, ModelSource } from '../../lib/engine/messages.ts';

/** The model and dtype a load asks for: all the check needs (the backend, where known, to find a worker holding it). */
export type ModelChoice = Pick<LoadParams, 'source' | 'dtype'> & Partial<Pick<LoadParams, 'backend'>>;

export interface MemoryEstimate {
  key: string;
  source: ModelSource;
  dtype: Dtype;
  /** The weights files and their sizes; null when they could not be read before the download. */
  files: ModelFilesSize | null;
  verdict: MemoryVerdict;
  /** The dtype to suggest when it does not fit (memory-need.ts, smallerDtype). */
  smaller: Dtype | null;
  /** Set once the user chose to load anyway: not asked again for this model and dtype while the page is open. */
  agreed: boolean;
}

/**
 * How long the size lookup may hold a load up: a host that does not answer a HEAD in this time
 * leaves the size unknown, and the load goes on (the lookup's answer, if it comes, serves the next load).
 */
const SIZE_WAIT_MS = 5000;

/** transformers.js' Cache Storage (env.cacheKey's default, which the worker keeps): hub files loaded before. */
const TRANSFORMERS_CACHE = 'transformers-cache';

/** One key per model and dtype, whatever order a source's fields came in (a run record's, the picker's). */
export function memoryKey(model: ModelChoice): string {
  return `${sourceKey(model.source)}|${model.dtype}`;
}

type MeasureMemory = () => Promise<{ bytes: number }>;

class MemoryCheck {
  /** The latest estimate of each model and dtype checked on this page. */
  estimates = $state<Record<string, MemoryEstimate>>({});
  /** The estimate the page is asking about now (MemoryConfirm.svelte shows it), or null. */
  asking = $state<MemoryEstimate | null>(null);
  /**
   * This page's memory as performance.measureUserAgentSpecificMemory() last measured it (its workers
   * included); null before the first answer. Chromium answers after its next garbage collection,
   * seconds later, so no load waits for it: it is shown once it comes.
   */
  pageBytes = $state<number | null>(null);
  /** Whether this browser measures its pages' memory here (it needs cross-origin isolation). */
  pageMeasurable = $state(true);
  private answer: ((load: boolean) => void) | null = null;
  private turn: Promise<unknown> = Promise.resolve();
  private readonly sizes = new Map<string, Promise<ModelFilesSize | null>>();
  private measuring = false;

  /** The estimate shown for `model`, once a load of it was checked. */
  estimateFor(model: ModelChoice | null): MemoryEstimate | null {
    return model ? (this.estimates[memoryKey(model)] ?? null) : null;
  }

  /**
   * null when a run's load of `params` may go ahead, else why not (the user declined, or the check
   * failed), as a notice. A model a worker of this page holds already is run there (model-pool.ts)
   * and needs no more memory: not asked about.
   */
  async refusal(params: ModelChoice): Promise<Notice | null> {
    if (modelPool.holds({ source: params.source, dtype: params.dtype, backend: params.backend ?? 'auto' })) return null;
    try {
      await this.check(params);
      return null;
    } catch (error) {
      return noticeOf(error);
    }
  }

  /** ModelClient's load check: resolves when the load may go on, rejects with `model.memory-declined` when the user declined. */
  async check(params: ModelChoice): Promise<void> {
    if (await this.confirm(params)) return;
    const estimate = this.estimateFor(params);
    const verdict = estimate?.verdict;
    const [need, room] = verdict?.kind === 'exceeds' ? [verdict.need, verdict.room] : [0, 0];
    throw new ModelError(modelError('cancelled', 'model.memory-declined', [{ ...whereOf(params.source), dtype: params.dtype, need, room, smaller: estimate?.smaller ?? null }]));
  }

  /**
   * Whether a load of `model` may go ahead: true when it fits, when nothing can be told (no size, no
   * device report: said, not blocked), or when the user chose to load anyway; false when they chose a
   * smaller dtype. One question at a time: a second load waits for the first's answer.
   */
  confirm(model: ModelChoice): Promise<boolean> {
    const decided = this.turn.then(() => this.decide(model));
    this.turn = decided.catch(() => undefined);
    return decided;
  }

  /** The user's answer to the question on show. */
  respond(load: boolean): void {
    this.answer?.(load);
  }

  private async decide(model: ModelChoice): Promise<boolean> {
    const key = memoryKey(model);
    this.measurePage();
    if (this.estimates[key]?.agreed) return true;
    const files = await this.filesOf(model, key);
    // Read at every check: nothing caches it, and a test stubs it.
    const device = reportedDeviceGiB((navigator as Navigator & { deviceMemory?: unknown }).deviceMemory);
    const preset = model.source.kind === 'hub' ? presetById(model.source.id) : undefined;
    const estimate: MemoryEstimate = { key, source: $state.snapshot(model.source) as ModelSource, dtype: model.dtype, files, verdict: memoryVerdict(files?.bytes ?? null, device, model.dtype), smaller: smallerDtype(model.dtype, preset), agreed: false };
    this.estimates[key] = estimate;
    if (estimate.verdict.kind !== 'exceeds') return true;
    this.asking = estimate;
    const load = await new Promise<boolean>((resolve) => (this.answer = resolve));
    this.asking = null;
    this.answer = null;
    if (load) this.estimates[key] = { ...estimate, agreed: true };
    return load;
  }

  /** The files' sizes, asked once per model and dtype (again after a lookup that found nothing), waited for at most SIZE_WAIT_MS. */
  private filesOf(model: ModelChoice, key: string): Promise<ModelFilesSize | null> {
    let lookup = this.sizes.get(key);
    if (!lookup) {
      const siteBase = new URL(import.meta.env.BASE_URL, location.href).href;
      const cached = model.source.kind === 'hub' && typeof caches !== 'undefined' ? async (url: string) => (await caches.open(TRANSFORMERS_CACHE)).match(url) : undefined;
      lookup = modelFilesSize(modelFolderUrl(model.source, siteBase), model.dtype, { cached, fetch: (input, init) => fetch(input, init) });
      this.sizes.set(key, lookup);
      void lookup.then((found) => found === null && this.sizes.get(key) === lookup && this.sizes.delete(key));
    }
    return Promise.race([lookup, new Promise<null>((resolve) => setTimeout(() => resolve(null), SIZE_WAIT_MS))]);
  }

  /** Starts a measurement of this page's memory, unless one is under way. */
  private measurePage(): void {
    const measure = (performance as Performance & { measureUserAgentSpecificMemory?: MeasureMemory }).measureUserAgentSpecificMemory;
    if (!measure || !globalThis.crossOriginIsolated) {
      this.pageMeasurable = false;
      return;
    }
    if (this.measuring) return;
    this.measuring = true;
    measure
      .call(performance)
      .then((result) => (this.pageBytes = result.bytes))
      .catch(() => (this.pageMeasurable = false))
      .finally(() => (this.measuring = false));
  }
}

/** The page's one memory check. */
export const memoryCheck = new MemoryCheck();
