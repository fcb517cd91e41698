// An lm_eval output folder as a zip reads as the folder: only the harness's files, from any
// subfolder, by their base names; a damaged archive, one without harness files and an entry past
// the run file limit each get their own message.
import { readdirSync, readFileSync } from 'node:fs';
import { strToU8, zipSync, type Zippable } from 'fflate';
import { describe, expect, it } from 'vitest';
import { withStatedSizes } from '../../fixtures/zip-stated-sizes.ts';
import { RunImportError } from '../../../src/lib/core/formats/import-validate.ts';
import { readLmEvalFiles } from '../../../src/lib/core/formats/lm-eval/import/lm-eval-files.ts';
import { harnessFilesFromZip, ZIP_LIMITS } from '../../../src/lib/core/formats/lm-eval/import/lm-eval-zip.ts';
import { RUN_IMPORT_LIMITS } from '../../../src/lib/core/formats/import-validate.ts';

const DIR = new URL('../../fixtures/lm-eval/cli-aclue-stock/', import.meta.url);
const NOW = '2026-01-01T00:00:00.000Z';
const files = readdirSync(DIR).sort().map((name) => ({ name, bytes: new Uint8Array(readFileSync(new URL(name, DIR))) }));

const refusal = (f: () => unknown): RunImportError => {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(RunImportError);
    return e as RunImportError;
  }
  throw new Error('not refused');
};

describe('an lm_eval output folder as a zip', () => {
  it('gives the folder’s harness files and the same runs, other files left out', async () => {
    const tree: Record<string, Uint8Array> = { 'out/README.txt': strToU8('notes'), 'out/Qwen__Qwen2.5-7B/plot.png': new Uint8Array([137, 80, 78, 71]) };
    for (const f of files) tree[`out/Qwen__Qwen2.5-7B/${f.name}`] = f.bytes;
    const read = harnessFilesFromZip(zipSync(tree), 'out.zip');
    expect(read.map((f) => f.name).sort()).toEqual(files.map((f) => f.name));
    const fromZip = await readLmEvalFiles(read, NOW);
    const fromFolder = await readLmEvalFiles(files.map((f) => ({ name: f.name, text: new TextDecoder().decode(f.bytes) })), NOW);
    // Everything but the new runs' random ids.
    const results = (runs: typeof fromZip) => runs.map((r) => r.results.map(({ runId: _id, ...rest }) => rest));
    expect(results(fromZip)).toEqual(results(fromFolder));
    expect(fromZip.flatMap((r) => r.results).length).toBeGreaterThan(0);
    expect(fromZip.map((r) => r.run.config)).toEqual(fromFolder.map((r) => r.run.config));
  });

  it('refuses a damaged archive, naming it', () => {
    const zip = zipSync({ [`out/${files[0].name}`]: files[0].bytes });
    const e = refusal(() => harnessFilesFromZip(zip.subarray(0, zip.length - 30), 'cut.zip'));
    expect(e.notice.code).toBe('import.zip-unreadable');
    expect(e.message).toMatch(/^cut\.zip: is not a zip archive this site can read/);
  });

  it('refuses an archive with no harness files', () => {
    const e = refusal(() => harnessFilesFromZip(zipSync({ 'out/notes.txt': strToU8('nothing') }), 'notes.zip'));
    expect(e.notice.code).toBe('import.lm-eval-zip-empty');
  });

  it('refuses an entry larger than a run file may be, before inflating it, naming the entry', () => {
    const big = new Uint8Array(RUN_IMPORT_LIMITS.bytes + 1);
    const e = refusal(() => harnessFilesFromZip(zipSync({ [`out/${files[0].name}`]: files[0].bytes, 'out/samples_aclue_poetry_appreciate_2025-03-04T05-06-07.891011.jsonl': big }), 'big.zip'));
    expect(e.notice.code).toBe('import.file-too-large');
    expect(e.message).toContain('samples_aclue_poetry_appreciate_2025-03-04T05-06-07.891011.jsonl');
  });

  it('refuses an archive whose central directory lists more entries than the limit, inflating nothing', () => {
    const tree: Zippable = {};
    for (let i = 0; i <= ZIP_LIMITS.entries; i++) tree[`out/f${i}.txt`] = [new Uint8Array(0), { level: 0 }];
    const e = refusal(() => harnessFilesFromZip(zipSync(tree), 'many.zip'));
    expect(e.notice.code).toBe('import.zip-too-many-entries');
    expect(e.notice.params).toMatchObject({ entries: ZIP_LIMITS.entries + 1, limit: ZIP_LIMITS.entries });
  });

  it('refuses harness entries that say they add up to more than the limit, each under the per-file limit (the 40 × 60 MiB bomb)', () => {
    const tree: Zippable = {};
    for (let i = 0; i < 40; i++) tree[`out/samples_aclue_t${i}_2025-03-04T05-06-07.891011.jsonl`] = strToU8('{}\n');
    // The archive states 60 MiB for each: what its central directory says is what is checked first.
    const zip = withStatedSizes(zipSync(tree), 60 * 1024 * 1024);
    const e = refusal(() => harnessFilesFromZip(zip, 'bomb.zip'));
    expect(e.notice.code).toBe('import.zip-too-large');
    expect(e.message).toMatch(/^bomb\.zip: the harness files in the zip archive would inflate to 2400\.0 MiB/);
  });

  it('stops an entry that inflates past the size it states, long before it is whole (header: 100 bytes)', () => {
    const name = 'out/samples_aclue_poetry_appreciate_2025-03-04T05-06-07.891011.jsonl';
    const bomb = new Uint8Array(32 * 1024 * 1024); // zeros: 32 KiB compressed
    const zip = withStatedSizes(zipSync({ [name]: bomb, [`out/${files[0].name}`]: files[0].bytes }), 100, name);
    const e = refusal(() => harnessFilesFromZip(zip, 'liar.zip'));
    expect(e.notice.code).toBe('import.zip-entry-overrun');
    expect(e.message).toContain('samples_aclue_poetry_appreciate_2025-03-04T05-06-07.891011.jsonl: this entry of liar.zip says it is 100 bytes');
    // Stopped after one step of the inflater, not at 32 MiB.
    expect(e.notice.params.inflatedAtLeast as number).toBeLessThan(20 * 1024 * 1024);
  });

  it('reads an archive whose stated sizes are true', () => {
    const zip = withStatedSizes(zipSync({ [`out/${files[0].name}`]: files[0].bytes }), files[0].bytes.length);
    expect(harnessFilesFromZip(zip, 'true.zip').map((f) => f.name)).toEqual([files[0].name]);
  });
});
