// A Claude Code session with a sub-agent (app/capture/sessions/testdata: 2.1.332's transcript and
// its sub-agent's, recorded by TestRealAgentClaudeCodeSubagentSessions), opened in the real app:
// History ▸ Open sessions lists the sub-agent under its session; the imported run shows its request
// right after the request whose call started it, its steps under that call (which links to them),
// and the flowchart says whose loop the cursor is in, SubagentStart lit at its hook.
// HOOKSTUDIO_SCREENSHOTS=DIR saves subagent-session.png and subagent-run.png.
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { repo, screenshot, startBackend, startBrowser, tempDir, until } from './harness.mjs';

const fixtures = join(repo, 'app/capture/sessions/testdata');
const SESSION = 'claude-code-2.1.332-subagent';

// A data folder whose sessions.json points at a Claude Code projects folder holding the session
// and its sub-agent's transcript beside it, as Claude Code keeps them.
function sessionsHome() {
  const dataDir = tempDir('hs-data-');
  const home = tempDir('hs-agents-');
  const proj = join(home, 'claude', 'projects', '-home-user-project');
  mkdirSync(proj, { recursive: true });
  cpSync(join(fixtures, `${SESSION}.jsonl`), join(proj, 'helper.jsonl'));
  cpSync(join(fixtures, SESSION), join(proj, 'helper'), { recursive: true });
  const none = join(home, 'none');
  writeFileSync(join(dataDir, 'sessions.json'), JSON.stringify({ claude: join(home, 'claude', 'projects'), codex: none, gemini: none, qwen: none, copilot: none }));
  return { dataDir };
}

test('a Claude Code session\'s sub-agent opens nested under the call that started it', async () => {
  const { dataDir } = sessionsHome();
  const backend = await startBackend({ dataDir });
  const browser = await startBrowser();
  try {
    const { page } = browser;
    await page.goto(backend.url);
    await page.waitForSelector('[role="option"]');
    await page.keyboard.press('Control+h');
    await page.getByTestId('open-sessions').click();
    const row = page.locator('.session-row').filter({ hasText: 'clean the build folder' });
    await row.waitFor();
    // the list: the sub-agent under its session, its kind, task and calls
    const sub = row.getByTestId('session-subagent');
    await sub.waitFor();
    assert.match(await sub.textContent(), /sub-agent.*general-purpose.*Look at the build.*\d+ calls?/);
    await screenshot(page, 'subagent-session.png');

    await row.getByTestId('session-import').click();
    await row.getByTestId('session-open').waitFor();
    await row.getByTestId('session-open').click();
    await page.getByTestId('readonly-banner').waitFor();

    // the requests: the sub-agent's right after the session's, named by its kind and task
    const tabs = page.locator('[role="tablist"][aria-label="Requests"] [role="tab"]');
    await until(() => tabs.count(), (n) => n === 2, 'two requests: the session\'s and its sub-agent\'s');
    assert.match(await tabs.nth(0).textContent(), /Request 1/);
    assert.match(await tabs.nth(1).textContent(), /↳ general-purpose\s*Look at the build/);

    // the steps: the call that asked links to the sub-agent's steps, indented under a head naming it
    const link = page.getByTestId('step-subagent-link').first();
    await link.waitFor();
    await link.click();
    const head = page.getByTestId('step-subagent-head');
    await head.waitFor();
    assert.match(await head.textContent(), /sub-agent general-purpose/);
    assert.match(await head.getAttribute('title'), /general-purpose · Look at the build/);
    assert.match(await page.locator('.step.is-cursor').getAttribute('class'), /in-subagent/);
    await until(() => page.getByTestId('request-subagent').textContent(), (t) => /started by LLM call #1/.test(t ?? ''), 'the request says which call started it');

    // the flowchart: whose loop this is, and SubagentStart lit at its hook's step
    const flow = page.locator('.flow');
    await until(() => page.getByTestId('flow-subagent').textContent(), (t) => /sub-agent general-purpose · from LLM call #1/.test(t ?? ''),
      'the flowchart names the sub-agent');
    const start = page.locator('.step.in-subagent').filter({ hasText: 'SubagentStart' }).first();
    await start.click();
    await until(() => flow.locator('.node.is-current').getAttribute('data-node'), (n) => n === 'SubagentStart', 'SubagentStart lit',
      { describe: (n) => `(${n})` });
    const stop = page.locator('.step.in-subagent').filter({ hasText: 'SubagentStop' }).first();
    await stop.click();
    await until(() => flow.locator('.node.is-current').getAttribute('data-node'), (n) => n === 'SubagentStop', 'SubagentStop lit',
      { describe: (n) => `(${n})` });
    await screenshot(page, 'subagent-run.png');
    assert.deepEqual(browser.errors, []);
  } finally {
    await browser.close();
    await backend.stop();
  }
});
