// Memorization runs on the page (issue 26): the stored ones, the one running in this tab (its own
// model worker, apart from the scoring runs' and the playground's), the one on show, and the actions
// start, pause and resume. As run-state.svelte.ts does for scoring runs, but with one live run and
// results small enough per item to keep as a plain array.
import type { ProbeResult, ProbeRunRecord } from '../../lib/core/record/probe-run.ts';
import { modelPool } from '../../lib/engine/model-pool.ts';
import { createProbeRunRecord, type NewProbeRun } from '../../lib/engine/probe-setup.ts';
import { executeProbeRun, type ProbeProgress } from '../../lib/engine/probe-scheduler.ts';
import { probeLoadParams } from '../../lib/engine/run-load.ts';
import { runLockHeld, type RunPhase } from '../../lib/engine/run-scheduler.ts';
import { getProbeRun, listProbeRuns, loadProbeResults } from '../../lib/store/probe-runs.ts';
import { keptConnection } from '../../lib/store/schema.ts';
import { requestPersistenceBeforeModelLoad } from '../../lib/store/storage.ts';
import { notice, noticeOf, type Notice } from '../../lib/core/notices/index.ts';
import { memoryCheck, type ModelChoice } from '../models/memory-check.svelte.ts';
import { runListFailure } from '../compare/run-list.ts';

export interface ProbeView {
  record: ProbeRunRecord;
  /** Every result so far, appended in place while the run goes on (a copy per result would cost in proportion to the results so far). */
  results: ProbeResult[];
  /** How many results `results` held when this view was made: a new view per result without copying them. */
  count: number;
  progress: ProbeProgress | null;
  phase: RunPhase | null;
  /** Stored as running, but no tab holds it (a closed or reloaded tab left it so). */
  interrupted: boolean;
  /** Stored as running and another tab holds it (runs it now): it cannot be resumed here. */
  elsewhere: boolean;
}

/** Memorization runs listed at first, and added by each "Show more" (as the scoring runs' list). */
export const PROBE_ROWS = 100;

export class ProbeState {
  /** The newest `drawn` stored runs, newest first (raw: replaced whole at each refresh). */
  runs = $state.raw<ProbeRunRecord[]>([]);
  /** How many are stored. */
  total = $state(0);
  /** How many to list: the newest, PROBE_ROWS more at each "Show more". */
  drawn = $state(PROBE_ROWS);
  /** The run on show (live while it runs here). Raw: replaced whole on each change. */
  view = $state.raw<ProbeView | null>(null);
  liveId = $state<string | null>(null);
  failure = $state<{ runId: string | null; notice: Notice } | null>(null);
  private shownId: string | null = null;
  private abort: AbortController | null = null;
  private readonly db = keptConnection();

  /** Why the last listing of the stored memorization runs failed, or null: the list says so, keeps what it showed, and offers to try again. */
  listFailure = $state<Notice | null>(null);

  /**
   * Lists the stored runs again. Never rejects: a listing that fails is the list's to say
   * (listFailure, with Try again), never the failure of the change made before it (a delete, a label,
   * a restore, a new run), which it is not.
   */
  async refresh(): Promise<void> {
    try {
      const { runs, total } = await listProbeRuns(await this.db(), this.drawn);
      this.runs = runs;
      this.total = total;
      this.listFailure = null;
    } catch (error) {
      this.listFailure = runListFailure(error, 'memorization');
    }
  }

  async showMore(): Promise<void> {
    this.drawn += PROBE_ROWS;
    await this.refresh();
  }

  /** Whether `runId` is a stored memorization run (the import button stores runs of both kinds), the list refreshed when it is. */
  async isStored(runId: string): Promise<boolean> {
    const stored = (await getProbeRun(await this.db(), runId)) !== undefined;
    if (stored) await this.refresh();
    return stored;
  }

  async show(runId: string): Promise<void> {
    this.shownId = runId;
    if (this.liveId === runId) return;
    const db = await this.db();
    const record = await getProbeRun(db, runId);
    const results = record ? await loadProbeResults(db, runId) : [];
    const held = record?.status === 'running' ? await runLockHeld(runId) : null;
    if (this.shownId !== runId) return;
    this.view = record ? { record, results, count: results.length, progress: null, phase: null, interrupted: held === false, elsewhere: held === true } : null;
    if (!record) this.failure = { runId, notice: notice('probe.not-stored', { runId }) };
  }

  /** Stores a new run, starts it in the background, and returns its id (null, with `failure` set, if it could not be created). */
  async start(request: NewProbeRun): Promise<string | null> {
    this.failure = null;
    if (!(await this.memoryAllows(null, request.model))) return null;
    try {
      const run = await createProbeRunRecord(await this.db(), request);
      await this.refresh();
      void this.execute(run.id);
      return run.id;
    } catch (error) {
      this.failure = { runId: null, notice: noticeOf(error) };
      return null;
    }
  }

  async execute(runId: string): Promise<void> {
    if (this.liveId) return;
    const db = await this.db();
    const record = await getProbeRun(db, runId);
    if (!record || !(await this.memoryAllows(runId, record.config.model)) || this.liveId) return;
    this.liveId = runId;
    this.shownId = runId;
    const results = await loadProbeResults(db, runId);
    let view: ProbeView = { record: { ...record, status: 'running' }, results, count: results.length, progress: null, phase: null, interrupted: false, elsewhere: false };
    const set = (change: Partial<ProbeView>) => {
      view = { ...view, ...change };
      if (this.shownId === runId) this.view = view;
    };
    set({});
    if (this.failure?.runId === runId) this.failure = null;
    const abort = new AbortController();
    this.abort = abort;
    void requestPersistenceBeforeModelLoad(record.config.model.source);
    // From the page's model pool: a worker holding this model already runs the probe (run-state.svelte.ts).
    const choice = modelPool.clientFor(this, probeLoadParams(record.config.model));
    choice.settle(true);
    try {
      const ended = await executeProbeRun(db, runId, choice.client, {
        signal: abort.signal,
        onPhase: (phase) => {
          if (phase.kind !== view.phase?.kind) void getProbeRun(db, runId).then((r) => r && set({ record: { ...r } }));
          set({ phase });
        },
        onProgress: (progress) => set({ progress }),
        onResult: (result) => {
          results.push(result);
          set({ count: results.length });
        },
      });
      set({ record: ended });
    } catch (error) {
      this.failure = { runId, notice: noticeOf(error) };
      modelPool.failed(this, error);
    } finally {
      modelPool.release(this);
      this.abort = null;
      this.liveId = null;
      if (this.shownId === runId) await this.show(runId);
      await this.refresh();
    }
  }

  /** The memory check for a run's model, before the run is stored or marked running (as run-state.svelte.ts asks it). */
  private async memoryAllows(runId: string | null, model: ModelChoice): Promise<boolean> {
    const refused = await memoryCheck.refusal(model);
    if (refused) this.failure = { runId, notice: refused };
    return refused === null;
  }

  pause(runId: string): void {
    if (this.liveId === runId) this.abort?.abort();
  }
}

export const probeState = new ProbeState();
