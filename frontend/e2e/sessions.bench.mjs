// The app's bench of a 50 MB session against a simulated run of the same size (docs/benchmarks.md,
// "Sessions"). Not a test: run it by hand, under Xvfb, on a dev build (make build-dev):
//
//   HOOKSTUDIO_BENCH_SESSIONS=DIR go test -run TestWriteSessionBench ./app/capture/sessions
//   HOOKSTUDIO_BENCH_SESSIONS=DIR xvfb-run -a node frontend/e2e/sessions.bench.mjs
//
// DIR/history.db holds the imported session (run 1) and the simulated run (run 2). Each is opened
// from the History three times, alternately: open — the click on Open until the read-only view's
// message list is painted; end — End pressed until the last step is current; scroll — the last
// step's message list scrolled to its end a screen per frame (frame times p50 / p95).
import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { startBackend, startBrowser, tempDir, until } from './harness.mjs';

const src = process.env.HOOKSTUDIO_BENCH_SESSIONS;
if (!src) throw new Error('HOOKSTUDIO_BENCH_SESSIONS=DIR: the folder TestWriteSessionBench wrote');
const dataDir = tempDir('hs-bench-');
cpSync(join(src, 'history.db'), join(dataDir, 'history.db'));
const backend = await startBackend({ dataDir });
const browser = await startBrowser({ viewport: { width: 1280, height: 800 } });
const { page } = browser;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const results = { 1: { open: [], end: [], scroll: [] }, 2: { open: [], end: [], scroll: [] } };
try {
  await page.goto(backend.url);
  await page.waitForSelector('[role="option"]');
  await page.keyboard.press('Control+h');
  for (let round = 0; round < 3; round++) {
    for (const id of [1, 2]) {
      const row = page.locator(`[data-testid="run-${id}"]`);
      await row.waitFor({ timeout: 120000 });
      const messages = page.locator('section[aria-label="Messages at the cursor"] .msg');
      let t0 = Date.now();
      await row.getByText('Open', { exact: true }).click();
      await page.getByTestId('readonly-banner').waitFor({ timeout: 300000 });
      await until(() => messages.count(), (n) => n > 0, `run ${id}'s messages painted`, { ms: 300000 });
      results[id].open.push(Date.now() - t0);
      const status = page.locator('.debugbar .muted.small');
      t0 = Date.now();
      await page.keyboard.press('End');
      await until(() => status.textContent(), (t) => { const m = t.match(/step (\d+)\/(\d+)/); return m && m[1] === m[2]; }, `run ${id}'s last step`, { ms: 300000 });
      await until(() => messages.count(), (n) => n > 0, `run ${id}'s last list painted`, { ms: 300000 });
      results[id].end.push(Date.now() - t0);
      results[id].scroll.push(await page.evaluate(() => new Promise((done) => {
        const list = document.querySelector('section[aria-label="Messages at the cursor"] .vlist');
        const frames = [];
        let last = performance.now();
        const step = () => {
          const now = performance.now();
          frames.push(now - last);
          last = now;
          if (!list || list.scrollTop + list.clientHeight >= list.scrollHeight - 1) {
            frames.sort((a, b) => a - b);
            done({ screens: frames.length, p50: frames[Math.floor(frames.length / 2)], p95: frames[Math.floor(frames.length * 0.95)] });
            return;
          }
          list.scrollTop += list.clientHeight;
          requestAnimationFrame(step);
        };
        requestAnimationFrame(step);
      })));
      await page.getByText('← Runs').first().click();
    }
  }
  for (const id of [1, 2]) {
    const r = results[id];
    const sc = r.scroll;
    console.log(`${id === 1 ? 'session, 50 MB' : 'simulated, same size'}: open ${r.open.join(' / ')} ms (median ${median(r.open)}), end ${r.end.join(' / ')} ms, ` +
      `scroll ${sc[0].screens} screens, frames p50 ${sc.map((s) => s.p50.toFixed(0)).join('/')} ms, p95 ${sc.map((s) => s.p95.toFixed(0)).join('/')} ms`);
  }
} finally {
  await browser.close();
  await backend.stop();
}
