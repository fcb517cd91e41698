// An lm_eval output folder as a zip reads as the folder: only the harness's files, from any
// subfolder, by their base names; a damaged archive, one without harness files and an entry past
// the run file limit each get their own message.
import { readdirSync, readFileSync } from 'node:fs';
import { strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { RunImportError } from '../../../src/lib/core/record/import-validate.ts';
import { readLmEvalFiles } from '../../../src/lib/core/record/lm-eval-files.ts';
import { harnessFilesFromZip } from '../../../src/lib/core/record/lm-eval-zip.ts';
import { RUN_IMPORT_LIMITS } from '../../../src/lib/core/record/import-validate.ts';

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
});
