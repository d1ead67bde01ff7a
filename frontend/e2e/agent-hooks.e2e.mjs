// End-to-end: other agents' hooks in the app, against the real Go backend in Debian's Chromium.
// A project with the "why didn't my hook run" mistakes of Gemini CLI and Copilot CLI: the Problems list
// names each before any run. skills/gemini-guard (a Gemini CLI extension) opens with its hooks as rows
// of its skill, each with the Gemini CLI badge; trusted, its guard blocks the `rm -rf` in the step list
// under that badge.
// Clicking the guard opens the extension's hooks/hooks.json raw (not seed 000's form) with completion
// from its schema and the backend's lint as you type: Claude Code's PreToolUse typed in is flagged at
// its line and in the Problems list.
// skills/copilot-guard (a Copilot CLI plugin) opens on its hooks.json.
// HOOKSTUDIO_SCREENSHOTS=DIR saves gemini-guard.png and agent-problems.png there.
import assert from 'node:assert/strict';
import { chmodSync, cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { openApp, repo, screenshot, tempDir, until } from './harness.mjs';

let app;
let page;

before(async () => {
  app = await openApp();
  ({ page } = app);
});

after(async () => {
  await app?.close();
});

// a Gemini CLI project and a Copilot CLI repository in one folder, each with a hook that never does what it means
const SETTINGS = `{
  "model": {"name": "gemini-2.5-pro"},
  "hooks": {
    "PreToolUse": [
      {"matcher": "run_shell_command", "hooks": [{"type": "command", "command": "echo never"}]}
    ],
    "AfterTool": [
      {"matcher": "write_file", "hooks": [{"type": "command", "name": "note", "command": "$GEMINI_PROJECT_DIR/.gemini/hooks/note.sh"}]}
    ]
  }
}
`;
const COPILOT = `{
  "version": 1,
  "hooks": {
    "preToolUse": [
      {"type": "command", "bash": "./.github/hooks/guard.sh", "timeoutSec": 10}
    ]
  }
}
`;

test("why a hook would not run, before any run: Gemini CLI's plain stdout and another agent's event, Copilot CLI's repository hooks in -p", async () => {
  const root = tempDir('hs-why-');
  const put = (rel, text, mode = 0o644) => {
    mkdirSync(join(root, rel, '..'), { recursive: true });
    writeFileSync(join(root, rel), text);
    chmodSync(join(root, rel), mode);
  };
  put('.gemini/settings.json', SETTINGS);
  put('.gemini/hooks/note.sh', '#!/bin/sh\necho "This project checks every change with: npm test"\n', 0o755);
  put('.github/hooks/guard.json', COPILOT);
  put('.github/hooks/guard.sh', '#!/bin/sh\nexit 0\n', 0o755);
  await page.evaluate((r) => window.go.bind.Studio.OpenFolder(r), root);
  const state = await app.waitState((s) => s.root === root && s.diagnostics.length >= 3, "the folder's diagnostics");
  const codes = state.diagnostics.map((d) => `${d.file}:${d.line}:${d.column} ${d.code}`);
  for (const want of ['.gemini/settings.json:4:5 gemini-other-agent-event', '.gemini/settings.json:8:', '.github/hooks/guard.json:5:7 copilot-needs-trust']) {
    assert.ok(codes.some((c) => c.startsWith(want)), `${want} among ${codes.join(' | ')}`);
  }
  assert.ok(codes.some((c) => c.endsWith('gemini-plain-stdout')), codes.join(' | '));

  // the Problems list says each, with where and what to do
  await page.getByRole('tab', { name: /Problems/ }).click();
  const list = page.locator('.bottom .diags');
  for (const code of ['gemini-other-agent-event', 'gemini-plain-stdout', 'copilot-needs-trust']) {
    await list.locator('.diag', { has: page.locator('.code', { hasText: code }) }).waitFor();
  }
  const text = await list.textContent();
  assert.match(text, /Gemini CLI calls it BeforeTool/);
  assert.match(text, /Gemini CLI shows plain stdout to the user/);
  assert.match(text, /copilot -p loads the repository's \.github\/hooks only with --trust-folder/);
  // the folder's hooks are rows of its own, each system's badge from the registry
  const folder = page.getByTestId('folder-hooks');
  await folder.locator('.sysbadge').first().waitFor();
  const badges = await folder.locator('.sysbadge').allTextContents();
  assert.ok(badges.includes('Gemini CLI') && badges.includes('Copilot CLI'), `badges: ${badges.join(', ')}`);
  await screenshot(page, 'agent-problems.png');
});

// openExample opens a folder holding a copy of skills/NAME on its release scenario; its skill's section
async function openExample(name) {
  const root = tempDir(`hs-${name}-`);
  cpSync(join(repo, 'skills', name), join(root, name), { recursive: true });
  await page.evaluate((r) => window.go.bind.Studio.OpenFolder(r), root);
  await app.waitTrace((v) => v.scenario === 'release' && !v.pending, 'the release scenario');
  return page.getByTestId(`skill-${name}`);
}

const guardCall = (v) => v.steps.find((s) => s.kind === 'hook_call' && s.hook_call?.system === 'gemini-cli' && s.hook_call.hook === 'guard' && s.hook_call.outcome === 'blocked');

test('skills/gemini-guard: its hooks are rows with the Gemini CLI badge, the guard blocks under it; its hooks.json raw with completion and lint', async () => {
  const skill = await openExample('gemini-guard');
  // the skills panel: the extension's three hooks, each a row of its skill with the Gemini CLI badge and its event
  const rows = skill.locator('.exec-hook');
  await rows.first().waitFor();
  assert.equal(await rows.count(), 3);
  assert.deepEqual(await skill.locator('.exec-hook .sysbadge').allTextContents(), ['Gemini CLI', 'Gemini CLI', 'Gemini CLI']);
  assert.deepEqual(await skill.locator('.exec-hook .exec-event').allTextContents(), ['BeforeTool', 'AfterTool', 'AfterAgent']);

  await page.getByTestId('trust-folder').click();
  await page.getByTestId('trust-banner').waitFor({ state: 'detached' });
  const v = await app.waitSimulated((x) => x.exec?.ran && guardCall(x), "the guard's blocked call");
  assert.equal(v.agent?.agent, 'gemini-cli');
  assert.match(guardCall(v).hook_call.source, /^gemini-guard\/hooks\/hooks\.json:6/);
  // the trace's step: the badge the registry gives Gemini CLI, the native event, "blocked"
  const row = page.locator('[data-testid="hook-call-row"]').filter({ has: page.locator('.sysbadge.sys-gemini-cli') }).first();
  await row.waitFor();
  assert.equal(await row.locator('.sysbadge').textContent(), 'Gemini CLI');
  assert.match(await row.textContent(), /BeforeTool:run_shell_command/);
  assert.equal(await row.locator('.outcome').getAttribute('data-outcome'), 'blocked');
  // at the guard's step: what the model reads of the blocked command, its toasts out of the way
  while (await page.getByTestId('hook-notice').count() > 0) await page.getByTestId('hook-notice').first().getByLabel('dismiss').click();
  await row.click();
  await page.getByRole('tab', { name: /Visibility matrix/ }).click();
  await screenshot(page, 'gemini-guard.png');

  // the guard's row opens the extension's hooks.json raw at its line: Gemini CLI's file, not seed 000's form
  await skill.locator('.exec-hook', { hasText: 'guard' }).first().locator('button.hook-name').click();
  const raw = page.getByTestId('config-editor');
  await raw.waitFor({ timeout: 30000 });
  assert.equal(await page.locator('[data-testid^="hook-row-"]').count(), 0, 'no seed 000 form');
  await until(() => raw.locator('.cm-content').textContent(), (t) => t.includes('"BeforeTool"'), 'the hooks.json text');

  // completion from the registry's schema of the kind: typing an event offers Gemini CLI's events
  await raw.locator('.cm-line').nth(1).click(); // '  "hooks": {'
  await page.keyboard.press('End');
  await page.keyboard.press('Enter');
  await page.keyboard.type('"Befor');
  const popup = page.locator('.cm-tooltip-autocomplete');
  await popup.waitFor();
  const offered = await popup.locator('li').allTextContents();
  assert.ok(offered.includes('"BeforeTool"') && offered.includes('"BeforeModel"') && offered.includes('"BeforeToolSelection"'), `offered: ${offered.join(', ')}`);
  await page.keyboard.press('Escape');

  // lint as you type: Claude Code's event name in a Gemini CLI file, at its line and in the Problems list
  for (let i = 0; i < 'Befor'.length; i++) await page.keyboard.press('Backspace');
  await page.keyboard.type('PreToolUse');
  await page.keyboard.press('End');
  await page.keyboard.type(': [],');
  const line = raw.locator('.cm-line').nth(2);
  await until(() => line.textContent(), (t) => t.trim() === '"PreToolUse": [],', 'the typed line');
  await line.locator('.cm-lintRange-warning').waitFor({ timeout: 30000 });
  const diag = page.locator('.raw-view .field-diags [data-code="gemini-other-agent-event"]');
  await diag.waitFor();
  assert.match(await diag.textContent(), /Gemini CLI calls it BeforeTool/);
  await page.getByRole('tab', { name: /Problems/ }).click();
  await page.locator('.bottom .diags .code', { hasText: 'gemini-other-agent-event' }).waitFor();
  await page.getByRole('button', { name: '← Skills' }).click();
});

test("skills/copilot-guard: a Copilot CLI plugin's rows with their badge; Edit opens the plugin's hooks.json raw", async () => {
  const skill = await openExample('copilot-guard');
  await skill.locator('.exec-hook').first().waitFor();
  const badges = await skill.locator('.exec-hook .sysbadge').allTextContents();
  assert.ok(badges.length > 0 && badges.every((b) => b === 'Copilot CLI'), `badges: ${badges.join(', ')}`);
  await page.getByLabel('edit skill copilot-guard').click();
  const raw = page.getByTestId('config-editor');
  await raw.waitFor({ timeout: 30000 });
  await until(() => raw.locator('.cm-content').textContent(), (t) => t.includes('"version": 1'), "the plugin's hooks.json");
  assert.equal(await page.locator('[data-testid^="hook-row-"]').count(), 0, 'no seed 000 form');
  assert.equal(await page.getByTestId('config-pane').getAttribute('aria-label'), 'Config copilot-guard/hooks.json');
});
