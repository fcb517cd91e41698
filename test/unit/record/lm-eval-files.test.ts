// The lm_eval CLI's output folder (results_<date>.json + samples_<task>_<date>.jsonl), read as one
// import. The fixtures are written by test/fixtures/lm-eval/make_cli_fixtures.py in the harness's
// own shapes and hashes (json.dumps, hashlib), so the hash checks here are checked against Python's.
import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { renderNotice, type Notice } from '../../../src/lib/core/notices/index.ts';
import { RunImportError } from '../../../src/lib/core/formats/import-validate.ts';
import { isHarnessFileSet, readLmEvalFiles, samplesFileParts, type HarnessFileText } from '../../../src/lib/core/formats/lm-eval/import/lm-eval-files.ts';
import { LM_EVAL_TEMPLATE_HASH } from '../../../src/lib/core/formats/jiangu-run/import-jiangu.ts';

const DIR = new URL('../../fixtures/lm-eval/', import.meta.url);
const DATE = '2025-03-04T05-06-07.891011';
const RESULTS = `results_${DATE}.json`;

/** Every file of one fixture folder, as the page reads them. */
function folder(name: string): HarnessFileText[] {
  const dir = new URL(`${name}/`, DIR);
  return readdirSync(dir)
    .sort()
    .map((file) => ({ name: file, text: readFileSync(new URL(file, dir), 'utf8') }));
}

const codes = (warnings: readonly (string | Notice)[]) => warnings.map((w) => (typeof w === 'string' ? w : w.code));
const NOW = '2026-01-01T00:00:00.000Z';

async function refused(files: HarnessFileText[]): Promise<RunImportError> {
  const error = await readLmEvalFiles(files, NOW).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(RunImportError);
  return error as RunImportError;
}

function edit(files: HarnessFileText[], name: string, change: (text: string) => string): HarnessFileText[] {
  expect(files.some((f) => f.name === name)).toBe(true);
  return files.map((f) => (f.name === name ? { ...f, text: change(f.text) } : f));
}

describe('a results file with its samples files', () => {
  it('a stock ACLUE run imports as one run with what results_*.json says: model, 5 shots, bfloat16, chat template, max_length', async () => {
    const runs = await readLmEvalFiles(folder('cli-aclue-stock'), NOW);
    expect(runs).toHaveLength(1);
    const { run, results } = runs[0];
    if (run.config.kind !== 'multiple-choice') throw new Error('not mc');
    expect(run.config.model.source).toEqual({ kind: 'hub', id: 'Qwen/Qwen2.5-0.5B-Instruct', revision: 'main' });
    expect(run.config.shots).toBe(5);
    expect(run.config.model.dtype).toBe('fp16');
    expect(codes(run.warnings)).toContain('import.lm-eval-bfloat16');
    expect(run.config.chatTemplate).toBe(true);
    expect(run.config.contextLimit).toBe(32768);
    expect(run.config.templateHash).toBe(LM_EVAL_TEMPLATE_HASH);
    expect(run.config.tasks).toEqual(['古文单字多义', '古诗词曲鉴赏']);
    expect(results).toHaveLength(6);
    expect(results.every((r) => 'shotsUsed' in r && r.shotsUsed === 5)).toBe(true);
    expect(run.origin?.fileName).toBe(RESULTS);
    expect(run.origin?.summaryMismatches).toEqual([]);
    expect(runs[0].docs.map((d) => d.file)).toContain(`samples_aclue_poetry_appreciate_${DATE}.jsonl`);
  });

  it('max_length in model_args wins over the top level; dtype auto is the dtype the model loaded in; the revision is model_args\'', async () => {
    const [{ run }] = await readLmEvalFiles(folder('cli-cmmlu-group'), NOW);
    if (run.config.kind !== 'multiple-choice') throw new Error('not mc');
    expect(run.config.model.source).toEqual({ kind: 'hub', id: 'Qwen/Qwen2.5-7B', revision: 'v1.0' });
    expect(run.config.model.dtype).toBe('fp16');
    expect(codes(run.warnings)).toContain('import.lm-eval-dtype-auto');
    expect(run.config.chatTemplate).toBe(false);
    const files = edit(folder('cli-cmmlu-group'), RESULTS, (t) => t.replace('max_length=4096', 'max_length=2048'));
    const [again] = await readLmEvalFiles(files, NOW);
    expect(again.run.config.kind === 'multiple-choice' && again.run.config.contextLimit).toBe(2048);
  });

  it('a system instruction is said in a warning (the prompts are not the protocol alone)', async () => {
    const files = edit(folder('cli-jiangu-aclue'), RESULTS, (t) => t.replace('"system_instruction": null', '"system_instruction": "你是一位古汉语专家。"'));
    const [{ run }] = await readLmEvalFiles(files, NOW);
    expect(codes(run.warnings)).toContain('import.lm-eval-system-instruction');
    const [plain] = await readLmEvalFiles(folder('cli-jiangu-aclue'), NOW);
    expect(codes(plain.run.warnings)).not.toContain('import.lm-eval-system-instruction');
  });

  it('a --tasks cmmlu dump keeps cmmlu_ancient_chinese and names the subjects it skipped', async () => {
    const runs = await readLmEvalFiles(folder('cli-cmmlu-group'), NOW);
    expect(runs).toHaveLength(1);
    expect(runs[0].run.datasetId).toBe('cmmlu-ancient');
    expect(runs[0].results.map((r) => r.itemId)).toEqual(['ancient_chinese/test/0', 'ancient_chinese/test/1']);
    const skipped = runs[0].run.warnings.find((w) => typeof w !== 'string' && w.code === 'import.lm-eval-tasks-skipped') as Notice;
    expect(skipped.params.skipped).toEqual(['cmmlu_agronomy']);
    expect(renderNotice(skipped, 'en')).toContain('cmmlu_agronomy');
  });

  it('a group dump of which no task is known is refused, naming every task', async () => {
    const files = folder('cli-cmmlu-group').filter((f) => !f.name.includes('ancient_chinese'));
    const only = edit(files, RESULTS, (t) => {
      const root = JSON.parse(t);
      delete root.configs.cmmlu_ancient_chinese;
      return JSON.stringify(root);
    });
    const error = await refused(only);
    expect(error.refusal.code).toBe('import.lm-eval-no-known-task');
    expect(error.message).toMatch(new RegExp(`^${RESULTS.replace(/\./g, '\\.')}: none of its tasks .*cmmlu_agronomy`));
  });

  it('one results file over two benchmarks is one run per benchmark', async () => {
    const aclue = folder('cli-aclue-stock');
    const cmmlu = folder('cli-cmmlu-group').filter((f) => f.name.startsWith('samples_cmmlu_ancient'));
    const merged = edit([...aclue, ...cmmlu], RESULTS, (t) => {
      const root = JSON.parse(t);
      const other = JSON.parse(readFileSync(new URL(`cli-cmmlu-group/${RESULTS}`, DIR), 'utf8'));
      root.configs.cmmlu_ancient_chinese = other.configs.cmmlu_ancient_chinese;
      root['n-samples'].cmmlu_ancient_chinese = other['n-samples'].cmmlu_ancient_chinese;
      root.task_hashes.cmmlu_ancient_chinese = other.task_hashes.cmmlu_ancient_chinese;
      return JSON.stringify(root);
    });
    const runs = await readLmEvalFiles(merged, NOW);
    expect(runs.map((r) => r.run.datasetId).sort()).toEqual(['aclue', 'cmmlu-ancient']);
    expect(runs.map((r) => r.run.config.model.source)).toEqual([runs[0].run.config.model.source, runs[0].run.config.model.source]);
    expect(runs[0].run.config.model.source).toMatchObject({ kind: 'hub', id: 'Qwen/Qwen2.5-0.5B-Instruct' });
  });

  it('two models\' folders of one moment (same date) are two runs, each with its own samples', async () => {
    const runs = await readLmEvalFiles([...folder('cli-aclue-stock'), ...folder('cli-cmmlu-group')], NOW);
    expect(runs.map((r) => [r.run.config.model.source, r.run.datasetId, r.results.length])).toEqual([
      [{ kind: 'hub', id: 'Qwen/Qwen2.5-0.5B-Instruct', revision: 'main' }, 'aclue', 6],
      [{ kind: 'hub', id: 'Qwen/Qwen2.5-7B', revision: 'v1.0' }, 'cmmlu-ancient', 2],
    ]);
  });

  it('samples files alone (an ACLUE run without its results file) are one run, not one per file', async () => {
    const runs = await readLmEvalFiles(folder('cli-aclue-stock').filter((f) => f.name.startsWith('samples_')), NOW);
    expect(runs).toHaveLength(1);
    expect(runs[0].results).toHaveLength(6);
    expect(codes(runs[0].run.warnings)).toContain('import.model-unnamed');
  });
});

describe('a dumped simple_evaluate dict under the results file\'s name', () => {
  it('is read with the samples it holds', async () => {
    const text = readFileSync(new URL('aclue-two-tasks.json', DIR), 'utf8');
    const runs = await readLmEvalFiles([{ name: RESULTS, text }], NOW);
    expect(runs).toHaveLength(1);
    expect(runs[0].results).toHaveLength(6);
    expect(runs[0].docs).toHaveLength(6);
  });
});

describe('files that are not what the harness wrote', () => {
  const POETRY = `samples_aclue_poetry_appreciate_${DATE}.jsonl`;

  it('a samples file missing lines is truncated (n-samples), one cut mid-line is truncated too, each with its own message', async () => {
    const dropLast = edit(folder('cli-aclue-stock'), POETRY, (t) => t.split('\n').slice(0, 2).join('\n') + '\n');
    const e1 = await refused(dropLast);
    expect(e1.refusal.code).toBe('import.lm-eval-truncated');
    expect(e1.fileName).toBe(POETRY);
    expect(e1.message).toContain('has 2 samples of "aclue_poetry_appreciate", but the results file says the harness evaluated 3');
    const cut = edit(folder('cli-aclue-stock'), POETRY, (t) => t.slice(0, t.length - 40));
    const e2 = await refused(cut);
    expect(e2.refusal.code).toBe('import.lm-eval-truncated-line');
    expect(e2.message).toContain('line 3');
  });

  it('a sample whose response was changed fails task_hashes only when its hashes change; an edited doc fails doc_hash', async () => {
    // Swapping two lines keeps every hash but not their order, which task_hashes is made of.
    const swapped = edit(folder('cli-aclue-stock'), POETRY, (t) => {
      const lines = t.trimEnd().split('\n');
      return [lines[1], lines[0], lines[2]].join('\n') + '\n';
    });
    expect((await refused(swapped)).refusal.code).toBe('import.lm-eval-tampered');
    const doc = edit(folder('cli-aclue-stock'), POETRY, (t) => t.replace('虚构题六', '虚构题七'));
    const e = await refused(doc);
    expect(e.refusal.code).toBe('import.lm-eval-doc-changed');
    expect(e.message).toMatch(/line \d+: doc/);
  });

  it('a known task without its samples file, and a samples file of another run, are refused by name', async () => {
    const missing = await refused(folder('cli-aclue-stock').filter((f) => f.name !== POETRY));
    expect(missing.refusal.code).toBe('import.lm-eval-samples-missing');
    expect(missing.message).toContain(POETRY);
    const other = [...folder('cli-aclue-stock'), { name: 'samples_aclue_couplet_prediction_2024-01-01T00-00-00.000000.jsonl', text: '' }];
    expect((await refused(other)).refusal.code).toBe('import.lm-eval-samples-unmatched');
  });
});

describe('tasks Jiangu exported', () => {
  it('carry Jiangu\'s protocol, template hash, shots, item ids and data files from metadata.jiangu', async () => {
    const runs = await readLmEvalFiles(folder('cli-jiangu-aclue'), NOW);
    expect(runs).toHaveLength(1);
    const { run, results } = runs[0];
    if (run.config.kind !== 'multiple-choice') throw new Error('not mc');
    const results0 = JSON.parse(readFileSync(new URL(`cli-jiangu-aclue/${RESULTS}`, DIR), 'utf8'));
    const meta = results0.configs.jiangu_aclue_5shot_polysemy_resolution.metadata.jiangu;
    expect(run.config.protocolId).toBe('aclue');
    expect(run.config.templateHash).toBe(meta.templateHash);
    expect(run.config.shots).toBe(5);
    expect(run.config.datasetFiles).toEqual([{ path: 'aclue/polysemy_resolution.jsonl', sha256: meta.dataFiles['aclue/polysemy_resolution.jsonl'] }]);
    expect(results.map((r) => r.itemId)).toEqual(['古文单字多义/test/0', '古文单字多义/test/1', '古文单字多义/test/2', '古诗词曲鉴赏/test/0', '古诗词曲鉴赏/test/1', '古诗词曲鉴赏/test/2']);
    expect(codes(run.warnings)).toContain('import.lm-eval-jiangu');
    expect(codes(run.warnings)).not.toContain('import.lm-eval-protocol');
    expect(run.config.model.source).toMatchObject({ revision: 'c1899de289a04d12100db370d81485cdf75e47ca' });
  });

  it('metadata.jiangu that is not what the export writes is refused, not taken as the harness\'s task', async () => {
    const files = edit(folder('cli-jiangu-aclue'), RESULTS, (t) => t.replace(/"templateHash": "[0-9a-f]{64}"/, '"templateHash": "x"'));
    const e = await refused(files);
    expect(e.refusal.code).toBe('import.lm-eval-jiangu-metadata');
    expect(e.message).toContain('metadata.jiangu.templateHash');
  });
});

describe('which files go to this reader', () => {
  it('several files, or a results file; a samples name with or without its date', () => {
    expect(isHarnessFileSet([RESULTS])).toBe(true);
    expect(isHarnessFileSet(['a.json'])).toBe(false);
    expect(isHarnessFileSet(['a.json', 'b.jsonl'])).toBe(true);
    expect(samplesFileParts(`samples_aclue_poetry_appreciate_${DATE}.jsonl`)).toEqual({ task: 'aclue_poetry_appreciate', dateId: DATE });
    expect(samplesFileParts('samples_aclue_poetry_appreciate.jsonl')).toEqual({ task: 'aclue_poetry_appreciate', dateId: null });
  });
});
