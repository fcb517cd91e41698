// A 5 MB link pasted into Compare is refused from its length before it lands in the field (it took
// 15 s and froze the tab 2.7 s before the decoder refused it): a real paste from the clipboard, timed
// from the key press to the message, in both languages, the field left empty.
import { describe, expect, it } from 'vitest';
import { useBrowserSession } from './session.ts';

describe('Compare: a very long pasted link', () => {
  const session = useBrowserSession({ webgpu: false, path: '/#/compare' });

  it('is refused from its length at once, saying how long it is, and the field stays empty', async () => {
    const { page, context } = session.opened;
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: session.url });
    const input = page.getByTestId('compare-link-input');
    await input.waitFor();
    const chars = 5 * 1024 * 1024;
    await page.evaluate((n) => navigator.clipboard.writeText(`${location.origin}/#/shared/${'A'.repeat(n)}`), chars);
    await input.focus();
    const started = Date.now();
    await page.keyboard.press('ControlOrMeta+V');
    const error = page.getByTestId('compare-link-error');
    await error.waitFor({ timeout: 10_000 });
    const tookMs = Date.now() - started;
    console.log(`5 MiB link pasted into Compare: refused after ${tookMs} ms`);
    expect(await error.getAttribute('data-code')).toBe('link.payload-too-long');
    expect(await error.textContent()).toContain('5242880');
    expect(await input.inputValue()).toBe('');
    expect(tookMs).toBeLessThan(1500);
    await page.getByTestId('lang-zh').click();
    expect(await error.textContent()).toContain('5242880');
    await page.getByTestId('lang-en').click();
  });
});
