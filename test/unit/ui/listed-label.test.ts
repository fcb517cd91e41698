// Compare labels the stored runs from the run index's entries (issue 46, item 3), never from whole
// records: an entry's label config must give every facet, in both languages, exactly as the record
// does, for every kind of run a label tells apart (scoring, orders, shots, decoding, sample, an
// lm-eval import's harness and --limit, the backend used, the user's label), and must carry no item id.
import { describe, expect, it } from 'vitest';
import { listEntryOf, labelConfigOf } from '../../../src/lib/core/record/run-list-entry.ts';
import type { GenRunRecord, McRunRecord, RunRecord } from '../../../src/lib/core/record/run.ts';
import { describedListed, describedStored, distinguishingLabels, runFacets, samplesNote, type LabelWords } from '../../../src/ui/compare/run-label.ts';
import { makeGenRun, makeMcRun } from '../../fixtures/run-records/build.ts';
import { runWith } from '../record/sampled-run.ts';

const words = (lang: 'en' | 'zh'): LabelWords => ({ lang, countOf: (n, one, many, zh) => (lang === 'zh' ? `${n} ${zh}` : `${n} ${n === 1 ? one : many}`), dateTime: (iso) => iso.slice(0, 16) });

const mc = makeMcRun('mc').run;
const gen = makeGenRun('gen').run;
const withMc = (id: string, config: Partial<McRunRecord['config']>, extra: Partial<McRunRecord> = {}): McRunRecord => ({ ...mc, id, ...extra, config: { ...mc.config, ...config } });
const webgpu = { backendInfo: { backend: 'webgpu', adapter: null } } as unknown as RunRecord['environment'];

const RUNS: RunRecord[] = [
  mc,
  withMc('circular', { circular: true, pride: { share: 0.05, seed: 3, estimationItemIds: mc.config.itemIds.slice(0, 2) } }),
  withMc('pride', { pride: { share: 0.05, seed: 9, estimationItemIds: mc.config.itemIds.slice(0, 1) } }),
  withMc('cloze', { scoring: 'cloze', shots: 0 }, { environment: webgpu }),
  withMc('extract', { scoring: 'generate-extract', maxNewTokens: 8, chatTemplate: true }),
  withMc('first-2', { limitPerTask: 2, model: { ...mc.config.model, dtype: 'fp32', backend: 'auto' } }, { label: '我的基线' }),
  withMc('lm-eval', {}, { origin: { kind: 'lm-eval', fileName: 'results.json', importedAt: mc.createdAt, originalRunId: null, storedSummary: null, summaryMismatches: [], harnessBackend: { model: 'hf', device: 'cuda:0' }, harnessLimit: 8 } }),
  { ...runWith(7), id: 'sampled-7' },
  { ...runWith(8), id: 'sampled-8' },
  { ...runWith(null), id: 'first-3', label: 'before sampling' },
  gen,
  { ...gen, id: 'greedy', config: { ...gen.config, decoding: { kind: 'greedy' } } } as GenRunRecord,
];

describe('a label from the run index', () => {
  it('gives every facet as the record does, in both languages', () => {
    for (const lang of ['en', 'zh'] as const) {
      for (const run of RUNS) {
        expect(runFacets(describedListed(listEntryOf(run)), words(lang)), `${run.id} (${lang})`).toEqual(runFacets(describedStored(run), words(lang)));
      }
    }
  });

  it('tells the same runs apart, and says the same of their samples', () => {
    for (const lang of ['en', 'zh'] as const) {
      for (const kind of ['multiple-choice', 'generation']) {
        const group = RUNS.filter((r) => r.config.kind === kind);
        const fromEntries = distinguishingLabels(group.map((r) => describedListed(listEntryOf(r))), words(lang));
        expect(fromEntries).toEqual(distinguishingLabels(group.map((r) => describedStored(r)), words(lang)));
        // Not all alike: the labels differ run by run, so the comparison above compares something.
        expect(new Set(fromEntries.map((l) => l.short)).size, fromEntries.map((l) => l.short).join("\n")).toBe(group.length);
      }
      const sampled = ['sampled-7', 'sampled-8', 'first-3'].map((id) => RUNS.find((r) => r.id === id)!);
      const note = samplesNote(sampled.map((r) => describedListed(listEntryOf(r))), words(lang));
      expect(note).not.toBe('');
      expect(note).toBe(samplesNote(sampled.map((r) => describedStored(r)), words(lang)));
    }
  });

  it('carries no item id: the ids are counted, PriDe kept as its share and seed', () => {
    const run = RUNS[1] as McRunRecord;
    const config = labelConfigOf(run.config);
    const json = JSON.stringify(listEntryOf(run));
    for (const id of run.config.itemIds) expect(json).not.toContain(id);
    expect(config).toMatchObject({ itemCount: run.config.itemIds.length, pride: { share: 0.05, seed: 3 } });
    expect('estimationItemIds' in (config as { pride: object }).pride).toBe(false);
  });
});
