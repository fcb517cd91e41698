// Large or hostile inputs are refused before they are read whole (issue 22), each with a message in
// the page's language, the store as it was: a 953 MiB and a 4 GiB benchmark file on the Data page
// (sparse files: their size is all there is to them), a run file over the run file limit, and two zip
// bombs as lm-eval output (40 harness entries each stating 60 MiB, under the per-file limit; an
// entry whose header states 100 bytes and inflates to 64 MiB). A run file is read, parsed, checked
// and stored in the run-import worker, never on the page's thread. A benchmark file whose options
// repeat one another, or only look as if they do, is stored with a warning naming the items.
import { closeSync, mkdtempSync, openSync, writeFileSync, ftruncateSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { strToU8, zipSync, type Zippable } from 'fflate';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { withStatedSizes } from '../fixtures/zip-stated-sizes.ts';
import { useBrowserSession } from './session.ts';

const dir = mkdtempSync(join(tmpdir(), 'jiangu-hostile-'));
const MIB = 1024 * 1024;

/** A file of `bytes` bytes that takes no disk: a hole. */
function sparse(name: string, bytes: number): string {
  const path = join(dir, name);
  const fd = openSync(path, 'w');
  ftruncateSync(fd, bytes);
  closeSync(fd);
  return path;
}


/** Counts of what is stored: datasets, items, runs, results. */
async function storeCounts(page: Page): Promise<Record<string, number>> {
  return page.evaluate(async () => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const r = indexedDB.open('jiangu');
      r.onsuccess = () => resolve(r.result);
      r.onerror = () => reject(r.error);
    });
    const count = (store: string) =>
      new Promise<number>((resolve, reject) => {
        const r = db.transaction(store).objectStore(store).count();
        r.onsuccess = () => resolve(r.result);
        r.onerror = () => reject(r.error);
      });
    const out = { datasets: await count('datasets'), items: await count('items'), runs: await count('runs'), results: await count('results') };
    db.close();
    return out;
  });
}

describe('large and hostile inputs', () => {
  const session = useBrowserSession({ webgpu: false, path: '/#/data' });
  const workers: string[] = [];

  it('a benchmark file of 953 MiB or 4 GiB is refused from its size, in either language, the sample still stored', async () => {
    const { page } = session.opened;
    page.on('worker', (w) => workers.push(w.url()));
    await page.locator('[data-testid=catalog][data-loaded=true]').waitFor();
    await page.getByTestId('import-sample').click();
    await page.locator('[data-testid=dataset-ancientbench][data-stored=yes]').waitFor();
    const before = await storeCounts(page);
    // The sample's import used the import worker: only what comes after counts.
    workers.length = 0;

    await page.getByTestId('import-kind').selectOption('ancientbench');
    await page.getByTestId('file-input').setInputFiles(sparse('huge.csv', 953 * MIB));
    const message = page.getByTestId('import-error');
    await message.waitFor();
    expect(await message.textContent()).toContain('huge.csv');
    expect(await message.textContent()).toContain('the file is 953 MiB, over the 64 MiB limit for one file');

    await page.getByTestId('lang-zh').click();
    await page.getByTestId('file-input').setInputFiles(sparse('4gib.csv', 4 * 1024 * MIB));
    await page.getByTestId('import-error').filter({ hasText: '4gib.csv' }).waitFor();
    expect(await page.getByTestId('import-error').textContent()).toContain('文件有 4096 MiB，超过了单个文件 64 MiB 的上限');
    await page.getByTestId('lang-en').click();
    // No page error: the shared guard (page-error-guard.ts) fails the test on any.
    // Refused on the page from File.size: no import worker was started for either.
    expect(workers.filter((url) => /\/import\.worker/.test(url))).toEqual([]);
    expect(await storeCounts(page)).toEqual(before);
  });

  it('a run file over the run file limit, and two zip bombs, are refused with their own messages, nothing stored', async () => {
    const { page } = session.opened;
    await page.goto(`${session.url}/#/evaluate`);
    const before = await storeCounts(page);
    const input = page.getByTestId('import-run-input');
    const error = page.getByTestId('import-run-error');

    await input.setInputFiles(sparse('run.json', 100 * MIB));
    await error.waitFor();
    expect(await error.textContent()).toMatch(/^run\.json: the file is 100\.0 MiB; the most a run file may be is 64 MiB/);

    const forty: Zippable = {};
    for (let i = 0; i < 40; i++) forty[`out/m/samples_jiangu_aclue_0shot_t${i}_2026-01-01T00-00-00.000000.jsonl`] = strToU8('{}\n');
    writeFileSync(join(dir, 'forty.zip'), withStatedSizes(zipSync(forty), 60 * MIB));
    await input.setInputFiles(join(dir, 'forty.zip'));
    await error.filter({ hasText: 'forty.zip' }).waitFor();
    expect(await error.textContent()).toMatch(/^forty\.zip: the harness files in the zip archive would inflate to 2400\.0 MiB together, over the 256 MiB/);

    const entry = 'out/m/samples_jiangu_aclue_0shot_t0_2026-01-01T00-00-00.000000.jsonl';
    writeFileSync(join(dir, 'liar.zip'), withStatedSizes(zipSync({ [entry]: new Uint8Array(64 * MIB), 'out/m/results_2026-01-01T00-00-00.000000.json': strToU8('{}') }), 100, entry));
    await input.setInputFiles(join(dir, 'liar.zip'));
    await error.filter({ hasText: 'liar.zip' }).waitFor();
    expect(await error.textContent()).toMatch(/^samples_jiangu_aclue_0shot_t0_2026-01-01T00-00-00\.000000\.jsonl: this entry of liar\.zip says it is 100 bytes but inflates to more/);

    // In Chinese too.
    await page.getByTestId('lang-zh').click();
    expect(await error.textContent()).toContain('中的这个条目自称 100 字节，解压后却更大');
    await page.getByTestId('lang-en').click();
    // Each went to the run-import worker, none was read on the page.
    expect(workers.filter((url) => /run-import\.worker/.test(url)).length).toBeGreaterThanOrEqual(2);
    expect(await storeCounts(page)).toEqual(before);
  });

  it('a benchmark file whose options repeat one another is stored with a warning naming the items, in either language', async () => {
    const { page } = session.opened;
    await page.goto(`${session.url}/#/data`);
    await page.locator('[data-testid=catalog][data-loaded=true]').waitFor();
    const rows = ['task,question,A,B,C,D,answer,split,id', 'Radical,「江」的部首是？,氵,工,口,木,A,test,q1', 'Radical,「河」的部首是？,氵,氵,可,口,A,test,same-1', 'Radical,「林」的部首是？,木,林,木,林,A,test,same-2'];
    writeFileSync(join(dir, 'repeats.csv'), rows.join('\n') + '\n');
    await page.getByTestId('import-kind').selectOption('ancientbench');
    await page.getByTestId('file-input').setInputFiles(join(dir, 'repeats.csv'));
    // The sample is stored: replacing it is asked first.
    await page.getByTestId('replace-confirm').or(page.getByTestId('import-done')).first().waitFor();
    if (await page.getByTestId('replace-yes').count()) await page.getByTestId('replace-yes').click();
    const warning = page.getByTestId('import-identical-options');
    await warning.waitFor();
    const text = (await warning.textContent()) ?? '';
    expect(text).toMatch(/^Warning: 2 items have options with the same text/);
    expect(text).toMatch(/same-1 \(A, B\); \S*same-2 \(A, B, C, D\)/);
    await page.getByTestId('lang-zh').click();
    expect(await warning.textContent()).toContain('注意：有 2 道题的选项文字重复');
    await page.getByTestId('lang-en').click();
  });

  it('a benchmark file whose options look identical but differ in hidden characters or Unicode form is stored with the same warning', async () => {
    // Issue 46: each of these options shows as the same text, but no two are the same string, so
    // the warning, which compared strings, said nothing: a zero-width space, joiner and word joiner;
    // a CJK compatibility ideograph beside its unified form; é composed and decomposed; a doubled space.
    const { page } = session.opened;
    await page.goto(`${session.url}/#/data`);
    await page.locator('[data-testid=catalog][data-loaded=true]').waitFor();
    const rows = [
      'task,question,A,B,C,D,answer,split,id',
      'Radical,「江」的部首是？,氵,工,口,木,A,test,plain',
      'Radical,「河」的部首是？,氵,氵\u200b,\u2060氵,氵\u200d,A,test,hidden',
      'Radical,「豈」是？,\uf900,\u8c48,口,木,A,test,compat',
      'Radical,「林」是？,\u00e9,e\u0301,木 木,木  木,A,test,forms',
    ];
    writeFileSync(join(dir, 'look-alike.csv'), rows.join('\n') + '\n');
    await page.getByTestId('import-kind').selectOption('ancientbench');
    await page.getByTestId('file-input').setInputFiles(join(dir, 'look-alike.csv'));
    await page.getByTestId('replace-confirm').or(page.getByTestId('import-done')).first().waitFor();
    if (await page.getByTestId('replace-yes').count()) await page.getByTestId('replace-yes').click();
    await page.getByTestId('import-done').waitFor();
    expect(await page.getByTestId('import-done').textContent()).toBe('Stored 4 items.');
    const warning = page.getByTestId('import-identical-options');
    expect(await warning.count()).toBe(1);
    expect(await warning.textContent()).toBe(
      'Warning: 3 items have options with the same text, which no reading can tell apart: hidden (A, B, C, D); compat (A, B); forms (A, B, C, D). They are stored as the file has them; check the file, or leave their tasks out of a run.',
    );
    await page.getByTestId('lang-zh').click();
    expect(await warning.textContent()).toBe('注意：有 3 道题的选项文字重复，读题也无法区分：hidden (A、B、C、D)；compat (A、B)；forms (A、B、C、D)。已按文件原样存储；请检查文件，或在评测时不选这些任务。');
    await page.getByTestId('lang-en').click();
  });
});
