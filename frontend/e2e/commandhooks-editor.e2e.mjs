// End-to-end: a skill's hooks.yaml in the editor against the real Go backend. Clicking a command
// hook in the skills panel opens its config in the form at that hook; a field edit is a draft the
// backend validates (the backend loads the edited command before it is saved); Ctrl+S writes
// it keeping the file's comments; the raw view lints with the backend's positioned diagnostics.
// SCREENSHOT=path.png saves the form.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { openApp, screenshot, until } from './harness.mjs';

let app;
let page;
before(async () => {
  app = await openApp();
  ({ page } = app);
});
after(async () => {
  await app?.close();
});

const FILE = 'guard-rails/hooks/hooks.yaml';

test('a command hook opens its hooks.yaml in the form; an edit is a draft, saved with its comments', async () => {
  await page.locator('[data-testid="exec-hook-block-rm-rf"] button.hook-name').click();
  const form = page.locator('[data-testid="yaml-form"]');
  await form.waitFor();
  await page.locator('[data-testid="yaml-row-block-rm-rf"].selected').waitFor();
  assert.equal(await page.getByLabel('filter.tool_name').inputValue(), 'run_command');
  await screenshot(page, 'command-hooks-editor.png');

  const cmd = page.getByLabel('command', { exact: true });
  await cmd.fill('sh "$JCLI_HOOK_DIR/block-rm-rf.sh" --strict');
  await cmd.press('Enter');
  await app.waitState((s) => s.drafts.includes(FILE), 'the hooks.yaml draft');
  // the draft is what the backend loads: the skills panel's hooks carry the edited command
  await app.waitState((s) => s.exec.hooks.some((h) => h.hook === 'block-rm-rf' && (h.detail ?? '').endsWith('--strict')), 'the drafted command');

  await page.keyboard.press('Control+s');
  const disk = join(app.backend.skillsDir, FILE);
  await until(() => readFileSync(disk, 'utf8'), (t) => t.includes('--strict'), 'the saved file');
  const text = readFileSync(disk, 'utf8');
  assert.match(text, /^# Command hooks in jcli's hooks\.yaml format/);
  assert.match(text, /command-reviewer/);
});

test('the raw hooks.yaml view lints as you type with the backend diagnostics', async () => {
  await page.getByRole('button', { name: 'Raw YAML' }).click();
  const raw = page.locator('[data-testid="config-editor"]');
  await raw.locator('.cm-content').click();
  await page.keyboard.press('Control+End');
  await page.keyboard.type('\nno_such_event:\n  - command: echo\n', { delay: 5 });
  await raw.locator('.cm-lintRange-error').first().waitFor({ timeout: 30000 });
  await page.locator('.raw-view .field-diags [data-code="unknown-event"]').waitFor();
  await screenshot(page, 'command-hooks-editor-raw.png');
});
