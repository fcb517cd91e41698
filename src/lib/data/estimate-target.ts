// The configured run's items and the characters of their prompts, for the Evaluate page's time
// estimate (ui/evaluate/run-estimate-input.ts; core/metrics/run-estimate.ts turns the characters
// into tokens). Reading a paper-size dataset's 28,707 items and building every prompt takes the page
// about a second in one task, so a large configuration is sized in the stored-run worker
// (stored-run-client.ts configuredTarget); a small one stays on the page, where it is instant. Both
// places call these same functions, so the estimate shown is the same either way.
import type { DatasetId, GenerationItem, MultipleChoiceItem } from '../core/benchmarks/types.ts';
import type { McScoring } from '../core/record/run.ts';
import { protocolForDataset } from '../core/protocols/index.ts';
import { promptChars, type PromptChars } from '../core/protocols/prompt-chars.ts';
import { chooseItems, samplingRuleFor, type SamplingRequest } from '../engine/run-setup.ts';
import { getDataset, loadTaskItems } from '../store/datasets.ts';
import type { JianguDatabase } from '../store/schema.ts';

/** What decides the items and their prompts: the Evaluate page's configuration, with createMcRun's prefix rule applied. */
export interface TargetRequest {
  kind: 'multiple-choice' | 'generation';
  datasetId: DatasetId;
  tasks: readonly string[];
  limitPerTask: number | null;
  scoring: McScoring;
  shots: number;
  /** Whether the run would reuse its prefix's KV cache (decided on the page, as createMcRun decides). */
  reusePrefix: boolean;
  /**
   * The sample the run would draw (the Evaluate page's SampleChoice: draw and seed). Without it the
   * estimate would size the first limitPerTask items of each file while the run asks a random sample
   * of them: other prompts, another time.
   */
  sampling: Pick<SamplingRequest, 'draw' | 'seed'>;
}

/** The items a run started now would ask, and their prompts' characters (letters and cloze; null otherwise). */
export interface EstimateTarget {
  itemIds: string[];
  chars: PromptChars | null;
}

export interface ConfiguredItems {
  itemIds: string[];
  items: Map<string, MultipleChoiceItem | GenerationItem>;
  devByTask: Map<string, MultipleChoiceItem[]>;
}

/** The items a run started now would ask (chooseItems with the rule createMcRun applies to the same draw and seed), with their tasks' dev items. */
export async function readConfiguredItems(db: JianguDatabase, r: TargetRequest): Promise<ConfiguredItems> {
  const request = { datasetId: r.datasetId, tasks: [...r.tasks], limitPerTask: r.limitPerTask, sampling: samplingRuleFor({ draw: r.sampling.draw, seed: r.sampling.seed }) };
  const itemIds = await chooseItems(db, request, r.kind, 'test');
  const items = new Map<string, MultipleChoiceItem | GenerationItem>();
  const devByTask = new Map<string, MultipleChoiceItem[]>();
  for (const task of r.tasks) {
    for (const item of await loadTaskItems(db, r.datasetId, task, 'test')) items.set(item.id, item);
    if (r.kind === 'multiple-choice' && r.shots > 0) devByTask.set(task, (await loadTaskItems(db, r.datasetId, task, 'dev')).filter((i): i is MultipleChoiceItem => i.kind === 'multiple-choice'));
  }
  return { itemIds, items, devByTask };
}

/** The configured items' prompt sizes (promptChars), built as the worker builds the prompts. */
export function sizeTarget(r: TargetRequest, { itemIds, items, devByTask }: ConfiguredItems): EstimateTarget {
  if (r.kind !== 'multiple-choice' || r.scoring === 'generate-extract') return { itemIds, chars: null };
  const mc = itemIds.map((id) => items.get(id)).filter((i): i is MultipleChoiceItem => i?.kind === 'multiple-choice');
  try {
    return { itemIds, chars: promptChars({ protocol: protocolForDataset(r.datasetId), scoring: r.scoring, shots: r.shots, reusePrefix: r.reusePrefix, items: mc, devByTask }) };
  } catch {
    // An item the protocol refuses fails in the run itself, with its reason; here it only means no sizes.
    return { itemIds, chars: null };
  }
}

/** readConfiguredItems, then sizeTarget: what either place computes. */
export async function estimateTarget(db: JianguDatabase, r: TargetRequest): Promise<EstimateTarget> {
  return sizeTarget(r, await readConfiguredItems(db, r));
}

/**
 * How many items sizing the configuration reads, from the dataset record's counts (one small read,
 * no items): its tasks' test items whatever the limit (chooseItems reads a task whole before taking
 * its first `limitPerTask`), and their dev items for exemplars. It decides where the sizing is done
 * before anything large is read: 10 items a task of a 28,707-item dataset still read all of them.
 */
export async function itemsToRead(db: JianguDatabase, r: Pick<TargetRequest, 'datasetId' | 'tasks' | 'kind' | 'shots'>): Promise<number> {
  const record = await getDataset(db, r.datasetId);
  if (!record) return 0;
  const exemplars = r.kind === 'multiple-choice' && r.shots > 0;
  return r.tasks.reduce((sum, task) => sum + (record.tasks[task]?.test ?? 0) + (exemplars ? (record.tasks[task]?.dev ?? 0) : 0), 0);
}
