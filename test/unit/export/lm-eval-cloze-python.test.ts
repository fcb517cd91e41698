// The cloze (option text) lm-evaluation-harness export, rendered by Debian's python3 + python3-yaml the
// way the harness loads it (render_lm_eval.py): every context must be buildClozePrompt's, byte for
// byte, exemplars ending in their gold option's text and no context limit; every doc's choices its
// option texts, each request (context, option text) with target_delimiter "", which the HF and vLLM
// backends split where Jiangu does (the context ends in the answer cue, no whitespace to move).
// Metrics acc, acc_norm and acc_bytes, `_cloze` names, metadata with the cloze layout's version and
// template hash. ACLUE, CMMLU 古汉语 and AC-EVAL from ../shared/data and the AncientBench sample, 0
// and 5 shots; and what the export refuses.
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { adaptAncientBench, adaptDataset, type RawFile } from '../../../src/lib/core/benchmarks/adapters/index.ts';
import type { DatasetId, Item, MultipleChoiceItem } from '../../../src/lib/core/benchmarks/types.ts';
import { exportLmEval } from '../../../src/lib/core/formats/lm-eval/export/folder.ts';
import { buildClozePrompt } from '../../../src/lib/core/protocols/build-cloze.ts';
import { protocolForDataset } from '../../../src/lib/core/protocols/mc-protocols.ts';
import { clozeTemplateHash, templateHash } from '../../../src/lib/core/protocols/template-hash.ts';
import { describeWithSharedData, readCatalogFiles } from '../benchmarks/shared-data.ts';
import { writeExportFolder } from './export-folder.ts';
import { CIRCULAR_FILES, CIRCULAR_ITEMS } from './circular-items.ts';

const HERE = dirname(fileURLToPath(import.meta.url));
const RENDER = join(HERE, 'render_lm_eval.py');
const SAMPLE = resolve(HERE, '../../../public/samples/ancientbench-sample.csv');
const folders: string[] = [];
afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

type Json = Record<string, any>;
const sha256 = (bytes: Uint8Array | string): string => createHash('sha256').update(bytes).digest('hex');

async function checkClozeExport(datasetId: DatasetId, files: readonly RawFile[], allItems: readonly Item[], shots: number): Promise<void> {
  const protocol = protocolForDataset(datasetId);
  const dataFiles = files.map((file) => ({ path: file.path, sha256: sha256(file.bytes), bytes: file.bytes.length }));
  const exported = await exportLmEval({ datasetId, items: allItems, files: dataFiles, shots, appVersion: '0.1.0+test', scoring: 'cloze' });
  const hash = await clozeTemplateHash(protocol);
  expect(exported).toMatchObject({ scoring: 'cloze', protocolId: protocol.id, templateHash: hash });
  expect(hash).not.toBe(await templateHash(protocol));
  const folder = mkdtempSync(join(tmpdir(), `jiangu-lm-eval-cloze-${datasetId}-`));
  folders.push(folder);
  writeExportFolder(exported.files, folder);
  const lines = execFileSync('python3', [RENDER, folder], { encoding: 'utf8', maxBuffer: 1 << 30 })
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Json);

  const items = allItems.filter((item): item is MultipleChoiceItem => item.kind === 'multiple-choice');
  const tests = items.filter((item) => item.split === 'test');
  const devByTask = new Map<string, MultipleChoiceItem[]>();
  for (const item of items) if (item.split === 'dev') devByTask.set(item.task, [...(devByTask.get(item.task) ?? []), item]);
  const byId = new Map(tests.map((item) => [item.id, item]));
  const prefix = `jiangu_${datasetId.replace(/-/g, '_')}_${shots}shot_cloze`;

  const taskLines = lines.filter((line) => line.kind === 'task');
  expect(taskLines.map((line) => line.task).sort()).toEqual(exported.tasks.map((task) => task.name).sort());
  for (const line of taskLines) {
    const meta = line.settings.metadata.jiangu;
    expect(line.task).toBe(`${prefix}_${meta.slug as string}`);
    expect(line.settings).toMatchObject({ output_type: 'multiple_choice', target_delimiter: protocol.cloze.targetDelimiter, num_fewshot: 0, description: '' });
    expect(line.settings.target_delimiter).toBe('');
    // AC-EVAL's test answers are not released: its tasks only predict.
    const keyless = tests.filter((item) => item.task === meta.task).every((item) => item.answer === null);
    expect(keyless).toBe(datasetId === 'ac-eval');
    expect(line.settings.metric_list).toEqual(
      keyless ? [{ metric: 'bypass' }] : ['acc', 'acc_norm', 'acc_bytes'].map((metric) => ({ metric, aggregation: 'mean', higher_is_better: true })),
    );
    expect(meta).toMatchObject({ format: 1, dataset: datasetId, shots, protocol: protocol.id, templateHash: hash, scoring: 'cloze', clozeVersion: protocol.cloze.version });
    expect(meta.circular).toBeUndefined();
    expect(meta.itemsFile).toEqual({ [line.data_file]: sha256(readFileSync(join(folder, line.data_file))) });
  }

  const requests = lines.filter((line) => line.kind === 'request');
  expect(requests.map((line) => line.jiangu_id).sort()).toEqual(tests.map((item) => item.id).sort());
  let withExemplars = 0;
  for (const request of requests) {
    const item = byId.get(request.jiangu_id)!;
    const built = buildClozePrompt(protocol, item, devByTask.get(item.task) ?? [], shots);
    if (built.shotsUsed > 0) withExemplars++;
    if (request.context !== built.context) expect({ item: item.id, context: request.context }).toEqual({ item: item.id, context: built.context });
    expect(request.choices).toEqual(item.options);
    expect(request.target).toBe(item.answer === null ? '' : built.letters.indexOf(item.answer));
    expect(request.arguments).toEqual(built.continuations.map((continuation) => [built.context, continuation]));
    expect(request.arguments.map((a: [string, string]) => a[1])).toEqual(item.options);
    // The backends' split: nothing of the context moves into an option (it ends in the answer cue).
    expect(request.hf).toEqual(request.arguments);
  }
  if (shots > 0) expect(withExemplars).toBe(requests.length);

  const groups = lines.filter((line) => line.kind === 'group');
  const top = groups.find((line) => line.config.group === prefix)!;
  expect(top.config.metadata.jiangu).toMatchObject({ scoring: 'cloze', clozeVersion: protocol.cloze.version, templateHash: hash });
  const byGroup = new Map(groups.map((line) => [line.config.group, line.config.task as string[]]));
  const leaves = (name: string): string[] => (byGroup.has(name) ? byGroup.get(name)!.flatMap(leaves) : [name]);
  expect(leaves(prefix).sort()).toEqual(exported.tasks.map((task) => task.name).sort());
  expect(top.config.aggregate_metric_list).toEqual(datasetId === 'ac-eval' ? undefined : ['acc', 'acc_norm', 'acc_bytes'].map((metric) => ({ metric, aggregation: 'mean', weight_by_size: false })));

  const readme = exported.files.find((f) => f.path === 'README.md')!.text;
  expect(readme).toContain('## Scoring: option text (cloze)');
  expect(readme).toContain(`--tasks ${prefix}`);
  expect(readme).toContain('--model vllm');
  expect(readme).toContain(protocol.cloze.follows);
  expect(readme).toContain(hash);
}

describe('the cloze lm-eval export rendered by python3, AncientBench sample', () => {
  const bytes = readFileSync(SAMPLE);
  const file: RawFile = { path: 'ancientbench-sample.csv', bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength) };
  const items = adaptAncientBench([file]).items;
  for (const shots of [0, 5]) {
    it(`${shots}-shot: every context is buildClozePrompt's, every choice an option text`, () => checkClozeExport('ancientbench', [file], items, shots));
  }
});

describeWithSharedData('the cloze lm-eval export rendered by python3, shared data', (root) => {
  for (const datasetId of ['aclue', 'cmmlu-ancient', 'ac-eval'] as const) {
    for (const shots of [0, 5]) {
      it(`${datasetId} ${shots}-shot: every context is buildClozePrompt's, every choice an option text`, async () => {
        const files = readCatalogFiles(root, datasetId);
        await checkClozeExport(datasetId, files, adaptDataset(datasetId, files).items, shots);
      }, 300_000);
    }
  }
});

describe('what the cloze export refuses', () => {
  it('circular evaluation with cloze scoring, and a benchmark without multiple-choice tasks', async () => {
    await expect(exportLmEval({ datasetId: 'aclue', items: CIRCULAR_ITEMS, files: CIRCULAR_FILES, shots: 1, appVersion: '0.1.0+test', circular: true, scoring: 'cloze' })).rejects.toMatchObject({
      notice: { code: 'export.cloze-circular', params: { dataset: 'aclue' } },
    });
    const bytes = readFileSync(resolve(HERE, '../../fixtures/c3bench/minimal.json'));
    const file: RawFile = { path: 'C3_bench.json', bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength) };
    await expect(exportLmEval({ datasetId: 'c3bench', items: adaptDataset('c3bench', [file]).items, files: [], shots: 0, appVersion: '0.1.0+test', scoring: 'cloze' })).rejects.toMatchObject({
      notice: { code: 'export.cloze-no-mc', params: { dataset: 'c3bench' } },
    });
  });
});
