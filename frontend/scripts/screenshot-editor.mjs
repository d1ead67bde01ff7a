// The editor screenshot for docs/screenshots/editor.png (light mode), against the real dev backend
// on the example skills. Run under xvfb-run after `npm run build` and the -tags dev build.
import { join } from 'node:path';
import { repo, startBackend, startBrowser } from '../e2e/harness.mjs';

const backend = await startBackend();
const browser = await startBrowser();
const { page } = browser;
try {
  await page.emulateMedia({ colorScheme: 'light' });
  await page.goto(backend.url);
  await page.waitForSelector('[role="option"]');
  await page.click('[data-testid="scenario-picker"]');
  await page.locator('.scenario-item', { hasText: 'multi-step-change' }).click();
  await page.waitForFunction(() => window.go.bind.Studio.Trace().then((v) => v.file.endsWith('multi-step-change.yaml')));
  await page.getByLabel('edit skill planner').click();
  await page.locator('[data-testid="hook-row-step-reminder"]').click().catch(async () => page.locator('.hook-row').nth(1).click());
  await page.locator('[data-testid="prompt-editor"] .cm-content').click();
  await page.keyboard.press('Control+End');
  await page.keyboard.type('\n\n- Re-read the **plan** before each tool call.', { delay: 2 });
  await page.waitForFunction(() => window.go.bind.Studio.Trace().then((v) => v.draft));
  await page.locator('[role="option"]').nth(12).click();
  await page.waitForTimeout(400);
  await page.screenshot({ path: process.argv[2] ?? join(repo, 'docs/screenshots/editor.png') });
} finally {
  await browser.close();
  await backend.stop();
}
