// End-to-end: Export for… and "run under another agent" (issue 30), against the real Go backend in
// Debian's Chromium. The claude-guard example (a Claude Code plugin) is exported for Codex: the
// dialog names the skill-scoped hook that cannot carry over at its SKILL.md position, previews
// .codex/hooks.json, writes nothing until confirmed, then writes the files with executable scripts
// beside the plugin; again, nothing is left to write; a script changed on disk is never overwritten
// until "replace the files in the way" is ticked. In History, the release run is played under another
// agent whose hook system this build hosts and the two runs are compared.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { openApp, screenshot, until } from './harness.mjs';

const SCENARIO = 'claude-guard/scenarios/release.yaml';

let app;
let page;

before(async () => {
  app = await openApp();
  ({ page } = app);
});

after(async () => {
  await app?.close();
});

test('Export for Codex: what cannot carry over at its position, written only on confirm, never over a file in the way', async () => {
  await page.evaluate((f) => window.go.bind.Studio.SelectScenario(f), SCENARIO);
  await app.waitTrace((v) => v.file === SCENARIO, 'the release scenario');
  const out = join(app.backend.skillsDir, 'claude-guard-codex');

  await page.getByTestId('export-open').click();
  const dialog = page.getByTestId('export-dialog');
  await dialog.waitFor();
  // the open scenario's folder comes first once the page has the new selection; chosen here, not raced
  await dialog.getByLabel('Folder to convert').selectOption('claude-guard');
  await dialog.getByLabel('Agent to write for').selectOption('codex');
  const diags = dialog.getByTestId('export-diagnostics');
  await until(() => diags.textContent(), (t) => /claude-guard\/skills\/release\/SKILL\.md:\d+:\d+/.test(t ?? ''), 'the skill-scoped hook at its position');
  assert.match(await diags.textContent(), /not carried over to Codex/);
  const preview = dialog.getByTestId('export-preview');
  assert.match(await preview.getAttribute('aria-label'), /^\.codex\/hooks\.json/);
  const hooks = JSON.parse(await preview.textContent());
  assert.ok(hooks.hooks.PreToolUse, await preview.textContent());
  assert.match(await dialog.locator('h3 code').textContent(), /^claude-guard-codex$/);
  assert.equal(existsSync(out), false, 'the dialog wrote before it was confirmed');
  await screenshot(page, 'export-for.png');

  await dialog.getByTestId('export-write').click();
  await page.getByTestId('toast').filter({ hasText: 'for Codex into claude-guard-codex' }).waitFor();
  await dialog.waitFor({ state: 'detached' });
  assert.deepEqual(JSON.parse(readFileSync(join(out, '.codex/hooks.json'), 'utf8')), hooks);
  assert.ok(statSync(join(out, '.codex/hooks/guard.sh')).mode & 0o100, 'the guard is executable');

  // again: every file as the conversion writes it, nothing to write
  await page.keyboard.press('Control+Shift+E');
  await dialog.waitFor();
  await dialog.getByLabel('Folder to convert').selectOption('claude-guard');
  await dialog.getByLabel('Agent to write for').selectOption('codex');
  const write = dialog.getByTestId('export-write');
  await until(() => write.textContent(), (t) => t === 'Nothing to write', 'nothing left to write');

  // a script changed on disk: shown in the way, kept until replacing is asked for
  writeFileSync(join(out, '.codex/hooks/guard.sh'), '#!/bin/sh\nexit 0\n');
  await dialog.getByLabel('Layout').selectOption('project'); // converts again
  const conflicts = dialog.getByTestId('export-conflicts');
  await until(() => conflicts.textContent().catch(() => ''), (t) => t.includes('.codex/hooks/guard.sh'), 'the script in the way');
  assert.equal(await write.isDisabled(), true);
  await dialog.getByTestId('export-force').check();
  await until(() => write.isDisabled(), (d) => !d, 'writing allowed once replacing is asked for');
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'detached' });
  assert.equal(readFileSync(join(out, '.codex/hooks/guard.sh'), 'utf8'), '#!/bin/sh\nexit 0\n', 'closing the dialog wrote');
});

test('History: the release run under another agent, compared with the run', async () => {
  await page.evaluate((f) => window.go.bind.Studio.SelectScenario(f), SCENARIO);
  await page.getByTestId('trust-folder').click();
  await app.waitSimulated((v) => v.file === SCENARIO && v.exec?.ran && v.agent, 'the trusted release run');
  const { targets } = await page.evaluate(() => window.go.bind.Studio.ConvertChoices());
  const hosted = targets.filter((t) => t.hosted && t.agent !== 'claude-code');
  const under = hosted[0] ?? targets.find((t) => t.agent === 'claude-code'); // main hosts Claude Code's alone so far

  await page.keyboard.press('Control+h');
  await page.waitForSelector('[data-testid="history-view"]');
  const runs = await until(() => page.evaluate(() => window.go.bind.History.Runs({ scenario: 'release', limit: 20 })),
    (rs) => rs.some((r) => r.agent?.startsWith('claude-code@')), 'the trusted run in the history');
  const run = runs.find((r) => r.agent?.startsWith('claude-code@'));
  await page.getByTestId(`run-${run.id}`).click();
  const pick = page.getByTestId('render-under');
  await pick.waitFor();
  for (const t of targets.filter((x) => x.agent !== 'claude-code')) {
    assert.equal(await pick.locator(`option[value="${t.agent}"]`).isDisabled(), !t.hosted, t.agent);
  }
  if (under.agent === 'claude-code') {
    // the run's own agent is not offered: play it through the binding, as a second agent would be
    const id = await page.evaluate((f) => window.go.bind.Studio.RenderUnder(f, 'claude-code'), SCENARIO);
    assert.ok(id > run.id);
    return;
  }
  await pick.selectOption(under.agent);
  await page.getByTestId('compare-agents').waitFor({ timeout: 60000 });
  assert.match(await page.getByTestId('compare-agents').textContent(), /where each agent puts these hooks' words/);
  await screenshot(page, 'run-under-compare.png');
});
