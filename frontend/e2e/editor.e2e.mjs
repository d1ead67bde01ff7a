// End-to-end: the visual hook editor against the real Go backend, in Debian's Chromium.
// Create a skill and a hook in the UI, type its prompt in CodeMirror, see the simulation change
// before saving, save with Ctrl+S, check the files validate with hookctl, then change the file on
// disk under unsaved edits and check the conflict is offered.
import assert from 'node:assert/strict';
import {  execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { openApp, repo, tempDir, screenshot } from './harness.mjs';

const SKILL = 'e2e-skill';
const SCENARIO = `${SKILL}/scenarios/try.yaml`;

let app;
let backend;
let page;
let hookctl;

before(async () => {
  hookctl = join(tempDir('hs-hookctl-'), 'hookctl');
  execFileSync('go', ['build', '-tags', 'sqlite_fts5', '-o', hookctl, './cmd/hookctl'], { cwd: repo, stdio: 'inherit' });
  app = await openApp();
  ({ backend, page } = app);
});

after(async () => {
  await app?.close();
});

const messages = () => page.locator('section[aria-label="Message list"]');
const file = (rel) => join(backend.skillsDir, rel);

const hookMessages = (v) => v.messages.filter((m) => m.origin === 'hook' && m.skill === SKILL);

test('create a skill and a hook, preview the prompt while typing, save, validate', async () => {
  // a new skill, made in the UI
  await page.getByRole('button', { name: 'New skill…' }).click();
  await page.getByLabel('new skill name').fill(SKILL);
  await page.getByRole('button', { name: 'Create', exact: true }).click();
  await page.locator('[data-testid="editor"]').waitFor();
  await page.getByText('This skill has no hooks yet', { exact: false }).waitFor();
  assert.ok(existsSync(file(`${SKILL}/hooks/hooks.json`)), 'CreateSkill wrote hooks.json');

  // a scenario that enables only the new skill (written on disk, as an author would)
  mkdirSync(file(`${SKILL}/scenarios`), { recursive: true });
  writeFileSync(file(SCENARIO), [
    'name: e2e-try',
    'system_prompt: You are a test assistant.',
    `enabled_skills: [${SKILL}]`,
    'enable_tools: false',
    'requests:',
    '  - user: Say hello.',
    '    reply: Hello.',
    '',
  ].join('\n'));
  await page.click('[data-testid="scenario-picker"]');
  await page.locator('.scenario-item', { hasText: 'e2e-try' }).click();
  const simulated = await app.waitTrace((v) => v.file === SCENARIO && v.status === 'ok', 'the new scenario simulated');
  assert.equal(hookMessages(simulated).length, 0, 'no hook yet');

  // a hook, made in the UI
  await page.getByRole('button', { name: '+ New hook' }).click();
  await page.locator('[data-testid="hook-row-hook-1"]').waitFor();
  await page.locator('[data-testid="tab-hook-1.md"]').waitFor();
  assert.equal(await page.locator('[data-testid="unsaved-count"]').textContent(), '2 unsaved');

  // type the prompt in CodeMirror
  const marker = `Answer like a pirate (e2e ${Date.now()}).`;
  await page.locator('[data-testid="prompt-editor"] .cm-content').click();
  await page.keyboard.type(marker, { delay: 5 });

  // the simulation shows it before anything is saved
  const v = await app.waitTrace((t) => t.draft && hookMessages(t).some((m) => m.content.includes(marker)), 'the draft in the simulation');
  assert.equal(v.draft, true);
  await page.locator('[data-testid="draft-preview"]').waitFor();
  // the message list at the last step of the request shows the hook's text
  await page.locator('[role="option"]').last().click();
  await messages().getByText(marker, { exact: false }).first().waitFor({ timeout: 30000 });
  await screenshot(page, 'editor.png');
  assert.ok(!existsSync(file(`${SKILL}/hooks/hook-1.md`)), 'nothing written before saving');
  assert.match(await page.locator('[data-testid="prompt-tokens"]').textContent(), /^\d+ tokens$/, 'token count from the trace');

  // Ctrl+S saves the prompt (the focused file), Ctrl+Shift+S the rest
  await page.keyboard.press('Control+s');
  await page.waitForFunction(() => !document.querySelector('[data-testid="tab-hook-1.md"] .dot'));
  assert.equal(readFileSync(file(`${SKILL}/hooks/hook-1.md`), 'utf8'), marker);
  await page.keyboard.press('Control+Shift+S');
  await page.locator('[data-testid="unsaved-count"]').waitFor({ state: 'detached' });
  await page.locator('[data-testid="draft-preview"]').waitFor({ state: 'detached' });
  const hooks = JSON.parse(readFileSync(file(`${SKILL}/hooks/hooks.json`), 'utf8'));
  assert.ok(hooks.$schema, '$schema kept');
  assert.deepEqual(hooks.hooks.map((h) => [h.name, h.file, h.timing]), [['hook-1', 'hook-1.md', 'after_user_input']]);
  const saved = await app.waitTrace((t) => !t.draft && hookMessages(t).some((m) => m.content.includes(marker)), 'the saved hook simulated');
  assert.equal(saved.draft, false);

  // the folder validates with hookctl
  const out = execFileSync(hookctl, ['validate', backend.skillsDir], { encoding: 'utf8' });
  assert.match(out, /0 error\(s\)/);
});

test('a change on disk while unsaved edits exist offers the conflict', async () => {
  const md = file(`${SKILL}/hooks/hook-1.md`);
  await page.locator('[data-testid="prompt-editor"] .cm-content').click();
  await page.keyboard.press('End');
  await page.keyboard.type(' Mine.', { delay: 5 });
  await page.locator('[data-testid="tab-hook-1.md"] .dot').waitFor();
  await app.waitTrace((t) => t.draft, 'the unsaved edit previewed');

  // Saved as editors save (a new file renamed over the old), so the watcher
  // never sees the file truncated half-way through a write.
  writeFileSync(`${md}.tmp`, 'Changed on disk by the e2e test.\n');
  renameSync(`${md}.tmp`, md);
  const conflict = page.locator('[data-testid="conflict"]');
  await conflict.waitFor({ timeout: 30000 });
  assert.match(await conflict.getByLabel('my version').textContent(), /Mine\./);
  await conflict.getByLabel('version on disk').getByText(/Changed on disk/).waitFor({ timeout: 30000 });
  for (const b of ['Keep mine', "Take disk's", 'Merge']) assert.ok(await conflict.getByRole('button', { name: b }).isVisible(), `${b} offered`);

  // merge: both edits kept as unsaved text, then saved
  await conflict.getByRole('button', { name: 'Merge' }).click();
  await conflict.waitFor({ state: 'detached' });
  await page.keyboard.press('Control+Shift+S');
  await page.locator('[data-testid="unsaved-count"]').waitFor({ state: 'detached' });
  const text = readFileSync(md, 'utf8');
  assert.match(text, /Changed on disk/);
  assert.match(text, /Mine\./);
});

test('the raw hooks.json view lints with the backend diagnostics and undoes with Ctrl+Z', async () => {
  await page.getByRole('button', { name: 'Raw JSON' }).click();
  const raw = page.locator('[data-testid="raw-editor"]');
  await raw.locator('.cm-content').click();
  await page.keyboard.press('Control+End');
  await page.keyboard.type('oops', { delay: 5 });
  await raw.locator('.cm-lintRange-error').first().waitFor({ timeout: 30000 });
  await page.locator('[data-testid="tab-hooks.json"] .dot').waitFor();
  await page.keyboard.press('Control+z');
  await raw.locator('.cm-lintRange-error').first().waitFor({ state: 'detached', timeout: 30000 });
  await page.locator('[data-testid="tab-hooks.json"] .dot').waitFor({ state: 'detached' });
  await page.keyboard.press('Control+Shift+z');
  await page.locator('[data-testid="tab-hooks.json"] .dot').waitFor();
  await page.keyboard.press('Control+z');
  await page.locator('[data-testid="unsaved-count"]').waitFor({ state: 'detached' });
});
