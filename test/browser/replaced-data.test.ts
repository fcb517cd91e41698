// A run made on an AncientBench file that is replaced afterwards (issue 23): its page says its
// questions were replaced, as the replace confirmation promised, and classroom mode says the copy
// was replaced (not "download or import it", with a copy stored) and names the benchmark by title.
import { describe, expect, it } from 'vitest';
import { useBrowserSession } from './session.ts';
import { startFixtureRun, storeSample, waitForStatus } from './runs.ts';

const OTHER_FILE = [
  'task,question,A,B,C,D,answer,split,id',
  'Radical,「河」的部首是？,丁,氵,可,口,B,test,other-1',
  'Radical,「明」的部首是？,冂,二,日,月,C,test,other-2',
].join('\n');

describe('a run whose benchmark file was replaced', () => {
  const session = useBrowserSession({ webgpu: false, path: '/#/data' });

  it('says so on its page and in classroom mode, in both languages', async () => {
    const { page } = session.opened;
    await storeSample(page);
    const runId = await startFixtureRun(page, { dataset: 'ancientbench', shots: 0, limit: 2 });
    await waitForStatus(page, 'completed', 120_000);
    expect(await page.getByTestId('run-questions-replaced').count()).toBe(0);

    await page.goto(`${session.url}/#/data`);
    await page.locator('[data-testid=catalog][data-loaded=true]').waitFor();
    await page.getByTestId('file-input').setInputFiles({ name: 'other.csv', mimeType: 'text/csv', buffer: Buffer.from(`${OTHER_FILE}\n`) });
    await page.getByTestId('replace-yes').click();
    await page.getByTestId('import-done').waitFor();

    await page.goto(`${session.url}/#/run/${encodeURIComponent(runId)}`);
    const replaced = page.getByTestId('run-questions-replaced');
    await replaced.waitFor();
    expect(await replaced.textContent()).toContain('The stored copy of AncientBench was replaced by other files after this run');

    await page.goto(`${session.url}/#/classroom/${encodeURIComponent(runId)}`);
    const error = page.getByTestId('classroom-error');
    await error.waitFor();
    expect(await error.textContent()).toContain('the stored copy of AncientBench was replaced by other files');
    expect(await error.textContent()).not.toContain('download or import');
    expect(await error.textContent()).not.toContain('ancientbench ');
    // In Chinese (the classroom's error has no switch of its own: the run page's is the site's).
    await page.goto(`${session.url}/#/run/${encodeURIComponent(runId)}`);
    await page.getByTestId('lang-zh').click();
    expect(await replaced.textContent()).toContain('已被其他文件替换');
    await page.goto(`${session.url}/#/classroom/${encodeURIComponent(runId)}`);
    await error.waitFor();
    expect(await error.textContent()).toContain('已被其他文件替换');
    await page.goto(`${session.url}/#/run/${encodeURIComponent(runId)}`);
    await page.getByTestId('lang-en').click();
  });
});
