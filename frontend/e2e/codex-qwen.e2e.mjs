// End-to-end: the Codex CLI and Qwen Code examples in the app, against the real Go backend in
// Debian's Chromium, on a laptop's 1280×800. Trusted, skills/codex-guard's release scenario runs
// Codex's guard (blocked, its Codex badge on the step) and its Stop hook; the skills panel lists
// its hooks with their Codex badge, and clicking the guard opens .codex/hooks.json raw with the
// validator's word that Codex itself skips an untrusted hook. skills/qwen-guard's scenario runs
// its hooks the same way; Settings lists both agents' user-level files as the registry names them.
// HOOKSTUDIO_SCREENSHOTS=DIR saves codex-guard.png there.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { openApp, screenshot, SCREENSHOT_VIEWPORT } from './harness.mjs';

let app;
let page;

before(async () => {
  app = await openApp({ viewport: SCREENSHOT_VIEWPORT });
  ({ page } = app);
});

after(async () => {
  await app?.close();
});

const calls = (v, system) => v.steps.filter((s) => s.kind === 'hook_call' && s.hook_call?.system === system).map((s) => s.hook_call);

async function selectScenario(skill) {
  const st = await app.waitState((s) => s.scenarios?.some((x) => x.file.endsWith(`${skill}/scenarios/release.yaml`)), `${skill}'s scenario listed`);
  const file = st.scenarios.find((x) => x.file.endsWith(`${skill}/scenarios/release.yaml`)).file;
  await page.evaluate((f) => window.go.bind.Studio.SelectScenario(f), file);
  return file;
}

test('skills/codex-guard and skills/qwen-guard: their hooks run as each agent runs them, the skills panel and the editor know their files, Settings their user files', async () => {
  await app.waitSimulated((v) => v.exec?.not_run === 'folder not trusted', 'the untrusted first simulation');
  await page.getByTestId('trust-folder').click();
  await page.getByTestId('trust-banner').waitFor({ state: 'detached' });

  await selectScenario('codex-guard');
  const codex = await app.waitSimulated((v) => v.exec?.ran && calls(v, 'codex').some((c) => c.outcome === 'blocked' && c.event.startsWith('Stop')), 'codex-guard simulated with its hooks');
  const guard = calls(codex, 'codex').find((c) => c.event === 'PreToolUse:Bash');
  assert.equal(guard?.outcome, 'blocked', JSON.stringify(guard));
  assert.match(guard.source, /^codex-guard\/\.codex\/hooks\.json:7/);
  assert.ok(codex.expectations.length > 0 && codex.expectations.every((e) => e.pass), `the scenario's expect: ${JSON.stringify(codex.expectations.filter((e) => !e.pass))}`);
  // the guard's words are the tool's result, as Codex words them
  assert.ok(codex.messages.some((m) => m.role === 'tool' && m.content.startsWith('Command blocked by PreToolUse hook: Recursive deletes')), 'the blocked command\'s result');
  const row = page.locator('[data-testid="hook-call-row"]').filter({ has: page.locator('.sysbadge.sys-codex') }).first();
  await row.waitFor();
  assert.equal(await row.locator('.sysbadge').textContent(), 'Codex');

  // the skills panel: Codex's hooks with their badge; the guard opens its file raw, linted
  const hook = page.locator('.exec-hooks li').filter({ has: page.locator('.sysbadge.sys-codex') }).filter({ hasText: 'guard.sh' }).first();
  await hook.waitFor();
  await hook.locator('button.hook-name').click();
  const pane = page.locator('[data-testid="config-pane"][aria-label="Config codex-guard/.codex/hooks.json"]');
  await pane.waitFor({ timeout: 30000 });
  await pane.getByTestId('config-editor').waitFor();
  await pane.getByText(/Codex skips this hook without a word until you trust it/).first().waitFor({ timeout: 30000 });
  assert.match(await pane.locator('.cm-content').textContent(), /"PreToolUse"/);
  await screenshot(page, 'codex-guard.png');

  // the tab names the agent's file with its folder, beside the skill's own hooks.json
  await page.getByTestId('tab-.codex/hooks.json').waitFor();
  await page.getByRole('button', { name: '← Skills' }).click();

  await selectScenario('qwen-guard');
  const qwen = await app.waitSimulated((v) => v.exec?.ran && calls(v, 'qwen-code').some((c) => c.outcome === 'blocked' && c.event.startsWith('Stop')), 'qwen-guard simulated with its hooks');
  assert.equal(calls(qwen, 'qwen-code').find((c) => c.event === 'PreToolUse:run_shell_command')?.outcome, 'blocked');
  assert.ok(qwen.expectations.length > 0 && qwen.expectations.every((e) => e.pass), `the scenario's expect: ${JSON.stringify(qwen.expectations.filter((e) => !e.pass))}`);
  assert.ok(qwen.messages.some((m) => m.role === 'tool' && m.content === 'VERSION written\n\nThis project runs its tests with: sh run-tests.sh'), 'the note appended to the output');
  assert.equal(await page.locator('.exec-hooks li').filter({ has: page.locator('.sysbadge.sys-qwen-code') }).first().locator('.sysbadge').textContent(), 'Qwen Code');

  // Settings: each agent's user-level file, named as the registry says
  await page.click('[data-testid="run-open"]');
  await page.locator('[data-testid="run-panel"]').waitFor();
  await page.click('text=Endpoints…');
  const dialog = page.getByRole('dialog', { name: 'Model endpoints' });
  const codexForm = dialog.getByRole('form', { name: "Codex CLI's hooks: user-level file" });
  await codexForm.waitFor();
  await codexForm.getByLabel('config.toml').waitFor();
  await dialog.getByRole('form', { name: "Qwen Code's hooks: user-level file" }).getByLabel('settings.json').waitFor();
});
