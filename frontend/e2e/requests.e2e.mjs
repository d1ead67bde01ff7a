// End-to-end: request hooks (seed 004) in the app, against the real Go backend in Debian's Chromium.
// A folder with a project request hook and a scenario whose planning request is rate limited once
// (scripted 429, then 200): trust it, open the Requests tab, see the retried request with both
// attempts, its timing bar and the hooks that ran around it.
// HOOKSTUDIO_SCREENSHOTS=DIR saves requests.png there.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { openApp, tempDir, screenshot } from './harness.mjs';

let app;
let page;
let root;

const SCENARIO = `name: retried
tools: [{name: read_file}]
requests:
  - user: Read the log.
    planning:
      need_tool: true
      attempts:
        - {status: 429, reason: rate limited}
        - {status: 200}
    rounds:
      - tool_calls: [{name: read_file, arguments: {path: app.log}, result: "all good"}]
      - content: The log says all good.
`;

before(async () => {
  root = tempDir('hs-requests-');
  mkdirSync(join(root, 'ops', 'scenarios'), { recursive: true });
  mkdirSync(join(root, 'ops', 'hooks'), { recursive: true });
  writeFileSync(join(root, 'ops', 'hooks', 'hooks.json'), '{"hooks": []}\n');
  writeFileSync(join(root, 'ops', 'scenarios', 'retried.yaml'), SCENARIO);
  mkdirSync(join(root, '.hookstudio'), { recursive: true });
  writeFileSync(join(root, '.hookstudio', 'request-hooks.yaml'), 'start:\n  - name: audit\n    command: cat > /dev/null\n');
  app = await openApp();
  ({ page } = app);
});

after(async () => {
  await app?.close();
});

const requestCalls = (v) => v.steps.filter((s) => s.hook_call?.system === 'request');

test('the request inspector shows a retried request', async () => {
  await page.evaluate((r) => window.go.bind.Studio.OpenFolder(r), root);
  await app.waitTrace((v) => v.scenario === 'retried' && !v.pending, 'the untrusted simulation');
  await page.getByTestId('trust-folder').click();
  const v = await app.waitTrace((x) => !x.pending && requestCalls(x).length > 0, 'the simulation with request hooks');
  assert.equal(v.status, 'ok', v.error);

  // The bound service agrees with the trace.
  const rv = await page.evaluate(() => window.go.bind.Requests.Current());
  assert.equal(rv.rows.length, 3, 'planning and two agent requests');
  assert.deepEqual(rv.rows[0].context.attempts.map((a) => a.status_code), [429, 200]);
  assert.equal(rv.usage[0].attempts, 4);

  await page.getByRole('tab', { name: /Requests/ }).click();
  const row = page.getByTestId('request-row-0');
  await row.waitFor();
  assert.match(await row.textContent(), /1 retry/);
  assert.match(await row.textContent(), /200/);
  assert.equal(await row.locator('.req-tick-bad').count(), 1, 'the 429 attempt on the timing bar');
  await row.click();
  const attempts = page.getByRole('table', { name: 'Attempts' });
  await attempts.waitFor();
  const text = await attempts.textContent();
  assert.match(text, /429/);
  assert.match(text, /rate limited/);
  const detail = await page.getByTestId('request-detail').textContent();
  assert.match(detail, /audit/);
  assert.match(detail, /usage_stats/);
  await screenshot(page, 'requests.png');
});
