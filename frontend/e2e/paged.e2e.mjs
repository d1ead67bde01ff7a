// A session of the size people have, in the real app: a generated 50 MB Claude Code transcript
// (synthetic-session.mjs: ~1,900 calls, each a 24 KB tool output) is imported from History ▸ Open
// sessions, opened read-only and moved to a call near its end — the run served in pages
// (docs/trace-view.md, "Pages"): the page holds what is on screen, never the run, and the tokens
// counted in the background fill in. Prints the times (docs/benchmarks.md) and fails only on what
// it sees, never on a time. HOOKSTUDIO_SCREENSHOTS=DIR saves session-50mb.png.
import assert from 'node:assert/strict';
import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { screenshot, startBackend, startBrowser, tempDir, until } from './harness.mjs';
import { writeSyntheticSession } from './synthetic-session.mjs';

test('a 50 MB session opens in pages and moves to a far call', async () => {
  const dataDir = tempDir('hs-data-');
  const claude = join(tempDir('hs-agents-'), 'projects');
  mkdirSync(join(claude, '-home-user-project'), { recursive: true });
  const file = join(claude, '-home-user-project', 'synthetic-50mb.jsonl');
  const calls = await writeSyntheticSession(file, 50 << 20);
  writeFileSync(join(dataDir, 'sessions.json'), JSON.stringify({ claude, codex: join(dataDir, 'no-codex') }));
  const backend = await startBackend({ dataDir });
  const browser = await startBrowser({ viewport: { width: 1280, height: 800 } });
  const { page } = browser;
  const figures = {};
  try {
    await page.goto(backend.url);
    await page.waitForSelector('[role="option"]');
    await page.keyboard.press('Control+h');
    await page.getByTestId('open-sessions').click();
    const row = page.locator('.session-row').filter({ hasText: 'tidy the repository' });
    await row.waitFor({ timeout: 60000 });

    // kept at once: usable before its 46 MB of text is counted
    const imported = Date.now();
    let t0 = imported;
    await row.getByTestId('session-import').click();
    await row.getByTestId('session-open').waitFor({ timeout: 300000 });
    figures.keptUsable = Date.now() - t0;
    t0 = Date.now();
    await row.getByTestId('session-open').click();
    await page.getByTestId('readonly-banner').waitFor({ timeout: 300000 });
    const messages = page.locator('section[aria-label="Messages at the cursor"] .msg');
    await until(() => messages.count(), (n) => n > 0, 'the first list painted', { ms: 300000 });
    figures.open = Date.now() - t0;
    const status = page.locator('.debugbar .muted.small');
    assert.match(await status.textContent(), new RegExp(`step 1/\\d+ · ${calls} LLM calls`));

    // a far call: a bar of the chart near the end (a span of calls; its largest is the last)
    const bars = page.getByTestId('bar');
    const nBars = await bars.count();
    assert.ok(nBars <= 80, `${nBars} bars for ${calls} calls: the chart draws spans of calls`);
    const title = page.locator('section[aria-label="Message list"] .title');
    t0 = Date.now();
    await bars.nth(nBars - 2).click();
    const far = await until(() => title.textContent(), (t) => { const m = t.match(/What LLM call #(\d+) receives/); return m && Number(m[1]) > calls * 0.9; },
      'a call near the end', { ms: 300000, describe: (t) => `(${t})` });
    await until(() => messages.count(), (n) => n > 0, 'its list painted', { ms: 300000 });
    figures.jump = Date.now() - t0;
    const n = Number(far.match(/#(\d+)/)[1]);
    // its list is the whole conversation so far: thousands of messages, a screen of them in the page
    const head = await page.locator('section[aria-label="Message list"] .sub').textContent();
    const listed = Number(head.match(/([\d,]+) messages/)[1].replaceAll(',', ''));
    assert.ok(listed > 2 * (n - 1), `call #${n} receives ${listed} messages`);
    assert.ok(await messages.count() < 40, `${await messages.count()} message cards in the page`);
    // the page holds what is on screen: its elements do not grow with the run
    const elements = await page.evaluate(() => document.querySelectorAll('*').length);
    assert.ok(elements < 4000, `${elements} elements in the page`);
    assert.ok(await page.locator('td.cell').count() < 100, 'the matrix renders the calls in view');
    // End: the last step, then the run's very first step again
    t0 = Date.now();
    await page.keyboard.press('End');
    await until(() => status.textContent(), (t) => { const m = t.match(/step (\d+)\/(\d+)/); return m && m[1] === m[2]; }, 'the last step', { ms: 300000 });
    await until(() => messages.count(), (c) => c > 0, 'the last list painted', { ms: 300000 });
    figures.end = Date.now() - t0;
    await page.keyboard.press('Home');
    await until(() => status.textContent(), (t) => /step 1\//.test(t), 'the first step', { ms: 60000 });

    // the tokens, counted in the background, fill in where they are shown
    await until(() => page.getByTestId('tokens-counting').count(), (c) => c === 0, 'the count done', { ms: 600000 });
    figures.counted = Date.now() - imported;
    await until(() => page.locator('section[aria-label="Messages at the cursor"] .msg .tokens').allTextContents(),
      (ts) => ts.length > 0 && ts.every((t) => /^[\d,]+ tok$/.test(t)), 'counted tokens on the cards', { ms: 60000, describe: (ts) => `(${ts.join(' | ')})` });
    await screenshot(page, 'session-50mb.png');
    assert.deepEqual(browser.errors, []);
    const mb = (statSync(file).size / (1 << 20)).toFixed(1);
    console.log(`paged session (${mb} MB, ${calls} calls): kept and usable ${figures.keptUsable} ms, counted ${figures.counted} ms; ` +
      `open → first list painted ${figures.open} ms; jump to call #${n} ${figures.jump} ms; End ${figures.end} ms; ${elements} elements`);
  } finally {
    await browser.close();
    await backend.stop();
  }
});
