// End-to-end: a new user opens an empty folder to write Codex hooks. The simulator's empty state
// names where such a project keeps scenarios (.hookstudio/scenarios/); Ctrl+Shift+N opens the
// editor's offer of each agent's hook file, the keyboard picks Codex's, and the app creates
// .codex/hooks.json with Codex's starter (never over a file), open raw, without a problem. Against
// the real Go backend in Debian's Chromium, on a laptop's 1280×800. HOOKSTUDIO_SCREENSHOTS=DIR
// saves new-hook-file.png there.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { openApp, screenshot, SCREENSHOT_VIEWPORT, tempDir, until } from './harness.mjs';

let app;
let page;

before(async () => {
  app = await openApp({ viewport: SCREENSHOT_VIEWPORT });
  ({ page } = app);
});

after(async () => {
  await app?.close();
});

const CODEX = '.codex/hooks.json';

test("an empty folder: the empty state names the project's scenario folder; Codex's hook file is created from the offer and opens raw, clean", async () => {
  const root = tempDir('hs-new-');
  await page.evaluate((r) => window.go.bind.Studio.OpenFolder(r), root);
  await app.waitState((s) => s.root === root && s.scenarios.length === 0, 'the empty folder open');

  const empty = page.getByTestId('no-scenarios');
  await empty.waitFor();
  assert.match(await empty.textContent(), /add one under \.hookstudio\/scenarios\/\*\.yaml, where an agent's project keeps its scenarios/);

  // the command opens the folder's editor on the offer; the arrows reach Codex's file, Enter creates it
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('Control+Shift+N');
  const item = page.getByTestId(`new-file-${CODEX}`);
  await item.waitFor();
  await until(async () => {
    const at = await page.evaluate(() => document.activeElement?.getAttribute('data-testid'));
    if (at !== `new-file-${CODEX}`) await page.keyboard.press('ArrowDown');
    return at;
  }, (at) => at === `new-file-${CODEX}`, "the keyboard on Codex's file");
  await page.keyboard.press('Enter');

  const pane = page.locator(`[data-testid="config-pane"][aria-label="Config ${CODEX}"]`);
  await pane.getByTestId('config-editor').waitFor({ timeout: 30000 });
  await until(() => pane.locator('.cm-content').textContent(), (t) => t.includes('"hooks": {}'), 'the starter in the raw editor');
  assert.equal(await pane.locator('.badge-new').count(), 0, 'on disk, not a new unsaved buffer');
  const disk = readFileSync(join(root, CODEX), 'utf8');
  assert.deepEqual(JSON.parse(disk), { hooks: {} });

  // no problems: Codex's own validator on the text, and the folder as a whole
  assert.deepEqual(await page.evaluate(([f, t]) => window.go.bind.Studio.LintFile(f, t), [CODEX, disk]), []);
  const st = await app.waitState((s) => s.root === root && s.exec?.files?.includes(CODEX), 'the folder reloaded with the new file');
  assert.equal(st.errors + st.warnings, 0, JSON.stringify(st.diagnostics));
  assert.equal(await pane.locator('.diag').count(), 0);

  // created once: the offer no longer lists it, and the backend refuses to write over it
  const offered = await page.evaluate(() => window.go.bind.Studio.NewHookFiles());
  assert.ok(!offered.some((n) => n.file === CODEX) && offered.some((n) => n.file === '.gemini/settings.json'), JSON.stringify(offered));
  const again = await page.evaluate((f) => window.go.bind.Studio.CreateHookFile(f).then(() => 'created', (e) => String(e)), CODEX);
  assert.match(again, /exists/);
  assert.equal(readFileSync(join(root, CODEX), 'utf8'), disk);

  await page.getByTestId('no-scenarios').waitFor();
  await screenshot(page, 'new-hook-file.png');
});
