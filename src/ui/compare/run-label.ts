// What tells compared runs apart. Each run is described by its facets (model, dtype, backend, shots,
// scoring, prompt, tasks, its sample: random n per task and seed, or the first n, date); a label shows only the facets whose values differ
// between the runs compared, and the full description goes on hover. Pure: the page passes the
// language and its formatters in, so Node tests can check both languages.
import type { Locale } from '../i18n/choose.ts';
import { modelLabel } from '../i18n/model-label.ts';
import type { ItemResult, McItemResult, RunRecord } from '../../lib/core/record/run.ts';
import { shortfallFromSummary, shotShortfall, type ShotShortfall } from '../../lib/core/metrics/shots-used.ts';
import { shotsText } from '../evaluate/shots-text.ts';
import type { SharedRun } from '../../lib/core/formats/share-link/share-link.ts';
import { harnessBackendText } from '../evaluate/run-backend.ts';
import { describeSample, sampleDifference } from '../../lib/core/protocols/sample-description.ts';
import { sampleDifferenceText, sampleShortText, type SampleWords } from '../evaluate/sample-text.ts';
import type { LabelConfig, RunListEntry } from '../../lib/core/record/run-list-entry.ts';

/** A stored run's configuration, a link's, or what a list's entry keeps of one (LabelConfig). */
export type RunConfigLike = RunRecord['config'] | SharedRun['config'] | LabelConfig;

/** What a label is made from: a stored run or a shared link, reduced to what describes it. */
export interface DescribedRun {
  config: RunConfigLike;
  createdAt: string;
  /** The backend the run really ran on (`auto` resolves to one), when recorded; for an lm-eval import, the harness's. */
  backendUsed?: string | null;
  /** An lm-eval import's --limit, in docs, where it is not items (config.limitPerTask null). */
  harnessLimit?: number;
  /** Items asked with fewer exemplars than the shots (the context limit), when any and known. */
  shortfall?: Pick<ShotShortfall, 'fewer' | 'fewest'>;
  /** The user's own label of a stored run: it leads the run's label wherever it is compared. */
  label?: string;
}

/** The page's formatters in the interface language (fmt.countOf and fmt.dateTime on the page). */
export interface LabelWords {
  lang: Locale;
  countOf: (n: number, one: string, many: string, zh: string) => string;
  dateTime: (iso: string) => string;
}

export type FacetKey = 'model' | 'dtype' | 'backend' | 'shots' | 'scoring' | 'orders' | 'prompt' | 'tasks' | 'limit' | 'date';

export interface Facet {
  key: FacetKey;
  text: string;
}

export interface RunLabel {
  /** The facets that differ between the runs compared (all of them for a run compared with nothing). */
  short: string;
  /** Every facet: for a title attribute. */
  full: string;
}

const SEP = ' · ';

/** `results`: the run's, when loaded, to say how many items had fewer exemplars than its shots. */
export function describedStored(run: RunRecord, results?: readonly ItemResult[]): DescribedRun {
  const shortfall = results && run.config.kind === 'multiple-choice' ? shotShortfall(run.config.shots, results as readonly McItemResult[]) : null;
  return {
    config: run.config,
    ...(shortfall ? { shortfall } : {}),
    createdAt: run.createdAt,
    // An import from lm-evaluation-harness ran there (its config.model.backend is a placeholder).
    backendUsed: harnessBackendText(run, false, true) ?? run.environment?.backendInfo.backend ?? null,
    ...(run.origin?.harnessLimit !== undefined ? { harnessLimit: run.origin.harnessLimit } : {}),
    ...(run.label ? { label: run.label } : {}),
  };
}

/**
 * A stored run as a list's entry describes it (store/run-index.ts): the same facets as
 * describedStored of its record, without reading the record (a list labels 10,000 runs).
 */
export function describedListed(entry: RunListEntry): DescribedRun {
  return {
    config: entry.labelConfig,
    createdAt: entry.createdAt,
    backendUsed: harnessBackendText(entry, false, true) ?? entry.backend,
    ...(entry.origin?.harnessLimit !== undefined ? { harnessLimit: entry.origin.harnessLimit } : {}),
    ...(entry.label ? { label: entry.label } : {}),
  };
}

export function describedShared(shared: SharedRun): DescribedRun {
  const shortfall = shared.config.kind === 'multiple-choice' ? shortfallFromSummary(shared.config.shots, shared.summary) : null;
  return { config: shared.config, createdAt: shared.createdAt, backendUsed: shared.environment?.backend ?? null, ...(shortfall ? { shortfall } : {}) };
}

/** The run's facets, in reading order, worded in `words.lang`. */
export function runFacets(run: DescribedRun, words: LabelWords): Facet[] {
  const zh = words.lang === 'zh';
  const { config } = run;
  const facets: Facet[] = [
    { key: 'model', text: modelLabel(config.model.source, words.lang) },
    { key: 'dtype', text: config.model.dtype },
    { key: 'backend', text: backendText(run.backendUsed ?? config.model.backend, zh) },
  ];
  if (config.kind === 'multiple-choice') {
    facets.push({ key: 'shots', text: shotsText(config.shots, run.shortfall ?? null, zh) });
    facets.push({
      key: 'scoring',
      text:
        config.scoring === 'generate-extract'
          ? zh ? '生成后提取字母' : 'generate, extract letter'
          : config.scoring === 'cloze'
            ? zh ? '选项文本（完形）' : 'option text (cloze)'
            : zh ? '字母对数概率' : 'letter log-probs',
    });
    facets.push({ key: 'orders', text: ordersText(config, zh) });
  } else {
    const d = config.decoding;
    facets.push({ key: 'scoring', text: d.kind === 'greedy' ? (zh ? '贪心解码' : 'greedy') : zh ? `采样，种子 ${d.seed}` : `sampled, seed ${d.seed}` });
  }
  facets.push({ key: 'prompt', text: config.chatTemplate ? (zh ? '对话模板' : 'chat template') : zh ? '无对话模板' : 'plain prompt' });
  facets.push({ key: 'tasks', text: tasksText(config.tasks, words) });
  facets.push({
    key: 'limit',
    text:
      config.limitPerTask === null && run.harnessLimit !== undefined
        ? `lm-eval --limit ${run.harnessLimit}` // in docs, not items (a circular export's doc is a rotation)
        : // The sample: a random one and its seed, the first n in file order, or every item (sample-text.ts).
          sampleShortText(describeSample(config), sampleWords(words.lang)),
  });
  facets.push({ key: 'date', text: words.dateTime(run.createdAt) });
  return facets;
}

/** How the options were ordered: every rotation (circular), rotations of PriDe's estimation set only, or as the benchmark has them. */
function ordersText(config: RunConfigLike, zh: boolean): string {
  const asked = config as { circular?: boolean; pride?: unknown };
  if (asked.circular) return zh ? '循环评测' : 'circular';
  if (asked.pride) return zh ? 'PriDe 去偏' : 'PriDe';
  return zh ? '原选项顺序' : 'benchmark order';
}

function backendText(backend: string, zh: boolean): string {
  if (backend === 'webgpu') return 'WebGPU';
  if (backend === 'wasm') return 'WASM';
  if (backend === 'auto') return zh ? '自动选择后端' : 'auto backend';
  return backend;
}

/** A task subset is named when it is small (task keys are the benchmark's own, shown as they are), counted otherwise. */
function tasksText(tasks: readonly string[], words: LabelWords): string {
  const count = words.countOf(tasks.length, 'task', 'tasks', '个任务');
  return tasks.length <= 2 ? (words.lang === 'zh' ? `${count}：${tasks.join('、')}` : `${count}: ${tasks.join(', ')}`) : count;
}

/**
 * What differs among runs, facet by facet, taken in a run at a time: a list of 10,000 stored runs is
 * taken in in pieces (CompareState), never in one task. Runs of one kind have the same facets.
 */
export class FacetSpread {
  /** The facets in reading order, as the first run has them. */
  private order: FacetKey[] = [];
  private first = new Map<FacetKey, string>();
  private differing = new Set<FacetKey>();
  runs = 0;

  add(facets: readonly Facet[]): void {
    if (this.runs++ === 0) {
      this.order = facets.map((f) => f.key);
      for (const f of facets) this.first.set(f.key, f.text);
      return;
    }
    for (const key of this.order) {
      if (this.differing.has(key)) continue;
      // A facet this run lacks reads as '' (runs of one kind lack none).
      if ((facets.find((f) => f.key === key)?.text ?? '') !== this.first.get(key)) this.differing.add(key);
    }
  }

  /**
   * The facets a label shows: those whose text differs (the date only as a last resort, as every
   * run has its own); every facet but the date for a run compared with nothing; none when the runs
   * are alike in every one (then they are numbered).
   */
  chosen(): FacetKey[] {
    if (this.runs < 2) return this.order.filter((k) => k !== 'date');
    const keys = this.order.filter((key) => key !== 'date' && this.differing.has(key));
    return keys.length > 0 ? keys : this.differing.has('date') ? ['date'] : [];
  }
}

/** A run's label from its facets and the facets chosen (FacetSpread.chosen); `i`: its place among the runs, for a label that is only a number. */
export function labelFrom(run: DescribedRun, facets: readonly Facet[], chosen: readonly FacetKey[], i: number): RunLabel {
  // The user's label is theirs to tell runs apart by: it comes first, quoted, on both.
  const own = run.label ? `“${run.label}”${SEP}` : '';
  const full = own + facets.map((f) => f.text).join(SEP);
  const short = own + (chosen.length > 0 ? facets.filter((f) => chosen.includes(f.key)).map((f) => f.text).join(SEP) : `#${i + 1}`);
  return { short, full };
}

/**
 * One label per run: the facets whose text differs among `runs` (the date only as a last resort,
 * as every run has its own), so seven runs that differ in backend alone read "WASM" / "WebGPU".
 * Runs alike in every facet but the date are told apart by their dates; the same date too, by number.
 */
export function distinguishingLabels(runs: readonly DescribedRun[], words: LabelWords): RunLabel[] {
  const facets = runs.map((run) => runFacets(run, words));
  const spread = new FacetSpread();
  for (const fs of facets) spread.add(fs);
  const chosen = spread.chosen();
  return runs.map((run, i) => labelFrom(run, facets[i], chosen, i));
}

/** What every compared run shares (the facets left out of their labels), to say once above them. */
export function sharedDescription(runs: readonly DescribedRun[], words: LabelWords): string {
  if (runs.length < 2) return '';
  const facets = runs.map((run) => runFacets(run, words));
  return facets[0]
    .filter((f) => f.key !== 'date' && facets.every((fs) => fs.find((g) => g.key === f.key)?.text === f.text))
    .map((f) => f.text)
    .join(SEP);
}

/**
 * Counts as shots-text.ts writes them in a label (grouped, in the label's language). One format per
 * language, made once: toLocaleString makes one per call, 137 ms of labelling 10,000 stored runs.
 */
const counts = new Map<Locale, Intl.NumberFormat>();
function sampleWords(lang: Locale): SampleWords {
  let format = counts.get(lang);
  if (!format) counts.set(lang, (format = new Intl.NumberFormat(lang === 'zh' ? 'zh-CN' : 'en-US')));
  return { lang, count: (n) => format.format(n) };
}

/**
 * Whether the compared runs asked different samples (other tasks, sizes, draws or seeds:
 * sampleDifference), said once above them: their item-by-item numbers then cover only the items
 * both asked, and their overall scores are over different items. '' when every run asked the same.
 */
export function samplesNote(runs: readonly DescribedRun[], words: Pick<LabelWords, 'lang'>): string {
  for (let i = 1; i < runs.length; i++) {
    const difference = sampleDifference(runs[0].config, runs[i].config);
    if (difference) return sampleDifferenceText(difference, sampleWords(words.lang));
  }
  return '';
}
