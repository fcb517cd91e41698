// Round trip through lm-evaluation-harness's file formats: a fixture run made here is written out as
// the harness's CLI would write a run of Jiangu's exported tasks on the same model (results_<date>.json
// with configs.<task>.metadata.jiangu, and one samples_<task>_<date>.jsonl per task, hashes and all,
// from the run's own log-probabilities), imported through the Evaluate page's picker as several files
// at once, and compared with the run it came from. Broken sets of files (tampered, truncated, a doc
// that is not the stored item, a group dump of unknown tasks) each give their own message and leave
// the store as it was.
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { projectRoot } from '../../scripts/site-routes.ts';
import { strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { MultipleChoiceItem } from '../../src/lib/core/benchmarks/types.ts';
import { LM_EVAL_TASKS } from '../../src/lib/core/formats/lm-eval/import/import-lm-eval.ts';
import { pythonJsonIndent2 } from '../../src/lib/core/formats/lm-eval/import/lm-eval-docs.ts';
import type { McItemResult, McRunRecord } from '../../src/lib/core/record/run.ts';
import { useBrowserSession } from './session.ts';
import { readStoredItems, readStoredRun, startFixtureRun, storeSampleAndAclue, waitForStatus } from './runs.ts';

const TASKS = ['古文单字多义', '古诗词曲鉴赏'];
const DATE = '2026-02-03T04-05-06.070809';
const sha = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex');

interface HarnessFile {
  name: string;
  mimeType: string;
  buffer: Buffer;
}
type Json = Record<string, any>;

/** The harness's slug of an ACLUE task (the contract: ACLUE keeps the harness's own). */
const slugOf = (task: string) => Object.entries(LM_EVAL_TASKS).find(([, t]) => t.datasetId === 'aclue' && t.task === task)![0].slice('aclue_'.length);


async function runCount(page: Page): Promise<number> {
  return page.evaluate(async () => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const r = indexedDB.open('jiangu');
      r.onsuccess = () => resolve(r.result);
      r.onerror = () => reject(r.error);
    });
    const n = await new Promise<number>((resolve, reject) => {
      const r = db.transaction('runs').objectStore('runs').count();
      r.onsuccess = () => resolve(r.result);
      r.onerror = () => reject(r.error);
    });
    db.close();
    return n;
  });
}

/** A sample as the harness writes it to samples_*.jsonl (save_results_samples). */
function sampleLine(docId: number, doc: Json, result: McItemResult): Json {
  const target = result.letters.indexOf(result.gold!);
  const best = result.logProbs.indexOf(Math.max(...result.logProbs));
  const acc = best === target ? 1.0 : 0.0;
  return {
    doc_id: docId,
    doc,
    target: String(target),
    arguments: Object.fromEntries(result.letters.map((l, i) => [`gen_args_${i}`, { arg_0: result.prompt, arg_1: l }])),
    resps: result.logProbs.map((lp) => [[String(lp), 'False']]),
    filtered_resps: result.logProbs.map((lp) => [String(lp), 'False']),
    filter: 'none',
    metrics: ['acc'],
    doc_hash: sha(pythonJsonIndent2(doc)!),
    prompt_hash: sha(result.prompt),
    target_hash: sha(String(target)),
    acc,
  };
}

/** The files `lm_eval --include_path <export> --tasks jiangu_aclue_0shot --output_path … --log_samples` writes, from `run`'s own numbers. */
function harnessFiles(run: McRunRecord, results: McItemResult[], items: MultipleChoiceItem[]): { results: Json; samples: Map<string, Json[]> } {
  const samples = new Map<string, Json[]>();
  const configs: Json = {};
  for (const task of TASKS) {
    const name = `jiangu_aclue_${run.config.shots}shot_${slugOf(task)}`;
    const mine = results.filter((r) => r.task === task);
    samples.set(
      name,
      mine.map((r, docId) => {
        const item = items.find((i) => i.id === r.itemId)!;
        return sampleLine(docId, { jiangu_id: item.id, question: item.question, options: item.options, answer: item.answer }, r);
      }),
    );
    configs[name] = {
      task: name,
      dataset_path: 'json',
      dataset_kwargs: { data_files: { test: `aclue/${slugOf(task)}.jsonl` } },
      test_split: 'test',
      doc_to_text: '<function doc_to_text at 0x7f00>',
      doc_to_choice: ['A', 'B', 'C', 'D'],
      description: '',
      target_delimiter: '',
      fewshot_delimiter: '\n\n',
      num_fewshot: 0,
      output_type: 'multiple_choice',
      metadata: {
        version: 1,
        jiangu: {
          format: 1,
          app: run.config.appVersion,
          dataset: 'aclue',
          task,
          shots: run.config.shots,
          protocol: run.config.protocolId,
          templateHash: run.config.templateHash,
          dataFiles: Object.fromEntries(run.config.datasetFiles.map((f) => [f.path, f.sha256])),
        },
      },
    };
  }
  const root: Json = {
    results: Object.fromEntries([...samples].map(([name, s]) => [name, { alias: name, 'acc,none': s.reduce((a, x) => a + x.acc, 0) / s.length }])),
    configs,
    versions: Object.fromEntries([...samples.keys()].map((n) => [n, 1])),
    'n-shot': Object.fromEntries([...samples.keys()].map((n) => [n, 0])),
    'n-samples': Object.fromEntries([...samples].map(([n, s]) => [n, { original: s.length, effective: s.length }])),
    config: { model: 'hf', model_args: 'pretrained=Qwen/Qwen3-0.6B,dtype=float32', model_dtype: 'torch.float32', model_revision: 'main', model_sha: '', limit: null },
    date: 1770091506.07,
    lm_eval_version: '0.4.9',
    max_length: 40960,
    model_source: 'hf',
    model_name: 'Qwen/Qwen3-0.6B',
    model_name_sanitized: 'Qwen__Qwen3-0.6B',
    chat_template: null,
    chat_template_sha: null,
  };
  return { results: root, samples };
}

/** Written as the CLI writes them: results with indent=2, one sample a line ending in a newline; task_hashes recomputed. */
function asFiles(h: { results: Json; samples: Map<string, Json[]> }, rehash = true): HarnessFile[] {
  if (rehash) {
    h.results.task_hashes = Object.fromEntries([...h.samples].map(([n, s]) => [n, sha(s.map((x) => x.doc_hash + x.prompt_hash + x.target_hash).join(''))]));
  }
  const files: HarnessFile[] = [{ name: `results_${DATE}.json`, mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(h.results, null, 2)) }];
  for (const [name, s] of h.samples) files.push({ name: `samples_${name}_${DATE}.jsonl`, mimeType: 'application/jsonl', buffer: Buffer.from(s.map((x) => JSON.stringify(x) + '\n').join('')) });
  return files;
}

/**
 * What `--output_path` holds after the harness ran twice (one subfolder per model): the CMMLU group
 * fixture and Jiangu's exported tasks on `run`'s numbers, each invocation `later` seconds after the
 * date its files would otherwise carry (a later invocation is another run, not a stored one again).
 */
function outputFolder(run: McRunRecord, results: McItemResult[], items: MultipleChoiceItem[], later: number): Record<string, Buffer> {
  const tree: Record<string, Buffer> = {};
  const cmmlu = join(projectRoot, 'test', 'fixtures', 'lm-eval', 'cli-cmmlu-group');
  for (const f of readdirSync(cmmlu)) {
    const bytes = readFileSync(join(cmmlu, f));
    if (!f.startsWith('results_')) tree[`Qwen__Qwen2.5-7B/${f}`] = bytes;
    else {
      const json = JSON.parse(bytes.toString('utf8')) as Json;
      tree[`Qwen__Qwen2.5-7B/${f}`] = Buffer.from(JSON.stringify({ ...json, date: json.date + later }, null, 2));
    }
  }
  const h = harnessFiles(run, results, items);
  h.results.date += later;
  for (const f of asFiles(h)) tree[`Qwen__Qwen3-0.6B/${f.name}`] = f.buffer;
  return tree;
}

describe('lm-evaluation-harness files of a run made here', () => {
  const session = useBrowserSession({ webgpu: false, path: '/#/data' });
  let own: { run: McRunRecord; results: McItemResult[] };
  let items: MultipleChoiceItem[];
  let imported = '';

  it('runs two ACLUE tasks on the fixture model', async () => {
    const { page } = session.opened;
    await storeSampleAndAclue(page, session.url);
    const id = await startFixtureRun(page, { dataset: 'aclue', shots: 0, limit: 3, tasks: TASKS });
    await waitForStatus(page, 'completed', 120_000);
    own = await readStoredRun<McRunRecord, McItemResult>(page, id);
    expect(own.results).toHaveLength(6);
    items = await readStoredItems<MultipleChoiceItem>(page, 'aclue', own.results.map((r) => r.itemId));
    expect(items.every((i) => i && i.kind === 'multiple-choice')).toBe(true);
  });

  it('import as one run with the same protocol, template hash and per-item letters, and Compare agrees on every item', async () => {
    const { page } = session.opened;
    await page.goto(`${session.url}/#/evaluate`);
    await page.getByTestId('import-run-input').setInputFiles(asFiles(harnessFiles(own.run, own.results, items)));
    await page.waitForURL(/#\/run\//);
    imported = decodeURIComponent(page.url().split('#/run/')[1]);
    const back = await readStoredRun<McRunRecord, McItemResult>(page, imported);
    expect(back.run.origin?.kind).toBe('lm-eval');
    expect(back.run.config.protocolId).toBe(own.run.config.protocolId);
    expect(back.run.config.templateHash).toBe(own.run.config.templateHash);
    expect(back.run.config.shots).toBe(own.run.config.shots);
    expect(back.run.config.model.source).toMatchObject({ kind: 'hub', id: 'Qwen/Qwen3-0.6B' });
    expect(back.results.map((r) => [r.itemId, r.prediction])).toEqual(own.results.map((r) => [r.itemId, r.prediction]));
    expect(back.run.origin?.keyCheck?.status).toBe('agrees');
    expect(await runCount(page)).toBe(2);
    // Issue 21: the harness ran it (--model hf), not this site's WASM backend, whatever the record's placeholder.
    expect(await page.getByTestId('run-model-backend').textContent()).toBe('fp32, lm-evaluation-harness (hf)');
    await page.goto(`${session.url}/#/evaluate`);
    const listed = page.locator(`tr:has(a[href="#/run/${imported}"])`);
    expect(await listed.textContent()).toContain('fp32 · lm-eval hf');
    expect(await listed.textContent()).not.toContain('wasm');

    await page.goto(`${session.url}/#/compare/${own.run.id},${imported}`);
    await page.getByTestId('compare-table').waitFor();
    expect(await page.getByTestId('compare-diff-pooled-1').getAttribute('data-pairing')).toBe('paired');
    expect(Number(await page.getByTestId('compare-diff-pooled-1').getAttribute('data-points'))).toBe(0);
    expect(Number(await page.getByTestId('compare-mcnemar-pooled-1').getAttribute('data-b'))).toBe(0);
    expect(Number(await page.getByTestId('compare-mcnemar-pooled-1').getAttribute('data-c'))).toBe(0);
    expect(await page.getByTestId('compare-prompt-note').count()).toBe(0);
  });

  it('the same numbers under the harness\'s stock task names are the harness\'s protocol, and Compare says the prompts differ', async () => {
    const { page } = session.opened;
    const h = harnessFiles(own.run, own.results, items);
    const stock = new Map<string, Json[]>();
    const configs: Json = {};
    for (const [name, s] of h.samples) {
      const stockName = `aclue_${name.replace(/^jiangu_aclue_\d+shot_/, '')}`;
      // The harness's own docs are ACLUE's columns; its continuations " A".." D". Its doc_id is the
      // doc's row in the task's test split (file order), whatever order the run here asked its
      // random sample in: `lm_eval --samples '{"aclue_…": [rows]}'` runs those rows and writes them
      // in file order.
      stock.set(
        stockName,
        s
          .map((x) => {
            const doc = { Question: x.doc.question, A: x.doc.options[0], B: x.doc.options[1], C: x.doc.options[2], D: x.doc.options[3], Answer: x.doc.answer };
            const args = Object.fromEntries(Object.entries(x.arguments as Json).map(([k, v]) => [k, { ...v, arg_1: ` ${v.arg_1}` }]));
            const row = items.find((i) => i.id === x.doc.jiangu_id)!.order;
            return { ...x, doc_id: row, doc, arguments: args, doc_hash: sha(pythonJsonIndent2(doc)!) };
          })
          .sort((a, b) => a.doc_id - b.doc_id),
      );
      configs[stockName] = { ...h.results.configs[name], task: stockName, metadata: { version: 1.0 }, target_delimiter: ' ' };
    }
    const rename = (o: Json) => Object.fromEntries(Object.entries(o).map(([k, v]) => [`aclue_${k.replace(/^jiangu_aclue_\d+shot_/, '')}`, v]));
    // Another invocation of the harness (its own date): the numbers alike, the run another.
    const results = { ...h.results, date: h.results.date + 60, configs, results: rename(h.results.results), versions: rename(h.results.versions), 'n-shot': rename(h.results['n-shot']), 'n-samples': rename(h.results['n-samples']) };
    await page.goto(`${session.url}/#/evaluate`);
    await page.getByTestId('import-run-input').setInputFiles(asFiles({ results, samples: stock }));
    await Promise.race([
      page.waitForURL(/#\/run\//),
      page.getByTestId('import-run-error').waitFor().then(async () => {
        throw new Error(`the stock files were refused: ${await page.getByTestId('import-run-error').textContent()}`);
      }),
    ]);
    const stockId = decodeURIComponent(page.url().split('#/run/')[1]);
    const stockRun = (await readStoredRun<McRunRecord>(page, stockId)).run;
    expect(stockRun.config.templateHash).toBe('lm-eval');
    // Each doc is the item at its row: the run's own random sample, whatever order it was asked in.
    expect([...stockRun.config.itemIds].sort()).toEqual(own.results.map((r) => r.itemId).sort());
    await page.goto(`${session.url}/#/compare/${own.run.id},${stockId}`);
    await page.getByTestId('compare-table').waitFor();
    expect(await page.getByTestId('compare-prompt-note').textContent()).toContain('lm-evaluation-harness’s own task');
  });

  it('a folder as --output_path writes it (one subfolder per model) imports as one run per model, other files ignored', async () => {
    const { page } = session.opened;
    await page.goto(`${session.url}/#/evaluate`);
    const before = await runCount(page);
    const out = mkdtempSync(join(tmpdir(), 'lm-eval-out-'));
    // CMMLU is not stored in this session, so its synthetic docs are not checked against items.
    // The ACLUE run is a later invocation than the files imported above, so another run.
    for (const [path, bytes] of Object.entries(outputFolder(own.run, own.results, items, 3600))) {
      mkdirSync(join(out, dirname(path)), { recursive: true });
      writeFileSync(join(out, path), bytes);
    }
    writeFileSync(join(out, 'notes.txt'), 'not a harness file');
    await page.getByTestId('import-run-folder').setInputFiles(out);
    await Promise.race([
      page.waitForURL(/#\/run\//),
      page.getByTestId('import-run-error').waitFor().then(async () => {
        throw new Error(`the folder was refused: ${await page.getByTestId('import-run-error').textContent()}`);
      }),
    ]);
    expect(await runCount(page)).toBe(before + 2);
    const firstOfFolder = decodeURIComponent(page.url().split('#/run/')[1]);

    // The same folder again: every run of it is stored already; nothing is stored, the first is offered.
    await page.goto(`${session.url}/#/evaluate`);
    await page.getByTestId('import-run-folder').setInputFiles(out);
    await page.getByTestId('import-run-already-stored').waitFor();
    expect(await page.getByTestId('open-stored-copy').getAttribute('href')).toBe(`#/run/${firstOfFolder}`);
    expect(await runCount(page)).toBe(before + 2);

    const empty = mkdtempSync(join(tmpdir(), 'lm-eval-empty-'));
    writeFileSync(join(empty, 'notes.txt'), 'nothing');
    await page.goto(`${session.url}/#/evaluate`);
    await page.getByTestId('import-run-folder').setInputFiles(empty);
    await page.getByTestId('import-run-error').waitFor();
    expect(await page.getByTestId('import-run-error').textContent()).toMatch(/: the folder's 1 files hold no results_<date>\.json nor samples_<task>_<date>\.jsonl/);
    expect(await runCount(page)).toBe(before + 2);
  });

  it('a zip of the output folder imports as the folder does; a damaged zip is refused, nothing stored', async () => {
    const { page } = session.opened;
    await page.goto(`${session.url}/#/evaluate`);
    const before = await runCount(page);
    const zipOf = (later: number) => {
      const tree: Record<string, Uint8Array> = { 'out/notes.txt': strToU8('not a harness file') };
      for (const [path, bytes] of Object.entries(outputFolder(own.run, own.results, items, later))) tree[`out/${path}`] = new Uint8Array(bytes);
      return Buffer.from(zipSync(tree));
    };
    // A zip of the folder imported above holds the runs stored then: nothing is stored.
    await page.getByTestId('import-run-input').setInputFiles({ name: 'same.zip', mimeType: 'application/zip', buffer: zipOf(3600) });
    await page.getByTestId('import-run-already-stored').waitFor();
    expect(await runCount(page)).toBe(before);
    // The output folder of two later invocations: one run per model, as the folder gave.
    const zip = zipOf(7200);
    await page.goto(`${session.url}/#/evaluate`);
    await page.getByTestId('import-run-input').setInputFiles({ name: 'out.zip', mimeType: 'application/zip', buffer: zip });
    await Promise.race([
      page.waitForURL(/#\/run\//),
      page.getByTestId('import-run-error').waitFor().then(async () => {
        throw new Error(`the zip was refused: ${await page.getByTestId('import-run-error').textContent()}`);
      }),
    ]);
    expect(await runCount(page)).toBe(before + 2);

    await page.goto(`${session.url}/#/evaluate`);
    await page.getByTestId('import-run-input').setInputFiles({ name: 'cut.zip', mimeType: 'application/zip', buffer: zip.subarray(0, Math.floor(zip.length / 2)) });
    await page.getByTestId('import-run-error').waitFor();
    expect(await page.getByTestId('import-run-error').textContent()).toMatch(/^cut\.zip: is not a zip archive this site can read/);
    expect(await runCount(page)).toBe(before + 2);
  });

  it('a stock samples file alone whose docs are not this browser\'s ACLUE items is refused, naming the item', async () => {
    const { page } = session.opened;
    await page.goto(`${session.url}/#/evaluate`);
    const before = await runCount(page);
    // The fixture's docs are invented questions; its doc_id 0 is matched to the stored 古文单字多义/test/0.
    await page.getByTestId('import-run-input').setInputFiles(join(projectRoot, 'test', 'fixtures', 'lm-eval', 'samples_aclue_polysemy_resolution_2025-01-02T03-04-05.678901.jsonl'));
    await page.getByTestId('import-run-error').waitFor();
    expect(await page.getByTestId('import-run-error').textContent()).toMatch(/^samples_aclue_polysemy_resolution_.*\.jsonl: line \d+: the sample's doc is not the stored item "古文单字多义\/test\/\d" \(its question differs\)/);
    expect(await runCount(page)).toBe(before);
  });

  it('tampered, truncated, mismatched-doc and group files each give their own message, and nothing is stored', async () => {
    const { page } = session.opened;
    await page.goto(`${session.url}/#/evaluate`);
    const before = await runCount(page);
    const cases: { what: string; files: () => HarnessFile[]; message: RegExp }[] = [
      {
        what: 'tampered',
        files: () => {
          const h = harnessFiles(own.run, own.results, items);
          const files = asFiles(h);
          // A log-likelihood changed after the fact and the line's prompt hash with it: task_hashes no longer matches.
          const first = [...h.samples.values()][0];
          first[0].prompt_hash = sha('another prompt');
          return [files[0], ...asFiles(h, false).slice(1)];
        },
        message: /^samples_jiangu_aclue_0shot_\w+_[\dT.-]+\.jsonl: the samples of "jiangu_aclue_0shot_\w+" are not the ones the results file was written with/,
      },
      {
        what: 'truncated',
        files: () => {
          const files = asFiles(harnessFiles(own.run, own.results, items));
          const text = files[1].buffer.toString('utf8');
          files[1] = { ...files[1], buffer: Buffer.from(text.slice(0, text.length - 30)) };
          return files;
        },
        message: /\.jsonl: line 3: the file ends in the middle of a sample \(after 2 whole ones\); it was cut short/,
      },
      {
        what: 'mismatched doc',
        files: () => {
          const h = harnessFiles(own.run, own.results, items);
          const s = [...h.samples.values()][1][1];
          s.doc = { ...s.doc, question: `${s.doc.question}（另一版）` };
          s.doc_hash = sha(pythonJsonIndent2(s.doc)!);
          return asFiles(h);
        },
        message: /\.jsonl: line 2: the sample's doc is not the stored item ".+" \(its question differs\)/,
      },
      {
        what: 'group of unknown tasks',
        files: () => {
          const h = harnessFiles(own.run, own.results, items);
          const renamed = new Map([...h.samples].map(([n, s]) => [n.replace('jiangu_aclue_0shot_', 'cmmlu_x_'), s]));
          const configs = Object.fromEntries(Object.entries(h.results.configs).map(([n, c]) => [n.replace('jiangu_aclue_0shot_', 'cmmlu_x_'), { ...(c as Json), metadata: { version: 1 } }]));
          return asFiles({ results: { ...h.results, configs, 'n-samples': {} }, samples: renamed });
        },
        message: /^results_.*\.json: none of its tasks is one this site reads \(cmmlu_x_\w+, cmmlu_x_\w+\)/,
      },
    ];
    const seen = new Set<string>();
    for (const c of cases) {
      await page.getByTestId('import-run-input').setInputFiles(c.files());
      const error = page.getByTestId('import-run-error');
      await error.waitFor();
      const text = (await error.textContent()) ?? '';
      expect(text, c.what).toMatch(c.message);
      expect(seen.has(text), c.what).toBe(false);
      seen.add(text);
      expect(page.url(), c.what).toMatch(/#\/evaluate$/);
      expect(await runCount(page), c.what).toBe(before);
    }
  });
});
