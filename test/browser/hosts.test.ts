// The host rule in Chromium: a link may not make the page contact a host the user never chose. A
// foreign `?mirror=` on a classroom or shared link, and a link's own model host, are named and asked
// about before anything is fetched; declined, the page uses the sources this device trusts (here the
// site's own /mirror, saved as this device's mirror); agreed, the request goes to that host (the
// network guard records and aborts it) and the page says the download failed.
import { describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { openPage, type OpenedPage } from '../../scripts/browser.ts';
import { useBrowserSession } from './session.ts';
import { fabricatedCmmluLink } from './shared-link-fixture.ts';

const FOREIGN = 'https://other.example/d';
const foreignMirror = `?mirror=${encodeURIComponent(FOREIGN)}`;
const hostsOf = (leaks: readonly string[]) => [...new Set(leaks.map((url) => new URL(url).host))];

describe('hosts a link asks for', () => {
  const session = useBrowserSession({ webgpu: false, path: '/#/data' });
  const browser = (): Browser => session.opened.context.browser()!;

  /** A fresh context whose saved mirror (this device's choice) is the site's own /mirror, or none. */
  async function freshPage(path: string, options: { savedMirror: boolean }): Promise<OpenedPage> {
    const fresh = await openPage(browser(), `${session.url}/#/data`);
    if (options.savedMirror) await fresh.page.evaluate((mirror) => localStorage.setItem('jiangu.mirror', mirror), `${session.url}/mirror`);
    await fresh.page.goto(`${session.url}/${path}`);
    await fresh.page.reload();
    return fresh;
  }

  async function consentFor(opened: OpenedPage, purpose: 'data' | 'model') {
    const consent = opened.page.locator(`[data-testid=host-consent][data-purpose=${purpose}]`);
    await consent.waitFor({ timeout: 30_000 });
    expect(await consent.getAttribute('data-host')).toBe('other.example');
    expect(await consent.textContent()).toContain('other.example');
    return consent;
  }

  it('opens a classroom link with a foreign mirror without contacting it, asks, and on "pinned sources" uses this device’s mirror', async () => {
    const link = await fabricatedCmmluLink(8);
    const fresh = await freshPage(`${foreignMirror}#/classroom/shared/${link.payload}`, { savedMirror: true });
    try {
      await consentFor(fresh, 'data');
      expect(await fresh.page.getByTestId('classroom-position').count()).toBe(0);
      expect(fresh.leaks).toEqual([]);
      expect(await fresh.page.getByTestId('host-decline').textContent()).toContain('Use my saved mirror instead');
      await fresh.page.getByTestId('host-decline').click();
      const position = fresh.page.getByTestId('classroom-position');
      await position.waitFor({ timeout: 60_000 });
      expect(await position.textContent()).toBe(`1 / ${link.rows.length}`);
      expect(fresh.leaks).toEqual([]);
    } finally {
      await fresh.context.close();
    }
  });

  it('on "Allow once" downloads a classroom link’s data from the foreign mirror, and only from it', async () => {
    const link = await fabricatedCmmluLink(8);
    const fresh = await freshPage(`${foreignMirror}#/classroom/shared/${link.payload}`, { savedMirror: false });
    try {
      await consentFor(fresh, 'data');
      expect(fresh.leaks).toEqual([]);
      expect(await fresh.page.getByTestId('host-decline').textContent()).toContain('Use the pinned sources instead');
      await fresh.page.getByTestId('host-allow').click();
      const error = fresh.page.getByTestId('classroom-error');
      await error.waitFor({ timeout: 60_000 });
      expect(await error.textContent()).toMatch(/Could not reach https:\/\/other\.example\/d\/.+Check the connection/);
      expect(fresh.leaks.length).toBeGreaterThan(0);
      expect(hostsOf(fresh.leaks)).toEqual(['other.example']);
    } finally {
      await fresh.context.close();
    }
  });

  it('opens a shared link with a foreign mirror without contacting it; Show the questions waits for the answer', async () => {
    const link = await fabricatedCmmluLink(8);
    const declined = await freshPage(`${foreignMirror}#/shared/${link.payload}`, { savedMirror: true });
    try {
      await declined.page.getByTestId('shared').waitFor();
      await consentFor(declined, 'data');
      expect(await declined.page.getByTestId('shared-show-items').isDisabled()).toBe(true);
      expect(declined.leaks).toEqual([]);
      await declined.page.getByTestId('host-decline').click();
      await declined.page.getByTestId('shared-show-items').click();
      await declined.page.getByTestId('shared-items').waitFor({ timeout: 60_000 });
      expect(declined.leaks).toEqual([]);
    } finally {
      await declined.context.close();
    }

    const allowed = await freshPage(`${foreignMirror}#/shared/${link.payload}`, { savedMirror: false });
    try {
      await consentFor(allowed, 'data');
      await allowed.page.getByTestId('host-allow').click();
      await allowed.page.getByTestId('shared-show-items').click();
      const error = allowed.page.getByTestId('shared-items-error');
      await error.waitFor({ timeout: 60_000 });
      expect(await error.textContent()).toMatch(/Could not reach https:\/\/other\.example\/d\/.+Check the connection/);
      expect(hostsOf(allowed.leaks)).toEqual(['other.example']);
    } finally {
      await allowed.context.close();
    }
  });

  it('asks on the Data page before using a foreign ?mirror= for downloads', async () => {
    const fresh = await freshPage(`${foreignMirror}#/data`, { savedMirror: false });
    try {
      await consentFor(fresh, 'data');
      expect(await fresh.page.getByTestId('mirror').inputValue()).toBe('');
      await fresh.page.getByTestId('host-allow').click();
      expect(await fresh.page.getByTestId('mirror').inputValue()).toBe(FOREIGN);
      expect(fresh.leaks).toEqual([]);
    } finally {
      await fresh.context.close();
    }
  });

  it("shows a link's model host beside the model, and Reproduce asks before loading the model from it", async () => {
    const link = await fabricatedCmmluLink(8, { modelHost: 'https://other.example/hf' });
    const fresh = await freshPage(`#/shared/${link.payload}`, { savedMirror: true });
    try {
      await fresh.page.getByTestId('shared').waitFor();
      expect(await fresh.page.getByTestId('shared-model').textContent()).toBe('fixture/jiangu-tiny@main');
      expect(await fresh.page.getByTestId('shared-model-host').textContent()).toBe('other.example');
      await fresh.page.getByTestId('reproduce').click();
      await consentFor(fresh, 'model');
      expect(fresh.leaks).toEqual([]);
      // Agreed: Reproduce gets the data itself (from this device's mirror), saying so, then loads the
      // model from that host. The mirror's answer is held until the page has said what it is doing.
      let release = () => {};
      const held = new Promise<void>((resolve) => (release = resolve));
      await fresh.page.route('**/mirror/**', async (route) => {
        await held;
        await route.continue();
      });
      await fresh.page.getByTestId('host-allow').click();
      await fresh.page.getByTestId('reproduce-status').filter({ hasText: /Downloading the data: 0 \/ \d+ files/ }).waitFor();
      release();
      const error = fresh.page.getByTestId('reproduce-error');
      await error.waitFor({ timeout: 120_000 });
      // The foreign host is refused by the test's router: not stored here, and that host, by name, cannot be reached.
      expect(await error.textContent()).toMatch(/the model host other\.example cannot be reached \(it is down/);
      expect(fresh.leaks.length).toBeGreaterThan(0);
      expect(hostsOf(fresh.leaks)).toEqual(['other.example']);
      const stored = await fresh.page.evaluate(() => indexedDB.databases().then((dbs) => dbs.length));
      expect(stored).toBeGreaterThan(0);
    } finally {
      await fresh.context.close();
    }
  });
});
