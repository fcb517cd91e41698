// The Compare page's state: the runs stored here, the runs chosen (in order, the first being the
// baseline), shared links added for this visit, and the comparison the core computes from them.
// Only stored run ids go into the URL (`#/compare/<id>,<id>`): a link's payload is long and is the
// sharer's to pass on, not ours to copy into another URL.
import { compareRuns, type ComparableKind, type ComparableRun, type Comparison } from '../../lib/core/metrics/compare.ts';
import type { RunRecord } from '../../lib/core/record/run.ts';
import { decodeShareLink, SHARED_ROUTE, type SharedRun } from '../../lib/core/formats/share-link/share-link.ts';
import { resolveSharedItems, type SharedItemRow } from '../../lib/engine/shared-items.ts';
import { countResults, listIndexedRuns, NEWEST_ROWS, PREVIEW_FROM, type NewestRuns } from '../../lib/store/run-index.ts';
import type { RunListEntry } from '../../lib/core/record/run-list-entry.ts';
import type { UnreadableRecord } from '../../lib/core/record/stored-check.ts';
import { readStoredRun, storedRunEstimate, type WorkPlace } from '../../lib/data/stored-run-client.ts';
import { heldRunIds } from '../../lib/engine/run-scheduler.ts';
import { keptConnection } from '../../lib/store/schema.ts';
import { notice, noticeOf, type Notice } from '../../lib/core/notices/index.ts';
import { fmt, locale, t } from '../i18n/locale.svelte.ts';
import { router } from '../router.svelte.ts';
import { idsOfRoute, parseRoute, routeTo } from '../route.ts';
import { fromSharedRun, fromStoredRun, sharedRunId } from './comparable.ts';
import { interruptedRunIds, runListFailure } from './run-list.ts';
import { describedListed, describedShared, describedStored, distinguishingLabels, FacetSpread, labelFrom, runFacets, samplesNote, sharedDescription, type DescribedRun, type LabelWords, type RunLabel } from './run-label.ts';
import type { DatasetId } from '../../lib/core/benchmarks/types.ts';
import { getDataset } from '../../lib/core/benchmarks/catalog.ts';

/** A dataset's catalog title for a notice; a link may name a dataset this build lacks: then its id. */
function catalogTitle(id: string): string {
  try {
    return getDataset(id as DatasetId).title;
  } catch {
    return id;
  }
}

/** A shared link added on this page, and why it is summary-only when it is. */
export interface SharedEntry {
  id: string;
  shared: SharedRun;
  /**
   * null: its items were matched to this browser's data (per item, pairable). `generation`: a
   * generation link carries no outputs. `unresolved`: see `detail` (why its items could not be matched).
   */
  summaryOnly: 'generation' | 'unresolved' | null;
  detail: Notice | null;
}

/** What one chosen run is, for the chosen list and the baseline control. */
export interface ChosenEntry {
  id: string;
  label: RunLabel;
  kind: 'stored' | 'shared';
  /** Loaded and ready to compare. */
  ready: boolean;
}

/** The payload of a pasted share URL (whatever follows `#/shared/`), or the text itself when it is a bare payload. */
export function payloadOf(text: string): string {
  const trimmed = text.trim();
  const at = trimmed.indexOf(SHARED_ROUTE);
  return at >= 0 ? trimmed.slice(at + SHARED_ROUTE.length) : trimmed;
}

export function kindText(kind: ComparableKind): string {
  return kind === 'multiple-choice' ? t('multiple choice', '选择题') : t('generation', '生成题');
}

/** Rows of the stored-runs table drawn at first, and added by each "Show more" (as Evaluate's run list). */
export const COMPARE_ROWS = NEWEST_ROWS;

export class CompareState {
  /**
   * Stored runs, newest first, as the run index lists them (store/run-index.ts: a few fields each,
   * checked when written), never whole records: 10,000 stored runs list in one read. Raw: replaced whole.
   */
  runs = $state.raw<RunListEntry[]>([]);
  /** The chosen stored runs' records, read and checked when chosen (load). */
  records = $state.raw<Record<string, RunRecord>>({});
  /** Rows of the stored-runs table drawn: the newest, COMPARE_ROWS more at each "Show more". */
  drawn = $state(COMPARE_ROWS);
  /** Stored runs whose record (or, once loaded, results) cannot be shown: named apart, with export and delete. */
  unreadable = $state.raw<UnreadableRecord[]>([]);
  loaded = $state(false);
  /** Chosen runs in order: stored run ids and shared entry ids; the first is the baseline. */
  order = $state<string[]>([]);
  /** Shared links added on this visit, by id. */
  shared = $state.raw<SharedEntry[]>([]);
  /** Runs ready to compare, by id (raw: thousands of items need no deep reactivity). */
  private comparables = $state.raw<Record<string, ComparableRun>>({});
  /** Each loaded stored run's updatedAt: a run that has moved on since (resumed, finished) is read again. */
  private loadedVersion = new Map<string, string>();
  /** Runs stored as `running` that no tab runs now (interruptedRunIds): listed as interrupted. */
  interrupted = $state.raw<ReadonlySet<string>>(new Set());
  /** Per drawn stored run, how many of its planned items have a result (a paused run has fewer); counted for the rows drawn only. */
  done = $state.raw<Record<string, number>>({});
  /** An error to show, as a notice: worded by the page, so a change of language rewords it. */
  error = $state<Notice | null>(null);
  /** Why the last listing of the stored runs failed, or null: said beside the rows drawn, with Try again. */
  listFailure = $state<Notice | null>(null);
  /** Why the last pasted link was not added: shown under the link box. */
  linkError = $state<Notice | null>(null);
  /** Stored ids named in the URL that this browser does not hold. */
  missing = $state<string[]>([]);
  adding = $state(false);
  private openCalls = 0;
  private readonly db = keptConnection();

  /**
   * False while a long list shows only its newest rows (preview), read first while the whole list
   * comes: its labels, its spread and "Show more" wait for the rest.
   */
  listedAll = $state(true);
  private previewTotal = $state(0);

  /** How many stored runs are listed: the index's count while only the newest rows are read. */
  get total(): number {
    return this.listedAll ? this.runs.length : this.previewTotal;
  }

  /**
   * Lists the stored runs. Resolves once they are listed, to `settled`: resolved once the list has
   * been checked against the records (run-index.ts, IndexedRuns.checked) and, where the check found
   * a record the index lacked (written behind its back), listed again.
   */
  async refresh(): Promise<{ settled: Promise<void> }> {
    let settled = Promise.resolve();
    try {
      const db = await this.db();
      const { runs: listed, unreadable, checked } = await listIndexedRuns(db, { count: this.drawn, show: (first) => void this.preview(first) });
      // The index was built again: listed again.
      settled = checked
        .then(async (ok) => {
          if (!ok) await (await this.refresh()).settled;
        })
        .catch(() => {});
      // A run whose results were found unreadable when loaded stays apart until it is deleted.
      const resultsBad = this.unreadable.filter((u) => listed.some((r) => r.id === u.id));
      const runs = listed.filter((r) => !resultsBad.some((u) => u.id === r.id));
      this.unreadable = [...unreadable, ...resultsBad];
      const held = runs.some((r) => r.status === 'running') ? await heldRunIds() : null;
      const done = await countResults(db, runs.slice(0, this.drawn));
      this.interrupted = interruptedRunIds(runs, held);
      this.done = done;
      this.runs = runs;
      this.listedAll = true;
      this.listFailure = null;
    } catch (e) {
      this.listFailure = runListFailure(e);
    }
    this.loaded = true;
    return { settled };
  }

  /**
   * The first listing of a long list (over PREVIEW_FROM runs, run-index.ts) draws its newest rows as
   * soon as they are read (at 10,000 runs the whole list takes 0.4-0.7 s more: npm run bench, many-runs),
   * each with the whole of its label until the list is spread. A later listing keeps the rows it has meanwhile.
   */
  private async preview(first: NewestRuns): Promise<void> {
    if (this.loaded || first.total <= PREVIEW_FROM) return;
    try {
      const held = first.runs.some((r) => r.status === 'running') ? await heldRunIds() : null;
      if (this.loaded) return;
      this.interrupted = interruptedRunIds(first.runs, held);
      this.done = first.done;
      this.previewTotal = first.total;
      this.listedAll = false;
      this.runs = first.runs;
      this.loaded = true;
    } catch {
      // The whole list says what is wrong, if anything is.
    }
  }

  /**
   * Reads the stored runs again and applies the router parameter (a reopened or edited URL); the
   * choice is kept when the parameter names the stored runs already chosen.
   */
  /** `raw`: the route's parameter as it stands, each id still encoded (idsOfRoute splits, then decodes). */
  async open(raw: string | null): Promise<void> {
    // Each toggle updates the parameter; only the latest call may apply it after the await.
    const call = ++this.openCalls;
    const { settled } = await this.refresh();
    if (call !== this.openCalls) return;
    const ids = idsOfRoute(raw);
    // A named run the list lacks may have been written behind the index's back (another version's
    // tab, a backup written raw): it is called missing only once the check has listed again.
    if (ids.some((id) => !this.runs.some((r) => r.id === id))) await settled;
    if (call !== this.openCalls) return;
    const current = this.storedIds();
    const stored = new Set(this.runs.map((r) => r.id));
    // The same choice, all still stored; a run deleted since is dropped and said below.
    if (ids.length === current.length && ids.every((id, i) => id === current[i] && stored.has(id))) return this.loadChosen();
    // A named run that is stored but cannot be shown is listed as such (with export and delete), not as missing.
    this.missing = ids.filter((id) => !stored.has(id) && !this.unreadable.some((u) => u.id === id));
    const sharedIds = this.order.filter((id) => this.isShared(id));
    this.order = [...ids.filter((id) => stored.has(id)), ...sharedIds];
    await this.loadChosen();
  }

  /** Draws COMPARE_ROWS more rows, with their counts. */
  async showMore(): Promise<void> {
    const from = this.drawn;
    this.drawn += COMPARE_ROWS;
    try {
      const done = await countResults(await this.db(), this.runs.slice(from, this.drawn));
      this.done = { ...this.done, ...done };
    } catch (e) {
      this.error = noticeOf(e);
    }
  }

  private loadChosen(): Promise<void> {
    return Promise.all(this.storedIds().map((id) => this.load(id))).then(() => undefined);
  }

  private isShared(id: string): boolean {
    return this.shared.some((s) => s.id === id);
  }

  private storedIds(): string[] {
    return this.order.filter((id) => !this.isShared(id));
  }

  /** Where each loaded stored run was read and checked (a large one in the stored-run worker). */
  readIn = $state.raw<Record<string, WorkPlace>>({});

  /** Loaded runs as their labels describe them (with their results' exemplar counts). */
  private describedRuns = $state<Record<string, DescribedRun>>({});

  private async load(runId: string): Promise<void> {
    const run = this.runs.find((r) => r.id === runId);
    if (!run) return;
    if (this.comparables[runId] && this.loadedVersion.get(runId) === run.updatedAt) return;
    try {
      // Read and checked in the stored-run worker when large (issue 35), on the page when small.
      // Compare shows no prompt: a large run's come back empty, so the page takes in ~30 MB less.
      const { checked, readIn } = await readStoredRun(await this.db(), runId, { withoutPrompts: true });
      // Deleted since it was listed (another tab): the next refresh drops it.
      if (checked === null) return;
      this.readIn = { ...this.readIn, [runId]: readIn };
      // Results a page cannot show set the run apart, named, instead of failing the comparison.
      if (checked && 'unreadable' in checked) {
        this.unreadable = [...this.unreadable, { ...checked.unreadable, createdAt: run.createdAt }];
        this.runs = this.runs.filter((r) => r.id !== runId);
        this.order = this.order.filter((id) => id !== runId);
        return;
      }
      const { run: record, results } = checked;
      this.loadedVersion.set(runId, run.updatedAt);
      // Its cells' intervals are (a) of its estimate, as on its run page (a large run's in the stored-run worker).
      const estimate = record.config.kind === 'multiple-choice' && results.length > 0 ? (await storedRunEstimate(await this.db(), record, results)).estimate : null;
      this.records = { ...this.records, [runId]: record };
      this.comparables = { ...this.comparables, [runId]: fromStoredRun(record, results, estimate) };
      // Its label says how many items had fewer exemplars than its shots (the results say it).
      this.describedRuns = { ...this.describedRuns, [runId]: describedStored(record, results) };
    } catch (e) {
      this.error = noticeOf(e);
    }
  }

  /**
   * Keeps the URL on the chosen stored runs without a new history entry per click. replaceState
   * fires no hashchange, so the router's parameter is set to match: otherwise a later visit to the
   * bare `#/compare` would look like no change to it and the old choice would stay.
   */
  private syncUrl(): void {
    if (typeof history === 'undefined') return;
    const ids = this.storedIds();
    this.missing = [];
    // Each id encoded on its own (route.ts), so an id's `,` does not split it when read back.
    const hash = routeTo('compare', ids);
    history.replaceState(history.state, '', hash);
    if (router.page === 'compare') {
      const next = parseRoute(hash);
      router.param = next.param;
      router.raw = next.raw;
    }
  }

  /** The dataset and kind every other choice must match: the baseline's (derived once per change: every drawn row's disabledReason reads it). */
  reference = $derived.by((): { datasetId: DatasetId; kind: ComparableKind } | null => {
    const first = this.order[0];
    if (first === undefined) return null;
    const run = this.runs.find((r) => r.id === first);
    if (run) return { datasetId: run.datasetId, kind: run.kind };
    const entry = this.shared.find((s) => s.id === first);
    return entry ? { datasetId: entry.shared.datasetId, kind: entry.shared.kind } : null;
  });

  /** Why a stored run cannot be chosen now, or null when it can. */
  disabledReason(run: Pick<RunListEntry, 'id' | 'datasetId' | 'kind'>): Notice | null {
    const ref = this.reference;
    if (!ref || this.order.includes(run.id)) return null;
    if (run.datasetId !== ref.datasetId || run.kind !== ref.kind) {
      return notice('compare.run-other-benchmark', { referenceTitle: catalogTitle(ref.datasetId), referenceKind: ref.kind });
    }
    return null;
  }

  isChosen(runId: string): boolean {
    return this.order.includes(runId);
  }

  async toggle(runId: string, chosen: boolean): Promise<void> {
    this.error = null;
    if (!chosen) {
      this.order = this.order.filter((id) => id !== runId);
    } else if (!this.order.includes(runId)) {
      const run = this.runs.find((r) => r.id === runId);
      if (!run || this.disabledReason(run)) return;
      this.order = [...this.order, runId];
    }
    this.syncUrl();
    if (chosen) await this.load(runId);
  }

  /** Makes a chosen run the baseline (first). */
  setBaseline(id: string): void {
    if (!this.order.includes(id)) return;
    this.order = [id, ...this.order.filter((x) => x !== id)];
    this.syncUrl();
  }

  /** Adds a pasted share URL or payload. Errors go to `linkError`; a link whose items cannot be matched here joins as summary-only. */
  async addLink(text: string): Promise<boolean> {
    const payload = payloadOf(text);
    if (payload.length === 0) {
      // The box is empty because a link too long was refused from it (ComparePage.svelte): that
      // refusal stays, not "paste a link first", which reads as if nothing had been pasted.
      if (this.linkError?.code !== 'link.payload-too-long') this.linkError = notice('compare.link-empty');
      return false;
    }
    this.linkError = null;
    this.adding = true;
    try {
      const shared = await decodeShareLink(payload);
      const id = sharedRunId(shared);
      if (this.order.includes(id)) {
        this.linkError = notice('compare.link-already-added');
        return false;
      }
      const ref = this.reference;
      if (ref && (shared.datasetId !== ref.datasetId || shared.kind !== ref.kind)) {
        this.linkError = notice('compare.link-other-benchmark', { title: catalogTitle(shared.datasetId), kind: shared.kind, referenceTitle: catalogTitle(ref.datasetId), referenceKind: ref.kind });
        return false;
      }
      let rows: SharedItemRow[] | null = null;
      let entry: SharedEntry = { id, shared, summaryOnly: 'generation', detail: null };
      if (shared.kind === 'multiple-choice') {
        try {
          rows = await resolveSharedItems(await this.db(), shared);
          entry = { ...entry, summaryOnly: null };
        } catch (e) {
          entry = { ...entry, summaryOnly: 'unresolved', detail: noticeOf(e) };
        }
      }
      this.shared = [...this.shared, entry];
      this.comparables = { ...this.comparables, [id]: fromSharedRun(shared, rows) };
      this.order = [...this.order, id];
      return true;
    } catch (e) {
      this.linkError = noticeOf(e);
      return false;
    } finally {
      this.adding = false;
    }
  }

  removeShared(id: string): void {
    this.order = this.order.filter((x) => x !== id);
    this.shared = this.shared.filter((s) => s.id !== id);
  }

  /** What describes a chosen run (stored or shared), for its label. */
  private described(id: string): DescribedRun | null {
    const entry = this.shared.find((s) => s.id === id);
    if (entry) return describedShared(entry.shared);
    const run = this.runs.find((r) => r.id === id);
    // The label as stored now (it changes without the results being read again).
    return run ? { ...(this.describedRuns[id] ?? describedListed(run)), label: run.label } : null;
  }

  /** Each chosen run's label: what differs between the chosen runs, the full description on hover. */
  labels = $derived.by((): Record<string, RunLabel> => {
    const ids = this.order.filter((id) => this.described(id) !== null);
    const labels = distinguishingLabels(ids.map((id) => this.described(id)!), labelWords());
    return Object.fromEntries(ids.map((id, i) => [id, labels[i]]));
  });

  /** What all chosen runs share (left out of their labels), said once above them. */
  common = $derived(sharedDescription(this.order.map((id) => this.described(id)).filter((d): d is DescribedRun => d !== null), labelWords()));

  /** Said above the compared runs when their samples differ (run-label.ts samplesNote); '' when they are the same. */
  samples = $derived(samplesNote(this.order.map((id) => this.described(id)).filter((d): d is DescribedRun => d !== null), labelWords()));

  /**
   * What differs within each group of stored runs (one benchmark and kind), for a long list: taken in
   * SPREAD_TASK runs at a time (spreadLabels), so 10,000 runs are never labelled in one task.
   */
  private spread = $state.raw<LabelSpread | null>(null);
  private spreadCalls = 0;

  /**
   * Takes in the stored runs' facets, a piece per task, for the rows' labels (a list of SPREAD_PIECE
   * runs or fewer is spread at once, in storedLabels). Called when the runs or the language change.
   */
  async spreadLabels(): Promise<void> {
    const call = ++this.spreadCalls;
    const runs = this.runs;
    if (!this.listedAll || runs.length <= SPREAD_PIECE) return;
    const words = labelWords();
    const spread = newSpread(words.lang);
    for (let start = 0; start < runs.length; start += SPREAD_TASK) {
      // The first piece too: this is called from the effect of the list's own update, whose task draws the rows.
      await new Promise((resolve) => setTimeout(resolve));
      if (call !== this.spreadCalls) return;
      for (const run of runs.slice(start, start + SPREAD_TASK)) addToSpread(spread, run, words);
    }
    this.spread = spread;
  }

  /**
   * Labels for the rows drawn: what differs among all stored runs of the same benchmark and kind.
   * Until a long list is spread (spreadLabels), or after it changed, a row not yet taken in shows
   * every facet of its run, as a lone run's label does.
   */
  storedLabels = $derived.by((): Record<string, RunLabel> => {
    const words = labelWords();
    let spread = this.spread;
    if (!this.listedAll) spread = null;
    else if (this.runs.length <= SPREAD_PIECE) {
      spread = newSpread(words.lang);
      for (const run of this.runs) addToSpread(spread, run, words);
    }
    const out: Record<string, RunLabel> = {};
    for (const run of this.runs.slice(0, this.drawn)) {
      const described = describedListed(run);
      const facets = runFacets(described, words);
      const group = spread?.lang === words.lang ? spread.groups.get(groupOf(run)) : undefined;
      const place = spread?.place.get(run.id);
      out[run.id] = group && place !== undefined ? labelFrom(described, facets, group.chosen(), place) : labelFrom(described, facets, facets.map((f) => f.key).filter((k) => k !== 'date'), 0);
    }
    return out;
  });

  /** The chosen runs as loaded, in order (undefined: not loaded yet). */
  get comparedRuns(): (ComparableRun | undefined)[] {
    return this.order.map((id) => this.comparables[id]);
  }

  /** The chosen runs, in order. */
  get chosen(): ChosenEntry[] {
    return this.order.map((id): ChosenEntry => {
      const entry = this.shared.find((s) => s.id === id);
      const label = this.labels[id] ?? { short: id, full: id };
      return { id, label, kind: entry ? 'shared' : 'stored', ready: this.comparables[id] !== undefined };
    });
  }

  /** The comparison of the chosen runs once all are loaded (null before, or with fewer than two). */
  comparison = $derived.by((): { value: Comparison | null; error: Notice | null } => {
    if (this.order.length < 2) return { value: null, error: null };
    const runs = this.order.map((id) => this.comparables[id]);
    if (runs.some((r) => r === undefined)) return { value: null, error: null };
    try {
      return { value: compareRuns(runs), error: null };
    } catch (e) {
      return { value: null, error: noticeOf(e) };
    }
  });
}

/** Stored runs labelled in one task (CompareState.spreadLabels). */
const SPREAD_PIECE = 1000;
/** Runs taken into a long list's spread per task: 1,000 took 90–165 ms at 10,000 runs (npm run bench, many-runs), each a long task. */
const SPREAD_TASK = 250;

/** What differs within each group of stored runs, as far as taken in, in one language; each run's place in its group. */
interface LabelSpread {
  lang: LabelWords['lang'];
  groups: Map<string, FacetSpread>;
  place: Map<string, number>;
}

const newSpread = (lang: LabelWords['lang']): LabelSpread => ({ lang, groups: new Map(), place: new Map() });
const groupOf = (run: Pick<RunListEntry, 'datasetId' | 'kind'>): string => `${run.datasetId}|${run.kind}`;

function addToSpread(spread: LabelSpread, run: RunListEntry, words: LabelWords): void {
  const key = groupOf(run);
  let group = spread.groups.get(key);
  if (!group) spread.groups.set(key, (group = new FacetSpread()));
  spread.place.set(run.id, group.runs);
  group.add(runFacets(describedListed(run), words));
}

/** The interface language's formatters for labels (read inside $derived, so labels follow a switch). */
function labelWords(): LabelWords {
  return { lang: locale.current, countOf: fmt.countOf, dateTime: (iso) => fmt.dateTime(iso) };
}

export const compareState = new CompareState();
