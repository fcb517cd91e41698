// The Evaluate page's state: stored runs, the run in progress (its own model worker, apart from the
// playground's), the run on show, and the actions start, cancel, resume, and what to do after a
// failed WebGPU check.
//
// Two runs, kept apart: the live one (running in this tab: its record, results, progress, phase and
// streaming text, updated as items finish) and the shown one (whatever run page is open, read from
// the store). A run page shows live state only when its run is the live run, so opening an older
// run while another runs shows, and exports, that older run alone.
import type { ItemResult, McRunRecord, RunRecord } from '../../lib/core/record/run.ts';
import { sameStoredRun } from './same-stored-run.ts';
import { ModelClient } from '../../lib/engine/model-client.ts';
import { modelPool } from '../../lib/engine/model-pool.ts';
import { createGenRun, createMcRun, wasmRerunRequest, type NewGenRun, type NewMcRun } from '../../lib/engine/run-setup.ts';
import { executeRun, heldRunIds, runLockHeld, type RunPhase, type RunProgress } from '../../lib/engine/run-scheduler.ts';
import { runLoadParams } from '../../lib/engine/run-load.ts';
import { listDatasets } from '../../lib/store/datasets.ts';
import { deleteRuns, getRun, loadResults, updateRun } from '../../lib/store/runs.ts';
import { listIndexedRuns, NEWEST_ROWS, PREVIEW_FROM, type NewestRuns } from '../../lib/store/run-index.ts';
import { interruptedRunIds, runListFailure } from '../compare/run-list.ts';
import type { RunListEntry } from '../../lib/core/record/run-list-entry.ts';
import { readStoredRun, type WorkPlace } from '../../lib/data/stored-run-client.ts';
import type { UnreadableRecord } from '../../lib/core/record/stored-check.ts';
import { keptConnection, type JianguDatabase } from '../../lib/store/schema.ts';
import { requestPersistenceBeforeModelLoad } from '../../lib/store/storage.ts';
import type { DatasetRecord } from '../../lib/core/benchmarks/types.ts';
import type { Dtype } from '../../lib/core/models/model-types.ts';
import { notice, noticeOf, type Notice } from '../../lib/core/notices/index.ts';
import { say } from '../i18n/say.ts';
import { LiveResults, type ResultsView } from './live-results.ts';
import { memoryCheck, type ModelChoice } from '../models/memory-check.svelte.ts';
import { DrawThrottle } from './draw-throttle.ts';
import { routeTo } from '../route.ts';

/**
 * The run executing in this tab. Held raw (never a deep proxy) and replaced whole on each change,
 * so each new result costs the page the same however many came before (issue 22).
 */
export interface LiveRun {
  id: string;
  record: RunRecord;
  /** Every result so far; plain, changed in place: pages draw `view`, rebuilt on each change. */
  results: LiveResults;
  view: ResultsView;
  progress: RunProgress | null;
  phase: RunPhase | null;
  /** The generation in flight: its item and the text streamed so far. */
  streaming: { itemId: string; text: string } | null;
}

/** A stored run on show, as read from the store. */
export interface ShownRun {
  record: RunRecord;
  results: ItemResult[];
  /**
   * For a stored `running` status: whether some tab holds the run's lock (`elsewhere`), or none does
   * (`interrupted`: a closed or reloaded tab left it so). Null for any other status.
   */
  liveness: 'elsewhere' | 'interrupted' | null;
  /** Where it was read and checked: a large run in the stored-run worker, a small one on the page. */
  readIn: WorkPlace;
}

export class RunState {
  datasets = $state<DatasetRecord[]>([]);
  /** The stored runs as lists show them (the run index's entries, newest first): never every whole record. */
  runs = $state.raw<RunListEntry[]>([]);
  /** Stored runs no page can show (a damaged record), named with what is wrong: listed apart, with export and delete. */
  unreadable = $state<UnreadableRecord[]>([]);
  /** Runs stored as `running` that no tab runs now (left so by a closed or reloaded tab). */
  interrupted = $state<ReadonlySet<string>>(new Set());
  live = $state.raw<LiveRun | null>(null);
  // Raw: a large run's results are read whole, never proxied item by item.
  shown = $state.raw<ShownRun | null>(null);
  /** The open page's run when its stored record cannot be shown. */
  shownUnreadable = $state.raw<UnreadableRecord | null>(null);
  /** The run id the open page asked for (its record may still be loading, or missing). */
  private shownId = $state<string | null>(null);
  /** The last failure, with the run it belongs to (null: creating a run failed). */
  private failure = $state<{ runId: string | null; notice: Notice } | null>(null);
  private abort: AbortController | null = null;
  private readonly db = keptConnection();

  /** Whether a run is executing in this tab. */
  get running(): boolean {
    return this.live !== null;
  }

  /** The run record a page for `runId` shows: the live one while it runs here, else the stored one. */
  recordFor(runId: string): RunRecord | null {
    if (this.live?.id === runId) return this.live.record;
    return this.shown?.record.id === runId ? this.shown.record : null;
  }

  /** That page's results, and only that run's (while it runs here, every result so far: read on demand, e.g. an export). */
  resultsFor(runId: string): ItemResult[] {
    if (this.live?.id === runId) return this.live.results.all;
    return this.shown?.record.id === runId ? this.shown.results : [];
  }

  /** The live run's state, only when `runId` is the live run. */
  liveFor(runId: string): LiveRun | null {
    return this.live?.id === runId ? this.live : null;
  }

  /** Where the shown run `runId` was read (see ShownRun), null when it is not the one shown. */
  readInFor(runId: string): WorkPlace | null {
    return this.shown?.record.id === runId ? this.shown.readIn : null;
  }

  /** The shown run's liveness (see ShownRun), when `runId` is shown and not live here. */
  livenessFor(runId: string): ShownRun['liveness'] {
    if (this.live?.id === runId) return null;
    return this.shown?.record.id === runId ? this.shown.liveness : null;
  }

  /** The run shown, or the live one when none is (the shared page reads this after a reproduction). */
  get current(): RunRecord | null {
    return this.shown?.record ?? this.live?.record ?? null;
  }

  /** What went wrong for `runId` (a missing run, a failure while it ran), as a notice; null when nothing did. */
  noticeFor(runId: string): Notice | null {
    return this.failure?.runId === runId ? this.failure.notice : null;
  }

  /** The last failure, worded (the Evaluate page shows a run that could not be created). */
  get error(): string | null {
    return this.failure ? say(this.failure.notice) : null;
  }

  /** False while a long list shows only its newest rows (preview): "Show more" waits for the rest. */
  listedAll = $state(true);
  private previewTotal = $state(0);
  private listedOnce = false;

  /** How many stored runs are listed: the index's count while only the newest rows are read. */
  get listedTotal(): number {
    return this.listedAll ? this.runs.length : this.previewTotal;
  }

  /** Why the last listing of the stored runs failed, or null: the list says so, keeps what it showed, and offers to try again. */
  listFailure = $state<Notice | null>(null);

  /**
   * Lists the stored runs again. Never rejects: a listing that fails is the list's to say
   * (listFailure, with Try again), never the failure of the change made before it (a delete, a label,
   * a restore, a new run), which it is not.
   */
  async refresh(): Promise<void> {
    try {
      await this.list();
      this.listFailure = null;
    } catch (error) {
      this.listFailure = runListFailure(error);
    }
  }

  private async list(): Promise<void> {
    const db = await this.db();
    // Together: the datasets' read, asked for after the run list's, no longer holds the list back.
    const [datasets, { runs, unreadable, checked }] = await Promise.all([listDatasets(db), listIndexedRuns(db, { count: NEWEST_ROWS, show: (first) => void this.preview(first) })]);
    this.datasets = datasets;
    // The index lacked a record's entry (written behind its back) and was built again: listed again.
    // (A failed second listing leaves the first one shown, and the list says why.)
    void checked.then((ok) => (ok ? undefined : this.refresh()), () => {});
    this.unreadable = unreadable;
    const held = runs.some((r) => r.status === 'running') ? await heldRunIds() : null;
    this.interrupted = interruptedRunIds(runs, held);
    this.runs = runs;
    this.listedAll = true;
    this.listedOnce = true;
  }

  /**
   * The first listing of a long list (over PREVIEW_FROM runs, run-index.ts) draws its newest rows as
   * soon as they are read (at 10,000 runs the whole list takes 0.4-0.7 s more: npm run bench, many-runs).
   */
  private async preview(first: NewestRuns): Promise<void> {
    if (this.listedOnce || first.total <= PREVIEW_FROM) return;
    try {
      const held = first.runs.some((r) => r.status === 'running') ? await heldRunIds() : null;
      if (this.listedOnce) return;
      this.interrupted = interruptedRunIds(first.runs, held);
      this.previewTotal = first.total;
      this.listedAll = false;
      this.runs = first.runs;
    } catch {
      // The whole list says what is wrong, if anything is.
    }
  }

  /**
   * Shows a stored run and its results (the live run, if it is this one, is shown from live state).
   * `endedHere`: the run has just ended in this tab (still `live` until this returns), so a stored
   * `running` is read as any other tab's page would read it (left so when not even its failure could
   * be stored: the storage full).
   */
  async show(runId: string, endedHere = false): Promise<void> {
    this.shownId = runId;
    const db = await this.db();
    const { checked, readIn } = await readStoredRun(db, runId);
    const run = checked && 'run' in checked ? checked.run : undefined;
    const results = checked && 'run' in checked ? checked.results : [];
    let liveness: ShownRun['liveness'] = null;
    if (run?.status === 'running' && (endedHere || this.live?.id !== runId)) liveness = (await runLockHeld(runId)) === false ? 'interrupted' : 'elsewhere';
    // A later call for another run wins: only the page asked for last is filled in.
    if (this.shownId !== runId) return;
    // Read again on every open: a run as it was keeps the objects already drawn (same-stored-run.ts).
    const prior = this.shown;
    const kept = run && prior && sameStoredRun(prior, run, results) ? prior : null;
    this.shown = run ? { record: kept?.record ?? run, results: kept?.results ?? results, liveness, readIn } : null;
    this.shownUnreadable = checked && 'unreadable' in checked ? checked.unreadable : null;
    if (!checked) this.failure = { runId, notice: notice('run.not-stored', { runId }) };
    else if (this.failure?.runId === runId && this.failure.notice.code === 'run.not-stored') this.failure = null;
  }

  start(request: NewMcRun): Promise<string | null> {
    return this.launch(request.model, (db) => createMcRun(db, request));
  }

  startGeneration(request: NewGenRun): Promise<string | null> {
    return this.launch(request.model, (db) => createGenRun(db, request));
  }

  /**
   * The memory check (memory-check.svelte.ts) for a run's model, asked before the run is stored or
   * marked running: a load the user declines leaves no run behind and a stored one as it was.
   */
  private async memoryAllows(runId: string | null, model: ModelChoice): Promise<boolean> {
    const refused = await memoryCheck.refusal(model);
    if (refused) this.failure = { runId, notice: refused };
    return refused === null;
  }

  /** Stores a new run, starts it in the background, and returns its id (null, with `error` set, if it could not be created). */
  private async launch(model: ModelChoice, create: (db: JianguDatabase) => Promise<RunRecord>): Promise<string | null> {
    this.failure = null;
    if (!(await this.memoryAllows(null, model))) return null;
    try {
      const run = await create(await this.db());
      await this.refresh();
      void this.execute(run.id);
      return run.id;
    } catch (error) {
      this.failure = { runId: null, notice: noticeOf(error) };
      return null;
    }
  }

  /** Runs or resumes a stored run to its end, in the background of whatever page is open; returns the run as it ended. */
  async execute(runId: string): Promise<RunRecord | null> {
    if (this.live) return null;
    const db = await this.db();
    const record = await getRun(db, runId);
    if (!record) {
      this.failure = { runId, notice: notice('run.not-stored', { runId }) };
      return null;
    }
    if (!(await this.memoryAllows(runId, record.config.model)) || this.live) return null;
    // Shown as running from the first moment: the stored status follows as soon as the scheduler starts.
    const results = new LiveResults(record.config.kind, record.datasetId, await loadResults(db, runId));
    this.live = { id: runId, record: { ...record, status: 'running' }, results, view: results.view(), progress: null, phase: null, streaming: null };
    // Each change replaces the live object (O(1) fields: the results stay where they are), only while it is this run.
    const patch = (change: Partial<LiveRun>) => {
      if (this.live?.id === runId && this.live.results === results) this.live = { ...this.live, ...change };
    };
    if (this.failure?.runId === runId) this.failure = null;
    const abort = new AbortController();
    this.abort = abort;
    void requestPersistenceBeforeModelLoad(record.config.model.source);
    // Progress, results and streamed text are taken in as they come (O(1) each) and drawn at most a
    // few times a second (draw-throttle.ts): drawing after every item halved a small model's pace.
    const latest: { progress: RunProgress | null; view: boolean; streaming: LiveRun['streaming'] | undefined } = { progress: null, view: false, streaming: undefined };
    const draw = new DrawThrottle(() => {
      const change: Partial<LiveRun> = {};
      // The scheduler's perTask is one object it changes in place: a copy, so the page sees each change.
      if (latest.progress) change.progress = { ...latest.progress, perTask: { ...latest.progress.perTask } };
      if (latest.view) change.view = results.view();
      if (latest.streaming !== undefined) change.streaming = latest.streaming;
      latest.progress = null;
      latest.view = false;
      latest.streaming = undefined;
      patch(change);
    });
    let streaming: LiveRun['streaming'] = null;
    // From the page's model pool: a worker that holds this model already (the Playground's, the
    // Reading page's, an earlier run's) runs it, and no second copy is loaded.
    const choice = modelPool.clientFor(this, runLoadParams(record.config));
    choice.settle(true);
    let ended: RunRecord | null = null;
    try {
      ended = await executeRun(db, runId, choice.client, {
        signal: abort.signal,
        wasmClient: () => new ModelClient(),
        onPhase: (phase) => {
          // The record moves on at each phase (status, environment, context limit, check): read it again.
          if (phase.kind !== this.live?.phase?.kind) void getRun(db, runId).then((r) => r && patch({ record: r }));
          draw.flush();
          patch({ phase });
        },
        onProgress: (p) => {
          latest.progress = p;
          draw.request();
        },
        onResult: (r) => {
          // An item with rotations comes again after each one: it replaces its earlier self.
          results.set(r);
          latest.view = true;
          latest.streaming = streaming = null;
          draw.request();
        },
        onToken: (itemId, text) => {
          streaming = streaming?.itemId === itemId ? { itemId, text: streaming.text + text } : { itemId, text };
          latest.streaming = streaming;
          draw.request();
        },
      });
      draw.flush();
      patch({ record: ended, view: results.view(true) });
    } catch (error) {
      this.failure = { runId, notice: noticeOf(error) };
      // A worker that died, ran out of memory or failed inside is ended for whoever shared it.
      modelPool.failed(this, error);
      ended = (await getRun(db, runId)) ?? null;
    } finally {
      modelPool.release(this);
      draw.cancel();
      this.abort = null;
      // The page on this run now reads it from the store, as it ended.
      if (this.shownId === runId) await this.show(runId, true);
      this.live = null;
      await this.refresh();
    }
    return ended;
  }

  /** The open page's run, when its record cannot be shown. */
  unreadableFor(runId: string): UnreadableRecord | null {
    return this.shownUnreadable?.id === runId ? this.shownUnreadable : null;
  }

  /** Deletes stored runs and their results (never the one running in this tab), then lists again. */
  async delete(ids: readonly string[]): Promise<void> {
    const gone = ids.filter((id) => id !== this.live?.id);
    await deleteRuns(await this.db(), gone);
    if (this.shown && gone.includes(this.shown.record.id)) this.shown = null;
    if (this.shownUnreadable && gone.includes(this.shownUnreadable.id)) this.shownUnreadable = null;
    // Gone from the list at once, even if listing again fails (the list then says so).
    this.runs = this.runs.filter((r) => !gone.includes(r.id));
    this.unreadable = this.unreadable.filter((u) => !gone.includes(u.id));
    await this.refresh();
  }

  cancel(runId: string): void {
    if (this.live?.id === runId) this.abort?.abort();
  }

  /** After a failed WebGPU check: go on with WebGPU anyway (recorded in the run). */
  async continueOnWebGpu(runId: string): Promise<void> {
    const run = await getRun(await this.db(), runId);
    if (!run || run.config.kind !== 'multiple-choice' || !('check' in run) || !run.check) return;
    try {
      await updateRun(await this.db(), runId, { check: { ...run.check, overridden: true } });
    } catch (error) {
      // The choice could not be stored (the storage full): said on the run's page, the run not started.
      this.failure = { runId, notice: noticeOf(error) };
      return;
    }
    await this.execute(runId);
  }

  /** After the run's model ran out of memory: the same configuration as a new run with a smaller dtype, on the run's own backend. */
  async rerunWithDtype(runId: string, dtype: Dtype): Promise<void> {
    const run = await getRun(await this.db(), runId);
    if (!run || run.config.kind !== 'multiple-choice') return;
    const id = await this.start({ ...wasmRerunRequest(run as McRunRecord), model: { ...run.config.model, dtype } });
    if (id) location.hash = routeTo('run', id);
  }

  /** After a failed WebGPU check: the same configuration as a new run on WASM. */
  async rerunOnWasm(runId: string): Promise<void> {
    const run = await getRun(await this.db(), runId);
    if (!run || run.config.kind !== 'multiple-choice') return;
    const id = await this.start(wasmRerunRequest(run as McRunRecord));
    if (id) location.hash = routeTo('run', id);
  }
}

export const runState = new RunState();
