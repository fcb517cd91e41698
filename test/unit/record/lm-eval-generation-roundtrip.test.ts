// Export → harness → import, for generation: Jiangu's export of a C3Bench-shaped fixture (synthetic
// items, test/fixtures/c3bench/flat.json) is loaded by python3 the way the harness loads it (YAML,
// `!function` in utils.py), each doc's context rendered by the exported gen_doc_to_text, and written
// back as the CLI writes results_*.json and samples (test/fixtures/lm-eval/harness_generate.py) with
// chosen outputs. The import must give a run of the browser's protocol whose outputs and scores are
// those outputs scored against the stored items.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { adaptDataset, type RawFile } from '../../../src/lib/core/benchmarks/adapters/index.ts';
import type { GenerationItem } from '../../../src/lib/core/benchmarks/types.ts';
import { exportLmEval } from '../../../src/lib/core/formats/lm-eval/export/folder.ts';
import { scoreGenerationRun } from '../../../src/lib/core/metrics/generation-run.ts';
import { buildGenerationPrompt, generationTemplateHash } from '../../../src/lib/core/protocols/generation.ts';
import { checkSampleDocs } from '../../../src/lib/core/formats/lm-eval/import/lm-eval-docs.ts';
import { readLmEvalFiles } from '../../../src/lib/core/formats/lm-eval/import/lm-eval-files.ts';
import type { GenItemResult, GenRunRecord } from '../../../src/lib/core/record/run.ts';
import { writeExportFolder } from '../export/export-folder.ts';

const HARNESS = new URL('../../fixtures/lm-eval/harness_generate.py', import.meta.url).pathname;
const temp: string[] = [];
afterAll(() => {
  for (const dir of temp) rmSync(dir, { recursive: true, force: true });
});

describe('generation tasks: export, the harness, import', () => {
  it('give the outputs the harness wrote, scored as a browser run of the same items would be', async () => {
    const bytes = readFileSync(new URL('../../fixtures/c3bench/flat.json', import.meta.url));
    const file: RawFile = { path: 'C3_bench.json', bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength) };
    const items = adaptDataset('c3bench', [file]).items.filter((i): i is GenerationItem => i.kind === 'generation' && i.split === 'test');
    expect(new Set(items.map((i) => i.task)).size).toBe(5);
    const sha = createHash('sha256').update(file.bytes).digest('hex');
    const exported = await exportLmEval({ datasetId: 'c3bench', items, files: [{ path: file.path, sha256: sha, bytes: file.bytes.length }], shots: 0, appVersion: '0.1.0+test', maxNewTokens: 120 });

    const dir = mkdtempSync(join(tmpdir(), 'jiangu-gen-roundtrip-'));
    temp.push(dir);
    const folder = join(dir, 'export');
    const out = join(dir, 'out');
    writeExportFolder(exported.files, folder);
    // Every other item right, the rest a wrong but plausible answer: scores strictly between 0 and 100.
    const outputs = Object.fromEntries(items.map((item, i) => [item.id, i % 2 === 0 ? item.references[0] : item.references[0].slice(0, Math.max(1, Math.floor(item.references[0].length / 2)))]));
    writeFileSync(join(dir, 'outputs.json'), JSON.stringify(outputs));
    execFileSync('python3', [HARNESS, folder, join(dir, 'outputs.json'), out], { encoding: 'utf8' });

    const files = readdirSync(out).map((name) => ({ name, text: readFileSync(join(out, name), 'utf8') }));
    const runs = await readLmEvalFiles(files, '2026-01-01T00:00:00.000Z');
    expect(runs).toHaveLength(1);
    const run = runs[0].run as GenRunRecord;
    const results = runs[0].results as GenItemResult[];
    expect(run.config.kind).toBe('generation');
    expect(run.config.templateHash).toBe(await generationTemplateHash(undefined, { chatTemplate: false }));
    expect(run.config.maxNewTokens).toBe(120);
    expect(new Set(results.map((r) => r.itemId))).toEqual(new Set(items.map((i) => i.id)));

    const byId = new Map(items.map((i) => [i.id, i]));
    for (const r of results) {
      const item = byId.get(r.itemId)!;
      expect(r.output).toBe(outputs[item.id]);
      expect(r.prompt).toBe(buildGenerationPrompt(item));
      expect(r.references).toEqual(item.references);
      expect(r.generationTask).toBe(item.generationTask);
    }
    // The docs the harness carried are the stored items.
    expect(() => checkSampleDocs(runs[0], runs[0].docs, byId)).not.toThrow();

    const expected = scoreGenerationRun('c3bench', items.map((item) => ({ task: item.task, generationTask: item.generationTask, output: outputs[item.id], references: item.references })));
    const imported = scoreGenerationRun('c3bench', results);
    const byTask = (scores: typeof expected) => Object.fromEntries(scores.tasks.map((t) => [t.task, [t.metric, t.score]]));
    expect(byTask(imported)).toEqual(byTask(expected));
    expect(imported.tasks).toHaveLength(5);
    expect(imported.overall).toBe(expected.overall);
    expect(expected.overall).not.toBeNull();
    expect(expected.tasks.some((t) => t.score > 0 && t.score < 100)).toBe(true);
  });
});
