// Importing run files in Chromium, in both languages: a refused file's message and an imported
// run's warnings are notices, so they read in the page's language and reword when it switches.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../scripts/site-routes.ts';
import { useBrowserSession } from './session.ts';

describe('run-file import messages in English and Chinese', () => {
  const session = useBrowserSession({ webgpu: false, path: '/#/evaluate' });

  it('says why a file is refused in the page language, and rewords it on a switch', async () => {
    const { page } = session.opened;
    await page.getByTestId('lang-zh').click();
    await page.getByTestId('import-run-input').setInputFiles({ name: '坏的记录.json', mimeType: 'application/json', buffer: Buffer.from('{"format":"jiangu-run","formatVersion":2}') });
    const error = page.getByTestId('import-run-error');
    await error.waitFor();
    expect(await error.textContent()).toBe('坏的记录.json：formatVersion：本站这一版只读格式版本为 1 的鉴古评测记录，此文件是 2；请用写出它的那一版网站打开，或更新本站（重新加载页面）');
    await page.getByTestId('lang-en').click();
    expect(await error.textContent()).toMatch(/^坏的记录\.json: formatVersion: this version of the site reads Jiangu run files of format version 1, got 2;/);

    // A field deep in a file: the path is the file's, the sentence the page's.
    await page.getByTestId('lang-zh').click();
    const line = JSON.stringify({ doc_id: 0, target: 9, filtered_resps: [-1, -2, -0.5, -3] });
    await page.getByTestId('import-run-input').setInputFiles({ name: 'samples_aclue_polysemy_resolution_2025-01-01T00-00-00.jsonl', mimeType: 'application/json', buffer: Buffer.from(`${line}\n`) });
    await expect.poll(() => error.textContent()).toBe('samples_aclue_polysemy_resolution_2025-01-01T00-00-00.jsonl：第 1 行 target：应为标准答案：小于 4 的序号（从 0 起）或字母 A–D，实际是9');
  });

  it("shows an imported lm-eval run's warnings in the page language", async () => {
    const { page } = session.opened;
    await page.goto(`${session.url}/#/evaluate`);
    await page.getByTestId('lang-en').click();
    await page.getByTestId('import-run-input').setInputFiles(join(projectRoot, 'test', 'fixtures', 'lm-eval', 'aclue-two-tasks.json'));
    await page.waitForURL(/#\/run\//);
    const warnings = page.getByTestId('run-warning');
    await warnings.first().waitFor();
    const en = await warnings.allTextContents();
    expect(en[0]).toMatch(/^Imported from an lm-evaluation-harness file \(aclue-two-tasks\.json\): the prompts/);
    expect(en.some((w) => w.startsWith('1 of 6 samples have an "acc" that disagrees') && w.includes('aclue_poetry_appreciate doc 0'))).toBe(true);
    await page.getByTestId('lang-zh').click();
    const zh = await warnings.allTextContents();
    expect(zh).toHaveLength(en.length);
    expect(zh[0]).toMatch(/^从 lm-evaluation-harness 文件（aclue-two-tasks\.json）导入：提示词/);
    expect(zh.some((w) => w.includes('aclue_poetry_appreciate 第 0 条'))).toBe(true);
    for (const w of zh) expect(w).not.toMatch(/\[object|samples have|Imported from/);
  });
});
