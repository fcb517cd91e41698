// Export → harness → import, circular: Jiangu's circular export of synthetic ACLUE items (4-, 3- and
// 2-option) is run by python3 the way the harness runs multiple-choice tasks (YAML with `!function`
// hooks, one request per choice) and written back as the CLI writes results_*.json and samples
// (test/fixtures/lm-eval/harness_mc.py), with a model that always prefers the first letter. The import
// must give each item its rotations in the rotated order, equal to the export's docs, a circular run
// with its estimation set, and say (not lose) what is missing.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Item } from '../../../src/lib/core/benchmarks/types.ts';
import type { LmEvalExport } from '../../../src/lib/core/formats/lm-eval/export/folder.ts';
import type { Notice } from '../../../src/lib/core/notices/index.ts';
import { DEFAULT_ESTIMATION_SHARE, drawEstimationSet } from '../../../src/lib/core/protocols/estimation-set.ts';
import { rotateItem } from '../../../src/lib/core/protocols/rotation.ts';
import { buildMcPrompt } from '../../../src/lib/core/protocols/build-prompt.ts';
import { protocolForDataset } from '../../../src/lib/core/protocols/mc-protocols.ts';
import { sha256Hex } from '../../../src/lib/core/protocols/template-hash.ts';
import { RunImportError } from '../../../src/lib/core/formats/import-validate.ts';
import { IMPORTED_PRIDE_SEED } from '../../../src/lib/core/formats/lm-eval/import/import-lm-eval.ts';
import { checkSampleDocs } from '../../../src/lib/core/formats/lm-eval/import/lm-eval-docs.ts';
import { readLmEvalFiles, type HarnessRun } from '../../../src/lib/core/formats/lm-eval/import/lm-eval-files.ts';
import type { McItemResult, McRunRecord } from '../../../src/lib/core/record/run.ts';
import { CIRCULAR_ITEMS, exportCircular } from '../export/circular-items.ts';
import { writeExportFolder } from '../export/export-folder.ts';

const HARNESS = new URL('../../fixtures/lm-eval/harness_mc.py', import.meta.url).pathname;
const NOW = '2026-12-01T00:00:00.000Z';
const temp: string[] = [];
afterAll(() => {
  for (const dir of temp) rmSync(dir, { recursive: true, force: true });
});

const TESTS = CIRCULAR_ITEMS.filter((i) => i.split === 'test');
const dev = (task: string) => CIRCULAR_ITEMS.filter((i) => i.split === 'dev' && i.task === task);
const protocol = protocolForDataset('aclue');
/** The model prefers position A whatever the options: −0.5 for A, then lower. */
const LOGLIKS = Object.fromEntries(TESTS.flatMap((item) => item.options.map((_, k) => [`${item.id}#${k}`, item.options.map((__, j) => -0.5 - j)])));

interface Harnessed {
  files: { name: string; text: string }[];
  exported: LmEvalExport;
}

/** `before` edits the exported folder before the harness runs it; `edit` the harness's output. */
async function harness(skip: string[] = [], edit?: (folder: string) => void, before?: (folder: string) => void): Promise<Harnessed> {
  const exported = await exportCircular();
  const dir = mkdtempSync(join(tmpdir(), 'jiangu-circular-roundtrip-'));
  temp.push(dir);
  const folder = join(dir, 'export');
  const out = join(dir, 'out');
  writeExportFolder(exported.files, folder);
  before?.(folder);
  writeFileSync(join(dir, 'logliks.json'), JSON.stringify(LOGLIKS));
  writeFileSync(join(dir, 'skip.json'), JSON.stringify(skip));
  execFileSync('python3', [HARNESS, folder, join(dir, 'logliks.json'), join(dir, 'skip.json'), out], { encoding: 'utf8' });
  edit?.(out);
  return { exported, files: readdirSync(out).map((name) => ({ name, text: readFileSync(join(out, name), 'utf8') })) };
}

const codes = (warnings: readonly (string | Notice)[]) => warnings.map((w) => (typeof w === 'string' ? w : w.code));
const stored = new Map<string, Item>(CIRCULAR_ITEMS.map((i) => [i.id, i]));

function single(runs: HarnessRun[]): { run: McRunRecord; results: McItemResult[] } {
  expect(runs).toHaveLength(1);
  return { run: runs[0].run as McRunRecord, results: runs[0].results as McItemResult[] };
}

describe('circular tasks: export, the harness, import', () => {
  it("give every item its rotations, in the rotated order, equal to the export's docs", async () => {
    const { files, exported } = await harness();
    const runs = await readLmEvalFiles(files, NOW);
    const { run, results } = single(runs);
    expect(run.config.circular).toBe(true);
    expect(run.config.itemIds).toEqual(TESTS.map((i) => i.id));
    expect(run.config.pride).toEqual({ share: DEFAULT_ESTIMATION_SHARE, seed: IMPORTED_PRIDE_SEED, estimationItemIds: drawEstimationSet(run.config.itemIds, DEFAULT_ESTIMATION_SHARE, IMPORTED_PRIDE_SEED) });
    expect(codes(run.warnings)).not.toContain('import.lm-eval-rotations-missing');
    // The export's docs, by item and rotation: what the harness was asked.
    const docs = new Map(
      exported.files
        .filter((f) => f.path.endsWith('.jsonl'))
        .flatMap((f) => f.text.trimEnd().split('\n'))
        .map((line) => JSON.parse(line) as { jiangu_id: string; jiangu_rotation: number; answer: string })
        .map((d) => [`${d.jiangu_id}#${d.jiangu_rotation}`, d]),
    );
    for (const item of TESTS) {
      const result = results.find((r) => r.itemId === item.id)!;
      const n = item.options.length;
      expect(result.letters).toHaveLength(n);
      expect(result.gold).toBe(item.answer);
      expect(result.prediction).toBe('A');
      expect(result.promptHash).toBe(await sha256Hex(buildMcPrompt(protocol, item, dev(item.task), 1).prompt));
      expect(result.rotations?.map((r) => r.rotation)).toEqual(Array.from({ length: n - 1 }, (_, j) => j + 1));
      for (const r of result.rotations!) {
        const rotated = rotateItem(item, r.rotation);
        expect(r.gold).toBe(rotated.answer);
        expect(r.gold).toBe(docs.get(`${item.id}#${r.rotation}`)!.answer);
        expect(r.letters).toEqual(result.letters);
        expect(r.prediction).toBe('A');
        expect(r.correct).toBe(rotated.answer === 'A');
        expect(r.logProbs).toHaveLength(n);
        // The harness's prompt for rotation k is the one a browser run asks: Jiangu's prompt of the rotated item.
        expect(r.promptHash).toBe(await sha256Hex(buildMcPrompt(protocol, rotated, dev(item.task), 1).prompt));
        expect(r.promptHash).not.toBe(result.promptHash);
      }
    }
    // Hand-checked: 一二三四 (gold B) is right under rotation 1 only; 是否 (gold A) under rotation 0 only.
    expect(results[0].rotations!.map((r) => r.correct)).toEqual([true, false, false]);
    expect([results[2].correct, ...results[2].rotations!.map((r) => r.correct)]).toEqual([true, false]);
    // Each rotation's doc is the stored item rotated.
    expect(() => checkSampleDocs(runs[0], runs[0].docs, stored)).not.toThrow();
    // A rotation doc whose options are not the stored item's rotated (its own order still matches).
    const docsOff = runs[0].docs.map((d, i) =>
      i === 0 ? { ...d, rotations: d.rotations!.map((r) => (r.rotation === 2 ? { ...r, doc: { ...(r.doc as object), options: rotateItem(TESTS[0], 1).options } } : r)) } : d,
    );
    expect(() => checkSampleDocs(runs[0], docsOff, stored)).toThrow(/its options \(rotation 2\) differs/);
  }, 60_000);

  it('rehashes the docs of rotations: a rotation doc edited after the harness wrote it is refused', async () => {
    const { files } = await harness([], (out) => {
      const name = readdirSync(out).find((n) => n.startsWith('samples_') && n.includes('homographic'))!;
      const lines = readFileSync(join(out, name), 'utf8').split('\n');
      const sample = JSON.parse(lines[1]) as { doc: { jiangu_rotation: number; options: string[] } };
      expect(sample.doc.jiangu_rotation).toBe(1);
      sample.doc.options = [...sample.doc.options].reverse();
      lines[1] = JSON.stringify(sample);
      writeFileSync(join(out, name), lines.join('\n'));
    });
    const error = await readLmEvalFiles(files, NOW).then(() => null, (e: unknown) => e);
    expect(error).toBeInstanceOf(RunImportError);
    expect((error as RunImportError).refusal.code).toBe('import.lm-eval-doc-changed');
  }, 60_000);

  it('imports a run with rotations missing, keeping every sample and naming what is missing, not as circular', async () => {
    const { files } = await harness([`${TESTS[0].id}#2`, `${TESTS[3].id}#3`]);
    const { run, results } = single(await readLmEvalFiles(files, NOW));
    expect(run.config.circular).toBeUndefined();
    expect(run.config.pride).toBeUndefined();
    const missing = run.warnings.find((w): w is Notice => typeof w !== 'string' && w.code === 'import.lm-eval-rotations-missing')!;
    expect(missing.params).toMatchObject({ items: 2, total: 5, missing: [`${TESTS[0].id} rotation 2`, `${TESTS[3].id} rotation 3`], more: 0 });
    expect(results[0].rotations!.map((r) => r.rotation)).toEqual([1, 3]);
    expect(results[3].rotations!.map((r) => r.rotation)).toEqual([1, 2]);
    expect(results[1].rotations!.map((r) => r.rotation)).toEqual([1, 2]);
  }, 60_000);

  it("refuses rotations of an item whose own order was not run, naming it", async () => {
    const { files } = await harness([`${TESTS[1].id}#0`]);
    const error = await readLmEvalFiles(files, NOW).then(() => null, (e: unknown) => e);
    expect(error).toBeInstanceOf(RunImportError);
    expect((error as RunImportError).refusal.code).toBe('import.lm-eval-rotation-without-item');
    expect((error as Error).message).toContain(TESTS[1].id);
  }, 60_000);

  /** The first task's exported docs, changed by `change`, before the harness runs them. */
  const editDocs = (change: (docs: Record<string, unknown>[]) => Record<string, unknown>[]) => (folder: string) => {
    const name = readdirSync(folder).find((n) => n.endsWith('.jsonl') && n.includes('homographic'))!;
    const docs = readFileSync(join(folder, name), 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    writeFileSync(join(folder, name), change(docs).map((d) => JSON.stringify(d)).join('\n') + '\n');
  };
  const refusalOf = async (files: { name: string; text: string }[]) => {
    const error = await readLmEvalFiles(files, NOW).then(() => null, (e: unknown) => e);
    expect(error).toBeInstanceOf(RunImportError);
    return error as RunImportError;
  };

  it('refuses, naming the item and rotation: an answer that did not move with its option, a rotation twice, a rotation beyond the choices', async () => {
    const moved = await refusalOf((await harness([], undefined, editDocs((docs) => docs.map((d, i) => (i === 1 ? { ...d, answer: 'B' } : d))))).files);
    expect(moved.refusal.code).toBe('import.lm-eval-rotation-target');
    expect(moved.message).toContain(`rotation 1 of item "${TESTS[0].id}" has the answer B (of 4 choices), but the answer of its own order moves to A`);
    const twice = await refusalOf((await harness([], undefined, editDocs((docs) => [...docs, docs[2]]))).files);
    expect(twice.refusal.code).toBe('import.lm-eval-rotation-twice');
    expect(twice.refusal.params).toMatchObject({ itemId: TESTS[0].id, rotation: 2 });
    const beyond = await refusalOf((await harness([], undefined, editDocs((docs) => docs.map((d, i) => (i === 8 ? { ...d, jiangu_rotation: 2 } : d))))).files);
    // Doc 8 is the 2-option item's rotation 1: it has no rotation 2.
    expect(beyond.refusal.code).toBe('import.lm-eval-rotation-invalid');
    expect(beyond.message).toMatch(/jiangu_rotation is 2; expected an integer from 0 to 1 \(the sample has 2 choices\)/);
  }, 60_000);
});
