// The Data page in Chromium with real IndexedDB: download through the mirror with progress, survive a
// reload, import the AncientBench sample and C3Bench-shaped files through the mapping step, and
// refuse every bad input with a message and the store exactly as it was.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page, Route } from 'playwright-core';
import { projectRoot } from '../../scripts/site-routes.ts';
import { bigAncientBenchCsv } from './big-ancientbench.ts';
import { useBrowserSession } from './session.ts';
import { storeSample } from './runs.ts';

const sample = readFileSync(join(projectRoot, 'public', 'samples', 'ancientbench-sample.csv'));
const c3Fixtures = join(projectRoot, 'test', 'fixtures', 'c3bench');
const ACLUE_ITEMS = 4966 + 75;

const card = (page: Page, id: string) => page.getByTestId(`dataset-${id}`);
/** A card's "Stored: …" line with its whitespace collapsed. */
const storedText = async (page: Page, id: string) => ((await card(page, id).getByTestId('stored').textContent()) ?? '').replace(/\s+/g, ' ');

/** Every stored record and, per dataset, a digest of its items, read with the raw IndexedDB API. */
async function storeSnapshot(page: Page): Promise<string> {
  return page.evaluate(async () => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open('jiangu');
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    const all = <T,>(store: string) =>
      new Promise<T[]>((resolve, reject) => {
        const request = db.transaction(store).objectStore(store).getAll();
        request.onsuccess = () => resolve(request.result as T[]);
        request.onerror = () => reject(request.error);
      });
    const records = await all<{ id: string }>('datasets');
    const items = await all<{ datasetId: string; id: string }>('items');
    db.close();
    const perDataset: Record<string, { count: number; length: number }> = {};
    for (const item of items) {
      const entry = (perDataset[item.datasetId] ??= { count: 0, length: 0 });
      entry.count++;
      entry.length += JSON.stringify(item).length;
    }
    return JSON.stringify({ records, perDataset });
  });
}

async function importFile(page: Page, kind: 'ancientbench' | 'c3bench', name: string, buffer: Buffer) {
  await page.getByTestId('import-kind').selectOption(kind);
  await page.getByTestId('file-input').setInputFiles({ name, mimeType: 'application/octet-stream', buffer });
}

async function importError(page: Page): Promise<string> {
  const error = page.getByTestId('import-error');
  await error.waitFor();
  return (await error.textContent()) ?? '';
}

describe('Data page', () => {
  const session = useBrowserSession({ webgpu: false, path: '/#/data' });
  let page: Page;
  const open = async () => {
    page = session.opened.page;
    await page.goto(`${session.url}/?mirror=${encodeURIComponent(`${session.url}/mirror`)}#/data`);
    await page.locator('[data-testid=catalog][data-loaded=true]').waitFor();
  };

  it('downloads ACLUE through the mirror with progress, and still has it after a reload', async () => {
    await open();
    // Slow the mirror down a little so the progress bar is there to be seen.
    await page.route('**/mirror/aclue/**', async (route) => {
      await new Promise((r) => setTimeout(r, 60));
      await route.continue();
    });
    await card(page, 'aclue').getByTestId('download').click();
    const progress = card(page, 'aclue').getByTestId('download-progress');
    await expect.poll(() => progress.textContent()).toMatch(/[1-9]\d* \/ 30 files · [\d.]+ [kKM]B of 1\.7 MB/);
    await page.locator('[data-testid=dataset-aclue][data-stored=yes]').waitFor({ timeout: 60_000 });
    await page.unroute('**/mirror/aclue/**');
    expect(await storedText(page, 'aclue')).toContain(`${ACLUE_ITEMS.toLocaleString('en')} items in 15 tasks`);

    await page.reload();
    await page.locator('[data-testid=catalog][data-loaded=true]').waitFor();
    expect(await card(page, 'aclue').getAttribute('data-stored')).toBe('yes');
    const snapshot = JSON.parse(await storeSnapshot(page)) as { perDataset: Record<string, { count: number }>; records: { id: string; commit: string; files: unknown[] }[] };
    expect(snapshot.perDataset.aclue.count).toBe(ACLUE_ITEMS);
    const record = snapshot.records.find((r) => r.id === 'aclue')!;
    expect(record.commit).toBe('c05ab433d9b0709a77dfc2aeebdf1f0d0c615153');
    expect(record.files).toHaveLength(30);
  });

  it('imports the AncientBench sample (CSV, with a BOM, and as JSON Lines)', async () => {
    await open();
    await page.getByTestId('import-sample').click();
    await page.locator('[data-testid=dataset-ancientbench][data-stored=yes]').waitFor();
    expect(await storedText(page, 'ancientbench')).toContain('80 items in 10 tasks');

    // Other bytes than the stored file's: the page asks before replacing it.
    const withBom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), sample]);
    await importFile(page, 'ancientbench', 'with-bom.csv', withBom);
    await page.getByTestId('replace-yes').click();
    await page.getByTestId('import-done').waitFor();
    expect(await storedText(page, 'ancientbench')).toContain('80 items in 10 tasks, from with-bom.csv');

    await importFile(page, 'ancientbench', 'ancientbench-sample.jsonl', readFileSync(join(projectRoot, 'public', 'samples', 'ancientbench-sample.jsonl')));
    await page.getByTestId('replace-yes').click();
    await expect.poll(() => storedText(page, 'ancientbench')).toContain('from ancientbench-sample.jsonl');
  });

  it('imports C3Bench-shaped files through the field mapping step', async () => {
    await open();
    await importFile(page, 'c3bench', 'alt-names.json', readFileSync(join(c3Fixtures, 'alt-names.json')));
    const mapping = page.getByTestId('c3-mapping');
    await mapping.waitFor();
    expect(await page.getByTestId('role-text').inputValue()).toBe('文言文');
    expect(await page.getByTestId('role-translation').inputValue()).toBe('白话文');
    // The user may change the mapping: without translations no translation items are made.
    await page.getByTestId('role-translation').selectOption('');
    expect(await page.getByTestId('c3-preview').textContent()).not.toContain('translation');
    await page.getByTestId('role-translation').selectOption('白话文');
    expect(await page.getByTestId('c3-preview').textContent()).toContain('translation');
    await page.getByTestId('c3-import').click();
    await page.locator('[data-testid=dataset-c3bench][data-stored=yes]').waitFor();
    const stored = JSON.parse(await storeSnapshot(page)) as { records: { id: string; fieldMapping?: Record<string, string> }[] };
    expect(stored.records.find((r) => r.id === 'c3bench')?.fieldMapping).toMatchObject({ text: '文言文', translation: '白话文' });

    // The flat shape is detected on its own, and the remembered mapping does not get in its way.
    await importFile(page, 'c3bench', 'flat.json', readFileSync(join(c3Fixtures, 'flat.json')));
    await mapping.waitFor();
    expect(await page.getByTestId('role-text').inputValue()).toBe('classical_Chinese');
    await page.getByTestId('c3-import').click();
    // Another file than the stored one: the page asks before replacing it.
    await page.getByTestId('replace-yes').click();
    await expect.poll(() => storedText(page, 'c3bench')).toContain('from flat.json');
  });

  it('refuses every bad input with a message that names it, leaving the store unchanged', async () => {
    await open();
    const before = await storeSnapshot(page);
    const header = 'task,question,A,B,C,D,answer,split,id\n';
    const files: [string, string | Buffer, RegExp][] = [
      ['empty.csv', '', /empty\.csv.*empty/i],
      ['latin1.csv', Buffer.concat([Buffer.from(header), Buffer.from([0x52, 0x61, 0xe9, 0x0a])]), /latin1\.csv.*UTF-8/],
      ['header.csv', 'task,question,A,B,C,answer\nRadical,q,a,b,c,A\n', /header\.csv.*(D|header)/],
      ['short.csv', `${header}Radical,「江」的部首是？,氵,工\n`, /short\.csv, line 2/],
      ['letter.csv', `${header}Radical,q,a,b,c,d,E,test,x1\n`, /letter\.csv, line 2, field "answer".*"E"/],
      ['dupes.csv', `${header}Radical,q,a,b,c,d,A,test,x1\nRadical,q2,a,b,c,d,B,test,x1\n`, /dupes\.csv.*x1.*(line 2|line 3)/],
    ];
    for (const [name, content, expected] of files) {
      await importFile(page, 'ancientbench', name, Buffer.from(content));
      expect(await importError(page), name).toMatch(expected);
    }
    await importFile(page, 'c3bench', 'bad-not-a-list.json', readFileSync(join(c3Fixtures, 'bad-not-a-list.json')));
    expect(await importError(page)).toMatch(/bad-not-a-list\.json.*list/);
    // A record without the mapped text field: the preview names it and the import is not offered.
    await importFile(page, 'c3bench', 'bad-missing-text.json', readFileSync(join(c3Fixtures, 'bad-missing-text.json')));
    await page.getByTestId('c3-mapping').waitFor();
    expect(await page.getByTestId('c3-preview').textContent()).toMatch(/record \d+: .*(text|field)/);
    expect(await page.getByTestId('c3-import').isDisabled()).toBe(true);
    await page.getByTestId('c3-mapping').getByRole('button', { name: 'Cancel' }).click();

    // Downloads that go wrong half way: the 10th file of ACLUE fails in four different ways.
    const tenth = '**/mirror/aclue/data/test/%E5%8F%A4%E6%96%87%E5%8D%95%E5%AD%97%E5%A4%9A%E4%B9%89.csv';
    const failures: [string, (route: Route) => Promise<void>, RegExp][] = [
      ['404', (route) => route.fulfill({ status: 404, body: 'gone' }), /answered 404/],
      ['network', (route) => route.abort('connectionreset'), /Could not reach .*古文单字多义\.csv|Could not reach/],
      ['hash', async (route) => {
        const response = await route.fetch();
        const body = Buffer.from(await response.body());
        body[body.length - 2] ^= 1;
        await route.fulfill({ response, body });
      }, /data\/test\/古文单字多义\.csv is not the pinned file: its sha256 is [0-9a-f]{64}, expected [0-9a-f]{64}/],
      ['too large', (route) => route.fulfill({ status: 200, body: Buffer.alloc(64 * 1024 * 1024 + 1) }), /over the 67\.1 MB limit/],
    ];
    for (const [label, handler, expected] of failures) {
      await page.route(tenth, handler);
      await card(page, 'aclue').getByTestId('download').click();
      const error = card(page, 'aclue').getByTestId('dataset-error');
      await error.waitFor({ timeout: 60_000 });
      expect(await error.textContent(), label).toMatch(expected);
      await page.unroute(tenth);
    }

    // A full disk: the browser refuses a write part-way through the import. The import worker
    // writes; it waits (holding the adapted items) while the page asks about replacing the stored copy.
    await page.getByTestId('import-sample').click();
    await page.getByTestId('replace-confirm').waitFor();
    const worker = page.workers().find((w) => /import\.worker/.test(w.url()));
    expect(worker).toBeDefined();
    await worker!.evaluate(() => {
      const put = IDBObjectStore.prototype.put;
      let calls = 0;
      IDBObjectStore.prototype.put = function (this: IDBObjectStore, ...args: Parameters<IDBObjectStore['put']>) {
        if (++calls === 40) throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
        return put.apply(this, args);
      };
    });
    await page.getByTestId('replace-yes').click();
    const full = await importError(page);
    expect(full).toMatch(/Not enough browser storage to save AncientBench .*needs about [\d.]+ [kKM]B/);
    expect(full).toMatch(/Delete a stored dataset to make room: .*ACLUE \(aclue, about [\d.]+ MB\)/);

    await page.reload();
    await page.locator('[data-testid=catalog][data-loaded=true]').waitFor();
    expect(await storeSnapshot(page)).toBe(before);
  });
});

describe('Data page, dropping and deleting', () => {
  const session = useBrowserSession({ webgpu: false, path: '/#/data' });

  it('imports a file dropped on the drop zone, and deletes only that dataset', async () => {
    const { page } = session.opened;
    await storeSample(page);
    const text = readFileSync(join(c3Fixtures, 'flat.json'), 'utf8');
    await page.getByTestId('drop-zone').evaluate((zone, content) => {
      const transfer = new DataTransfer();
      transfer.items.add(new File([content], 'dropped.json', { type: 'application/json' }));
      zone.dispatchEvent(new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true }));
    }, text);
    await page.getByTestId('c3-mapping').waitFor(); // a .json file is taken as C3Bench
    await page.getByTestId('c3-import').click();
    await page.locator('[data-testid=dataset-c3bench][data-stored=yes]').waitFor();
    expect(await storedText(page, 'c3bench')).toContain('from dropped.json');

    await card(page, 'c3bench').getByTestId('delete').click();
    await card(page, 'c3bench').getByTestId('delete-yes').click(); // asked first (issue 34)
    await page.locator('[data-testid=dataset-c3bench][data-stored=no]').waitFor();
    const snapshot = JSON.parse(await storeSnapshot(page)) as { records: { id: string }[]; perDataset: Record<string, { count: number }> };
    expect(snapshot.records.map((r) => r.id)).toEqual(['ancientbench']);
    expect(Object.keys(snapshot.perDataset)).toEqual(['ancientbench']);
    expect(snapshot.perDataset.ancientbench.count).toBe(80);
  });
});

describe('Data page, refusals in both languages, replacing an import, other layouts, big files', () => {
  const session = useBrowserSession({ webgpu: false, path: '/#/data' });
  let page: Page;
  const header = 'task,question,A,B,C,D,answer,split,id\n';
  const ready = async () => {
    page = session.opened.page;
    await page.locator('[data-testid=catalog][data-loaded=true]').waitFor();
    await page.getByTestId('lang-en').click();
  };
  /** Each test starts from its own state: no AncientBench stored. */
  const clearAncientBench = async () => {
    if ((await card(page, 'ancientbench').getAttribute('data-stored')) === 'yes') {
      await card(page, 'ancientbench').getByTestId('delete').click();
      await card(page, 'ancientbench').getByTestId('delete-yes').click(); // asked first (issue 34)
    }
    await page.locator('[data-testid=dataset-ancientbench][data-stored=no]').waitFor();
  };
  /** The page's alerts that name `file`: an import's error shows once, in the import panel. */
  const alertsNaming = (file: string) => page.locator('[role=alert]', { hasText: file }).count();

  it("shows a refused import's error once, in the import panel (not on the dataset's card too)", async () => {
    await ready();
    await importFile(page, 'ancientbench', 'once.csv', Buffer.from(`${header}Radical,q,a,b,c,d,E,test,x1\n`));
    await importError(page);
    expect(await alertsNaming('once.csv')).toBe(1);
    expect(await card(page, 'ancientbench').locator('[role=alert]').count()).toBe(0);
  });

  it('words a refused file in 中文, naming file, line and field, once; a language switch rewords it', async () => {
    await ready();
    await page.getByTestId('lang-zh').click();
    await importFile(page, 'ancientbench', 'bad.csv', Buffer.from(`${header}Radical,q,a,b,c,d,A,test,x1\nRadical,q2,a,b,c,d,E,test,x2\n`));
    expect(await importError(page)).toBe('bad.csv，第 3 行，字段“answer”：应为字母 A–D，实为“E”');
    expect(await alertsNaming('bad.csv')).toBe(1);
    await page.getByTestId('lang-en').click();
    await expect.poll(() => page.getByTestId('import-error').textContent()).toBe('bad.csv, line 3, field "answer": expected a letter A–D, got "E"');
    // The page goes on: a good file imports after the refused one.
    await page.getByTestId('import-sample').click();
    await page.locator('[data-testid=dataset-ancientbench][data-stored=yes]').waitFor();
    expect(await page.getByTestId('import-done').textContent()).toBe('Stored 80 items.');
  });

  it('asks before a second AncientBench file replaces the first, naming what is stored and the runs made on it', async () => {
    await ready();
    await clearAncientBench();
    await page.getByTestId('import-sample').click();
    await page.locator('[data-testid=dataset-ancientbench][data-stored=yes]').waitFor();
    // A run made on the stored sample (only the fields that tie it to its data matter here).
    await page.evaluate(async () => {
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const request = indexedDB.open('jiangu');
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
      });
      const tx = db.transaction(['datasets', 'runs'], 'readwrite');
      const record = await new Promise<{ files: { path: string; sha256: string }[] }>((resolve) => {
        const request = tx.objectStore('datasets').get('ancientbench');
        request.onsuccess = () => resolve(request.result as { files: { path: string; sha256: string }[] });
      });
      const files = record.files.map(({ path, sha256 }) => ({ path, sha256 }));
      tx.objectStore('runs').put({ id: 'run-on-sample', datasetId: 'ancientbench', createdAt: '2026-11-30T08:00:00.000Z', config: { datasetFiles: files } });
      await new Promise((resolve) => (tx.oncomplete = resolve));
      db.close();
    });
    const before = await storeSnapshot(page);
    const mine = Buffer.from(`${header}Radical,「江」的部首是？,氵,工,冫,丶,A,test,m1\nRadical,「河」的部首是？,氵,可,口,丁,A,test,m2\nRadical,「湖」的部首是？,月,古,氵,口,C,test,m3\n`);
    await importFile(page, 'ancientbench', 'mine.csv', mine);
    const confirm = page.getByTestId('replace-confirm');
    await confirm.waitFor({ timeout: 30_000 });
    const asked = (await confirm.textContent()) ?? '';
    expect(asked).toMatch(/AncientBench is already stored: 80 items from http:\/\/127\.0\.0\.1:\d+\/samples\/ancientbench-sample\.csv/);
    expect(asked).toContain('1 run in this browser used it');
    expect(asked).toContain('Replace it with 3 items from mine.csv?');
    // Nothing is replaced while the question is open, nor when the user keeps the stored copy.
    expect(await storeSnapshot(page)).toBe(before);
    await page.getByTestId('replace-no').click();
    await confirm.waitFor({ state: 'detached' });
    expect(await storeSnapshot(page)).toBe(before);
    expect(await storedText(page, 'ancientbench')).toContain('80 items in 10 tasks');

    await importFile(page, 'ancientbench', 'mine.csv', mine);
    await confirm.waitFor({ timeout: 30_000 });
    await page.getByTestId('replace-yes').click();
    await expect.poll(() => storedText(page, 'ancientbench')).toContain('3 items in 1 task, from mine.csv');
  });

  it("reads a file in CMMLU's and ACLUE's layout named after its task, and lists every problem of one that is not", async () => {
    await ready();
    await clearAncientBench();
    const aclueLayout = 'Question,A,B,C,D,Answer\n「蚤」通哪个字？,早,骚,搔,爪,A\n「说」通哪个字？,悦,脱,税,述,A\n「反」通哪个字？,返,板,饭,贩,A\n';
    await importFile(page, 'ancientbench', '通假字.csv', Buffer.from(aclueLayout));
    await page.getByTestId('import-done').waitFor();
    expect(await storedText(page, 'ancientbench')).toContain('3 items in 1 task, from 通假字.csv');
    const stored = await storeSnapshot(page);
    expect(JSON.parse(stored).perDataset.ancientbench.count).toBe(3);

    // CMMLU's own layout (a leading index column) under a name that is no task, with bad rows too.
    const cmmlu = ',Question,A,B,C,D,Answer\n0,q1,a,b,c,d,E\n1,,a,b,c,d,A\n2,q3,a,,c,d,B\n';
    await importFile(page, 'ancientbench', 'ancient_chinese.csv', Buffer.from(cmmlu));
    const error = page.getByTestId('import-error');
    await error.waitFor();
    expect(await error.locator('p').textContent()).toMatch(/^ancient_chinese\.csv has 4 problems; nothing was stored/);
    const problems = await error.getByTestId('import-error-problems').locator('li').allTextContents();
    expect(problems).toHaveLength(4);
    expect(problems[0]).toMatch(/^ancient_chinese\.csv, line 1: this is CMMLU's and ACLUE's layout .*rename the file after its task .*or add a "task" column/);
    expect(problems.slice(1)).toEqual([
      'ancient_chinese.csv, line 2, field "Answer": expected a letter A–D, got "E"',
      'ancient_chinese.csv, line 3, field "Question": the question is empty',
      'ancient_chinese.csv, line 4, field "B": option is empty but a later option is not',
    ]);
    expect(await storeSnapshot(page)).toBe(stored);
  });

  it('imports a big generated file in the import worker, with every item counted', async () => {
    await ready();
    await clearAncientBench();
    const workers: string[] = [];
    page.on('worker', (worker) => workers.push(worker.url()));
    const { csv, rows } = bigAncientBenchCsv(50e6);
    // Over playwright's limit for a file given as a buffer: it goes through a temporary file.
    const path = join(mkdtempSync(join(tmpdir(), 'jiangu-big-')), 'big.csv');
    writeFileSync(path, csv);
    await page.getByTestId('import-kind').selectOption('ancientbench');
    await page.getByTestId('file-input').setInputFiles(path);
    await page.locator('[data-testid=dataset-ancientbench][data-stored=yes]').waitFor({ timeout: 180_000 });
    expect(await storedText(page, 'ancientbench')).toContain(`${rows.toLocaleString('en')} items in 10 tasks, from big.csv`);
    expect(JSON.parse(await storeSnapshot(page)).perDataset.ancientbench.count).toBe(rows);
    // Parsed and adapted off the page's thread.
    expect(workers.some((url) => /import\.worker/.test(url))).toBe(true);
  });
});
