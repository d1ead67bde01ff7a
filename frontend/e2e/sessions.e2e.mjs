// History ▸ Open sessions: the sessions real agents wrote (app/capture/sessions/testdata: Claude
// Code 2.1.332 and Codex 0.171.0 transcripts from make test's real runs) in a projects folder the
// app is pointed at; one imported with its progress opens read-only with every hook that fired
// in the visibility matrix and the hook's words in the message list; another, still being
// written, is followed and its run grows as the file does. HOOKSTUDIO_SCREENSHOTS=DIR saves
// sessions.png and session-run.png.
import assert from 'node:assert/strict';
import { appendFileSync, cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { repo, screenshot, startBackend, startBrowser, tempDir, until } from './harness.mjs';

const fixtures = join(repo, 'app/capture/sessions/testdata');

// A data folder whose sessions.json points at a Claude Code projects folder and a Codex sessions
// folder holding the fixtures, and a second Claude Code session with only its first lines yet.
function sessionsHome() {
  const dataDir = tempDir('hs-data-');
  const home = tempDir('hs-agents-');
  const claude = join(home, 'claude', 'projects');
  const codex = join(home, 'codex', 'sessions', '2026', '11', '26');
  mkdirSync(join(claude, '-home-user-project'), { recursive: true });
  mkdirSync(codex, { recursive: true });
  cpSync(join(fixtures, 'claude-code-2.1.332.jsonl'), join(claude, '-home-user-project', 'finished.jsonl'));
  cpSync(join(fixtures, 'codex-0.171.0.jsonl'), join(codex, 'rollout-2026-11-26T23-12-00-codex.jsonl'));
  const lines = readFileSync(join(fixtures, 'claude-code-2.1.332.jsonl'), 'utf8').split(/(?<=\n)/);
  const live = join(claude, '-home-user-project', 'running.jsonl');
  // another session: its id and prompt changed so the list tells the two apart
  const other = lines.map((l) => l.replaceAll('clean the build folder', 'tidy the build folder'));
  writeFileSync(live, other.slice(0, 25).join(''));
  // the other agents' folders empty: the machine's own sessions are not the test's
  const none = join(home, 'none');
  writeFileSync(join(dataDir, 'sessions.json'), JSON.stringify({ claude, codex: join(home, 'codex', 'sessions'), gemini: none, qwen: none, copilot: none }));
  return { dataDir, live, rest: other.slice(25).join('') };
}

test('History ▸ Open sessions lists, imports and follows the agents\' sessions', async () => {
  const { dataDir, live, rest } = sessionsHome();
  const backend = await startBackend({ dataDir });
  const browser = await startBrowser();
  try {
    const { page } = browser;
    await page.goto(backend.url);
    await page.waitForSelector('[role="option"]');
    await page.keyboard.press('Control+h');
    await page.getByTestId('open-sessions').click();
    const rows = page.locator('.session-row');
    await until(() => rows.count(), (n) => n === 3, 'three sessions listed', { describe: (n) => `(${n})` });
    // newest first, by the sessions' own times: the Codex rollout was written last
    assert.match(await rows.nth(0).textContent(), /codex 0\.171\.0/);
    // search
    await page.getByTestId('sessions-search').fill('codex');
    await until(() => rows.count(), (n) => n === 1, 'the search keeps the Codex session');
    assert.match(await rows.first().textContent(), /codex 0\.171\.0/);
    await page.getByTestId('sessions-search').fill('');
    await until(() => rows.count(), (n) => n === 3, 'the search cleared');
    await screenshot(page, 'sessions.png');

    // imported: the run opens read-only with the agent's version and every hook that fired
    const finished = rows.filter({ hasText: 'clean the build folder' }).filter({ hasText: 'claude-code' });
    await finished.getByTestId('session-import').click();
    await finished.getByTestId('session-open').waitFor();
    assert.match(await finished.getByTestId('session-open').textContent(), /^Open #\d+/);
    await finished.getByTestId('session-open').click();
    const banner = page.getByTestId('readonly-banner');
    await banner.waitFor();
    assert.match(await banner.textContent(), /session · claude-code@2\.1\.332/);
    const matrix = page.locator('.bottom');
    // every hook whose words the model read is a row (its command, as the transcript names it)
    for (const hook of ['session start context', 'UserPromptSubmit', 'sleep 0.2', 'grep -q', 'f="$CLAUDE_PROJECT_DIR']) {
      await matrix.locator('tr, [role="row"]').filter({ hasText: hook }).first().waitFor({ state: 'attached' });
    }
    await page.getByText('LLM call #4', { exact: true }).click();
    const messages = page.locator('section[aria-label="Messages at the cursor"]');
    await messages.getByText('What LLM call #4 receives').waitFor();
    const list = messages.locator('section[aria-label="Message list"]');
    await list.evaluate((el) => { const s = el.querySelector('.vlist') ?? el; s.scrollTop = s.scrollHeight; });
    await messages.getByText(/Stop hook blocking error from command/).first().waitFor();
    await screenshot(page, 'session-run.png');

    // followed: the session still being written grows, and so does its run
    await page.getByText('← Runs').first().click();
    await page.getByTestId('open-sessions').click();
    const running = page.locator('.session-row').filter({ hasText: 'tidy the build folder' });
    await running.getByTestId('session-follow').click();
    await running.getByTestId('session-open').waitFor();
    const calls = async () => Number((await running.locator('[role="cell"]').nth(5).textContent()).trim());
    const before = await calls();
    appendFileSync(live, rest);
    await until(calls, (n) => n === 4 && n > before, 'the followed session\'s calls grow to 4', { ms: 60000, describe: (n) => `(${n})` });
    await running.getByTestId('session-follow').click();
    await until(() => running.getByTestId('session-follow').getAttribute('aria-pressed'), (v) => v === 'false', 'the follow stopped');
    // in the history: two runs of source session
    await page.getByText('← Runs').first().click();
    await page.selectOption('select[aria-label="Source filter"]', 'session');
    await until(() => page.locator('.run-row').count(), (n) => n === 2, 'two session runs in the history');
    assert.deepEqual(browser.errors, []);
  } finally {
    await browser.close();
    await backend.stop();
  }
});
