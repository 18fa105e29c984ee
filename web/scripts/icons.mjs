// Renders the app icons of the web app manifest from public/favicon.svg with Chromium.
// Run after changing the logo: node web/scripts/icons.mjs (writes web/public/icons/*.png).
import { mkdir, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const webDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const svg = await readFile(join(webDir, 'public', 'favicon.svg'), 'utf8');
const out = join(webDir, 'public', 'icons');
await mkdir(out, { recursive: true });

// `maskable` icons keep the logo inside the 80 % safe zone on a full-bleed background.
const icons = [
  { name: 'icon-192.png', size: 192, maskable: false },
  { name: 'icon-512.png', size: 512, maskable: false },
  { name: 'icon-maskable-512.png', size: 512, maskable: true },
  { name: 'apple-touch-icon-180.png', size: 180, maskable: true },
];

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu'],
});
try {
  for (const { name, size, maskable } of icons) {
    const page = await browser.newPage({ viewport: { width: size, height: size } });
    const inner = maskable ? Math.round(size * 0.8) : size;
    const html = `<html><body style="margin:0;width:${size}px;height:${size}px;display:grid;place-items:center;background:${
      maskable ? '#0b3d91' : 'transparent'
    }"><div style="width:${inner}px;height:${inner}px">${svg.replace('<svg ', `<svg width="${inner}" height="${inner}" `)}</div></body></html>`;
    await page.setContent(html);
    await page.screenshot({ path: join(out, name), omitBackground: !maskable });
    await page.close();
  }
} finally {
  await browser.close();
}
