// Run-file refusals and import warnings are notices: worded in the page's language from their code
// and parameters. Chinese must be Chinese: apart from the values a message quotes (a path, a file
// name, a task) and format names, no English word may be left in it.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runJson } from '../../../src/lib/core/formats/jiangu-run/export.ts';
import { RunImportError, checkRunFileSize, parseRunFile, refusal } from '../../../src/lib/core/formats/import-record.ts';
import { catalog, noticeOf, renderNotice, type Notice, type NoticeCode, type ParamsOf } from '../../../src/lib/core/notices/index.ts';
import type { Expected, Found } from '../../../src/lib/core/notices/catalog-import-fields.ts';
import { makeMcRun } from '../../fixtures/run-records/build.ts';

const fixture = (path: string): string => readFileSync(new URL(`../../fixtures/${path}`, import.meta.url), 'utf8');
const LM_EVAL_JSON = 'lm-eval/aclue-two-tasks.json';
const SAMPLES_NAME = 'samples_aclue_polysemy_resolution_2025-01-02T03-04-05.678901.jsonl';
type Json = Record<string, any>;

/** Words a Chinese sentence may keep: format, field and tool names, literals. */
const KEPT = [
  // A sampled run's export (issue 36): its README and the file --samples reads (before `samples` below).
  /--samples jiangu_samples\.json/g, /\bREADME\b/g,
  /lm-evaluation-harness/g, /lm-eval/g, /lm_eval/g, /--log_samples/g, /simple_evaluate\(\.\.\., log_samples=True\)/g,
  /samples_<task>_<(?:time|timestamp)>\.jsonl/g, /"format": "jiangu-run"/g, /"jiangu-run"/g, /"samples"/g, /"acc"/g, /"unknown"/g,
  /\[\[?loglik, is_greedy\]\]?/g, /\b(?:filtered_resps|resps|prompt_hash|formatVersion|format|samples|results|run\.config\.\w+)\b/g,
  /\bJSON\b/g, /\bISO 8601\b/g, /\bsha256\b/g, /\bgit\b/g, /\bnull\b/g, /\btrue\b/g, /\bfalse\b/g, /\bMiB\b/g, /\bID\b/g, /\bU\+[0-9A-F]{4}\b/g,
  /\bfp32\b/g, /\blogits\b/g, /\bHugging Face\b/g,
  // Cloze tasks (issue 25): the harness's metric names, and the rule the harness cannot compute.
  /\b(?:acc|acc_norm|acc_bytes|PMI)\b/g,
  // lm_eval --output_path files and the fields they are checked by.
  // generate_until samples (the C3Bench export's generation tasks).
  /\bC3Bench\b/g, /\bgenerate_until\b/g, /\barguments\.gen_args_0\.arg_[01]\b/g, /\b(?:jiangu_id|jiangu_rotation|references)\b/g,
  /--output_path/g, /results_<date>\.json/g, /samples_<task>_<date>\.jsonl/g, /samples_…\.jsonl/g, /"configs"/g, /"auto"/g, /\b(?:task_hashes|doc_hash|target_hash|doc|fp16|bfloat16|ACLUE|cmmlu_ancient_chinese|zip)\b/g, /\b(?:jiangu|aclue)_…/g,
];

/** Every word of every string parameter (and list entry): values, not the sentence's own words. */
function paramWords(params: Notice['params']): string[] {
  const strings = Object.values(params).flatMap((v) => (Array.isArray(v) ? v.map(String) : typeof v === 'string' ? [v] : []));
  return strings.flatMap((s) => s.split(/[\s:：]+/)).filter((w) => w.length > 0).sort((a, b) => b.length - a.length);
}

/** What is left of a Chinese sentence once the values it quotes and the kept words are taken out. */
function englishLeftIn(sentence: string, params: Notice['params']): string[] {
  let rest = sentence;
  // Whole words only: a value "run" must not hide the "run" of "run.config.tasks".
  for (const word of paramWords(params)) rest = rest.replace(new RegExp(`(?<![\\w.-])${word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\w.-])`, 'g'), ' ');
  for (const kept of KEPT) rest = rest.replace(kept, ' ');
  return rest.match(/[A-Za-z]{2,}/g) ?? [];
}

/** parseRunFile must refuse: the RunImportError. */
async function refused(text: string, fileName: string): Promise<RunImportError> {
  const error = await parseRunFile(text, fileName).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(RunImportError);
  return error as RunImportError;
}

const mcFile = (): Json => {
  const { run, results } = makeMcRun();
  return JSON.parse(runJson(run, results));
};

// One value of each kind of expectation and of finding, so every wording of 'import.field-wrong' is said.
const EXPECTED: { [K in Expected['expected']]: Expected & { expected: K } } = {
  object: { expected: 'object' },
  value: { expected: 'value' },
  string: { expected: 'string' },
  'non-empty-string': { expected: 'non-empty-string' },
  sha256: { expected: 'sha256' },
  'git-commit-or-null': { expected: 'git-commit-or-null' },
  'iso-date': { expected: 'iso-date' },
  boolean: { expected: 'boolean' },
  list: { expected: 'list' },
  warning: { expected: 'warning' },
  'option-letters': { expected: 'option-letters' },
  references: { expected: 'references' },
  'doc-index': { expected: 'doc-index' },
  responses: { expected: 'responses' },
  'two-to-four-choices': { expected: 'two-to-four-choices' },
  'loglik-shape': { expected: 'loglik-shape' },
  'loglik-greedy': { expected: 'loglik-greedy' },
  loglik: { expected: 'loglik' },
  'zero-or-one': { expected: 'zero-or-one' },
  'sample-list': { expected: 'sample-list' },
  integer: { expected: 'integer', min: 3, max: 977 },
  finite: { expected: 'finite', min: -7, max: 11 },
  'one-of': { expected: 'one-of', set: ['eos', 'max-tokens'] },
  'letter-or-null': { expected: 'letter-or-null', letters: ['A', 'B', 'C'] },
  'protocol-of-dataset': { expected: 'protocol-of-dataset', protocolId: 'aclue', datasetId: 'aclue' },
  'run-id': { expected: 'run-id', runId: 'run-original-1' },
  'same-as': { expected: 'same-as', value: 'aclue', sameAs: 'run.config.datasetId' },
  'run-task': { expected: 'run-task', tasks: ['古文单字多义', '通假字'], moreTasks: true },
  'item-position': { expected: 'item-position', position: 41, itemId: '通假字/test/9' },
  'per-letter': { expected: 'per-letter', count: 3, orNone: true },
  'highest-letter': { expected: 'highest-letter', letter: 'C' },
  'correct-from': { expected: 'correct-from', correct: true, prediction: 'B', gold: 'B' },
  'generation-task-of': { expected: 'generation-task-of', generationTask: 'translation', datasetId: 'c3bench', task: 'translation' },
  'gold-choice': { expected: 'gold-choice', choices: 4, lastLetter: 'D' },
  'choice-letter': { expected: 'choice-letter', choice: ' C' },
  'rotation-number': { expected: 'rotation-number', rotation: 2, itemId: '通假字/test/9' },
  'rotated-gold': { expected: 'rotated-gold', gold: 'C', rotation: 3 },
  'estimation-set': { expected: 'estimation-set', seed: 42, share: 0.05 },
  'softmax-of': { expected: 'softmax-of', of: 'results[0].logProbs', value: '0.700000, 0.300000' },
  'date-between': { expected: 'date-between', earliest: '2023-01-01', latest: '2026-12-05' },
  'stored-item': { expected: 'stored-item', datasetId: 'aclue', task: '古音学' },
};
const FOUND: { [K in Found['found']]: Found & { found: K } } = {
  missing: { found: 'missing' },
  null: { found: 'null' },
  object: { found: 'object' },
  list: { found: 'list', length: 13 },
  string: { found: 'string', quoted: '"E"', length: 87, cut: true },
  fields: { found: 'fields', fields: ['"hello"', '"data"'], moreFields: true },
  other: { found: 'other', text: 'NaN' },
};

type ImportCode = Extract<NoticeCode, `import.${string}`>;
const FILE = 'run (2).json';
// One set of parameters per import code: a code added to the catalog without one here fails to compile.
const SAMPLES: { [C in ImportCode]: ParamsOf<C> } = {
  'import.field-wrong': { fileName: FILE, path: 'results[12].prediction', ...EXPECTED['letter-or-null'], ...FOUND.string },
  'import.too-long': { fileName: FILE, path: 'run.id', max: 500, length: 612 },
  'import.too-many-entries': { fileName: FILE, path: 'run.config.tasks', max: 10000, count: 10001 },
  'import.control-character': { fileName: FILE, path: 'results[0].itemId', codePoint: 'U+202E', position: 1 },
  'import.not-json': { fileName: FILE, path: null, character: '"}"', line: 2, column: 10 },
  'import.json-cut-off': { fileName: FILE, path: 'line 7', line: 1, column: 33 },
  'import.not-json-other': { fileName: FILE, path: null, detail: 'Maximum call stack size exceeded' },
  'import.file-too-large': { fileName: FILE, mib: '66.0', limitMib: 64 },
  'import.backup-too-large': { fileName: FILE, mib: '600.0', limitMib: 512 },
  'import.backup-too-many-entries': { fileName: FILE, key: 'runs', count: 10001, max: 10000 },
  'import.backup-entry-too-large': { fileName: FILE, path: 'runs[3]', mib: '100.0', limitMib: 64 },
  'import.zip-too-many-entries': { fileName: 'out.zip', entries: 40001, limit: 10000 },
  'import.zip-too-large': { fileName: 'out.zip', mib: '2400.0', limitMib: 256 },
  'import.zip-entry-overrun': { fileName: 'samples_x_2026-01-01T00-00-00.000000.jsonl', zipName: 'out.zip', stated: 100, inflatedAtLeast: 16777316 },
  'import.unknown-format': { fileName: FILE, path: 'format', ...FOUND.string },
  'import.format-version': { fileName: FILE, ...FOUND.other },
  'import.unreadable': { fileName: FILE, detail: 'TypeError: x is undefined' },
  'import.no-item-in-local-copy': { fileName: FILE, results: 110000, datasetId: 'aclue', first: '古文单字多义/test/500' },
  'import.failed': { fileName: FILE, detail: '写入失败' },
  'import.storage-full': { fileName: FILE, results: 5321 },
  'import.store-failed': { fileName: FILE, itemId: '通假字/test/0', detail: 'DataCloneError: could not be cloned' },
  'import.duplicate': { fileName: FILE, path: 'run.config.itemIds[4]', value: '古文单字多义/test/1', first: 1 },
  'import.no-mc-tasks': { fileName: FILE, datasetId: 'c3bench' },
  'import.no-generation-tasks': { fileName: FILE, datasetId: 'aclue' },
  'import.unknown-item': { fileName: FILE, path: 'results[2].itemId', itemId: '古文单字多义/test/99' },
  'import.letter-twice': { fileName: FILE, path: 'results[0].letters[2]', letter: 'B' },
  'import.cloze-in-letter-run': { fileName: FILE, path: 'results[3].cloze' },
  'import.generated-in-letter-run': { fileName: FILE, path: 'results[3].generated' },
  'import.too-many-results': { fileName: FILE, count: 200001, max: 200000 },
  'import.two-results': { fileName: FILE, path: 'results[5].itemId', itemId: '古文单字多义/test/2', first: 2 },
  'import.summary-failed': { fileName: FILE, detail: 'a result of task 对联 that is not in the run' },
  'import.unknown-task': { fileName: FILE, path: null, task: 'mmlu_anatomy', known: ['cmmlu_ancient_chinese', 'aclue_poetry_appreciate'] },
  'import.request-count': { fileName: FILE, path: 'line 3: arguments', requests: 3, responses: 4, field: 'filtered_resps' },
  'import.no-samples': { fileName: FILE },
  'import.mixed-datasets': { fileName: FILE, tasks: ['aclue_poetry_appreciate', 'cmmlu_ancient_chinese'], datasets: ['aclue', 'cmmlu-ancient'] },
  'import.results-without-samples': { fileName: FILE },
  'import.doc-twice': { fileName: FILE, path: 'line 9: doc_id', docId: 17, first: 'line 4' },
  'import.samples-file-name': { fileName: FILE },
  'import.too-many-samples': { fileName: FILE, count: 200003, max: 200000 },
  'import.too-many-lines': { fileName: FILE, max: 200000 },
  'import.was-running': { results: 3, items: 80 },
  'import.imported-before': { from: 'lm-eval', fileName: 'aclue-two-tasks.json', importedAt: '2026-01-02T03:04:05.000Z' },
  'import.unknown-fields': { fields: ['run.config.futureOption', 'results[*].extra'], more: 4 },
  'import.lm-eval-protocol': { fileName: 'aclue-two-tasks.json', protocolId: 'aclue', templateHash: 'lm-eval' },
  'import.lm-eval-data': { datasetId: 'cmmlu-ancient' },
  'import.model-unnamed': undefined,
  'import.dtype-unknown': { dtype: 'bfloat16' },
  'import.shots-unstated': { tasks: ['aclue_polysemy_resolution'], shots: 5 },
  'import.shots-differ': { tasks: ['aclue_polysemy_resolution', 'aclue_poetry_appreciate'], shotsPerTask: ['5', '?'], shots: 5 },
  'import.acc-disagrees': { count: 7, total: 300, tasks: ['aclue_poetry_appreciate'], docIds: [42], more: true },
  'import.prompt-hash-disagrees': { count: 6 },
  'import.sample-size': { fileName: FILE, path: 'run.config.sampling.population', items: 120, expected: 100, perTask: 50 },
  'import.sample-not-drawn': { fileName: FILE, draw: 'random', seed: 12345, index: 3, found: 'Radical/test/7', drawn: 'Radical/test/2' },
  'import.sample-population': { fileName: FILE, task: 'Radical', recorded: 40, found: 39 },
  'import.lm-eval-other-sample': { draw: 'random', seed: 12345, perTask: 50 },
  'import.lm-eval-stop-beyond-plan': { fileName: FILE, path: 'configs.jiangu_aclue_0shot_tongjiazi.metadata.jiangu.sampling.stop.asked', asked: 40, planned: 36 },
  'import.lm-eval-stop-not-prefix': { fileName: FILE, asked: 15, found: 16, task: '通假字', index: 7, position: 16, ran: true },
  'import.lm-eval-stop-unasked': { fileName: FILE, task: '通假字', expected: 8, found: 7 },
  'import.lm-eval-truncated-line': { fileName: FILE, path: 'line 3', samples: 2 },
  'import.lm-eval-truncated': { fileName: FILE, task: 'aclue_poetry_appreciate', samples: 2, expected: 3 },
  'import.lm-eval-tampered': { fileName: FILE, task: 'aclue_poetry_appreciate' },
  'import.lm-eval-doc-changed': { fileName: FILE, path: 'line 2: doc' },
  'import.lm-eval-doc-mismatch': { fileName: FILE, path: 'line 2', itemId: '古文单字多义/test/1', field: 'question' },
  'import.lm-eval-cloze-disagrees': { fileName: FILE, path: 'line 3', itemId: '古文单字多义/test/2', metric: 'acc_norm', stated: 1, recomputed: 0, prediction: 'C', gold: 'B' },
  'import.lm-eval-rotation-invalid': { fileName: FILE, path: 'line 3: doc.jiangu_rotation', found: '4', choices: 4 },
  'import.lm-eval-rotation-twice': { fileName: FILE, path: 'line 5', itemId: '古文单字多义/test/1', rotation: 2, first: 'line 4' },
  'import.lm-eval-rotation-without-item': { fileName: FILE, path: 'line 6', itemId: '古文单字多义/test/1', rotation: 1 },
  'import.lm-eval-rotation-target': { fileName: FILE, path: 'line 7', itemId: '古文单字多义/test/1', rotation: 1, choices: 4, ownChoices: 4, found: 'C', expected: 'B' },
  'import.lm-eval-rotations-missing': { items: 2, total: 6, missing: ['古文单字多义/test/1 rotation 3'], more: 1 },
  'import.lm-eval-no-known-task': { fileName: FILE, skipped: ['cmmlu_agronomy'], more: 2 },
  'import.lm-eval-samples-missing': { fileName: FILE, task: 'cmmlu_ancient_chinese', expected: 'samples_cmmlu_ancient_chinese_2025-03-04T05-06-07.891011.jsonl' },
  'import.lm-eval-samples-unmatched': { fileName: FILE, results: ['results_2025-03-04T05-06-07.891011.json'] },
  'import.lm-eval-task-twice': { fileName: FILE, task: 'aclue_poetry_appreciate' },
  'import.lm-eval-jiangu-without-results': { fileName: FILE, tasks: ['jiangu_aclue_0shot_circular_polysemy_resolution'], more: 14, expected: ['results_2026-12-01T00-00-00.000000.json'] },
  'import.lm-eval-not-results': { fileName: FILE },
  'import.lm-eval-file-name': { fileName: FILE },
  'import.lm-eval-jiangu-metadata': { fileName: FILE, path: 'configs.jiangu_aclue_5shot_x.metadata.jiangu.templateHash' },
  'import.lm-eval-jiangu-protocol-unknown': { fileName: FILE, task: 'jiangu_aclue_5shot_x', protocolId: 'cmmlu', expected: 'aclue' },
  'import.lm-eval-protocols-mixed': { fileName: FILE, tasks: ['aclue_poetry_appreciate', 'jiangu_aclue_5shot_x'], protocols: ['lm-eval', 'aclue'] },
  'import.lm-eval-gen-sample': { fileName: FILE, path: 'line 2: resps' },
  'import.lm-eval-gen-template': { fileName: FILE, task: 'jiangu_c3bench_0shot_ner' },
  'import.lm-eval-gen-kwargs': { fileName: FILE, path: 'line 2: arguments.gen_args_0.arg_1', maxNewTokens: 256 },
  'import.lm-eval-gen-jiangu': { fileName: 'results_2025-03-04T05-06-07.891011.json', maxNewTokens: 256, app: '0.1.0' },
  'import.lm-eval-jiangu': { fileName: 'results_2025-03-04T05-06-07.891011.json', protocolId: 'aclue', templateHash: '0123456789'.repeat(6) + '0123', app: '0.1.0' },
  'import.lm-eval-jiangu-cloze': { fileName: 'results_2025-03-04T05-06-07.891011.json', protocolId: 'aclue', templateHash: '0123456789'.repeat(6) + '0123', app: '0.1.0' },
  'import.lm-eval-tasks-skipped': { skipped: ['cmmlu_agronomy'], more: 3 },
  'import.lm-eval-tasks-without-samples': { tasks: ['aclue_polysemy_resolution'], more: 2 },
  'import.lm-eval-bfloat16': { dtype: 'bfloat16' },
  'import.lm-eval-folder-empty': { fileName: 'out', files: 3 },
  'import.zip-unreadable': { fileName: FILE, reason: 'invalid zip data' },
  'import.lm-eval-zip-empty': { fileName: FILE },
  'import.lm-eval-system-instruction': { text: '你是一位古汉语专家。' },
  'import.lm-eval-dtype-auto': { loaded: 'torch.float16', dtype: 'fp16' },
};

/** The file's refusals: said after the file name. The rest are warnings. */
const isRefusal = (code: ImportCode): boolean => (SAMPLES[code] as Notice['params'] | undefined)?.fileName === FILE;

describe('every import message, in both languages', () => {
  const codes = Object.keys(catalog).filter((code): code is ImportCode => code.startsWith('import.'));

  it('has a sample for each code, and each code is one of the catalog', () => {
    expect(codes.sort()).toEqual(Object.keys(SAMPLES).sort());
  });

  it.each(Object.keys(SAMPLES) as ImportCode[])('%s', (code) => {
    const n: Notice = { code, params: (SAMPLES[code] ?? {}) as Notice['params'] };
    const en = renderNotice(n, 'en');
    const zh = renderNotice(n, 'zh');
    expect(en).not.toMatch(/^import\./); // rendered, not the fallback of an unknown code
    expect(zh).not.toMatch(/^import\./);
    if (isRefusal(code)) {
      expect(en.startsWith(`${FILE}: `)).toBe(true);
      expect(zh.startsWith(`${FILE}：`)).toBe(true);
    }
    // Every number it is given is said in both (booleans and kinds choose wording instead).
    // A count may be written with its thousands grouped (10,001), as a reader reads it.
    const said = (text: string, v: number) => text.includes(String(v)) || text.includes(v.toLocaleString('en'));
    for (const v of Object.values(n.params).flat()) if (typeof v === 'number') {
      expect(said(en, v), `${en} says ${v}`).toBe(true);
      expect(said(zh, v), `${zh} says ${v}`).toBe(true);
    }
    expect(zh).toMatch(/[\u4e00-\u9fff]/);
    expect(englishLeftIn(zh, n.params), zh).toEqual([]);
    if (code !== 'import.failed') expect(zh).not.toBe(en);
  });

  it.each(Object.keys(EXPECTED) as Expected['expected'][])('import.field-wrong, expected %s', (kind) => {
    const params = { fileName: FILE, path: 'run.config.x', ...EXPECTED[kind], ...FOUND.other };
    const n: Notice = { code: 'import.field-wrong', params: params as Notice['params'] };
    const zh = renderNotice(n, 'zh');
    expect(zh.startsWith(`${FILE}：run.config.x：应为`)).toBe(true);
    expect(zh.endsWith('实际是NaN')).toBe(true);
    expect(englishLeftIn(zh, n.params), zh).toEqual([]);
    for (const v of Object.values(EXPECTED[kind]).flat()) if (typeof v === 'number') expect(zh).toContain(String(v));
  });

  it.each(Object.keys(FOUND) as Found['found'][])('import.field-wrong, found %s', (kind) => {
    const n: Notice = { code: 'import.field-wrong', params: { fileName: FILE, path: 'run.id', ...EXPECTED.string, ...FOUND[kind] } as Notice['params'] };
    const zh = renderNotice(n, 'zh');
    expect(zh.startsWith(`${FILE}：run.id：应为字符串，实际是`)).toBe(true);
    expect(englishLeftIn(zh, n.params), zh).toEqual([]);
    expect(renderNotice(n, 'en')).toMatch(/^run \(2\)\.json: run\.id: expected a string, got ./);
  });

  it('the checker itself finds English left in a sentence', () => {
    expect(englishLeftIn('run.json：应为 a string', { path: 'run.json' })).toEqual(['string']);
    expect(englishLeftIn('第 2 行 filtered_resps：应为', {})).toEqual([]);
  });
});

describe('refusals of real files, in Chinese: the file name, the place, no English', () => {
  const cases: { name: string; fileName: string; text: () => string; place: string }[] = [];
  const jiangu = (name: string, place: string, tamper: (f: Json) => void) =>
    cases.push({ name, fileName: '导出的记录.json', place, text: () => { const f = mcFile(); tamper(f); return JSON.stringify(f); } });
  jiangu('a letter that is not an option', 'results[1].prediction', (f) => (f.results[1].prediction = 'E'));
  jiangu('a string for an integer', 'run.config.shots', (f) => (f.run.config.shots = '5'));
  jiangu('an unknown status', 'run.status', (f) => (f.run.status = 'done'));
  jiangu('a missing field', 'run.config.tasks', (f) => delete f.run.config.tasks);
  jiangu('too few log-probabilities', 'results[0].logProbs', (f) => (f.results[0].logProbs = [-1, -2, -3]));
  jiangu('a wrong correct', 'results[2].correct', (f) => (f.results[2].correct = false));
  jiangu('a prediction that is not the argmax', 'results[0].prediction', (f) => (f.results[0].prediction = 'B'));
  jiangu('a result of another run', 'results[4].runId', (f) => (f.results[4].runId = 'someone-else'));
  jiangu('a result out of place', 'results[1].index', (f) => (f.results[1].index = 3));
  jiangu('the wrong protocol', 'run.config.protocolId', (f) => (f.run.config.protocolId = 'cmmlu'));
  jiangu('a template hash that is not one', 'run.config.templateHash', (f) => (f.run.config.templateHash = 'lm-eval'));
  jiangu('a direction override in an id', 'results[0].itemId', (f) => (f.results[0].itemId = 'a\u202eb'));
  jiangu('a word for a number', 'summary.overall', (f) => (f.summary.overall = 'high'));
  jiangu('an item twice', 'run.config.itemIds[4]', (f) => (f.run.config.itemIds[4] = f.run.config.itemIds[1]));
  jiangu('a result for no item of the run', 'results[2].itemId', (f) => (f.results[2].itemId = '古文单字多义/test/99'));
  jiangu('format version 2', 'formatVersion', (f) => (f.formatVersion = 2));
  jiangu('a warning that is a number', 'run.warnings[0]', (f) => (f.run.warnings = [7]));
  cases.push({ name: 'not JSON', fileName: 'broken.json', place: '第 2 行第 10 列', text: () => '{"format": "jiangu-run",\n  "run": }' });
  cases.push({ name: 'an unknown format', fileName: 'other.json', place: 'format', text: () => JSON.stringify({ format: 'other-tool' }) });
  cases.push({ name: 'an object of no known kind', fileName: 'hello.json', place: '"hello"', text: () => JSON.stringify({ hello: 1 }) });
  const lm = (name: string, place: string, tamper: (f: Json) => void) =>
    cases.push({ name, fileName: 'lm.json', place, text: () => { const f = JSON.parse(fixture(LM_EVAL_JSON)); tamper(f); return JSON.stringify(f); } });
  lm('a gold choice out of range', 'samples.aclue_polysemy_resolution[0].target', (f) => (f.samples.aclue_polysemy_resolution[0].target = 7));
  lm('a response of the wrong shape', 'samples.aclue_polysemy_resolution[2].filtered_resps[3]', (f) => (f.samples.aclue_polysemy_resolution[2].filtered_resps[3] = [-1, false, 3]));
  lm('a document twice', 'samples.aclue_polysemy_resolution[2].doc_id', (f) => (f.samples.aclue_polysemy_resolution[2].doc_id = 0));
  lm('a choice that is not a letter', 'samples.aclue_poetry_appreciate[1].arguments[2][1]', (f) => (f.samples.aclue_poetry_appreciate[1].arguments[2][1] = ' 丙'));
  lm('an unknown task', 'samples.hellaswag', (f) => (f.samples.hellaswag = f.samples.aclue_polysemy_resolution));
  lm('two datasets', 'samples', (f) => (f.samples.cmmlu_ancient_chinese = f.samples.aclue_polysemy_resolution));
  lm('results without samples', 'samples', (f) => delete f.samples);
  cases.push({ name: 'a bare NaN in a samples file', fileName: SAMPLES_NAME, place: '第 2 行 filtered_resps[1][0]', text: () => fixture(`lm-eval/${SAMPLES_NAME}`).replaceAll('"-0.4"', '"nan"') });
  cases.push({ name: 'a samples file of an unknown task', fileName: 'samples_mmlu_anatomy_2025-01-01T00-00-00.jsonl', place: '文件名', text: () => fixture(`lm-eval/${SAMPLES_NAME}`) });
  cases.push({ name: 'a JSON Lines file not named as the harness names it', fileName: 'my-samples.jsonl', place: '文件名', text: () => '{"doc_id": 0}\n' });

  it.each(cases)('$name', async ({ fileName, text, place }) => {
    const error = await refused(text(), fileName);
    // What the page renders (sayError) is the error's notice, with the file name as a parameter.
    const n = noticeOf(error);
    expect(n).toBe(error.notice);
    expect(n.code).toBe(error.refusal.code);
    expect(n.params.fileName).toBe(fileName);
    const zh = renderNotice(n, 'zh');
    expect(zh.startsWith(`${fileName}：`)).toBe(true);
    expect(zh).toContain(place);
    expect(englishLeftIn(zh, n.params), zh).toEqual([]);
    // The English sentence is the error's message, as before.
    expect(renderNotice(n, 'en')).toBe(error.message);
    expect(error.message).toBe(`${fileName}: ${error.detail}`);
  });

  it('too large, before reading and after', async () => {
    const before = (() => {
      try {
        checkRunFileSize('大文件.json', 70 * 1024 * 1024);
      } catch (e) {
        return e;
      }
      return null;
    })();
    expect(before).toBeInstanceOf(RunImportError);
    const zh = renderNotice(noticeOf(before), 'zh');
    expect(zh).toBe('大文件.json：文件大小为 70.0 MiB，评测记录文件最多 64 MiB。请导出更少的题目（更小的评测），或把 lm-eval 文件按任务拆开。');
  });

  it("has the store's refusals (store/runs.ts importRun) in the words it uses today", () => {
    const full = new RunImportError('exported.json', refusal('import.storage-full', { results: 5 }));
    expect(full.message).toBe('exported.json: not enough browser storage to keep this run (5 results). Delete old runs or datasets to make room; nothing was stored.');
    expect(new RunImportError('exported.json', refusal('import.store-failed', { itemId: '通假字/test/0', detail: 'DataCloneError: x' })).message).toMatch(
      /^exported\.json: the result for item 通假字\/test\/0 could not be stored \(DataCloneError: .*\); nothing was stored\.$/,
    );
    const run = new RunImportError('exported.json', refusal('import.store-failed', { itemId: null, detail: 'DataCloneError: x' }));
    expect(run.message).toMatch(/^exported\.json: the run could not be stored \(DataCloneError: .*\); nothing was stored\.$/);
    expect(renderNotice(run.notice, 'zh')).toBe('exported.json：这次评测无法保存（DataCloneError: x）；没有保存任何内容。');
  });

  it('a sentence without a code (a store failure given as text) is kept as it is', () => {
    const error = new RunImportError('x.json', 'the run could not be stored (DataCloneError: …); nothing was stored.');
    expect(error.message).toBe('x.json: the run could not be stored (DataCloneError: …); nothing was stored.');
    expect(renderNotice(noticeOf(error), 'zh')).toBe('x.json：the run could not be stored (DataCloneError: …); nothing was stored.');
  });
});

describe('import warnings are notices', () => {
  it('an lm-eval import writes its warnings as notices, said in Chinese', async () => {
    const file = JSON.parse(fixture(LM_EVAL_JSON));
    file.config.model_args = 'pretrained=Qwen/Qwen2.5-0.5B,dtype=bfloat16';
    file['n-shot'] = { aclue_polysemy_resolution: 2 };
    const { run } = await parseRunFile(JSON.stringify(file), 'aclue-two-tasks.json');
    const codes = run.warnings.map((w) => (typeof w === 'string' ? w : w.code));
    expect(codes).toEqual(['import.lm-eval-protocol', 'import.lm-eval-data', 'import.lm-eval-bfloat16', 'import.shots-differ', 'import.acc-disagrees']);
    for (const w of run.warnings as Notice[]) expect(englishLeftIn(renderNotice(w, 'zh'), w.params), renderNotice(w, 'zh')).toEqual([]);
    const acc = run.warnings[4] as Notice;
    expect(acc.params).toEqual({ count: 1, total: 6, tasks: ['aclue_poetry_appreciate'], docIds: [0], more: false });
    expect(renderNotice(acc, 'zh')).toContain('aclue_poetry_appreciate 第 0 条');
  });

  it('a run file keeps the warnings it holds (sentences and notices) and adds its own as notices', async () => {
    const { run, results } = makeMcRun();
    run.warnings = ['An old sentence.', { code: 'run.some-future-code', params: { n: 3, names: ['a', 'b'], flag: true, none: null } }];
    const file = JSON.parse(runJson(run, results));
    file.run.status = 'running';
    file.run.config.futureOption = 1;
    const imported = await parseRunFile(JSON.stringify(file), 'live.json');
    expect(imported.run.warnings.slice(0, 2)).toEqual(run.warnings);
    expect(imported.run.warnings.slice(2)).toEqual([
      { code: 'import.was-running', params: { results: 5, items: 5 } },
      { code: 'import.unknown-fields', params: { fields: ['run.config.futureOption'], more: 0 } },
    ]);
    expect(renderNotice(imported.run.warnings[2] as Notice, 'zh')).toBe('文件导出时评测仍在进行（5 道题中完成了 5 道）；导入后记为已停止。');
  });

  it('refuses a stored notice whose parameters are not plain values', async () => {
    const file = mcFile();
    file.run.warnings = [{ code: 'import.was-running', params: { results: { nested: 1 } } }];
    const error = await refused(JSON.stringify(file), 'w.json');
    expect(error.message).toBe('w.json: run.warnings[0].params.results: expected a list, got an object');
  });
});
