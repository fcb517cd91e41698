// A real memorization run for the format tests: made by the project's own code (createProbeRunRecord,
// executeProbeRun, the store) against a fake model client whose numbers are in a real model's ranges
// (log p ≤ 0, μ = −entropy, σ > 0), then exported with the page's exporter and linked with the page's
// link encoder. Radical's 9 items make 4 shards (3, 2, 2, 2 items): the 2-item shards' orders repeat.
import type { MultipleChoiceItem } from '../../../src/lib/core/benchmarks/types.ts';
import { madeModelCheck } from './model-check-fixture.ts';
import { memorizationRunJson } from '../../../src/lib/core/formats/memorization-run/export.ts';
import { encodeProbeLink } from '../../../src/lib/core/formats/probe-link/probe-link.ts';
import type { ProbeResult, ProbeRunRecord } from '../../../src/lib/core/record/probe-run.ts';
import type { ModelClient } from '../../../src/lib/engine/model-client.ts';
import type { LoadResult, TextStatisticsParams, TextStatisticsResult } from '../../../src/lib/engine/messages.ts';
import { createProbeRunRecord } from '../../../src/lib/engine/probe-setup.ts';
import { executeProbeRun } from '../../../src/lib/engine/probe-scheduler.ts';
import { saveDataset } from '../../../src/lib/store/datasets.ts';
import { loadProbeResults } from '../../../src/lib/store/probe-runs.ts';
import type { JianguDatabase } from '../../../src/lib/store/schema.ts';
import { fakeLoadResult } from '../engine/fake-load.ts';
import { freshDb, makeRecord } from '../store/helpers.ts';

export function probeItems(): MultipleChoiceItem[] {
  const out: MultipleChoiceItem[] = [];
  for (const [task, count] of [['Radical', 9], ['Cloze', 5]] as const) {
    for (let order = 0; order < count; order++) {
      out.push({ kind: 'multiple-choice', id: `${task}/test/${order}`, datasetId: 'ancientbench', task, split: 'test', order, source: { file: 'sample.csv', line: order + 2 }, question: `${task} 问题 ${order} 学而时习之`, options: ['甲', '乙', '丙', '丁'], answer: 'A' });
    }
  }
  return out;
}

/** Statistics from the characters: one position per character after the first. */
export function statisticsClient(): ModelClient {
  const client = {
    async load(): Promise<LoadResult> {
      return fakeLoadResult('wasm', { context: { tokens: 512, key: 'max_position_embeddings' }, statisticsPath: { kind: 'graph' } });
    },
    async textStatistics(params: TextStatisticsParams): Promise<TextStatisticsResult> {
      const chars = [...params.text];
      const logprob = Float64Array.from(chars.slice(1), (c, i) => -(((c.codePointAt(0)! * 7 + i) % 11) + 0.25) / 2);
      const mean = logprob.map((_, i) => -1.5 - (i % 4) / 4);
      const std = logprob.map((_, i) => 0.75 + (i % 3) / 3);
      return { ids: chars.map((c) => c.codePointAt(0)!), logprob, argmax: new Int32Array(logprob.length), ...(params.moments ? { mean, std } : {}), path: 'graph', logitsCopied: 0, forwardPasses: 1, forwardMs: 2 };
    },
  };
  return client as unknown as ModelClient;
}

export interface MadeProbeRun {
  db: JianguDatabase;
  run: ProbeRunRecord;
  results: ProbeResult[];
  /** The exporter's text. */
  file: string;
}

/** A completed run with the file-order test, `permutations` orders a shard. */
export async function madeProbeRun(permutations = 3): Promise<MadeProbeRun> {
  const db = await freshDb();
  const all = probeItems();
  await saveDataset(db, makeRecord('ancientbench', all), all);
  const created = await createProbeRunRecord(db, {
    model: { source: { kind: 'site', name: 'jiangu-tiny' }, dtype: 'fp32', backend: 'wasm' },
    datasetId: 'ancientbench',
    tasks: ['Radical', 'Cloze'],
    limitPerTask: null,
    exchangeability: { permutations, seed: 7 },
  });
  const run = await executeProbeRun(db, created.id, statisticsClient());
  const results = await loadProbeResults(db, run.id);
  // The file carries a model check, as a run loaded in the page stores one.
  return { db, run, results, file: memorizationRunJson({ ...run, modelCheck: madeModelCheck() }, results) };
}

/** The run's probe link payload, made by the page's encoder. */
export function madeProbeLink(made: MadeProbeRun): Promise<string> {
  return encodeProbeLink(made.run, made.results);
}
