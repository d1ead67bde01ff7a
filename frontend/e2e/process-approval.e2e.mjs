// End-to-end: Run with approvals (seed 002) runs the folder's executable hooks as the live
// simulation does. In the trusted plugin-tools example's with-approval scenario the Python
// process hook's hook.approve_tool decides first — it refuses `rm -rf /` itself, so nobody is
// asked — and approves `make clean`; the run then stops at that approval and asks the user, with
// the hook's answer beside the question. The user's denial is the tool message the model reads.
// Untrusted, the run starts nothing and says so. HOOKSTUDIO_SCREENSHOTS=DIR saves
// approval-process-hook.png and approval-untrusted.png there.
import assert from 'node:assert/strict';
import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { openApp, repo, tempDir, screenshot } from './harness.mjs';

let app;
let page;
let root;

before(async () => {
  root = tempDir('hs-procapp-');
  cpSync(join(repo, 'skills/plugin-tools'), join(root, 'plugin-tools'), { recursive: true });
  app = await openApp();
  ({ page } = app);
});

after(async () => {
  await app?.close();
});

const scenario = 'plugin-tools/scenarios/with-approval.yaml';

test('a controlled run stops at the process hook\'s approval and the user\'s denial reaches the model', async () => {
  await page.evaluate((r) => window.go.bind.Studio.OpenFolder(r), root);
  await app.waitTrace((v) => v.scenario === 'plugin-tools' && !v.pending, 'the folder\'s first scenario');
  await page.getByTestId('scenario-picker').click();
  await page.click('.scenario-item >> text=with-approval');
  await app.waitTrace((v) => v.file === scenario && !v.pending, 'the untrusted simulation');

  // Untrusted, a controlled run starts nothing and says so, as the simulation does: with no hook
  // to refuse it, the policy asks about rm -rf itself. Cancel ends it there.
  await page.getByTestId('ops-toggle').click();
  await page.getByTestId('ops-start').click();
  await page.getByTestId('approval-dialog').waitFor();
  assert.match(await page.getByTestId('approval-call').textContent(), /rm -rf \/ --no-preserve-root/);
  assert.equal(await page.getByTestId('approval-hook').count(), 0);
  assert.match(await page.getByTestId('ops-hooks-not-run').textContent(), /folder not trusted/);
  await screenshot(page, 'approval-untrusted.png');
  await page.keyboard.press('Shift+F6'); // the dialog covers the dock: the shortcut cancels
  await page.waitForFunction(() => document.querySelector('[data-testid="ops-state"]')?.textContent?.startsWith('ended: cancelled'), null, { timeout: 30000 });
  await page.getByTestId('ops-toggle').click();

  await page.getByTestId('trust-folder').click();
  await page.getByTestId('trust-banner').waitFor({ state: 'detached' });
  await app.waitTrace((v) => v.scenario === 'plugin-tools-with-approval' && !v.pending && v.exec?.ran, 'the simulation with the process hook');

  await page.getByTestId('ops-toggle').click();
  await page.getByTestId('ops-start').click();
  const dialog = page.getByTestId('approval-dialog');
  await dialog.waitFor();
  // The hook refused rm -rf itself: the one question is about the command it approved.
  assert.match(await page.getByTestId('approval-call').textContent(), /run_command\(\{\s*"command": "make clean"\s*\}\)/);
  assert.match(await page.getByTestId('approval-reason').textContent(), /requires approval: run_command/);
  const hooks = await page.getByTestId('approval-hook').allTextContents();
  assert.ok(hooks.some((h) => /plugin_tools\s*hook\.approve_tool\s*ok\s*\{"approved":true\}/.test(h)), `the hooks' answers shown: ${hooks.join(' | ')}`);
  assert.equal(await page.getByTestId('ops-hooks-not-run').count(), 0, 'the dock says the hooks take no part');

  // The views follow the run to where it waits: the process hook's approval, its JSON-RPC
  // request and answer in the step list.
  const pending = await page.evaluate(() => window.go.bind.Ops.PendingApproval());
  assert.equal(pending.arguments.command, 'make clean');
  await page.waitForFunction((at) => document.querySelector('.steps [aria-selected="true"]')?.getAttribute('data-testid') === `step-${at}`, pending.step);
  const row = await page.locator(`[data-testid="step-${pending.step}"]`).textContent();
  assert.match(row, /hook\.approve_tool[\s\S]*plugin_tools/, `the step the run waits at: ${row}`);

  await screenshot(page, 'approval-process-hook.png');
  await page.getByTestId('approval-feedback').fill('Not now, the release build is still running.');
  await page.getByTestId('approval-deny').click();
  await dialog.waitFor({ state: 'detached' });

  await page.waitForFunction(() => document.querySelector('[data-testid="ops-state"]')?.textContent === 'ended: ok', null, { timeout: 30000 });
  const asked = page.locator('[data-testid="event-row"][data-type="APPROVAL_REQUESTED"]');
  assert.equal(await asked.count(), 1, 'the hook\'s refusal asked nobody');
  assert.match(await asked.first().textContent(), /after [^·]*plugin_tools hook\.approve_tool: ok/);
  const observations = page.locator('[data-testid="event-row"][data-type="TOOL_OBSERVATION"]');
  const texts = await observations.allTextContents();
  assert.ok(texts.some((t) => /denied by approval hook: Refused by plugin_tools/.test(t)), `observations: ${texts.join(' | ')}`);
  const denial = 'Tool call run_command was denied by the user: Not now, the release build is still running.';
  const i = texts.findIndex((t) => t.includes(denial));
  assert.ok(i >= 0, `the user's denial is no tool observation: ${texts.join(' | ')}`);

  // The model reads it: the message list at that step shows the denial.
  await observations.nth(i).click();
  const messages = page.locator('section[aria-label="Messages at the cursor"]');
  await messages.getByText(denial).first().waitFor({ timeout: 30000 });
});
