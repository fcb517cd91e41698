// A share link made in Node for a run that never ran: a fabricated multiple-choice run over the
// first items of the CMMLU 古汉语 test split (read from ../shared/data), with predictions cycling
// A, B, C, D. It lets a browser test open a link over a catalog dataset the fresh context has to
// download (through the local mirror), and know every row it should show.
import { adaptDataset } from '../../src/lib/core/benchmarks/adapters/index.ts';
import { getDataset } from '../../src/lib/core/benchmarks/catalog.ts';
import type { MultipleChoiceItem, OptionLetter } from '../../src/lib/core/benchmarks/types.ts';
import { mcSummary } from '../../src/lib/core/metrics/run-summary.ts';
import { getProtocol, protocolForDataset, templateHash } from '../../src/lib/core/protocols/index.ts';
import type { McItemResult, McRunRecord } from '../../src/lib/core/record/run.ts';
import { encodeShareLink } from '../../src/lib/core/record/share-link.ts';
import { readCatalogFiles, SHARED_DATA } from '../unit/benchmarks/shared-data.ts';

export interface FabricatedLink {
  payload: string;
  /** The link's rows as the page must show them. */
  rows: { itemId: string; prediction: OptionLetter; gold: OptionLetter | null; correct: boolean | null }[];
}

export async function fabricatedCmmluLink(count: number, options: { tamperSummary?: boolean } = {}): Promise<FabricatedLink> {
  const datasetId = 'cmmlu-ancient' as const;
  const items = adaptDataset(datasetId, readCatalogFiles(SHARED_DATA, datasetId))
    .items.filter((item): item is MultipleChoiceItem => item.kind === 'multiple-choice' && item.split === 'test')
    .slice(0, count);
  const letters: OptionLetter[] = ['A', 'B', 'C', 'D'];
  const protocol = protocolForDataset(datasetId);
  const now = new Date('2026-11-30T12:00:00Z').toISOString();
  const run: McRunRecord = {
    id: 'fabricated',
    createdAt: now,
    updatedAt: now,
    datasetId,
    status: 'completed',
    warnings: [],
    config: {
      kind: 'multiple-choice',
      model: { source: { kind: 'site', name: 'jiangu-tiny' }, dtype: 'fp32', backend: 'wasm' },
      protocolId: protocol.id,
      protocolVersion: getProtocol(protocol.id).version,
      templateHash: await templateHash(protocol),
      scoring: 'letter-logits',
      shots: 0,
      contextLimit: 2048,
      chatTemplate: false,
      prefixReuse: false,
      datasetId,
      datasetFiles: getDataset(datasetId).files.map((f) => ({ path: f.path, sha256: f.sha256! })),
      tasks: ['ancient_chinese'],
      limitPerTask: count,
      itemIds: items.map((item) => item.id),
      appVersion: 'test',
    },
  };
  const results: McItemResult[] = items.map((item, index) => {
    const prediction = letters[index % 4];
    return {
      runId: run.id,
      itemId: item.id,
      task: item.task,
      index,
      prompt: '',
      promptHash: '',
      tokenCount: 0,
      shotsUsed: 0,
      exemplarIds: [],
      letters,
      tokenIds: [],
      logProbs: [],
      probs: [],
      prediction,
      gold: item.answer,
      correct: item.answer === null ? null : item.answer === prediction,
      reusedPrefixTokens: 0,
      forwardMs: 0,
      completedAt: now,
    };
  });
  const summary = mcSummary(datasetId, results);
  if (options.tamperSummary) summary.overall = (summary.overall ?? 0) + 10;
  return {
    payload: await encodeShareLink(run, results, summary),
    rows: results.map((r) => ({ itemId: r.itemId, prediction: r.prediction!, gold: r.gold, correct: r.correct })),
  };
}
