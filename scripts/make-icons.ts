// Renders public/favicon.svg into the web app manifest's PNG icons (192, 512, and a maskable 512
// whose glyph sits inside the safe circle), in headless Chromium. Run once, commit the PNGs:
//   npx tsx scripts/make-icons.ts
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { launchChromium } from './browser.ts';
import { projectRoot } from './site-routes.ts';

const svg = readFileSync(join(projectRoot, 'public', 'favicon.svg'), 'utf8');
// The maskable icon fills its square (a platform crops it to its own shape) and keeps the glyph in
// the central 80%: the favicon without its rounded corners, the glyph at 70%.
const maskable = svg
  .replace('rx="5"', 'rx="0"')
  .replace(/<text x="16" y="24" font-size="22"/, '<text x="16" y="21.7" font-size="15.4"');

const icons = [
  { file: 'icon-192.png', size: 192, svg },
  { file: 'icon-512.png', size: 512, svg },
  { file: 'icon-maskable-512.png', size: 512, svg: maskable },
];

const browser = await launchChromium();
try {
  for (const icon of icons) {
    const page = await browser.newPage({ viewport: { width: icon.size, height: icon.size } });
    const sized = icon.svg.replace('<svg ', `<svg width="${icon.size}" height="${icon.size}" `);
    await page.setContent(`<html><body style="margin:0;background:transparent">${sized}</body></html>`);
    await page.screenshot({ path: join(projectRoot, 'public', 'icons', icon.file), omitBackground: true, clip: { x: 0, y: 0, width: icon.size, height: icon.size } });
    await page.close();
  }
} finally {
  await browser.close();
}
