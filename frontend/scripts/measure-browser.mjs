// Real-browser figure: time from selecting the LLM-call step of a 10,000-message checkpoint
// to the next paint, in Debian's Chromium (fixture backend, `?big=10000`). Needs `npm run build`.
import { chromium } from 'playwright-core';
import { preview } from 'vite';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const n = Number(process.argv[2] ?? 10000);
const server = await preview({ preview: { port: 4175, strictPort: true, host: '127.0.0.1' }, logLevel: 'error' });
const browser = await chromium.launchPersistentContext(mkdtempSync(join(tmpdir(), 'hs-chrome-')), {
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  viewport: { width: 1440, height: 900 },
});
try {
  const page = browser.pages()[0] ?? (await browser.newPage());
  await page.goto(`http://127.0.0.1:4175/?big=${n}`);
  await page.waitForSelector('[data-testid="step-2"]');
  const times = [];
  for (let k = 0; k < 7; k++) {
    // away (step 0 has the same 9,999 messages built) and back to the LLM call
    await page.click('[data-testid="step-3"]');
    await page.waitForTimeout(100);
    const ms = await page.evaluate(() => new Promise((resolve) => {
      const t0 = performance.now();
      document.querySelector('[data-testid="step-2"]').click();
      requestAnimationFrame(() => setTimeout(() => resolve(performance.now() - t0), 0));
    }));
    times.push(ms);
  }
  const cards = await page.locator('article.msg').count();
  times.sort((a, b) => a - b);
  console.log(`[browser] ${n} messages: click → painted list ${times[3].toFixed(1)} ms median (min ${times[0].toFixed(1)}, max ${times[6].toFixed(1)}); ${cards} cards in the DOM`);
} finally {
  await browser.close();
  await new Promise((r) => server.httpServer.close(r));
}
