// A generation whose output thinks first (<think>…</think>, as Qwen3 writes) is scored on what
// follows the block, and the per-item view shows the thinking apart. The run comes in as a file,
// so no model is needed: a correct 儒 after a think block naming four labels is correct.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../scripts/site-routes.ts';
import { runJson } from '../../src/lib/core/formats/jiangu-run/export.ts';
import { makeGenRun } from '../fixtures/run-records/build.ts';
import { useBrowserSession } from './session.ts';

describe('thinking in a generation output', () => {
  const session = useBrowserSession({ webgpu: false, path: '/#/evaluate' });

  it('scores the answer after the think block and shows the block apart', async () => {
    const { page } = session.opened;
    const { run, results } = makeGenRun('gen-thinking-1');
    const thought = '这段话讲仁义礼智，可能是诗、史、儒、道中的一个。';
    results[1] = { ...results[1], output: `<think>\n${thought}\n</think>\n\n儒` };
    await page.getByTestId('import-run-input').setInputFiles({ name: 'thinking.json', mimeType: 'application/json', buffer: Buffer.from(runJson(run, results)) });
    await page.waitForURL(/#\/run\//);
    await page.locator(`[data-testid=gen-items] li[data-item="${results[1].itemId}"] button`).click();
    const detail = page.getByTestId('gen-item-detail');
    await detail.waitFor();
    expect(await detail.getByTestId('gen-answer').textContent()).toBe('儒');
    expect(await detail.getByTestId('gen-output').textContent()).toBe('\n\n儒');
    expect(await detail.getByTestId('gen-thinking').locator('pre').textContent()).toBe(thought);
    expect(await detail.textContent()).toContain('✓ correct');
    await detail.getByTestId('gen-thinking').locator('summary').click();
    mkdirSync(join(projectRoot, 'test-results'), { recursive: true });
    await detail.screenshot({ path: join(projectRoot, 'test-results', 'gen-item-thinking.png') });
  });
});
