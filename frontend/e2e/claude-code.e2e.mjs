// End-to-end: a Claude Code project in the app, against the real Go backend in Debian's Chromium.
// A folder with only .claude/settings.json (a PreToolUse guard on Bash, and a misspelt event) and a
// scenario in .hookstudio/scenarios/ opens like a skills folder: nothing runs until it is trusted;
// trusted, the guard's hook-call step is there with its Claude Code badge and "blocked". Clicking the
// handler in the skills panel opens the settings in the editor's form, and the raw view shows the
// misspelt event's diagnostic at its line; the form deletes that event and Ctrl+S saves the settings
// with their other keys as they were.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { openApp, projectDir, screenshot, until } from './harness.mjs';

let app;
let page;
let root;

// the settings file: line 9 holds the misspelt event
const SETTINGS = `{
  "model": "opus",
  "hooks": {
    "PreToolUse": [
      {"matcher": "Bash", "hooks": [
        {"type": "command", "command": "\\"$CLAUDE_PROJECT_DIR\\"/.claude/hooks/guard.sh"}
      ]}
    ],
    "PreToolUze": [
      {"hooks": [{"type": "command", "command": "echo never"}]}
    ]
  },
  "permissions": {"allow": ["Bash(ls:*)"]}
}
`;
const BAD_LINE = 9;

const GUARD = `#!/bin/sh
# Refuse recursive deletes: exit 2, the reason on stderr (Claude Code's blocking exit code).
if grep -q 'rm -rf'; then
  echo 'Recursive deletes are blocked' >&2
  exit 2
fi
exit 0
`;

const SCENARIO = `name: x
system_prompt: You are Claude Code, working in the user's repository.
tools:
  - name: Bash
    description: Run a shell command.
    parameters: {type: object, properties: {command: {type: string}}, required: [command]}
requests:
  - user: Clean the build folder.
    rounds:
      - tool_calls:
          - {name: Bash, arguments: {command: "rm -rf build/"}, result: ""}
      - content: The guard refused the delete.
`;

function project() {
  return projectDir('hs-claude-', { '.claude/settings.json': SETTINGS, '.claude/hooks/guard.sh': [GUARD, 0o755], '.hookstudio/scenarios/x.yaml': SCENARIO });
}

before(async () => {
  root = project();
  app = await openApp();
  ({ page } = app);
});

after(async () => {
  await app?.close();
});

const guardCall = (v) => v.steps.find((s) => s.kind === 'hook_call' && s.hook_call?.system === 'claude-code' && s.hook_call.event === 'PreToolUse:Bash');

test('a Claude Code project: trusted, its PreToolUse guard blocks; the settings open in the editor with the bad event linted at its line', async () => {
  await page.evaluate((r) => window.go.bind.Studio.OpenFolder(r), root);
  const untrusted = await app.waitTrace((v) => v.scenario === 'x' && !v.pending, 'the project\'s scenario');
  assert.equal(guardCall(untrusted), undefined, 'nothing ran before trust');
  assert.equal(untrusted.exec?.not_run, 'folder not trusted');
  const banner = page.getByTestId('trust-banner');
  await banner.waitFor();
  const commands = await banner.locator('.trust-cmd').allTextContents();
  assert.ok(commands.some((c) => c.includes('.claude/hooks/guard.sh')), `commands listed: ${commands.join(' | ')}`);

  await page.getByTestId('trust-folder').click();
  await banner.waitFor({ state: 'detached' });
  const v = await app.waitTrace((x) => !x.pending && x.exec?.ran && guardCall(x), 'the guard\'s hook call');
  const call = guardCall(v).hook_call;
  assert.equal(call.outcome, 'blocked');
  assert.match(call.source, /^\.claude\/settings\.json:6/);
  // its step in the step list: the Claude Code badge, the native event, "blocked"
  const row = page.locator('[data-testid="hook-call-row"]').filter({ has: page.locator('.sysbadge.sys-claude-code') }).first();
  await row.waitFor();
  assert.equal(await row.locator('.sysbadge').textContent(), 'Claude Code');
  assert.match(await row.textContent(), /PreToolUse:Bash/);
  assert.equal(await row.locator('.outcome').getAttribute('data-outcome'), 'blocked');
  // the model read the guard's words in the tool's place: the guard is a row of the visibility matrix
  const r = v.matrix.hooks.indexOf('claude-code/guard.sh');
  const last = v.calls.length - 1;
  assert.ok(r >= 0 && v.matrix.copies[r][last] === 1, `matrix rows: ${v.matrix.hooks.join(', ')}`);
  assert.equal(await page.getByTestId(`cell-${r}-${last}`).textContent(), '1');
  await screenshot(page, 'claude-code-run.png');

  // The handler in the skills panel's folder hooks opens the settings in the editor's form.
  const hook = page.locator('.exec-hooks li', { hasText: 'guard.sh' }).first();
  assert.equal(await hook.locator('.sysbadge').textContent(), 'Claude Code');
  await hook.locator('button.hook-name').click();
  const form = page.getByTestId('claude-form');
  await form.waitFor({ timeout: 30000 });
  const handler = form.getByLabel('PreToolUse handler 1.1', { exact: true });
  await handler.waitFor();
  assert.match(await handler.getAttribute('class'), /selected/, 'the handler at the source line is selected');
  assert.equal(await handler.getByLabel('command', { exact: true }).inputValue(), '"$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.sh');
  const bad = form.getByRole('region', { name: 'Event PreToolUze' });
  await bad.locator('[data-code="claude-unknown-event"]').waitFor();
  await screenshot(page, 'claude-code-form.png');

  // Raw JSON: the backend's diagnostic of the misspelt event, on its line.
  await page.getByRole('button', { name: 'Raw JSON' }).click();
  const raw = page.getByTestId('config-editor');
  await raw.locator('.cm-lintRange-warning').first().waitFor({ timeout: 30000 });
  const line = raw.locator('.cm-line').nth(BAD_LINE - 1);
  assert.match(await line.textContent(), /PreToolUze/);
  assert.equal(await line.locator('.cm-lintRange-warning').count(), 1, 'the warning is on the event\'s line');
  const diag = page.locator('.raw-view .field-diags [data-code="claude-unknown-event"]');
  await diag.waitFor();
  assert.match(await diag.textContent(), /"PreToolUze" is not a Claude Code hook event/);

  // Back in the form: delete the misspelt event, save; the rest of the settings is as it was.
  await page.getByRole('button', { name: 'Form', exact: true }).click();
  await page.getByRole('button', { name: 'delete event PreToolUze' }).click();
  await form.getByRole('region', { name: 'Event PreToolUze' }).waitFor({ state: 'detached' });
  await page.keyboard.press('Control+s');
  const disk = join(root, '.claude/settings.json');
  const saved = await until(() => readFileSync(disk, 'utf8'), (t) => !t.includes('PreToolUze'), 'the deleted event gone from the file');
  assert.doesNotMatch(saved, /PreToolUze/, 'the deleted event is gone from the file');
  assert.match(saved, /^{\n {2}"model": "opus",\n {2}"hooks": {\n {4}"PreToolUse": \[/);
  assert.match(saved, /\n {2}"permissions": {"allow": \["Bash\(ls:\*\)"\]}\n}\n$/, saved);
});
