import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ACLUE_TASKS } from '../../../src/lib/core/benchmarks/catalog-tasks.ts';
import { runSummary } from '../../../src/lib/core/metrics/run-summary.ts';
import { runJson } from '../../../src/lib/core/formats/jiangu-run/export.ts';
import { LM_EVAL_TASKS, RUN_IMPORT_LIMITS, RunImportError, parseRunFile, taskFromSamplesFileName } from '../../../src/lib/core/formats/import-record.ts';
import type { GenItemResult, McItemResult, McRunRecord } from '../../../src/lib/core/record/run.ts';
import { sha256Hex } from '../../../src/lib/core/protocols/template-hash.ts';
import { renderNotice, type Notice } from '../../../src/lib/core/notices/index.ts';
import { makeGenRun, makeMcRun } from '../../fixtures/run-records/build.ts';

const fixture = (path: string): string => readFileSync(new URL(`../../fixtures/${path}`, import.meta.url), 'utf8');
const LM_EVAL_JSON = 'lm-eval/aclue-two-tasks.json';
const SAMPLES_NAME = 'samples_aclue_polysemy_resolution_2025-01-02T03-04-05.678901.jsonl';

// Parsed files, edited freely by the tests to break them in one place at a time.
type Json = Record<string, any>;

/** A run's warnings in English (notices rendered; plain strings, from older records, as they are). */
const english = (warnings: readonly (string | Notice)[]): string[] => warnings.map((w) => (typeof w === 'string' ? w : renderNotice(w, 'en')));

/** parseRunFile must refuse: returns the error, checked to be a RunImportError naming the file. */
async function refusal(text: string, fileName = 'run.json'): Promise<RunImportError> {
  const error = await parseRunFile(text, fileName).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(RunImportError);
  expect((error as RunImportError).message.startsWith(`${fileName}: `)).toBe(true);
  return error as RunImportError;
}

/** An exported MC run as a parsed object, to tamper with. */
function mcFile(): Json {
  const { run, results } = makeMcRun();
  return JSON.parse(runJson(run, results));
}

describe('Jiangu run files', () => {
  it('round-trips a multiple-choice run: same config and results, origin set, no summary mismatches', async () => {
    const { run, results } = makeMcRun();
    const imported = await parseRunFile(runJson(run, results), 'jiangu-aclue.json');
    const back = imported.run as McRunRecord;
    expect(back.config).toEqual(run.config);
    expect(back.environment).toEqual(run.environment);
    expect(back.letterTokens).toEqual(run.letterTokens);
    expect(back.warnings).toEqual(run.warnings);
    expect(back.status).toBe('completed');
    expect(back.createdAt).toBe(run.createdAt);
    expect(imported.results).toEqual(results.map((r) => ({ ...r, runId: back.id })));
    expect(back.origin).toMatchObject({
      kind: 'jiangu-file',
      fileName: 'jiangu-aclue.json',
      originalRunId: 'run-original-1',
      storedSummary: runSummary(run, results),
      summaryMismatches: [],
    });
    expect(Number.isFinite(Date.parse(back.origin!.importedAt))).toBe(true);
    expect(back.origin!.harnessTasks).toBeUndefined();
    // Two of three right in one task, one of two in the other: mean of tasks 58.33, pooled 60.
    expect(back.origin!.storedSummary).toMatchObject({ items: 5, pooled: 60 });
    expect(back.origin!.storedSummary!.overall).toBeCloseTo(58.3333, 3);
  });

  it('lists a tampered summary with the stored and the recomputed values', async () => {
    const file = mcFile();
    expect(file.summary['task:通假字']).toBe(50);
    file.summary['task:通假字'] = 100;
    file.summary.overall = 83.33;
    file.summary['task:not-run'] = 10;
    file.summary.pooled += 0.004; // within the 0.005-point tolerance: not listed
    const { run } = await parseRunFile(JSON.stringify(file), 'tampered.json');
    const mismatches = run.origin!.summaryMismatches;
    expect(mismatches.map((m) => m.key).sort()).toEqual(['overall', 'task:not-run', 'task:通假字']);
    expect(mismatches.find((m) => m.key === 'task:通假字')).toEqual({ key: 'task:通假字', stored: 100, recomputed: 50 });
    expect(mismatches.find((m) => m.key === 'task:not-run')).toEqual({ key: 'task:not-run', stored: 10, recomputed: null });
    const overall = mismatches.find((m) => m.key === 'overall')!;
    expect(overall.stored).toBe(83.33);
    expect(overall.recomputed).toBeCloseTo(58.3333, 3);
    expect(run.origin!.storedSummary!['task:通假字']).toBe(100);
  });

  it('round-trips a generation run', async () => {
    const { run, results } = makeGenRun();
    const imported = await parseRunFile(runJson(run, results), 'gen.json');
    expect(imported.run.config).toEqual(run.config);
    expect(imported.results as GenItemResult[]).toEqual(results);
    expect(imported.run.origin?.summaryMismatches).toEqual([]);
    // Classification: one of two right.
    expect(imported.run.origin?.storedSummary).toMatchObject({ items: 3, 'task:classification': 50 });
  });

  it('reads a file exported before the summary existed (format version 1, no summary)', async () => {
    const imported = await parseRunFile(fixture('run-records/aclue-mc-v1-no-summary.json'), 'old.json');
    expect(imported.run.origin).toMatchObject({ originalRunId: '0f8e6a52-1b7c-4d0e-9a51-3f2d7c9e4b10', storedSummary: null, summaryMismatches: [] });
    expect(imported.results).toHaveLength(5);
    expect((imported.results as McItemResult[]).map((r) => r.prediction)).toEqual(['A', 'B', 'C', 'B', 'A']);
  });

  it('sorts results into run order and imports a partial run', async () => {
    const file = mcFile();
    file.results = [file.results[3], file.results[0]];
    file.run.status = 'paused';
    delete file.summary;
    const imported = await parseRunFile(JSON.stringify(file), 'partial.json');
    expect(imported.results.map((r) => r.index)).toEqual([0, 3]);
    expect(imported.run.status).toBe('paused');
  });

  it('imports a run exported while running as stopped, and says so', async () => {
    const file = mcFile();
    file.run.status = 'running';
    const { run } = await parseRunFile(JSON.stringify(file), 'live.json');
    expect(run.status).toBe('cancelled');
    expect(english(run.warnings).at(-1)).toMatch(/exported while the run was still running \(5 of 5 items\)/);
  });

  it('drops fields it does not know and lists them in a warning', async () => {
    const file = mcFile();
    file.run.config.futureOption = true;
    file.results[0].extra = 1;
    file.results[2].extra = 2;
    file.results[1].__proto__ = { polluted: true };
    const { run, results } = await parseRunFile(JSON.stringify(file), 'newer.json');
    expect(run.config).not.toHaveProperty('futureOption');
    expect(results[0]).not.toHaveProperty('extra');
    expect(({} as Json).polluted).toBeUndefined();
    expect(english(run.warnings).at(-1)).toBe('The file had fields this version does not know; they were left out: run.config.futureOption, results[*].extra.');
  });

  it('accepts its own export of an imported lm-eval run, and keeps where it first came from', async () => {
    const first = await parseRunFile(fixture(LM_EVAL_JSON), 'aclue-two-tasks.json');
    const again = await parseRunFile(runJson(first.run, first.results), 'reexported.json');
    expect(again.run.config).toEqual(first.run.config);
    expect(again.run.config.templateHash).toBe('lm-eval');
    expect(again.run.origin).toMatchObject({ kind: 'jiangu-file', originalRunId: first.run.id, harnessTasks: first.run.origin!.harnessTasks, summaryMismatches: [] });
    expect(english(again.run.warnings).at(-1)).toMatch(/^Before this file was exported, the run had been imported from an lm-evaluation-harness file \(aclue-two-tasks\.json\)/);
  });
});

describe('lm-evaluation-harness files', () => {
  it('maps the simple_evaluate dump: item ids, letters, predictions, gold, log-likelihoods and the stored summary', async () => {
    const text = fixture(LM_EVAL_JSON);
    const { run, results } = await parseRunFile(text, 'aclue-two-tasks.json');
    const mc = results as McItemResult[];
    const config = (run as McRunRecord).config;
    // Catalog order (古文单字多义 before 古诗词曲鉴赏), then doc_id order, whatever the file's order.
    expect(config.tasks).toEqual(['古文单字多义', '古诗词曲鉴赏']);
    expect(config.itemIds).toEqual(['古文单字多义/test/0', '古文单字多义/test/1', '古文单字多义/test/2', '古诗词曲鉴赏/test/0', '古诗词曲鉴赏/test/1', '古诗词曲鉴赏/test/2']);
    expect(mc.map((r) => r.itemId)).toEqual(config.itemIds);
    expect(mc.map((r) => r.index)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(mc.map((r) => r.prediction)).toEqual(['B', 'A', 'C', 'A', 'C', 'D']);
    expect(mc.map((r) => r.gold)).toEqual(['B', 'C', 'C', 'B', 'A', 'D']);
    expect(mc.map((r) => r.correct)).toEqual([true, false, true, false, false, true]);
    expect(mc[0].letters).toEqual(['A', 'B', 'C', 'D']);
    expect(mc[0].logProbs).toEqual([-2.1, -0.4, -3.0, -2.5]);
    expect(mc[1].logProbs).toEqual([-0.9, -1.1, -4.0, -2.0]); // read from resps (this sample has no filtered_resps)
    const z = Math.exp(-2.1) + Math.exp(-0.4) + Math.exp(-3.0) + Math.exp(-2.5);
    expect(mc[0].probs[1]).toBeCloseTo(Math.exp(-0.4) / z, 12);
    expect(mc.every((r) => r.runId === run.id)).toBe(true);

    const parsed = JSON.parse(text);
    const firstSample = parsed.samples.aclue_polysemy_resolution[0];
    expect(mc[0].prompt).toBe(firstSample.arguments[0][0]);
    expect(mc[0].promptHash).toBe(await sha256Hex(firstSample.arguments[0][0]));
    expect(mc[0].promptHash).toBe(firstSample.prompt_hash);
    expect(mc[0].shotsUsed).toBe(0);
    expect(mc[0].exemplarIds).toEqual([]);

    expect(config).toMatchObject({
      kind: 'multiple-choice',
      model: { source: { kind: 'hub', id: 'Qwen/Qwen2.5-0.5B', revision: '0123abcd' }, dtype: 'fp32', backend: 'wasm' },
      protocolId: 'aclue',
      templateHash: 'lm-eval',
      scoring: 'letter-logits',
      shots: 0,
      datasetId: 'aclue',
      datasetFiles: [],
      limitPerTask: 3,
      appVersion: 'lm-eval 0.4.8',
    });
    expect(run.status).toBe('completed');
    expect(run.createdAt).toBe(new Date(1736000000.5 * 1000).toISOString());
    expect(english(run.warnings).some((w) => w.startsWith('1 of 6 samples have an "acc" that disagrees') && w.includes('aclue_poetry_appreciate doc 0'))).toBe(true);

    const origin = run.origin!;
    expect(origin.kind).toBe('lm-eval');
    expect(origin.originalRunId).toBeNull();
    expect(origin.harnessTasks).toEqual([
      { name: 'aclue_polysemy_resolution', version: 0 },
      { name: 'aclue_poetry_appreciate', version: 0 },
    ]);
    expect(Object.keys(origin.storedSummary!).sort()).toEqual(['pooled', 'task:古文单字多义', 'task:古诗词曲鉴赏']);
    expect(origin.storedSummary!['task:古文单字多义']).toBeCloseTo(66.6667, 3);
    // The file's numbers come from its acc values (one of them wrong): its poetry task and the
    // size-weighted aclue group disagree with the recomputed ones; the polysemy task agrees.
    expect(origin.summaryMismatches.map((m) => m.key)).toEqual(['pooled', 'task:古诗词曲鉴赏']);
    const [pooled, poetry] = origin.summaryMismatches;
    expect(pooled.stored).toBeCloseTo(66.6667, 3);
    expect(pooled.recomputed).toBe(50);
    expect(poetry.stored).toBeCloseTo(66.6667, 3);
    expect(poetry.recomputed).toBeCloseTo(33.3333, 3);
  });

  it('reads n-shot and the first_n exemplars, and maps float16 and max_length', async () => {
    const file = JSON.parse(fixture(LM_EVAL_JSON));
    file['n-shot'] = { aclue_polysemy_resolution: 2, aclue_poetry_appreciate: 2 };
    file.config.model_args = 'pretrained=Qwen/Qwen2.5-0.5B,dtype=float16,max_length=4096';
    const { run, results } = await parseRunFile(JSON.stringify(file), 'five.json');
    expect((run as McRunRecord).config).toMatchObject({ shots: 2, contextLimit: 4096, model: { dtype: 'fp16', source: { kind: 'hub', id: 'Qwen/Qwen2.5-0.5B' } } });
    expect((results[0] as McItemResult).exemplarIds).toEqual(['古文单字多义/dev/0', '古文单字多义/dev/1']);
    expect((results[3] as McItemResult).exemplarIds).toEqual(['古诗词曲鉴赏/dev/0', '古诗词曲鉴赏/dev/1']);
  });

  it('ignores stored numbers of tasks it has no samples of, and reads a file that starts with a byte-order mark', async () => {
    const file = JSON.parse(fixture(LM_EVAL_JSON));
    file.results.hellaswag = { 'acc,none': 0.5 };
    file.results.aclue_couplet_prediction = { 'acc,none': 0.25 };
    const { run } = await parseRunFile(`\ufeff${JSON.stringify(file)}`, 'bom.json');
    expect(run.origin!.storedSummary).not.toHaveProperty('hellaswag');
    // A task of ours the file states a number for but has no samples of: listed, recomputed null.
    expect(run.origin!.summaryMismatches).toContainEqual({ key: 'task:对联', stored: 25, recomputed: null });
  });

  it('records an unnamed dtype as fp32 with a warning', async () => {
    const file = JSON.parse(fixture(LM_EVAL_JSON));
    file.config.model_args = 'pretrained=Qwen/Qwen2.5-0.5B,dtype=float8_e4m3fn';
    const { run } = await parseRunFile(JSON.stringify(file), 'bf16.json');
    expect(run.config.model.dtype).toBe('fp32');
    expect(english(run.warnings).some((w) => w.includes('dtype "float8_e4m3fn"') && w.includes('recorded as fp32'))).toBe(true);
  });

  it('reads a samples file alone (JSON Lines, responses as strings), with no stored summary', async () => {
    const { run, results } = await parseRunFile(fixture(`lm-eval/${SAMPLES_NAME}`), SAMPLES_NAME);
    const mc = results as McItemResult[];
    expect(run.config.tasks).toEqual(['古文单字多义']);
    expect(mc.map((r) => r.itemId)).toEqual(['古文单字多义/test/0', '古文单字多义/test/1', '古文单字多义/test/3']);
    expect(mc.map((r) => r.logProbs)).toEqual([
      [-2.1, -0.4, -3.0, -2.5],
      [-0.9, -1.1, -4.0, -2.0],
      [-0.7, -0.7, -1.0, -2.0],
    ]);
    // A tie goes to the earlier letter (numpy's argmax does the same, so acc agrees).
    expect(mc.map((r) => [r.prediction, r.gold, r.correct])).toEqual([
      ['B', 'B', true],
      ['A', 'C', false],
      ['A', 'A', true],
    ]);
    expect(mc[0].prompt.startsWith('以下是关于古文单字多义的单项选择题')).toBe(true);
    expect(mc[0].promptHash).toBe(await sha256Hex(mc[0].prompt));
    expect(run.origin).toMatchObject({ kind: 'lm-eval', storedSummary: null, summaryMismatches: [], harnessTasks: [{ name: 'aclue_polysemy_resolution', version: null }] });
    expect(run.config.model.source).toEqual({ kind: 'hub', id: 'unknown' });
    expect(english(run.warnings).some((w) => w.includes('does not name the model'))).toBe(true);
    expect(english(run.warnings).some((w) => w.includes('disagrees'))).toBe(false);
  });

  it('reads a task name from the harness file names', () => {
    expect(taskFromSamplesFileName(SAMPLES_NAME)).toBe('aclue_polysemy_resolution');
    expect(taskFromSamplesFileName('out/Qwen__Qwen2.5-0.5B/samples_cmmlu_ancient_chinese_2024-11-30T10-00-00.5.jsonl')).toBe('cmmlu_ancient_chinese');
    expect(taskFromSamplesFileName('samples_aclue_couplet_prediction.jsonl')).toBe('aclue_couplet_prediction');
    expect(taskFromSamplesFileName('results.jsonl')).toBeNull();
  });

  it('maps CMMLU ancient_chinese samples', async () => {
    const line = JSON.stringify({ doc_id: 4, target: 'C', filtered_resps: [-1.5, -2.5, -0.5, -3], acc: 1 });
    const { run, results } = await parseRunFile(`${line}\n`, 'samples_cmmlu_ancient_chinese_2025-01-01T00-00-00.jsonl');
    expect(run.datasetId).toBe('cmmlu-ancient');
    expect(run.config).toMatchObject({ protocolId: 'cmmlu', tasks: ['ancient_chinese'], itemIds: ['ancient_chinese/test/4'] });
    expect(results[0]).toMatchObject({ prediction: 'C', gold: 'C', correct: true, prompt: '', promptHash: '' });
  });

  it('has a task table that covers all 15 ACLUE tasks, named as the harness names them', () => {
    const aclue = Object.entries(LM_EVAL_TASKS).filter(([, t]) => t.datasetId === 'aclue');
    expect(aclue).toHaveLength(15);
    expect(new Set(aclue.map(([, t]) => t.task))).toEqual(new Set(ACLUE_TASKS.map((t) => t.key)));
    for (const [name, { task }] of aclue) {
      const en = ACLUE_TASKS.find((t) => t.key === task)!.en;
      const snake = `aclue_${en.toLowerCase().replace(/[^a-z0-9]+/g, '_')}`;
      // The one the harness spells its own way (lm_eval/tasks/aclue/_generate_configs.py).
      expect(name).toBe(task === '古诗词曲鉴赏' ? 'aclue_poetry_appreciate' : snake);
    }
    expect(LM_EVAL_TASKS.cmmlu_ancient_chinese).toEqual({ datasetId: 'cmmlu-ancient', task: 'ancient_chinese' });
  });
});

describe('malformed files are refused with a message that names the place', () => {
  it('not JSON', async () => {
    const error = await refusal('{"format": "jiangu-run",\n  "run": }', 'broken.json');
    expect(error.message).toBe('broken.json: not JSON: unexpected "}" at line 2, column 10');
    expect((await refusal('{"a": 1,\n"b": [1, 2', 'cut.json')).message).toBe('cut.json: not JSON: the file ends too early (line 2, column 11); it may be cut off');
  });

  it('an unknown format', async () => {
    expect((await refusal(JSON.stringify({ format: 'other-tool', data: [] }))).message).toBe(
      'run.json: format: is not a run file this site reads: expected a Jiangu run export ("format": "jiangu-run") or an lm-evaluation-harness results file with per-sample records ("samples"); got "other-tool"',
    );
    expect((await refusal(JSON.stringify({ hello: 1 }))).message).toMatch(/is not a run file this site reads.*got an object with the fields "hello"$/);
    expect((await refusal('[1, 2]')).message).toMatch(/got a list of 2$/);
  });

  it('format version 2', async () => {
    const file = mcFile();
    file.formatVersion = 2;
    expect((await refusal(JSON.stringify(file))).message).toMatch(/^run\.json: formatVersion: this version of the site reads Jiangu run files of format version 1, got 2;/);
  });

  it('wrong types, at several paths', async () => {
    const cases: [(f: Json) => void, string][] = [
      [(f) => (f.results[1].prediction = 'E'), 'results[1].prediction: expected one of A, B, C, D or null, got "E"'],
      [(f) => (f.results[3].prediction = 'D'), 'results[3].prediction: expected one of A, B, C or null, got "D"'],
      [(f) => (f.run.config.shots = '5'), 'run.config.shots: expected an integer from 0 to 1000, got "5"'],
      [(f) => (f.run.status = 'done'), 'run.status: expected one of created, running, paused, completed, failed, cancelled, got "done"'],
      [(f) => (f.run.config.model.source.id = 42), 'run.config.model.source.id: expected a string, got 42'],
      [(f) => (f.results[0].logProbs = [-1, -2, -3]), 'results[0].logProbs: expected 4 entries (one per letter), got a list of 3'],
      [(f) => (f.results[0].probs[0] = 1.5), 'results[0].probs[0]: expected a finite number from 0 to 1, got 1.5'],
      [(f) => (f.results[2].correct = false), 'results[2].correct: expected true (prediction C, gold C), got false'],
      [(f) => (f.results[0].prediction = 'B'), 'results[0].prediction: expected "A" (the letter with the highest log-probability), got "B"'],
      [(f) => (f.results[4].runId = 'someone-else'), 'results[4].runId: expected "run-original-1" (the run\'s id), got "someone-else"'],
      [(f) => (f.results[1].index = 3), 'results[1].index: expected 1 (the position of 古文单字多义/test/1 in run.config.itemIds), got 3'],
      [(f) => delete f.run.config.tasks, 'run.config.tasks: expected a value, got nothing (the field is missing)'],
      [(f) => (f.run.datasetId = 'mmlu'), 'run.datasetId: expected one of aclue, cmmlu-ancient, ac-eval, wenmind, ancientbench, c3bench, got "mmlu"'],
      [(f) => (f.run.config.protocolId = 'cmmlu'), 'run.config.protocolId: expected "aclue" (the protocol of dataset aclue), got "cmmlu"'],
      [(f) => (f.run.config.templateHash = 'lm-eval'), 'run.config.templateHash: expected 64 lower-case hex digits (a sha256), got "lm-eval"'],
      [(f) => (f.results[0].itemId = 'a\u202eb'), 'results[0].itemId: contains the invisible or control character U+202E at position 1; names and ids may not hold control, invisible or direction characters'],
      [(f) => (f.summary.overall = 'high'), 'summary.overall: expected a finite number from 0 to 200000, got "high"'],
      [(f) => (f.results = {}), 'results: expected a list, got an object'],
    ];
    for (const [tamper, expected] of cases) {
      const file = mcFile();
      tamper(file);
      expect((await refusal(JSON.stringify(file), 'run.json')).message).toBe(`run.json: ${expected}`);
    }
  });

  it('kind-specific fields of a generation run', async () => {
    const { run, results } = makeGenRun();
    const file = JSON.parse(runJson(run, results));
    file.results[0].stoppedBy = 'tired';
    expect((await refusal(JSON.stringify(file), 'gen.json')).message).toBe('gen.json: results[0].stoppedBy: expected one of eos, max-tokens, cancelled, got "tired"');
    file.results[0].stoppedBy = 'eos';
    file.results[2].generationTask = 'ner';
    expect((await refusal(JSON.stringify(file), 'gen.json')).message).toBe('gen.json: results[2].generationTask: expected "translation" (how c3bench\'s task translation is scored), got "ner"');
    file.results[2].generationTask = 'translation';
    file.run.config.decoding = { kind: 'sample', topK: 20, topP: 2, seed: 1 };
    expect((await refusal(JSON.stringify(file), 'gen.json')).message).toBe('gen.json: run.config.decoding.topP: expected a finite number from 0 to 1, got 2');
  });

  it('duplicate ids', async () => {
    const file = mcFile();
    file.run.config.itemIds[4] = file.run.config.itemIds[1];
    expect((await refusal(JSON.stringify(file))).message).toBe('run.json: run.config.itemIds[4]: "古文单字多义/test/1" appears twice (also at [1])');
    const twice = mcFile();
    twice.results.push(twice.results[2]);
    expect((await refusal(JSON.stringify(twice))).message).toBe('run.json: results[5].itemId: "古文单字多义/test/2" has two results (also results[2])');
  });

  it('results for items that are not in the run', async () => {
    const file = mcFile();
    file.results[2].itemId = '古文单字多义/test/99';
    expect((await refusal(JSON.stringify(file))).message).toBe('run.json: results[2].itemId: "古文单字多义/test/99" is not one of the run\'s items (run.config.itemIds)');
  });

  it('NaN, as Python writes it bare and as JSON.stringify writes it (null)', async () => {
    const text = runJson(...(Object.values(makeMcRun()) as Parameters<typeof runJson>)).replace('"logProbs": [\n        -0.3,', '"logProbs": [\n        NaN,');
    expect(text).toContain('NaN');
    expect((await refusal(text)).message).toBe('run.json: results[0].logProbs[0]: expected a finite number, got NaN');
    const file = mcFile();
    file.results[1].forwardMs = Number.NaN; // stringified as null
    expect((await refusal(JSON.stringify(file))).message).toBe('run.json: results[1].forwardMs: expected a finite number from 0 to 604800000, got null');
    const samples = fixture(`lm-eval/${SAMPLES_NAME}`).replaceAll('"-0.4"', '"nan"');
    expect((await refusal(samples, SAMPLES_NAME)).message).toBe(`${SAMPLES_NAME}: line 2: filtered_resps[1][0]: expected a finite number, got nan`);
  });

  it('an unknown lm-eval task, listing the known ones', async () => {
    const file = JSON.parse(fixture(LM_EVAL_JSON));
    file.samples.hellaswag = file.samples.aclue_polysemy_resolution;
    const message = (await refusal(JSON.stringify(file), 'lm.json')).message;
    expect(message).toMatch(/^lm\.json: samples\.hellaswag: unknown lm-eval task "hellaswag"; this site reads cmmlu_ancient_chinese, aclue_polysemy_resolution, /);
    expect(message).toContain('aclue_poetry_appreciate');
    const jsonl = (await refusal(fixture(`lm-eval/${SAMPLES_NAME}`), 'samples_mmlu_anatomy_2025-01-01T00-00-00.jsonl')).message;
    expect(jsonl).toMatch(/unknown lm-eval task "mmlu_anatomy"; this site reads cmmlu_ancient_chinese/);
    expect((await refusal('{"doc_id": 0}\n', 'my-samples.jsonl')).message).toMatch(/^my-samples\.jsonl: file name: expected lm-eval's samples_<task>_<timestamp>\.jsonl/);
  });

  it('tasks of two datasets in one file', async () => {
    const file = JSON.parse(fixture(LM_EVAL_JSON));
    file.samples.cmmlu_ancient_chinese = file.samples.aclue_polysemy_resolution;
    expect((await refusal(JSON.stringify(file), 'mixed.json')).message).toMatch(
      /^mixed\.json: samples: all tasks of one file must belong to one dataset, but .*aclue_poetry_appreciate is aclue.*cmmlu_ancient_chinese is cmmlu-ancient/,
    );
  });

  it('malformed lm-eval samples', async () => {
    const cases: [(f: Json) => void, string][] = [
      [(f) => (f.samples.aclue_polysemy_resolution[0].target = 7), 'samples.aclue_polysemy_resolution[0].target: expected the gold choice as a 0-based index below 4 or a letter A–D, got 7'],
      [(f) => (f.samples.aclue_polysemy_resolution[2].filtered_resps[3] = [-1, false, 3]), 'samples.aclue_polysemy_resolution[2].filtered_resps[3]: expected a log-likelihood: a number, [loglik, is_greedy] or [[loglik, is_greedy]], got a list of 3'],
      [(f) => (f.samples.aclue_polysemy_resolution[2].filtered_resps[0] = [0.5, false]), 'samples.aclue_polysemy_resolution[2].filtered_resps[0][0]: expected a log-likelihood (≤ 0), got 0.5'],
      [(f) => (f.samples.aclue_polysemy_resolution[2].doc_id = 0), 'samples.aclue_polysemy_resolution[2].doc_id: 0 appears twice (also at samples.aclue_polysemy_resolution[0])'],
      [(f) => (f.samples.aclue_poetry_appreciate[1].arguments[2][1] = ' 丙'), 'samples.aclue_poetry_appreciate[1].arguments[2][1]: expected the choice " C" (this site reads tasks whose choices are the letters A–D in order), got " 丙"'],
      [(f) => (f.samples.aclue_poetry_appreciate = {}), 'samples.aclue_poetry_appreciate: expected a list of per-sample records, got an object'],
      [(f) => delete f.samples, 'samples: the file has lm-eval results but no per-sample records'],
    ];
    for (const [tamper, expected] of cases) {
      const file = JSON.parse(fixture(LM_EVAL_JSON));
      tamper(file);
      expect((await refusal(JSON.stringify(file), 'lm.json')).message.startsWith(`lm.json: ${expected}`)).toBe(true);
    }
  });

  it('too large: bytes and results', async () => {
    const huge = `{"format":"jiangu-run","pad":"${'x'.repeat(RUN_IMPORT_LIMITS.bytes)}"}`;
    expect((await refusal(huge, 'huge.json')).message).toMatch(/^huge\.json: the file is 64\.0 MiB; the most a run file may be is 64 MiB\./);
    // Multi-byte characters count as their UTF-8 bytes: 22 Mi characters of 3 bytes each.
    const wide = `{"pad":"${'鉴'.repeat(22 * 1024 * 1024)}"}`;
    expect(wide.length).toBeLessThan(RUN_IMPORT_LIMITS.bytes);
    expect((await refusal(wide, 'wide.json')).message).toMatch(/^wide\.json: the file is 66\.0 MiB/);

    const file = mcFile();
    file.results = Array.from({ length: RUN_IMPORT_LIMITS.results + 1 }, () => ({}));
    expect((await refusal(JSON.stringify(file), 'many.json')).message).toBe('many.json: results: the file has 200001 results; the most one import takes is 200000');
    const lm = JSON.parse(fixture(LM_EVAL_JSON));
    lm.samples.aclue_polysemy_resolution = Array.from({ length: RUN_IMPORT_LIMITS.results }, () => ({}));
    expect((await refusal(JSON.stringify(lm), 'lm-many.json')).message).toBe('lm-many.json: samples: the file has 200003 samples; the most one import takes is 200000');
  });
});
