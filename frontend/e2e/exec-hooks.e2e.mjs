// End-to-end: command hooks (seed 001) in the app, against the real Go backend in Debian's Chromium.
// Open a folder holding the guard-rails example skill: nothing runs, the trust banner lists the
// exact commands. Trust it: the hooks run. Break on the pre_tool_execution guard, read the stdin
// and stdout it got and gave, edit the script on disk and see the re-simulated change.
// HOOKSTUDIO_SCREENSHOTS=DIR saves screenshots of the steps there.
import assert from 'node:assert/strict';
import { chmodSync, cpSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { openApp, repo, tempDir, screenshot } from './harness.mjs';

let app;
let page;
let root;

before(async () => {
  root = tempDir('hs-exec-');
  cpSync(join(repo, 'skills/guard-rails'), join(root, 'guard-rails'), { recursive: true });
  app = await openApp();
  ({ page } = app);
});

after(async () => {
  await app?.close();
});

const hookCalls = (v) => v.steps.filter((s) => s.kind === 'hook_call');
const guardStep = (v) => v.steps.find((s) => s.hook_call?.hook === 'block-rm-rf' && s.hook_call.input && JSON.stringify(s.hook_call.input).includes('rm -rf'));
async function shot(name, { quiet = false } = {}) {
  if (!process.env.HOOKSTUDIO_SCREENSHOTS) return;
  // the toasts cover the message list: a quiet screenshot dismisses them first
  while (quiet && await page.getByTestId('hook-notice').count() > 0) await page.getByTestId('hook-notice').first().getByLabel('dismiss').click();
  await page.waitForTimeout(300);
  await screenshot(page, name);
}

test('trust a folder, break on the pre_tool_execution guard, read its stdin and stdout, edit the script', async () => {
  await page.evaluate((r) => window.go.bind.Studio.OpenFolder(r), root);
  const untrusted = await app.waitTrace((v) => v.scenario === 'guarded-session' && !v.pending, 'the untrusted simulation');

  // Opening ran nothing: prompt hooks only, the banner lists exactly what would run.
  assert.equal(hookCalls(untrusted).length, 0, 'no hook ran before trust');
  assert.equal(untrusted.exec.not_run, 'folder not trusted');
  const banner = page.getByTestId('trust-banner');
  await banner.waitFor();
  const commands = await banner.locator('.trust-cmd').allTextContents();
  assert.ok(commands.some((c) => c.includes('block-rm-rf.sh')), `commands listed: ${commands.join(' | ')}`);
  assert.ok(commands.some((c) => c.includes('Reminder: run the tests')), 'the scenario\'s register_hook command is listed too');
  await page.getByTestId('exec-hook-block-rm-rf').waitFor();
  assert.ok(await page.getByTestId('exec-hook-block-rm-rf').getByText('not run').isVisible(), 'the skills panel marks the hook as not run');

  // Trust: the simulation runs the hooks in the background, then shows them.
  await page.getByTestId('trust-folder').click();
  await banner.waitFor({ state: 'detached' });
  const v = await app.waitTrace((x) => !x.pending && x.exec?.ran && hookCalls(x).length > 0, 'the simulation with hooks');
  assert.equal(v.status, 'ok', v.error);
  const guard = guardStep(v);
  assert.ok(guard, 'block-rm-rf ran on the rm -rf call');
  assert.equal(guard.hook_call.outcome, 'skipped');

  // Every hook in the visibility matrix: the messages command hooks added are their rows, with a
  // CMD badge, the calls that read them and their tokens (the matrix once said no hook reached any call).
  const execRows = v.matrix.hooks.map((h, i) => [h, v.matrix.systems?.[i], v.matrix.totals[i]]).filter(([, sys]) => sys === 'command');
  assert.ok(execRows.length > 0 && execRows.every(([, , tok]) => tok > 0), `matrix rows ${JSON.stringify(v.matrix.hooks)}`);
  const [firstHook] = execRows[0];
  const matrixRow = page.locator('table.matrix tbody tr').filter({ has: page.locator('.sysbadge') }).first();
  await matrixRow.waitFor();
  assert.match(await matrixRow.textContent(), new RegExp(firstHook.split('/')[1]));
  assert.ok(await matrixRow.locator('td.cell:not(.zero)').count() > 0, 'the row counts the calls that read the hook');

  // A breakpoint on the hook (skills panel gutter), restart, continue: paused at the guard.
  await page.getByLabel('breakpoint on command/block-rm-rf').click();
  await page.keyboard.press('Control+Shift+F5');
  await page.keyboard.press('F5');
  await page.getByTestId('status').getByText('paused at breakpoint (exec command/block-rm-rf)').waitFor();
  const row = page.locator('.step.is-cursor');
  assert.match(await row.textContent(), /pre_tool_execution\s*block-rm-rf\s*skipped/);

  // Its exact stdin and stdout, in the hook-call pane.
  const detail = page.getByTestId('hookcall-detail');
  await detail.waitFor();
  const stdin = JSON.parse(await page.getByTestId('hookcall-input').textContent());
  assert.equal(stdin.event ?? stdin.hook_event ?? 'pre_tool_execution', 'pre_tool_execution');
  assert.equal(stdin.tool_name, 'run_command');
  assert.match(JSON.stringify(stdin), /rm -rf build\//);
  const stdout = JSON.parse(await page.getByTestId('hookcall-output').textContent());
  assert.equal(stdout.action, 'skip');
  assert.equal(stdout.system_message, 'blocked: rm -rf');
  assert.ok(await detail.getByText('exit 0').isVisible());
  // the effect: the tool call skipped, and the model reads why
  await page.getByTestId('hookcall-diff').getByText('skipped', { exact: true }).waitFor();
  // the flowchart lights the hook at "run tools"
  assert.match(await page.getByTestId('flow-hook-caption').textContent(), /pre_tool_execution · block-rm-rf → skipped/);
  await shot('command-hooks.png', { quiet: true });

  // Edit the script on disk: it now answers with another message; the run is simulated again and
  // the cursor stays on the same hook call, showing the new output.
  const script = join(root, 'guard-rails/hooks/block-rm-rf.sh');
  writeFileSync(script, [
    '#!/bin/sh',
    'input=$(cat)',
    'if printf \'%s\' "$input" | grep -qE \'rm +-(rf|fr)\'; then',
    '  echo \'{"action": "skip", "system_message": "edited guard: rm -rf refused"}\'',
    'else',
    '  echo \'{}\'',
    'fi',
    '',
  ].join('\n'));
  chmodSync(script, 0o755);
  const next = await app.waitTrace((x) => !x.pending && x.revision > v.revision && guardStep(x)?.hook_call.output?.system_message === 'edited guard: rm -rf refused', 'the re-simulation after the edit');
  assert.ok(!next.steps[guardStep(next).index].hook_call.reused, 'an edited script is run again, not reused');
  await page.getByTestId('hookcall-output').getByText('edited guard: rm -rf refused', { exact: false }).waitFor();
  assert.equal(guardStep(next).hook_call.outcome, 'skipped');
  await page.getByTestId('hook-notice').getByText('edited guard: rm -rf refused', { exact: false }).waitFor();
  await shot('command-hooks-edited.png');

  // The Hook calls tab: every invocation, the failing and slow ones flagged, per-hook counters.
  await page.getByRole('tab', { name: /Hook calls/ }).click();
  await page.getByLabel('Per-hook metrics').getByText('block-rm-rf').waitFor();
  await shot('hook-calls-tab.png');
});

test('a slow hook shows progress and can be cancelled; the next edit runs again', async () => {
  const script = join(root, 'guard-rails/hooks/block-rm-rf.sh');
  const before = await app.trace();
  writeFileSync(script, '#!/bin/sh\ncat >/dev/null\nsleep 8\necho \'{}\'\n');
  // the run with the slow hook goes on in the background: progress, and the last view stays usable
  const progress = page.getByTestId('sim-progress');
  await progress.waitFor({ timeout: 30000 });
  await progress.getByText('pre_tool_execution', { exact: false }).or(progress.getByText('before_tool', { exact: false })).first().waitFor({ timeout: 30000 });
  await shot('progress.png');
  await page.getByTestId('sim-cancel').click();
  const cancelled = await app.waitTrace((x) => !x.pending && x.revision > before.revision, 'the cancelled run');
  assert.equal(cancelled.status, 'cancelled');
  await progress.waitFor({ state: 'detached' });
  // an edit while nothing runs: a fast guard again, a complete run
  writeFileSync(script, '#!/bin/sh\ncat >/dev/null\necho \'{"action": "skip", "system_message": "fast guard"}\'\n');
  const done = await app.waitTrace((x) => !x.pending && x.revision > cancelled.revision && x.status === 'ok', 'the run after the cancel');
  assert.equal(guardStep(done)?.hook_call.outcome, 'skipped');
});
