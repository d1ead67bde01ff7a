// End-to-end: Claude Code versions in the app (issue 27), against the real Go backend, Debian's
// Chromium and the real Claude Code 2.1.332 CLI of tools/agents (on the backend's PATH as `claude`).
// The claude-guard example (its scenario's agent: left out) renders as the installed CLI's version;
// the picker beside "hosts as" renders it as 2.1.197 instead, and the message list says so; Settings ▸
// Agents lists the CLI with its bundled profile and calibrates it, its progress shown, the same
// renderings found; History renders the run's scenario as the other version and compares the two.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { claudeGuardProject, claudeOnPath, openApp, screenshot, until } from './harness.mjs';

let app;
let page;
let root;

before(async () => {
  claudeOnPath();
  root = claudeGuardProject('hs-agents-', (text) => text.replace('agent: claude-code@2.1.332\n', ''));
  app = await openApp();
  ({ page } = app);
});

after(async () => {
  await app?.close();
});

const hookTexts = (v) => v.messages.filter((m) => m.origin === 'hook' && m.system === 'claude-code').map((m) => `${m.role}: ${m.content}`);

test('Claude Code versions: the installed CLI\'s by default, another picked beside "hosts as", calibrated in Settings ▸ Agents, compared in History', async () => {
  await page.evaluate((r) => window.go.bind.Studio.OpenFolder(r), root);
  await app.waitTrace((v) => v.scenario === 'release' && !v.pending, 'the release scenario');
  await page.getByTestId('trust-folder').click();
  const installed = await app.waitSimulated((v) => v.exec?.ran && v.agent, 'the trusted run');
  // request: where the run's request model came from (issue 33); none calibrated in this data folder yet
  const { request, ...agent } = installed.agent;
  assert.deepEqual(agent, { agent: 'claude-code', version: '2.1.332', by: 'installed' });
  assert.notEqual(request, 'calibrated');
  assert.ok(hookTexts(installed).some((t) => t.startsWith('system: PostToolUse:Edit hook additional context:')), hookTexts(installed).join('\n'));

  // the picker: automatic is the installed CLI's version; 2.1.197 renders the note as a reminder
  const pick = page.getByTestId('agent-version');
  await pick.waitFor();
  assert.equal(await pick.locator('option').first().textContent(), 'automatic (2.1.332)');
  await pick.selectOption('2.1.197');
  const older = await app.waitSimulated((v) => v.agent?.version === '2.1.197', 'the run rendered as 2.1.197');
  assert.equal(older.agent.by, 'flag');
  assert.ok(hookTexts(older).some((t) => t.startsWith('user: <system-reminder>\nPostToolUse:Edit hook additional context:')), hookTexts(older).join('\n'));
  await screenshot(page, 'agent-version.png');

  // Settings ▸ Agents: the installed CLI, its bundled profile; calibrate it, with its progress
  await page.click('[data-testid="run-open"]');
  await page.locator('[data-testid="run-panel"]').waitFor();
  await page.click('text=Endpoints…');
  const dialog = page.getByRole('dialog', { name: 'Model endpoints' });
  const row = dialog.getByTestId('agent-claude-code');
  await row.waitFor();
  assert.match(await row.textContent(), /2\.1\.332/);
  assert.equal(await row.locator('.agent-profile').textContent(), 'bundled');
  await dialog.getByTestId('calibrate-claude-code').click();
  const progress = dialog.getByTestId('calibration');
  await until(() => progress.textContent(), (t) => /request \d+ answered|starting/.test(t ?? ''), 'the calibration\'s progress', { ms: 60000 });
  await progress.scrollIntoViewIfNeeded();
  await screenshot(page, 'agent-calibrating.png');
  const done = await until(() => progress.textContent(), (t) => /Saved claude-code@2\.1\.332/.test(t ?? ''), 'the calibration saved', { ms: 180000 });
  assert.match(done, /The same renderings as claude-code@2\.1\.332/, done);
  await until(() => row.locator('.agent-profile').textContent(), (t) => t === 'calibrated', 'the profile now calibrated');
  await progress.scrollIntoViewIfNeeded();
  await screenshot(page, 'agents-settings.png');
  await dialog.getByRole('button', { name: 'Close', exact: true }).click();
  await page.getByRole('button', { name: 'Close run panel' }).click();

  // History: the run rendered as 2.1.197, rendered again as 2.1.332, the two compared
  await page.keyboard.press('Control+h');
  await page.waitForSelector('[data-testid="history-view"]');
  const runs = await page.evaluate(() => window.go.bind.History.Runs({ scenario: 'release', limit: 20 }));
  const run = runs.find((r) => r.agent === 'claude-code@2.1.197');
  assert.ok(run, `runs: ${runs.map((r) => `${r.id} ${r.agent}`).join(', ')}`);
  await page.getByTestId(`run-${run.id}`).click();
  const renderAs = page.getByTestId('render-as');
  await renderAs.waitFor();
  await renderAs.selectOption('2.1.332');
  const agents = page.getByTestId('compare-agents');
  await agents.waitFor({ timeout: 60000 });
  assert.equal(await agents.textContent(), 'rendered as claude-code@2.1.197 → claude-code@2.1.332: what this upgrade changes for these hooks');
  await page.getByTestId('changed-calls').waitFor();
  assert.notEqual(await page.getByTestId('changed-calls').textContent(), '0', 'the two renderings differ in some call');
  await screenshot(page, 'agent-upgrade-compare.png');
});
