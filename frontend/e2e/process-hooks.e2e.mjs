// End-to-end: PicoClaw process hooks (seed 003) in the app, against the real Go backend in Debian's
// Chromium. The plugin-tools example's Python hook denies `rm -rf /` through hook.approve_tool:
// trust the folder, break on the hook until the cursor stands on that denial, and read the exact
// JSON-RPC request and answer at that step, then the denial the model reads in the tool message.
// HOOKSTUDIO_SCREENSHOTS=DIR saves a screenshot of that step there.
import assert from 'node:assert/strict';
import { cpSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { openApp, repo, tempDir, screenshot } from './harness.mjs';

let app;
let page;
let root;

before(async () => {
  root = tempDir('hs-proc-');
  cpSync(join(repo, 'skills/plugin-tools'), join(root, 'plugin-tools'), { recursive: true });
  app = await openApp();
  ({ page } = app);
});

after(async () => {
  await app?.close();
});

const denial = (v) => v.steps.find((s) => s.hook_call?.event === 'hook.approve_tool' && s.hook_call.outcome === 'denied');

test('a process hook denies a tool; its JSON-RPC request and answer are visible at that step', async () => {
  await page.evaluate((r) => window.go.bind.Studio.OpenFolder(r), root);
  await app.waitTrace((v) => v.scenario === 'plugin-tools' && !v.pending, 'the untrusted simulation');
  const banner = page.getByTestId('trust-banner');
  await banner.waitFor();
  const commands = await banner.locator('.trust-cmd').allTextContents();
  assert.ok(commands.some((c) => c.includes('python3') && c.includes('hook.py')), `commands listed: ${commands.join(' | ')}`);

  await page.getByTestId('trust-folder').click();
  await banner.waitFor({ state: 'detached' });
  const v = await app.waitTrace((x) => !x.pending && x.exec?.ran && denial(x), 'the simulation with the process hook');
  assert.equal(v.status, 'ok', v.error);
  const denied = denial(v);
  assert.equal(denied.hook_call.system, 'process');
  assert.equal(denied.hook_call.hook, 'plugin_tools');

  // Break on every invocation of the hook and continue until the cursor stands on the denial.
  await page.getByLabel('breakpoint on process/plugin_tools').first().click(); // one row per intercepted method, one breakpoint
  await page.keyboard.press('Control+Shift+F5');
  const row = page.locator('.step.is-cursor');
  let text = '';
  for (let i = 0; i < 80 && !/hook\.approve_tool[\s\S]*denied/.test(text); i++) {
    await page.keyboard.press('F5');
    await page.getByTestId('status').getByText('paused at breakpoint (exec process/plugin_tools)').waitFor();
    text = await row.textContent();
  }
  assert.match(text, /hook\.approve_tool[\s\S]*plugin_tools[\s\S]*denied/);

  // The exact JSON-RPC request the hook received and the answer it gave.
  await page.getByTestId('hookcall-detail').waitFor();
  const request = JSON.parse(await page.getByTestId('hookcall-input').textContent());
  assert.equal(request.jsonrpc, '2.0');
  assert.equal(request.method, 'hook.approve_tool');
  assert.match(JSON.stringify(request.params), /rm -rf \//);
  const answer = JSON.parse(await page.getByTestId('hookcall-output').textContent());
  assert.equal(answer.id, request.id, 'the answer is matched to its request');
  assert.equal(answer.result?.approved, false);
  assert.ok(answer.result?.reason, 'the hook gives a reason');

  await screenshot(page, 'process-hooks.png');

  // Its effect: the tool call denied, and the model reads the reason in the tool message.
  await page.getByTestId('hookcall-diff').getByText('denied', { exact: true }).first().waitFor();
  const tool = v.steps.find((s) => s.kind === 'tool_call' && s.index > denied.index);
  assert.equal(tool.tool, 'run_command');
  const toolMessage = v.messages.find((m) => m.id === tool.added[0]);
  assert.equal(toolMessage.role, 'tool');
  assert.ok(toolMessage.content.includes(answer.result.reason), `the model reads the denial: ${toolMessage.content}`);
});

test('the folder follows PicoClaw\'s document instead of its code: the setting is written and the trace says what differs', async () => {
  const before = await app.trace();
  const pick = page.getByTestId('host-behaviour');
  assert.equal(await pick.inputValue(), 'code', 'PicoClaw\'s code is the default');
  await pick.selectOption('document');
  const v = await app.waitTrace((x) => !x.pending && x.revision > before.revision && x.exec?.ran, 'the simulation under the document');
  assert.match(readFileSync(join(root, '.hookstudio/settings.yaml'), 'utf8'), /host_behaviour: document/);
  const noted = v.steps.filter((s) => s.hook_call?.other);
  assert.ok(noted.length > 0, 'hook calls say what PicoClaw\'s code would do instead');
  await pick.selectOption('code');
  await app.waitTrace((x) => !x.pending && x.revision > v.revision, 'the simulation under the code again');
  assert.match(readFileSync(join(root, '.hookstudio/settings.yaml'), 'utf8'), /host_behaviour: code/);
});
