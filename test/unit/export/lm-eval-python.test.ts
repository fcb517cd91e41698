// The exported lm-evaluation-harness folder, rendered by Debian's python3 + python3-yaml the way the
// harness loads it (render_lm_eval.py: the YAML with its `!function utils.*` hooks, the JSONL beside
// it, the multiple-choice requests, the HF backend's context/continuation split). Every prompt must
// equal Jiangu's own (buildMcPrompt, the exemplars Jiangu chooses) byte for byte, and every request's
// continuation must be, under the real Qwen3 tokenizer, the very letter token Jiangu scores. WenMind's
// generation tasks (C3Bench's protocol) come out as greedy generate_until with Jiangu's prompt and limit.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PreTrainedTokenizer } from '@huggingface/transformers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adaptAncientBench, adaptDataset, type RawFile } from '../../../src/lib/core/benchmarks/adapters/index.ts';
import { getDataset } from '../../../src/lib/core/benchmarks/catalog.ts';
import type { DatasetId, GenerationItem, Item, MultipleChoiceItem } from '../../../src/lib/core/benchmarks/types.ts';
import { buildGenerationPrompt, generationTemplateHash } from '../../../src/lib/core/protocols/generation.ts';
import { exportLmEval } from '../../../src/lib/core/formats/lm-eval/export/folder.ts';
import { buildMcPrompt } from '../../../src/lib/core/protocols/build-prompt.ts';
import { letterInContext } from '../../../src/lib/core/protocols/letter-tokens.ts';
import { protocolForDataset, shotsFor } from '../../../src/lib/core/protocols/mc-protocols.ts';
import { templateHash } from '../../../src/lib/core/protocols/template-hash.ts';
import { describeWithSharedData, readCatalogFiles } from '../benchmarks/shared-data.ts';
import { loadQwen3Tokenizer } from '../qwen3-tokenizer.ts';

const HERE = dirname(fileURLToPath(import.meta.url));
const RENDER = join(HERE, 'render_lm_eval.py');
const SAMPLE = resolve(HERE, '../../../public/samples/ancientbench-sample.csv');
/** Tokens are checked for every this-many-th item (and each task's first); prompts for all. */
const TOKEN_CHECK_EVERY = 8;

type Line =
  | { kind: 'group'; file: string; config: { group: string; task: string[]; aggregate_metric_list: { metric: string; aggregation: string; weight_by_size: boolean }[] } }
  | { kind: 'task'; file: string; task: string; data_file: string; settings: Record<string, unknown> & { metadata: { version: number; jiangu: Record<string, unknown> } } }
  | {
      kind: 'request';
      task: string;
      doc_id: number;
      jiangu_id: string;
      doc: { question: string; options: string[]; answer: string | null };
      context: string;
      choices: string[];
      /** The gold letter's index; "" for an item without a key (AC-EVAL's test): the harness's constructor indexes the choices with an int. */
      target: number | string;
      arguments: [string, string][];
      hf: [string, string][];
    }
  | { kind: 'generation'; task: string; doc_id: number; jiangu_id: string; context: string; target: string; generation_kwargs: Record<string, unknown> };

/** Runs the harness-style renderer over a written folder. */
function renderWithPython(folder: string): Line[] {
  const out = execFileSync('python3', [RENDER, folder], { encoding: 'utf8', maxBuffer: 1 << 30 });
  return out.split('\n').filter((line) => line !== '').map((line) => JSON.parse(line) as Line);
}

const sha256 = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

let tokenizer: PreTrainedTokenizer;
const folders: string[] = [];
beforeAll(async () => {
  tokenizer = await loadQwen3Tokenizer();
  const text = '以下是关于古音学的单项选择题，请直接给出正确答案的选项。\n\n题目：…\n答案是：A';
  expect(tokenizer.encode(text, { add_special_tokens: true })).toEqual(tokenizer.encode(text, { add_special_tokens: false }));
}, 120_000);
afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

async function checkExport(datasetId: DatasetId, files: readonly RawFile[], allItems: readonly Item[], shots: number): Promise<void> {
  const items = allItems.filter((item): item is MultipleChoiceItem => item.kind === 'multiple-choice');
  // C3Bench has generation tasks only, so no multiple-choice protocol: the checks below see no MC item.
  const protocol = datasetId === 'c3bench' ? null : protocolForDataset(datasetId);
  const dataFiles = files.map((file) => ({ path: file.path, sha256: sha256(file.bytes), bytes: file.bytes.length }));
  const exported = await exportLmEval({ datasetId, items: allItems, files: dataFiles, shots, appVersion: '0.1.0+test', maxNewTokens: 200 });
  const folder = mkdtempSync(join(tmpdir(), `jiangu-lm-eval-${datasetId}-`));
  folders.push(folder);
  for (const file of exported.files) writeFileSync(join(folder, file.path), file.text);
  const lines = renderWithPython(folder);

  const tests = items.filter((item) => item.split === 'test' && item.kind === 'multiple-choice');
  const devByTask = new Map<string, MultipleChoiceItem[]>();
  for (const item of items) if (item.split === 'dev') devByTask.set(item.task, [...(devByTask.get(item.task) ?? []), item]);
  const byId = new Map(tests.map((item) => [item.id, item]));
  const hash = protocol ? await templateHash(protocol) : null;

  // Task files: the settings the brief and the contract fix, and metadata that names the task.
  const taskLines = lines.filter((line) => line.kind === 'task');
  const genTaskNames = new Set(exported.tasks.filter((task) => task.kind === 'generation').map((task) => task.name));
  expect(taskLines.map((line) => line.task).sort()).toEqual(exported.tasks.map((task) => task.name).sort());
  const taskOfName = new Map<string, string>();
  for (const line of taskLines) {
    const isGen = genTaskNames.has(line.task);
    expect(line.settings).toMatchObject({ dataset_path: 'json', output_type: isGen ? 'generate_until' : 'multiple_choice', target_delimiter: '', num_fewshot: 0, description: '' });
    const meta = line.settings.metadata.jiangu;
    // A task none of whose items has a key (AC-EVAL's test) only predicts: the harness's bypass metric, no accuracy.
    const keyless = !isGen && tests.filter((item) => item.task === meta.task).every((item) => item.answer === null);
    expect(line.settings.metric_list).toEqual(isGen ? [{ metric: 'exact_match', aggregation: 'mean', higher_is_better: true }] : keyless ? [{ metric: 'bypass' }] : [{ metric: 'acc', aggregation: 'mean', higher_is_better: true }]);
    expect(keyless).toBe(datasetId === 'ac-eval');
    expect(line.settings.metadata.version).toBe(1);
    expect(meta).toMatchObject({ format: 1, app: '0.1.0+test', dataset: datasetId, shots, protocol: isGen ? 'c3bench' : protocol!.id, templateHash: isGen ? await generationTemplateHash() : hash });
    expect(meta.dataFiles).toEqual(Object.fromEntries(dataFiles.map((file) => [file.path, file.sha256])));
    const task = meta.task as string;
    expect(line.task).toBe(`jiangu_${datasetId.replace(/-/g, '_')}_${shots}shot_${meta.slug as string}`);
    expect(line.task).toMatch(/^[a-z0-9_]+$/);
    const jsonl = readFileSync(join(folder, line.data_file));
    expect(meta.itemsFile).toEqual({ [line.data_file]: sha256(jsonl) });
    taskOfName.set(line.task, task);
  }

  // Every test item exactly once, its prompt and requests Jiangu's.
  const requests = lines.filter((line) => line.kind === 'request');
  expect(requests.map((line) => line.jiangu_id).sort()).toEqual(tests.map((item) => item.id).sort());
  let compared = 0;
  let tokensCompared = 0;
  const tokenChecked = new Set<string>();
  for (const request of requests) {
    const item = byId.get(request.jiangu_id)!;
    expect(taskOfName.get(request.task)).toBe(item.task);
    expect(request.doc).toEqual({ question: item.question, options: item.options, answer: item.answer });
    const built = buildMcPrompt(protocol!, item, devByTask.get(item.task) ?? [], shots);
    expect(built.shotsUsed).toBe(Math.min(shotsFor(protocol!, item.task, shots), devByTask.get(item.task)?.length ?? 0));
    if (request.context !== built.prompt) expect({ item: item.id, context: request.context }).toEqual({ item: item.id, context: built.prompt });
    expect(request.choices).toEqual(built.letters);
    expect(request.target).toBe(item.answer === null ? '' : built.letters.indexOf(item.answer));
    expect(request.arguments).toEqual(built.letters.map((letter) => [built.prompt, letter]));

    // Every prompt is compared above; the tokens of every TOKEN_CHECK_EVERY-th item and of each
    // task's first (encoding 5-shot contexts with Qwen3's tokenizer is most of this file's time).
    const firstOfTask = !tokenChecked.has(request.task);
    tokenChecked.add(request.task);
    if (!firstOfTask && compared % TOKEN_CHECK_EVERY !== 0) {
      compared++;
      continue;
    }
    tokensCompared++;
    // The HF backend scores encode(context + continuation) past encode(context); Jiangu scores letterInContext.
    // Jiangu's worker encodes with special tokens, the HF backend without (Qwen has no BOS); Qwen3's
    // tokenizer adds none (checked in beforeAll), so one encoding per text serves both.
    const cache = new Map<string, number[]>();
    const encode = (text: string): number[] => {
      let ids = cache.get(text);
      if (!ids) cache.set(text, (ids = tokenizer.encode(text, { add_special_tokens: false })));
      return ids;
    };
    const promptIds = encode(built.prompt);
    request.hf.forEach(([context, continuation], i) => {
      const contextIds = encode(context);
      const whole = encode(context + continuation);
      expect(whole.slice(0, contextIds.length)).toEqual(contextIds);
      const continuationIds = whole.slice(contextIds.length);
      const scored = letterInContext(encode, built.prompt, promptIds, built.letters[i]);
      expect(scored.mergesWithPrompt).toBe(false);
      expect(continuationIds).toEqual([scored.tokenId]);
    });
    compared++;
  }
  expect(compared).toBe(tests.length);
  expect(tokensCompared).toBeGreaterThanOrEqual(Math.min(tests.length, Math.ceil(tests.length / TOKEN_CHECK_EVERY)));

  // Generation: Jiangu's prompt, greedy, Jiangu's token limit, stopping only at end of text.
  const genItems = allItems.filter((item): item is GenerationItem => item.kind === 'generation' && item.split === 'test');
  const genById = new Map(genItems.map((item) => [item.id, item]));
  const generations = lines.filter((line) => line.kind === 'generation');
  if (datasetId === 'wenmind') expect(genItems.length).toBeGreaterThan(900);
  if (datasetId === 'c3bench') expect(genItems.length).toBeGreaterThan(0);
  expect(generations.map((line) => line.jiangu_id).sort()).toEqual(genItems.map((item) => item.id).sort());
  for (const request of generations) {
    const item = genById.get(request.jiangu_id)!;
    expect(taskOfName.get(request.task)).toBe(item.task);
    if (request.context !== buildGenerationPrompt(item)) expect({ item: item.id, context: request.context }).toEqual({ item: item.id, context: buildGenerationPrompt(item) });
    expect(request.target).toBe(item.references[0]);
    expect(request.generation_kwargs).toEqual({ until: [], do_sample: false, temperature: 0, max_gen_toks: 200 });
  }

  // The group: every exported task under it (AncientBench through its competency subgroups).
  const groups = lines.filter((line) => line.kind === 'group');
  const top = groups.find((line) => line.config.group === `jiangu_${datasetId.replace(/-/g, '_')}_${shots}shot`)!;
  expect(top).toBeDefined();
  if (datasetId === 'c3bench') {
    // Nothing for the harness to aggregate: the group only collects the generation tasks.
    expect(top.config.task.sort()).toEqual(exported.tasks.map((task) => task.name).sort());
    expect(top.config.aggregate_metric_list).toBeUndefined();
    return;
  }
  const byGroup = new Map(groups.map((line) => [line.config.group, line.config.task]));
  const leaves = (name: string): string[] => (byGroup.has(name) ? byGroup.get(name)!.flatMap(leaves) : [name]);
  expect(leaves(top.config.group).sort()).toEqual(exported.tasks.map((task) => task.name).sort());
  // AC-EVAL's test has no answers: nothing to aggregate.
  expect(top.config.aggregate_metric_list).toEqual(datasetId === 'ac-eval' ? undefined : [{ metric: 'acc', aggregation: 'mean', weight_by_size: false }]);
  if (datasetId === 'ancientbench') expect(top.config.task).toHaveLength(getDataset('ancientbench').groups.length);
}

describe('lm-eval export rendered by python3, AncientBench sample', () => {
  const bytes = readFileSync(SAMPLE);
  const file: RawFile = { path: 'ancientbench-sample.csv', bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength) };
  const items = adaptAncientBench([file]).items as MultipleChoiceItem[];
  for (const shots of [0, 5]) {
    it(`${shots}-shot: every prompt, request and continuation token is Jiangu's`, () => checkExport('ancientbench', [file], items, shots));
  }
});

describe('lm-eval export rendered by python3, C3Bench-shaped fixture (generation only)', () => {
  it('0-shot: every generation prompt is Jiangu\'s, greedy, with its token limit', async () => {
    const bytes = readFileSync(resolve(HERE, '../../fixtures/c3bench/minimal.json'));
    const file: RawFile = { path: 'C3_bench.json', bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength) };
    await checkExport('c3bench', [file], adaptDataset('c3bench', [file]).items, 0);
  });
});

describeWithSharedData('lm-eval export rendered by python3, shared data', (root) => {
  for (const [datasetId, shotList] of [['aclue', [0, 5]], ['cmmlu-ancient', [0, 5]], ['ac-eval', [0, 5]], ['wenmind', [0]]] as const) {
    for (const shots of shotList) {
      it(`${datasetId} ${shots}-shot: every prompt, request and continuation token is Jiangu's`, async () => {
        const files = readCatalogFiles(root, datasetId);
        await checkExport(datasetId, files, adaptDataset(datasetId, files).items, shots);
      }, 600_000);
    }
  }
});
