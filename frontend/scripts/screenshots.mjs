// Screenshots of the UI (fixture backend) in Debian's Chromium: `npm run build` first, then
// node scripts/screenshots.mjs [outdir]. Serves dist/ with `vite preview`.
import { chromium } from 'playwright-core';
import { preview } from 'vite';
import { mkdtempSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const out = resolve(process.argv[2] ?? '../docs/screenshots');
mkdirSync(out, { recursive: true });
const server = await preview({ preview: { port: 4174, strictPort: true, host: '127.0.0.1' }, logLevel: 'error' });
const base = 'http://127.0.0.1:4174/';
const browser = await chromium.launchPersistentContext(mkdtempSync(join(tmpdir(), 'hs-chrome-')), {
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  viewport: { width: 1440, height: 900 },
  deviceScaleFactor: 1,
});
try {
  const page = browser.pages()[0] ?? (await browser.newPage());
  page.on('pageerror', (e) => console.error('page error:', e.message));
  const shot = async (name) => { await page.screenshot({ path: join(out, `${name}.png`) }); console.log('saved', join(out, `${name}.png`)); };
  const goto = async (q, scheme) => {
    await page.emulateMedia({ colorScheme: scheme });
    await page.goto(base + q);
    await page.waitForSelector('.step');
  };
  // main screen, light: step to the first agent round after a tool call (LLM call #2)
  await goto('', 'light');
  await page.click('[data-testid="cell-5-2"]');
  await page.waitForTimeout(300);
  await shot('main-light');
  // dark: request 2 with the history carried in
  await goto('', 'dark');
  await page.click('[data-testid="cell-1-4"]');
  await page.waitForTimeout(300);
  await shot('main-dark');
  // help overlay
  await page.keyboard.press('?');
  await page.waitForSelector('[role="dialog"]');
  await page.waitForTimeout(200);
  await shot('help');
  await page.keyboard.press('Escape');
  // invalid scenario
  await goto('', 'light');
  await page.click('[data-testid="scenario-picker"]');
  await page.waitForTimeout(150);
  await shot('scenario-picker');
  await page.click('.scenario-item.is-invalid');
  await page.waitForSelector('[data-testid="invalid"]');
  await page.waitForTimeout(200);
  await shot('invalid-scenario');
  // 10,000 messages
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.goto(base + '?big=10000');
  await page.waitForSelector('.step');
  await page.click('[data-testid="step-2"]');
  await page.waitForTimeout(300);
  await shot('big-10000');
} finally {
  await browser.close();
  await new Promise((r) => server.httpServer.close(r));
}
