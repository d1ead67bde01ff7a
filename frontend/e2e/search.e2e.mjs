// History ▸ Search (Ctrl+K) against the real backend: the sessions real agents wrote
// (app/capture/sessions/testdata: Claude Code 2.1.332 and 2.1.197, Codex 0.171.0) in folders the
// app is pointed at, none imported. The index is built in the background once the search is
// opened; "where did my guard block something?" finds the three guards' blocks; a filter keeps
// Codex's; a hit of a session not imported imports it and opens its run read-only at the call and
// message; a file's pasted lines find the sessions that sent them; a bad search says why.
// HOOKSTUDIO_SCREENSHOTS=DIR saves search.png and search-run.png.
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { repo, screenshot, startBackend, startBrowser, tempDir, until } from './harness.mjs';

const fixtures = join(repo, 'app/capture/sessions/testdata');

function sessionsHome() {
  const dataDir = tempDir('hs-data-');
  const home = tempDir('hs-agents-');
  const claude = join(home, 'claude', 'projects');
  const codex = join(home, 'codex', 'sessions', '2026', '11', '27');
  mkdirSync(join(claude, '-home-user-project'), { recursive: true });
  mkdirSync(codex, { recursive: true });
  cpSync(join(fixtures, 'claude-code-2.1.332.jsonl'), join(claude, '-home-user-project', 'new.jsonl'));
  cpSync(join(fixtures, 'claude-code-2.1.197.jsonl'), join(claude, '-home-user-project', 'old.jsonl'));
  cpSync(join(fixtures, 'codex-0.171.0.jsonl'), join(codex, 'rollout-2026-11-27T01-06-10-codex.jsonl'));
  writeFileSync(join(dataDir, 'sessions.json'), JSON.stringify({ claude, codex: join(home, 'codex', 'sessions') }));
  return { dataDir };
}

test('History ▸ Search finds words in every session, imported or not, and opens a hit at its call and message', async () => {
  const { dataDir } = sessionsHome();
  const backend = await startBackend({ dataDir });
  const browser = await startBrowser();
  try {
    const { page } = browser;
    await page.goto(backend.url);
    await page.waitForSelector('[role="option"]');

    // the shortcut is in the help
    await page.keyboard.press('?');
    const help = page.locator('[role="dialog"]');
    await help.getByText('Search every run and session', { exact: false }).waitFor();
    assert.match(await help.textContent(), /Ctrl\+K/);
    await page.keyboard.press('Escape');

    // Ctrl+K: the search, its box focused; the index is built in the background
    await page.keyboard.press('Control+k');
    const box = page.getByTestId('search-input');
    await box.waitFor();
    assert.equal(await box.evaluate((el) => el === document.activeElement), true, 'the search box has the focus');
    const status = page.getByTestId('search-status');
    // the three sessions and the example's runs (the app simulates the example scenario at start)
    await until(() => status.textContent(), (t) => Number(/([\d,]+) runs and sessions indexed/.exec(t)?.[1] ?? 0) >= 4 && !/indexing \d/.test(t),
      'the sessions and runs indexed', { ms: 60000, describe: (t) => `(${t})` });

    // where did my guard block something?
    const hits = page.locator('.hits > .hit');
    await box.fill('"rm -rf" outcome:blocked kind:message');
    await until(() => hits.count(), (n) => n === 3, 'a block in each of the three sessions', { describe: (n) => `(${n})` });
    for (let i = 0; i < 3; i++) {
      const text = await hits.nth(i).textContent();
      assert.match(text, /not imported/);
      assert.match(text, /blocked/);
      assert.equal(await hits.nth(i).locator('mark').first().textContent(), 'rm -rf');
    }
    await screenshot(page, 'search.png');

    // a filter: Codex's only
    await page.getByLabel('Agent').selectOption('codex');
    await until(() => hits.count(), (n) => n === 1, "Codex's block only");
    assert.match(await hits.first().textContent(), /codex 0\.171\.0/);
    await page.getByLabel('Agent').selectOption('claude-code');
    await until(() => hits.count(), (n) => n === 2, "Claude Code's two blocks");

    // a hit of a session not imported: imported, then its run opens at the call and message
    const hit = hits.filter({ hasText: 'claude-code 2.1.332' });
    const place = await hit.locator('.hit-what').textContent();
    const [, call, message] = place.match(/call #(\d+) · message (\d+)/);
    await hit.click();
    const banner = page.getByTestId('readonly-banner');
    await banner.waitFor({ timeout: 60000 });
    assert.match(await banner.textContent(), /session · claude-code@2\.1\.332/);
    const messages = page.locator('section[aria-label="Messages at the cursor"]');
    await messages.getByText(`What LLM call #${call} receives`).waitFor();
    const found = messages.locator(`[data-testid="msg-${message}"]`);
    await found.waitFor();
    assert.match(await found.getAttribute('class'), /is-found/);
    assert.match(await found.textContent(), /no rm -rf here/);
    await screenshot(page, 'search-run.png');

    // back: the search as it was, the session now found in its run
    await page.getByText('← Search').click();
    await until(() => hits.filter({ hasText: 'claude-code 2.1.332' }).locator('.src').textContent(), (t) => /^#\d+$/.test(t),
      'the imported session is found in its run', { ms: 60000, describe: (t) => `(${t})` });

    // which sessions sent this text to the model? a pasted file's lines, a phrase each
    await page.getByLabel('Agent').selectOption('');
    await box.fill('session start context:\nthe repo is a monorepo');
    await until(() => hits.count(), (n) => n >= 2, 'both Claude Code sessions sent the SessionStart context');

    // nothing found, and a bad search
    await box.fill('zebra xylophone');
    await page.getByTestId('search-none').waitFor();
    await box.fill('NOT rm');
    const error = page.getByTestId('search-error');
    await error.waitFor();
    assert.match(await error.textContent(), /say what to find/);
    assert.deepEqual(browser.errors, []);
  } finally {
    await browser.close();
    await backend.stop();
  }
});
