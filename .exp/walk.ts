// A new user's walk outside the Reading page: the Data page, Evaluate, Compare, in both languages.
import { join } from 'node:path';
import { openPage, withChromium } from '../scripts/browser.ts';
const out = '/work/main/.exp/shots';
await withChromium({ webgpu: false }, async (url, browser) => {
  const opened = await openPage(browser, `${url}/#/data`);
  const page = opened.page;
  await page.setViewportSize({ width: 1280, height: 900 });
  for (const route of ['reading']) {
    await page.goto(`${url}/#/${route}`);
    await page.waitForTimeout(1500);
    for (const lang of ['en', 'zh']) {
      await page.getByTestId(`lang-${lang}`).click();
      await page.screenshot({ path: join(out, `${route}-${lang}.png`), fullPage: true });
    }
  }
  console.log('errors', JSON.stringify(opened.errors ?? []));
  await opened.context.close();
});
