// A controlled run against the real backend (seed 002): the run pauses for the approval of a
// dangerous tool, the dialog shows the exact call, why and a countdown that runs; the user denies
// with feedback, and the run goes on with the denial in the tool message the model reads next.
// HOOKSTUDIO_SCREENSHOTS=DIR saves approval.png there.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { openApp, tempDir, screenshot } from './harness.mjs';

let app;
let root;

before(async () => {
  root = tempDir('hs-ops-');
  mkdirSync(join(root, 'ops', 'hooks'), { recursive: true });
  mkdirSync(join(root, 'ops', 'scenarios'));
  writeFileSync(join(root, 'ops', 'hooks', 'hooks.json'), JSON.stringify({ hooks: [] }));
  writeFileSync(join(root, 'ops', 'scenarios', 'restart.yaml'), [
    'name: restart',
    'tools:',
    '  - {name: run_command, description: Run a shell command on the production host.}',
    '  - {name: read_file, description: Read a file.}',
    'approval:',
    '  tools: [run_command]',
    '  timeout_ms: 60000',
    'requests:',
    '  - user: The API returns 502s. Fix it.',
    '    planning: {need_tool: true, content: restart it}',
    '    rounds:',
    '      - tool_calls: [{name: run_command, arguments: {command: sudo systemctl restart api}, result: restarted}]',
    '      - tool_calls: [{name: read_file, arguments: {path: /var/log/api/error.log}, result: "bind: address already in use"}]',
    '      - content: The old process still holds port 8080.',
    '',
  ].join('\n'));
  app = await openApp();
});

after(async () => {
  await app?.close();
});

test('a run pauses for approval, the countdown runs, a denial reaches the model', async () => {
  const { page } = app;
  await page.evaluate((r) => window.go.bind.Studio.OpenFolder(r), root);
  await app.waitTrace((v) => v.scenario === 'restart', 'the restart scenario');

  await page.getByTestId('ops-toggle').click();
  await page.getByTestId('ops-start').click();
  const dialog = page.getByTestId('approval-dialog');
  await dialog.waitFor();
  assert.match(await page.getByTestId('approval-call').textContent(), /run_command\(\{\s*"command": "sudo systemctl restart api"\s*\}\)/);
  assert.match(await page.getByTestId('approval-reason').textContent(), /requires approval: run_command/);
  assert.equal(await page.getByTestId('ops-state').textContent(), 'running');

  // The countdown shows and runs.
  const seconds = async () => Number((await page.getByTestId('approval-countdown').textContent()).match(/^(\d+) s left/)[1]);
  const first = await seconds();
  assert.ok(first > 50 && first <= 60, `countdown starts at ${first} s`);
  await page.waitForFunction((s) => {
    const m = document.querySelector('[data-testid="approval-countdown"]').textContent.match(/^(\d+) s left/);
    return m && Number(m[1]) < s;
  }, first, { timeout: 30000 });
  // The backend agrees: the approval is pending with the same call.
  const pending = await page.evaluate(() => window.go.bind.Ops.PendingApproval());
  assert.equal(pending.tool, 'run_command');
  assert.equal(pending.arguments.command, 'sudo systemctl restart api');

  // The views follow the run to the approval: the step cursor is at the approval's step (the
  // last step of the run so far), and the message list is what the run has at that point.
  await page.waitForFunction((at) => document.querySelector('.steps [aria-selected="true"]')?.getAttribute('data-testid') === `step-${at}`, pending.step);
  const status = await page.getByTestId('status').getAttribute('title') ?? '';
  assert.doesNotMatch(await page.locator('.dbg-info').textContent(), /step 1\//, `the view left at the first step (${status})`);
  await page.locator('section.right .msg').first().waitFor();
  // The open dock lies over the bottom panel, not over the message list.
  const overlap = (a, b) => a && b && a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
  const dock = await page.getByTestId('ops-dock').boundingBox();
  const right = await page.locator('section.right').boundingBox();
  assert.ok(!overlap(dock, right), `the dock ${JSON.stringify(dock)} covers the message list ${JSON.stringify(right)}`);

  await screenshot(page, 'approval.png');
  await page.getByTestId('approval-feedback').fill('Find the cause first; do not restart production.');
  await page.getByTestId('approval-deny').click();
  await dialog.waitFor({ state: 'detached' });

  // The run goes on and ends; the model read the denial in the tool message.
  await page.waitForFunction(() => document.querySelector('[data-testid="ops-state"]')?.textContent === 'ended: ok', null, { timeout: 30000 });
  const rows = page.locator('[data-testid="event-row"][data-type="TOOL_OBSERVATION"]');
  await rows.first().waitFor();
  assert.match(await rows.first().textContent(), /denied by the user: Find the cause first; do not restart production\./);
  const decision = page.locator('[data-testid="event-row"][data-type="APPROVAL_DECISION"]');
  assert.match(await decision.first().textContent(), /denied/);

  // The run's trace is in the simulator: a click on the observation moves the step cursor to the
  // tool message, and the message list the model receives next shows the denial.
  const denial = 'Tool call run_command was denied by the user: Find the cause first; do not restart production.';
  await rows.first().click();
  const messages = page.locator('section[aria-label="Messages at the cursor"]');
  await messages.getByText(denial).first().waitFor({ timeout: 30000 });

  // The History view is not covered by the dock: it is not shown there at all.
  await page.keyboard.press('Control+h');
  await page.locator('.history').waitFor();
  assert.equal(await page.getByTestId('ops-dock').count(), 0, 'the controlled run dock shows over the History view');
  await page.keyboard.press('Control+h');
  await page.getByTestId('ops-toggle').waitFor();
});
