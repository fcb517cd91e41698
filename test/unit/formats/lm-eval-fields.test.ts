// The lm-eval format's field classes (fields/lm-eval.ts) against what lm-evaluation-harness writes (the
// CLI fixtures of test/fixtures/lm-eval, written as the harness writes them, and a dumped
// simple_evaluate dict): every field of those files has a class, and changing any field alone is
// either refused naming it, or leaves every number the pages show equal to the untouched files'.
import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LM_EVAL_FIELDS } from '../../../src/lib/core/formats/fields/lm-eval.ts';
import { readLmEvalFiles, type HarnessFileText } from '../../../src/lib/core/formats/lm-eval/import/lm-eval-files.ts';
import { parseRunFile } from '../../../src/lib/core/formats/import-record.ts';
import type { ImportedRun } from '../../../src/lib/core/formats/import-validate.ts';
import type { RunImportError } from '../../../src/lib/core/formats/import-validate.ts';
import { entryOf, mutateAll, shown, walk, type Json, type Naming, type Steps } from './mutate.ts';

const table = LM_EVAL_FIELDS;
const FIXTURES = 'test/fixtures/lm-eval';
const IMPORTED_AT = '2026-01-01T00:00:00.000Z';

/** Top-level fields of a results file whose keys are task (or group) names. */
const BY_TASK = new Set(['results', 'configs', 'versions', 'n-shot', 'n-samples', 'task_hashes', 'samples', 'higher_is_better', 'groups', 'group_subtasks']);

/** `results.aclue_x.acc,none` → `results.<task>.acc,none`; list positions as `[*]`. */
function general(path: string): string {
  const g = path.replace(/\[\d+\]/g, '[*]');
  const dot = g.indexOf('.');
  if (dot < 0 || !BY_TASK.has(g.slice(0, dot))) return g;
  const rest = g.slice(dot + 1);
  const end = rest.search(/[.[]/);
  return `${g.slice(0, dot)}.<task>${end < 0 ? '' : rest.slice(end)}`;
}

/** A harness output folder as one JSON value: the results file's root and each task's sample lines. */
interface Folder {
  results: Json;
  samples: Record<string, Json[]>;
}

function folder(name: string): { folder: Folder; dateId: string } {
  const files = readdirSync(`${FIXTURES}/${name}`);
  const resultsName = files.find((f) => f.startsWith('results_'))!;
  const dateId = /^results_(.+)\.json$/.exec(resultsName)![1];
  const samples: Record<string, Json[]> = {};
  for (const f of files.filter((f) => f.startsWith('samples_'))) {
    const task = f.slice('samples_'.length, -`_${dateId}.jsonl`.length);
    samples[task] = readFileSync(`${FIXTURES}/${name}/${f}`, 'utf8').split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l) as Json);
  }
  return { folder: { results: JSON.parse(readFileSync(`${FIXTURES}/${name}/${resultsName}`, 'utf8')) as Json, samples }, dateId };
}

function files(f: Folder, dateId: string): HarnessFileText[] {
  return [
    { name: `results_${dateId}.json`, text: JSON.stringify(f.results, null, 2) },
    ...Object.entries(f.samples).map(([task, lines]) => ({ name: `samples_${task}_${dateId}.jsonl`, text: `${lines.map((l) => JSON.stringify(l)).join('\n')}\n` })),
  ];
}

/** The table path of a place in a Folder (the samples of task T, line i + 1, are `samples.T[i]`). */
function folderPlace(steps: Steps): string {
  const [top, ...rest] = steps;
  const tail = (s: Steps) => s.map((x) => (typeof x === 'number' ? `[${x}]` : `.${x}`)).join('');
  return top === 'results' ? tail(rest).slice(1) : `samples${tail(rest)}`;
}

/** A refusal's place as a table path: `line 4: filtered_resps[1]` of samples_T_….jsonl is `samples.T[3].filtered_resps[1]`. */
function refusalPlace(error: RunImportError): string | null {
  const params = error.refusal.params as Record<string, unknown>;
  const task = /^samples_(.+?)_\d{4}-/.exec(error.fileName)?.[1];
  if (error.refusal.code === 'import.lm-eval-tampered') return `task_hashes.${String(params.task)}`;
  if (error.refusal.code === 'import.lm-eval-truncated') return `n-samples.${String(params.task)}.effective`;
  if (typeof params.path !== 'string') return null;
  const line = /^line (\d+):? ?(.*)$/.exec(params.path);
  if (line && task) {
    const rest = line[2].replace(/ \(prompt\)$/, '').replace(/ \(max_length\)$/, '');
    return `samples.${task}[${Number(line[1]) - 1}]${rest === '' ? '' : rest.startsWith('[') ? rest : `.${rest}`}`;
  }
  return params.path.replace(/ \(max_length\)$/, '');
}

const NAMING: Naming = { at: refusalPlace, general };

/** What the pages show of the runs read: each run's numbers, and what the origin says the harness stated. */
function shownRuns(runs: unknown): unknown {
  return (runs as ImportedRun[]).map((r) => {
    const { storedSummary, summaryMismatches, harnessTasks, harnessLimit } = r.run.origin!;
    // The task versions are shown as the file writes them (text): not among the numbers.
    const origin = { storedSummary, summaryMismatches, tasks: harnessTasks?.map((t) => t.name), harnessLimit };
    const c = r.run.config;
    return { shown: shown(r), origin, contextLimit: c.kind === 'multiple-choice' ? c.contextLimit : null, limitPerTask: c.limitPerTask, shots: c.kind === 'multiple-choice' ? c.shots : null };
  });
}

describe('the lm-eval field table', () => {
  it('classes every field the harness writes', () => {
    const missing = new Set<string>();
    for (const name of ['cli-aclue-stock', 'cli-jiangu-aclue', 'cli-cmmlu-group', 'cli-jiangu-c3bench']) {
      const { folder: f } = folder(name);
      for (const steps of walk(f as unknown as Json).leaves) {
        const place = folderPlace(steps);
        if (entryOf(table, place, general) === null) missing.add(general(place));
      }
    }
    const dump = JSON.parse(readFileSync(`${FIXTURES}/aclue-two-tasks.json`, 'utf8')) as Json;
    for (const steps of walk(dump).leaves) {
      const place = steps.map((x, i) => (typeof x === 'number' ? `[${x}]` : i === 0 ? x : `.${x}`)).join('');
      if (entryOf(table, place, general) === null) missing.add(general(place));
    }
    expect([...missing]).toEqual([]);
  });

  it('names only fields the harness writes (each entry is a field of one of its files)', () => {
    const leaves = new Set<string>();
    for (const name of ['cli-aclue-stock', 'cli-jiangu-aclue', 'cli-cmmlu-group', 'cli-jiangu-c3bench']) {
      for (const steps of walk(folder(name).folder as unknown as Json).leaves) leaves.add(general(folderPlace(steps)));
    }
    for (const steps of walk(JSON.parse(readFileSync(`${FIXTURES}/aclue-two-tasks.json`, 'utf8')) as Json).leaves) {
      leaves.add(general(steps.map((x, i) => (typeof x === 'number' ? `[${x}]` : i === 0 ? x : `.${x}`)).join('')));
    }
    // Written only by a task whose metric_list asks for it (Jiangu's cloze export): lm_eval/api/task.py process_results.
    const elsewhere = new Set(['samples.<task>[*].acc_bytes']);
    const unseen = Object.keys(table).filter((key) => !elsewhere.has(key) && ![...leaves].some((leaf) => leaf === key || (key.endsWith('.*') && leaf.startsWith(key.slice(0, -1)))));
    expect(unseen).toEqual([]);
  });
});

describe('an lm-eval results file and its samples files changed one field at a time', () => {
  it('are refused naming the field, or show the numbers of the untouched files', async () => {
    const { folder: f, dateId } = folder('cli-aclue-stock');
    const { failures, refused, harmless } = await mutateAll({
      root: f as unknown as Json,
      table,
      naming: NAMING,
      place: folderPlace,
      read: (next) => readLmEvalFiles(files(next as unknown as Folder, dateId), IMPORTED_AT),
      shown: shownRuns,
      // A results file configures the tasks; the samples of a task are as many as it wrote (n-samples checks them).
      rawLength: (place) => /^samples\.[^.[]+$/.test(place),
    });
    expect(failures).toEqual([]);
    expect(refused).toBeGreaterThan(100);
    expect(harmless).toBeGreaterThan(0);
  }, 300_000);

  it('log-likelihoods of −1e308 and a stated accuracy of 1e306 are refused naming the field', async () => {
    const { folder: f, dateId } = folder('cli-aclue-stock');
    const task = Object.keys(f.samples)[0];
    const low = structuredClone(f);
    ((low.samples[task][0] as Record<string, Json>).filtered_resps as Json[][])[1][0] = '-1e308';
    await expect(readLmEvalFiles(files(low, dateId), IMPORTED_AT)).rejects.toMatchObject({ refusal: { params: { path: 'line 1: filtered_resps[1]', expected: 'finite', min: -131072 * 18 } } });
    const stated = structuredClone(f);
    ((stated.results as Record<string, Record<string, Record<string, Json>>>).results[task])['acc,none'] = 1e306;
    await expect(readLmEvalFiles(files(stated, dateId), IMPORTED_AT)).rejects.toMatchObject({ refusal: { params: { path: `results.${task}.acc,none`, expected: 'finite', max: 1 } } });
  });
});

describe('a dumped results dict', () => {
  it('names the tasks it configured or scored but holds no samples of', async () => {
    const dump = JSON.parse(readFileSync(`${FIXTURES}/aclue-two-tasks.json`, 'utf8')) as { samples: Record<string, unknown> };
    const [kept, dropped] = Object.keys(dump.samples);
    delete dump.samples[dropped];
    const imported = await parseRunFile(JSON.stringify(dump), 'aclue-two-tasks.json');
    expect(imported.run.config.tasks).toHaveLength(1);
    const warning = imported.run.warnings.find((w) => typeof w !== 'string' && w.code === 'import.lm-eval-tasks-without-samples');
    expect(warning).toMatchObject({ params: { tasks: [dropped], more: 0 } });
    expect(kept).not.toBe(dropped);
    // With every task's samples, nothing is said.
    const whole = await parseRunFile(readFileSync(`${FIXTURES}/aclue-two-tasks.json`, 'utf8'), 'aclue-two-tasks.json');
    expect(whole.run.warnings.some((w) => typeof w !== 'string' && w.code === 'import.lm-eval-tasks-without-samples')).toBe(false);
  });
});
