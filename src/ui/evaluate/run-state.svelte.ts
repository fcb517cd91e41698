// The Evaluate page's state: stored runs, the run in progress (its own model worker, apart from the
// playground's), live progress and results, and the actions start, cancel, resume, and what to do
// after a failed WebGPU check.
import type { ItemResult, RunRecord } from '../../lib/core/record/run.ts';
import { ModelClient } from '../../lib/engine/model-client.ts';
import { createGenRun, createMcRun, type NewGenRun, type NewMcRun } from '../../lib/engine/run-setup.ts';
import { executeRun, type RunProgress } from '../../lib/engine/run-scheduler.ts';
import { listDatasets } from '../../lib/store/datasets.ts';
import { getRun, listRuns, loadResults, updateRun } from '../../lib/store/runs.ts';
import { openJianguDb, type JianguDatabase } from '../../lib/store/schema.ts';
import type { DatasetRecord } from '../../lib/core/benchmarks/types.ts';
import { t } from '../i18n/locale.svelte.ts';

export class RunState {
  datasets = $state<DatasetRecord[]>([]);
  runs = $state<RunRecord[]>([]);
  /** The run shown (running or finished). */
  current = $state<RunRecord | null>(null);
  results = $state<ItemResult[]>([]);
  /** The generation in flight: its item and the text streamed so far. */
  streaming = $state<{ itemId: string; text: string } | null>(null);
  progress = $state<RunProgress | null>(null);
  running = $state(false);
  /** An error from src/lib, as thrown (English). */
  private failure = $state<string | null>(null);
  /** A run asked for that is not stored; worded when read, so it follows a change of language. */
  private missingRun = $state<string | null>(null);
  private database: Promise<JianguDatabase> | null = null;
  private abort: AbortController | null = null;
  private client: ModelClient | null = null;

  private db(): Promise<JianguDatabase> {
    this.database ??= openJianguDb();
    return this.database;
  }

  /** What went wrong last, for the page to show; null when nothing did. */
  get error(): string | null {
    if (this.missingRun !== null) return t(`No run ${this.missingRun} is stored in this browser.`, `这个浏览器里没有存储评测记录 ${this.missingRun}。`);
    return this.failure;
  }

  private setError(failure: string | null, missingRun: string | null = null): void {
    this.failure = failure;
    this.missingRun = missingRun;
  }

  async refresh(): Promise<void> {
    const db = await this.db();
    this.datasets = await listDatasets(db);
    this.runs = await listRuns(db);
  }

  /** Shows a stored run and its results. */
  async show(runId: string): Promise<void> {
    const db = await this.db();
    const run = await getRun(db, runId);
    this.current = run ?? null;
    this.results = run ? await loadResults(db, runId) : [];
    this.setError(null, run ? null : runId);
  }

  start(request: NewMcRun): Promise<string | null> {
    return this.launch((db) => createMcRun(db, request));
  }

  startGeneration(request: NewGenRun): Promise<string | null> {
    return this.launch((db) => createGenRun(db, request));
  }

  /** Stores a new run, starts it in the background, and returns its id (null, with `error` set, if it could not be created). */
  private async launch(create: (db: JianguDatabase) => Promise<RunRecord>): Promise<string | null> {
    this.setError(null);
    try {
      const run = await create(await this.db());
      await this.refresh();
      void this.execute(run.id);
      return run.id;
    } catch (error) {
      this.setError(error instanceof Error ? error.message : String(error));
      return null;
    }
  }

  /** Runs or resumes a stored run to its end; the page shows results as they come. */
  async execute(runId: string): Promise<void> {
    if (this.running) return;
    const db = await this.db();
    await this.show(runId);
    this.running = true;
    this.setError(null);
    const abort = new AbortController();
    this.abort = abort;
    // A worker that crashed before is replaced; a healthy one keeps its loaded model.
    this.client ??= new ModelClient();
    try {
      this.current = await executeRun(db, runId, this.client, {
        signal: abort.signal,
        wasmClient: () => new ModelClient(),
        onProgress: (p) => (this.progress = p),
        onResult: (r) => {
          this.results = [...this.results, r];
          this.streaming = null;
        },
        onToken: (itemId, text) => {
          this.streaming = this.streaming?.itemId === itemId ? { itemId, text: this.streaming.text + text } : { itemId, text };
        },
      });
    } catch (error) {
      this.setError(error instanceof Error ? error.message : String(error));
      this.client?.terminate();
      this.client = null;
      this.current = (await getRun(db, runId)) ?? this.current;
    } finally {
      this.running = false;
      this.abort = null;
      await this.refresh();
    }
  }

  cancel(): void {
    this.abort?.abort();
  }

  /** After a failed WebGPU check: go on with WebGPU anyway (recorded in the run). */
  async continueOnWebGpu(runId: string): Promise<void> {
    const run = await getRun(await this.db(), runId);
    if (!run || run.config.kind !== 'multiple-choice' || !('check' in run) || !run.check) return;
    await updateRun(await this.db(), runId, { check: { ...run.check, overridden: true } });
    await this.execute(runId);
  }

  /** After a failed WebGPU check: the same configuration as a new run on WASM. */
  async rerunOnWasm(runId: string): Promise<void> {
    const run = await getRun(await this.db(), runId);
    if (!run || run.config.kind !== 'multiple-choice') return;
    const c = run.config;
    const id = await this.start({
      model: { ...c.model, backend: 'wasm' },
      datasetId: c.datasetId,
      tasks: c.tasks,
      shots: c.shots,
      limitPerTask: c.limitPerTask,
      chatTemplate: c.chatTemplate,
      contextLimit: c.contextLimit,
    });
    if (id) location.hash = `#/run/${id}`;
  }
}

export const runState = new RunState();
