// npm run export:lm-eval -- --dataset <id> --shots <n> --out <dir> [--data <folder>] [--file <path>] [--max-new-tokens <n>] [--circular | --cloze]
//
// Writes the lm-evaluation-harness folder for one benchmark (src/lib/core/formats/lm-eval/export) from the
// data on disk, read with the project's own adapters: a catalog dataset from a folder laid out like
// ../shared/data (default: that folder beside the repository), AncientBench from your own file
// (--file; without it, the 80-question sample in public/samples). Refuses an out folder that exists
// and is not empty, so nothing of yours is overwritten. --circular writes every multiple-choice item
// once per cyclic rotation of its options (circular evaluation; the import rebuilds the rotations).
// --cloze scores the options' texts instead of their letters (the protocol's cloze layout; tasks named
// `…_cloze`, metrics acc, acc_norm and acc_bytes); it does not go with --circular.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { basename, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { adaptDataset, type RawFile } from '../src/lib/core/benchmarks/adapters/index.ts';
import { listDatasets } from '../src/lib/core/benchmarks/catalog.ts';
import type { DatasetId } from '../src/lib/core/benchmarks/types.ts';
import { DEFAULT_MAX_NEW_TOKENS, exportLmEval } from '../src/lib/core/formats/lm-eval/export/folder.ts';
import { predictsOnly } from '../src/lib/core/formats/lm-eval/export/predict-only.ts';
import { protocolForDataset } from '../src/lib/core/protocols/mc-protocols.ts';
import { jianguError, noticeOf, renderNotice } from '../src/lib/core/notices/index.ts';
import { buildDefines } from './build-info.ts';
import { projectRoot } from './site-routes.ts';

function appVersion(): string {
  const defines = buildDefines();
  return `${JSON.parse(defines.__APP_VERSION__) as string}+${JSON.parse(defines.__GIT_COMMIT__) as string}`;
}

function readRaw(path: string, name: string, datasetId: string): RawFile {
  if (!existsSync(path)) throw jianguError(datasetId === 'ancientbench' ? 'export.missing-own-file' : 'export.missing-file', { dataset: datasetId, path });
  const bytes = readFileSync(path);
  return { path: name, bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength) };
}

function readFiles(datasetId: DatasetId, dataFolder: string, ownFile: string | undefined): RawFile[] {
  const dataset = listDatasets().find((d) => d.id === datasetId)!;
  if (datasetId === 'ancientbench') {
    const path = ownFile ? resolve(ownFile) : join(projectRoot, 'public/samples/ancientbench-sample.csv');
    if (!ownFile) console.log(`AncientBench: no --file given, exporting the project's sample (${path}).`);
    return [readRaw(path, basename(path), datasetId)];
  }
  return dataset.files.map((file) => readRaw(join(dataFolder, dataset.mirrorFolder, file.path), file.path, datasetId));
}

async function main(): Promise<void> {
  let values;
  try {
    ({ values } = parseArgs({
      options: { dataset: { type: 'string' }, shots: { type: 'string' }, out: { type: 'string' }, data: { type: 'string' }, file: { type: 'string' }, 'max-new-tokens': { type: 'string' }, circular: { type: 'boolean' }, cloze: { type: 'boolean' } },
      strict: true,
    }));
  } catch (error) {
    throw jianguError('export.bad-arguments', { problem: error instanceof Error ? error.message : String(error) });
  }
  for (const name of ['dataset', 'shots', 'out'] as const) {
    if (!values[name]) throw jianguError('export.bad-arguments', { problem: `--${name} is required` });
  }
  const datasetId = values.dataset as DatasetId;
  const dataset = listDatasets().find((d) => d.id === datasetId);
  if (!dataset) throw jianguError('export.unknown-dataset', { dataset: values.dataset!, known: listDatasets().map((d) => d.id) });
  const hasMc = dataset.tasks.some((t) => t.kind === 'multiple-choice');
  if (!/^\d+$/.test(values.shots!)) throw jianguError('export.bad-shots', { dataset: datasetId, shots: values.shots!, max: hasMc ? protocolForDataset(datasetId).maxShots : 0 });
  const maxNewTokens = values['max-new-tokens'] ?? String(DEFAULT_MAX_NEW_TOKENS);
  if (!/^\d+$/.test(maxNewTokens)) throw jianguError('export.bad-max-new-tokens', { value: maxNewTokens });
  const out = resolve(values.out!);
  if (existsSync(out) && readdirSync(out).length > 0) throw jianguError('export.out-not-empty', { path: out });

  const dataFolder = resolve(values.data ?? join(projectRoot, '../shared/data'));
  const files = readFiles(datasetId, dataFolder, values.file);
  const { items } = adaptDataset(datasetId, files);
  const exported = await exportLmEval({
    datasetId,
    items,
    files: files.map((file) => ({ path: file.path, sha256: createHash('sha256').update(file.bytes).digest('hex'), bytes: file.bytes.length })),
    shots: Number(values.shots),
    maxNewTokens: Number(maxNewTokens),
    appVersion: appVersion(),
    circular: values.circular === true,
    scoring: values.cloze === true ? 'cloze' : 'letter-logits',
  });
  mkdirSync(out, { recursive: true });
  for (const file of exported.files) writeFileSync(join(out, file.path), file.text);
  const docs = exported.tasks.reduce((sum, task) => sum + task.docs, 0);
  const itemCount = exported.tasks.reduce((sum, task) => sum + (task.items ?? task.docs), 0);
  const asked = docs === itemCount ? `${itemCount} items` : `${itemCount} items as ${docs} docs (one per rotation)`;
  const scored = exported.scoring === 'cloze' ? ', scored on the option texts (cloze)' : '';
  console.log(`Wrote ${exported.files.length} files to ${out}: ${exported.tasks.length} tasks, ${asked}, group ${exported.group} (protocol ${exported.protocolId ?? 'c3bench'}${scored}).`);
  // AC-EVAL's test has no answers: its tasks only predict (bypass), which the harness runs with --predict_only.
  const samples = predictsOnly(exported.tasks) ? '--predict_only' : '--log_samples';
  console.log(`Run: cd ${out} && lm_eval --model hf --model_args pretrained=<model> --include_path . --tasks ${exported.group} ${samples} --output_path results`);
  console.log(`  (or --model vllm; the folder's README has both commands)`);
}

main().catch((error: unknown) => {
  console.error(renderNotice(noticeOf(error), 'en'));
  process.exitCode = 1;
});
