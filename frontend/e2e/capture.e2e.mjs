// Capture a real agent: the real Claude Code CLI (tools/agents) runs offline against
// `hookctl capture`, with a project's UserPromptSubmit, PreToolUse (exit 2) and Stop hooks; the
// capture is kept in the history, and the app opens it in the simulator's views: the
// visibility matrix lists the agent's hooks, the flowchart is Claude Code's loop, and the last call's
// message list shows what each hook made the model read, in Claude Code's words. HOOKSTUDIO_SCREENSHOTS=DIR saves capture.png.
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';
import { openApp, repo, screenshot, startBackend, startBrowser, tempDir } from './harness.mjs';

const claude = join(repo, 'tools/agents/node_modules/.bin/claude');
const hookctl = process.env.HOOKSTUDIO_HOOKCTL ?? join(repo, 'build/bin/hookctl');

const settings = {
  hooks: {
    UserPromptSubmit: [{ hooks: [{ type: 'command', command: "echo 'Context from hook: the build folder is shared with CI'" }] }],
    PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: "echo 'blocked: build/ is shared with CI' >&2; exit 2" }] }],
    Stop: [{ hooks: [{ type: 'command', command: 'f="$CLAUDE_PROJECT_DIR/.stopped"; [ -e "$f" ] && exit 0; touch "$f"; echo \'{"decision":"block","reason":"Run the tests before you stop."}\'' }] }],
  },
};

// A project with the three hooks, and the answers for its three requests.
function project() {
  const dir = tempDir('hs-capture-');
  const proj = join(dir, 'project');
  mkdirSync(join(proj, '.claude'), { recursive: true });
  mkdirSync(join(dir, 'home'));
  writeFileSync(join(proj, '.claude', 'settings.json'), JSON.stringify(settings, null, 2));
  writeFileSync(join(dir, 'answers.yaml'), [
    'answers:',
    '  - tool_calls: [{name: Bash, arguments: {command: "rm -rf build", description: Remove the build folder}}]',
    '  - content: The hook blocked it, so build/ stays.',
    '  - content: There are no tests in this folder.',
    '',
  ].join('\n'));
  return { dir, project: proj };
}

function runClaude(dir, proj, url) {
  return promisify(execFile)(claude, ['-p', 'clean the build folder', '--allowedTools', 'Bash'], {
    cwd: proj, timeout: 180000,
    env: { ...process.env, HOME: join(dir, 'home'), ANTHROPIC_BASE_URL: url, ANTHROPIC_API_KEY: 'sk-ant-e2e-never-shown', CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1', DISABLE_AUTOUPDATER: '1' },
  });
}

// Runs hookctl capture until the agent's three requests are answered.
async function captureClaude(dataDir) {
  const { dir, project: proj } = project();
  const cap = spawn(hookctl, ['capture', '--answers', join(dir, 'answers.yaml'), '--max-requests', '3', '--db', join(dataDir, 'history.db'), '--json', join(dir, 'capture.json')], { stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  cap.stderr.on('data', (d) => { log += d; });
  const url = await new Promise((ok, fail) => {
    let out = '';
    cap.stdout.on('data', (d) => {
      out += d;
      const m = out.match(/^listening on (\S+)\n/);
      if (m) ok(m[1]);
    });
    cap.on('exit', (code) => fail(new Error(`hookctl capture exited ${code}: ${log}`)));
  });
  const exited = new Promise((ok) => cap.on('exit', ok));
  await runClaude(dir, proj, url);
  assert.equal(await exited, 0, `hookctl capture: ${log}`);
}

test('a real Claude Code session, captured, opens in the views with its hooks', async () => {
  const dataDir = tempDir('hs-data-');
  await captureClaude(dataDir);
  const backend = await startBackend({ dataDir });
  const browser = await startBrowser();
  try {
    const { page } = browser;
    await page.goto(backend.url);
    await page.waitForSelector('[role="option"]');
    await page.keyboard.press('Control+h');
    await page.selectOption('select[aria-label="Source filter"]', 'capture');
    const row = page.locator('[data-testid="run-1"]');
    await row.waitFor();
    assert.match(await row.textContent(), /capture: clean the build folder/);
    await row.getByText('Open', { exact: true }).click();
    await page.getByTestId('readonly-banner').waitFor();
    // drawn on Claude Code's loop — the agent its calls came from — not on seed 000's flowchart
    const flow = page.locator('.centre .flow');
    assert.equal(await flow.getAttribute('data-loop'), 'claude-code');
    assert.equal(await flow.locator('.node.is-cp').count(), 0);

    // the visibility matrix: the agent's three hooks, with the calls that saw their text
    const matrix = page.locator('.bottom');
    for (const hook of ['UserPromptSubmit', 'PreToolUse:Bash', 'Stop']) {
      await matrix.locator('tr, [role="row"]').filter({ hasText: hook }).first().waitFor();
    }
    // the last call: what the model read from each hook, in Claude Code's words
    await page.getByText('LLM call #3', { exact: true }).click();
    const messages = page.locator('section[aria-label="Messages at the cursor"]');
    await messages.getByText('What LLM call #3 receives').waitFor();
    assert.equal(await flow.locator('.node.is-current').getAttribute('data-node'), 'model');
    // the hooks, seen by their words, at their events: the way the request went through the loop
    const visited = await flow.locator('.node.is-visited').evaluateAll((ns) => ns.map((n) => n.getAttribute('data-node')));
    for (const n of ['UserPromptSubmit', 'PreToolUse', 'Stop']) assert.ok(visited.includes(n), `${n} passed (${visited.join(', ')})`);
    const list = messages.locator('section[aria-label="Message list"]');
    const texts = async () => (await list.locator('.msg').allTextContents()).join('\n');
    // the list is virtualised: scroll to its end
    await list.evaluate((el) => { const s = el.querySelector('.vlist') ?? el; s.scrollTop = s.scrollHeight; });
    await messages.getByText(/Stop hook feedback/).first().waitFor();
    const all = await texts();
    assert.match(all, /PreToolUse:Bash hook error: \[.*\]: blocked: build\/ is shared with CI/s);
    assert.match(all, /hook Stop · agent[\s\S]*Run the tests before you stop\./);
    assert.ok(!(await page.content()).includes('sk-ant-e2e-never-shown'), 'the CLI\'s key is on screen');
    await screenshot(page, 'capture.png');
  } finally {
    await browser.close();
    await backend.stop();
  }
});

test('the app captures a real Claude Code session: the lines to paste, each request with its hooks, kept in the history', async () => {
  const { dir, project: proj } = project();
  const app = await openApp();
  try {
    const { page } = app;
    await page.getByTestId('capture-open').click();
    await page.getByTestId('capture-answers').fill(join(dir, 'answers.yaml'));
    await page.getByTestId('capture-start').click();
    // Claude Code's recipe first: its variables, its command, why a hook may not run
    const line = await page.getByTestId('capture-line-0').textContent();
    const url = line.match(/^export ANTHROPIC_BASE_URL=(\S+)/)[1];
    assert.match(await page.getByTestId('capture-line-1').textContent(), /^claude -p /);
    assert.match(await page.getByTestId('capture-trap').textContent(), /Hook did not run\?/);
    // Codex's: the config file's content, with this capture's URL
    await page.getByTestId('capture-agent').selectOption('codex');
    assert.match(await page.getByTestId('capture-file').textContent(), new RegExp(`base_url = "${url}/v1"`));
    assert.match(await page.getByTestId('capture-trap').textContent(), /--dangerously-bypass-hook-trust/);
    await screenshot(page, 'capture-recipe.png');
    await page.getByTestId('capture-agent').selectOption('');
    assert.match(await page.getByTestId('capture-line-1').textContent(), new RegExp(`^OPENAI_BASE_URL=${url}/v1 `));
    await page.getByTestId('capture-agent').selectOption('claude-code');
    await runClaude(dir, proj, url);
    await page.getByTestId('capture-call-2').waitFor();
    assert.match(await page.getByTestId('capture-call-1').textContent(), /PreToolUse:Bash/);
    assert.match(await page.getByTestId('capture-call-2').textContent(), /Stop/);
    await page.getByTestId('capture-stop').click();
    assert.match(await page.getByTestId('capture-kept').textContent(), /run #\d+/);
    await page.getByText('Open in History').click();
    await page.selectOption('select[aria-label="Source filter"]', 'capture');
    await page.locator('[role="row"]').filter({ hasText: 'capture: clean the build folder' }).first().waitFor();
    assert.ok(!(await page.content()).includes('sk-ant-e2e-never-shown'), 'the CLI\'s key is on screen');
  } finally {
    await app.close();
  }
});

test('the app is the model: a real Claude Code session waits for each answer typed in the dialog', async () => {
  const { dir, project: proj } = project();
  const app = await openApp();
  try {
    const { page } = app;
    await page.getByTestId('capture-open').click();
    await page.getByTestId('capture-manual').check();
    await page.getByTestId('capture-start').click();
    const url = (await page.getByTestId('capture-line-0').textContent()).match(/^export ANTHROPIC_BASE_URL=(\S+)/)[1];
    const agent = runClaude(dir, proj, url);
    // 1: the model calls Bash; the project's PreToolUse hook blocks it
    const pending = page.getByTestId('capture-pending');
    await pending.getByText('Request #1 waits for your answer').waitFor();
    assert.match(await pending.textContent(), /hook UserPromptSubmit/);
    await page.getByTestId('capture-tool').selectOption('Bash');
    await page.getByTestId('capture-args').fill('{"command": "rm -rf build", "description": "Remove build"}');
    await page.getByTestId('capture-send').click();
    // 2: the block's text is what the model reads next
    await pending.getByText('Request #2 waits for your answer').waitFor();
    assert.match(await pending.textContent(), /hook PreToolUse:Bash[\s\S]*blocked: build\/ is shared with CI/);
    await page.getByTestId('capture-reply').fill('The hook blocked it.');
    await page.getByTestId('capture-send').click();
    // 3: the Stop hook sends the model back to work once
    await pending.getByText('Request #3 waits for your answer').waitFor();
    assert.match(await pending.textContent(), /Run the tests before you stop\./);
    await page.getByTestId('capture-reply').fill('There are no tests here.');
    await page.getByTestId('capture-reply').press('Control+Enter');
    await agent;
    await page.getByTestId('capture-call-2').waitFor();
    await page.getByTestId('capture-stop').click();
    await page.getByTestId('capture-kept').waitFor();
  } finally {
    await app.close();
  }
});
