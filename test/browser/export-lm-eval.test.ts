// The Evaluate page's lm-evaluation-harness export in Chromium: the zip it downloads, made from the
// AncientBench sample stored in real IndexedDB, holds exactly the folder the Node export writes from
// the same file (every file byte for byte), and python3 renders its prompts as the harness would.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { strFromU8, unzipSync } from 'fflate';
import { afterAll, describe, expect, it } from 'vitest';
import type { Download } from 'playwright-core';
import { buildDefines } from '../../scripts/build-info.ts';
import { projectRoot } from '../../scripts/site-routes.ts';
import { adaptAncientBench } from '../../src/lib/core/benchmarks/adapters/index.ts';
import { exportLmEval, type LmEvalSample } from '../../src/lib/core/formats/lm-eval/export/folder.ts';
import { readStoredRun, startFixtureRun, waitForStatus } from './runs.ts';
import { useBrowserSession } from './session.ts';

const sample = readFileSync(join(projectRoot, 'public', 'samples', 'ancientbench-sample.csv'));
const work = mkdtempSync(join(tmpdir(), 'jiangu-export-zip-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

async function bytesOf(download: Download): Promise<Uint8Array> {
  const stream = await download.createReadStream();
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return new Uint8Array(Buffer.concat(chunks));
}

describe('Export for lm-evaluation-harness (Evaluate page)', () => {
  const session = useBrowserSession({ webgpu: false, path: '/#/data' });

  it('downloads the AncientBench sample, 5-shot, as the Node export writes it', async () => {
    const page = session.opened.page;
    await page.locator('[data-testid=catalog][data-loaded=true]').waitFor();
    await page.getByTestId('import-sample').click();
    await page.locator('[data-testid=dataset-ancientbench][data-stored=yes]').waitFor();
    await page.goto(`${session.url}/#/evaluate`);
    await page.getByTestId('eval-dataset').waitFor();
    await page.getByTestId('eval-dataset').selectOption('ancientbench');
    await page.getByTestId('eval-shots').selectOption('5');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-lm-eval').click()]);
    expect(download.suggestedFilename()).toBe('jiangu_ancientbench_5shot.zip');
    const zipped = unzipSync(await bytesOf(download));

    // The page's version is the build's; the data file is the sample, under the name the page stored.
    const defines = buildDefines();
    const appVersion = `${JSON.parse(defines.__APP_VERSION__) as string}+${JSON.parse(defines.__GIT_COMMIT__) as string}`;
    const firstYaml = strFromU8(zipped['jiangu_ancientbench_5shot/jiangu_ancientbench_5shot_radical.yaml']);
    expect(firstYaml).toContain(`app: ${JSON.stringify(appVersion)}`);
    const stored = /dataFiles:\n\s+("[^"]+"): "([0-9a-f]{64})"/.exec(firstYaml);
    expect(stored?.[2]).toBe(createHash('sha256').update(sample).digest('hex'));
    const path = JSON.parse(stored![1]) as string;

    const items = adaptAncientBench([{ path, bytes: new Uint8Array(sample) }]).items;
    const expected = await exportLmEval({ datasetId: 'ancientbench', items, files: [{ path, sha256: stored![2], bytes: sample.length }], shots: 5, appVersion });
    expect(Object.keys(zipped).sort()).toEqual(expected.files.map((file) => `jiangu_ancientbench_5shot/${file.path}`).sort());
    for (const file of expected.files) expect(strFromU8(zipped[`jiangu_ancientbench_5shot/${file.path}`]), file.path).toBe(file.text);

    // And the unzipped folder loads in Python as the harness loads it: 30 test items, each a request.
    const folder = join(work, 'jiangu_ancientbench_5shot');
    mkdirSync(folder);
    for (const [name, bytes] of Object.entries(zipped)) writeFileSync(join(work, name), bytes);
    const lines = execFileSync('python3', [join(projectRoot, 'test/unit/export/render_lm_eval.py'), folder], { encoding: 'utf8' })
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { kind: string });
    expect(lines.filter((line) => line.kind === 'request')).toHaveLength(30);
  });

  it('with Circular evaluation ticked, downloads the circular folder the Node export writes', async () => {
    const page = session.opened.page;
    await page.getByTestId('eval-shots').selectOption('0');
    await page.getByTestId('eval-circular').check();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-lm-eval').click()]);
    expect(download.suggestedFilename()).toBe('jiangu_ancientbench_0shot_circular.zip');
    const zipped = unzipSync(await bytesOf(download));
    const firstYaml = strFromU8(zipped['jiangu_ancientbench_0shot_circular/jiangu_ancientbench_0shot_circular_radical.yaml']);
    const stored = /dataFiles:\n\s+("[^"]+"): "([0-9a-f]{64})"/.exec(firstYaml);
    const path = JSON.parse(stored![1]) as string;
    const app = /app: ("[^"]+")/.exec(firstYaml)![1];
    const items = adaptAncientBench([{ path, bytes: new Uint8Array(sample) }]).items;
    const expected = await exportLmEval({ datasetId: 'ancientbench', items, files: [{ path, sha256: stored![2], bytes: sample.length }], shots: 0, appVersion: JSON.parse(app) as string, circular: true });
    expect(Object.keys(zipped).sort()).toEqual(expected.files.map((file) => `jiangu_ancientbench_0shot_circular/${file.path}`).sort());
    for (const file of expected.files) expect(strFromU8(zipped[`jiangu_ancientbench_0shot_circular/${file.path}`]), file.path).toBe(file.text);
    expect(strFromU8(zipped['jiangu_ancientbench_0shot_circular/jiangu_ancientbench_0shot_circular_radical.jsonl'])).toContain('"jiangu_rotation":3');
  });

  it('exports only the chosen tasks and items per task, and from a run’s page that run’s own items', async () => {
    const page = session.opened.page;
    await page.getByTestId('eval-circular').uncheck();
    const firstYaml = async (zipped: Record<string, Uint8Array>) => strFromU8(zipped[Object.keys(zipped).find((k) => k.endsWith('.yaml') && !k.includes('/_'))!]);
    /** The folder the Node export writes for these item ids, from the same sample file, against the zip. */
    async function expectExportOf(zipped: Record<string, Uint8Array>, top: string, itemIds: string[], sampled?: LmEvalSample) {
      const yaml = await firstYaml(zipped);
      const stored = /dataFiles:\n\s+("[^"]+"): "([0-9a-f]{64})"/.exec(yaml)!;
      const app = JSON.parse(/app: ("[^"]+")/.exec(yaml)![1]) as string;
      const items = adaptAncientBench([{ path: JSON.parse(stored[1]) as string, bytes: new Uint8Array(sample) }]).items;
      const expected = await exportLmEval({ datasetId: 'ancientbench', items, files: [{ path: JSON.parse(stored[1]) as string, sha256: stored[2], bytes: sample.length }], shots: 0, appVersion: app, itemIds, ...(sampled ? { sample: sampled } : {}) });
      expect(Object.keys(zipped).sort()).toEqual(expected.files.map((file) => `${top}/${file.path}`).sort());
      for (const file of expected.files) expect(strFromU8(zipped[`${top}/${file.path}`]), file.path).toBe(file.text);
      return expected;
    }
    const items = adaptAncientBench([{ path: 'x.csv', bytes: new Uint8Array(sample) }]).items;
    const tasks = [...new Set(items.filter((i) => i.split === 'test').map((i) => i.task))].slice(0, 2);
    // Two tasks, one item each: the first test item of each, in file order (the choice named for
    // matching `lm_eval --limit`; a random sample is the default), as a run would ask them.
    await page.getByTestId('eval-sample-first').check();
    await page.getByRole('button', { name: 'none' }).click();
    for (const task of tasks) await page.locator(`input[type=checkbox][value="${task}"]`).check();
    await page.getByTestId('eval-limit').fill('1');
    expect(await page.getByTestId('export-lm-eval').locator('xpath=..').textContent()).toContain('The 2 chosen test items, 0-shot');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-lm-eval').click()]);
    const chosen = tasks.map((task) => items.find((i) => i.task === task && i.split === 'test')!.id);
    const zipped = unzipSync(await bytesOf(download));
    const expected = await expectExportOf(zipped, 'jiangu_ancientbench_0shot', chosen);
    expect(expected.tasks.map((t) => [t.task, t.docs])).toEqual(tasks.map((task) => [task, 1]));

    // A run's page exports that run's items (here the run of those two tasks, two items each).
    const runId = await startFixtureRun(page, { dataset: 'ancientbench', shots: 0, limit: 2, tasks });
    await waitForStatus(page, 'completed');
    const { run } = await readStoredRun(page, runId);
    expect(run.config.itemIds).toHaveLength(4);
    expect(await page.getByTestId('export-lm-eval-run').locator('xpath=..').textContent()).toContain('The 4 chosen test items, 0-shot');
    const [fromRun] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-lm-eval-run').click()]);
    // A sampled run (issue 36): every test item of its tasks, and jiangu_samples.json naming its own 4 for `lm_eval --samples`.
    const c = run.config;
    const runZip = unzipSync(await bytesOf(fromRun));
    const runExport = await expectExportOf(runZip, 'jiangu_ancientbench_0shot', c.itemIds, { sampling: c.sampling!, limitPerTask: c.limitPerTask, itemIds: c.itemIds, tasks: c.tasks });
    expect(runExport.tasks.reduce((n, t) => n + t.docs, 0)).toBe(items.filter((i) => i.split === 'test' && tasks.includes(i.task)).length);
    const named = JSON.parse(strFromU8(runZip['jiangu_ancientbench_0shot/jiangu_samples.json'])) as Record<string, number[]>;
    expect(Object.values(named).reduce((n, lines) => n + lines.length, 0)).toBe(4);
  });
});
