// End-to-end: the run history with the real Go backend (SQLite store), the real frontend and
// Debian's Chromium. A scenario is simulated (and recorded), a hook's .md is edited on disk
// (re-simulated and recorded again), then the two runs are compared in the History view.
// HS_SCREENSHOTS=dir saves history.png and history-compare.png there.
import assert from 'node:assert/strict';
import {  readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { openApp, screenshot, storedRun } from './harness.mjs';

const SCENARIO = 'file-tools/scenarios/fix-line-limit.yaml';
const HINT = 'file-tools/hooks/truncated-content-hint.md';

let app;
let backend;
let page;

before(async () => {
  app = await openApp();
  ({ backend, page } = app);
});

after(async () => {
  await app?.close();
});

const runs = (filter = {}) => page.evaluate((f) => window.go.bind.History.Runs(f), filter);

// the newest run of the filter once it is newer than `after` (an id) and passes `ok`
async function waitForRunAfter(filter, after, ok = () => true) {
  const end = Date.now() + 30000;
  for (;;) {
    const r = (await runs(filter))[0];
    if (r && r.id > after && ok(r)) return r;
    if (Date.now() > end) throw new Error(`no run after #${after} for ${JSON.stringify(filter)}`);
    await page.waitForTimeout(100);
  }
}

let scenarioName;
let runA;
let runB;

test('simulating a scenario and editing a hook each record a run', async () => {
  await page.click('[data-testid="scenario-picker"]');
  await page.click(`.scenario-item >> text=${SCENARIO.split('/').pop().replace('.yaml', '')}`);
  scenarioName = (await app.waitSimulated((v) => v.file === SCENARIO, SCENARIO)).scenario;
  // a later recording of the same trace is told from runB by its tokens
  runA = await waitForRunAfter({ scenario: scenarioName }, 0);
  assert.equal(runA.scenario_file, SCENARIO);
  assert.equal(runA.source, 'live');
  assert.ok(runA.llm_calls > 0 && runA.tokens_in > 0);

  // a longer hint: every call that sees it gets more prompt tokens
  const path = join(backend.skillsDir, HINT);
  const marker = `Edited by the history e2e test at ${Date.now()}: read the rest of the file with offset and limit before editing anything.`;
  writeFileSync(path, `${readFileSync(path, 'utf8').trim()}\n\n${marker}\n`);
  runB = await waitForRunAfter({ scenario: scenarioName }, runA.id, (r) => r.tokens_in !== runA.tokens_in);
  assert.ok(runB.tokens_in > runA.tokens_in, `tokens grew: ${runA.tokens_in} → ${runB.tokens_in}`);
});

test('the History view lists the runs, filters them and draws the charts', async () => {
  await page.keyboard.press('Control+h');
  await page.waitForSelector('[data-testid="history-view"]');
  await page.selectOption('select[aria-label="Scenario filter"]', scenarioName);
  await page.waitForSelector(`[data-testid="run-${runB.id}"]`);
  await page.waitForSelector(`[data-testid="run-${runA.id}"]`);
  const rows = await page.locator('.run-row').count();
  assert.equal(rows, (await runs({ scenario: scenarioName })).length, 'one row per run of the scenario');
  // charts: one bar per LLM call of the focused (newest) run, one point per run for prompt size
  await page.waitForFunction((n) => document.querySelectorAll('.hist-charts [data-testid="bar"]').length === n, runB.llm_calls);
  const promptFig = page.locator('figure', { hasText: 'Prompt size over time' });
  assert.ok(await promptFig.locator('[data-testid="point"]').count() >= 2 * 2, 'two series, at least two runs');
  await page.selectOption('select[aria-label="Hook for the cost chart"]', 'file-tools/truncated-content-hint');
  const hookFig = page.locator('figure', { hasText: 'Token cost of file-tools/truncated-content-hint' });
  await hookFig.locator('[data-testid="edit-marker"]').first().waitFor();
  // the source filter narrows the list (every app run here is live)
  await page.selectOption('select[aria-label="Source filter"]', 'cli');
  await page.waitForSelector('[data-testid="history-empty"]');
  await page.selectOption('select[aria-label="Source filter"]', '');
  await page.waitForSelector(`[data-testid="run-${runA.id}"]`);
  if (process.env.HOOKSTUDIO_SCREENSHOTS) {
    await page.hover(`.hist-charts [data-testid="bar"] >> nth=${Math.max(0, runB.llm_calls - 2)}`);
    await screenshot(page, 'history.png');
  }
});

test('comparing the two runs shows the changed calls with a positive token delta', async () => {
  await page.check(`[aria-label="Select run ${runA.id}"]`);
  await page.check(`[aria-label="Select run ${runB.id}"]`);
  await page.click('[data-testid="compare-btn"]');
  await page.waitForSelector('[data-testid="compare-totals"]');
  const cmp = await page.evaluate(([a, b]) => window.go.bind.History.Compare(a, b), [runA.id, runB.id]);
  assert.ok(cmp.changed_calls > 0 && cmp.token_delta > 0);
  assert.equal(Number(await page.textContent('[data-testid="changed-calls"]')), cmp.changed_calls);
  assert.equal(await page.textContent('[data-testid="total-delta"]'), `+${cmp.token_delta.toLocaleString('en-US')}`);
  const changed = page.locator('tr.cmp-row.st-changed');
  assert.equal(await changed.count(), cmp.calls.filter((c) => c.status === 'changed').length);
  for (let i = 0; i < await changed.count(); i++) {
    const d = (await changed.nth(i).locator('[data-testid="token-delta"]').textContent()).trim();
    assert.match(d, /^\+\d/, `call row ${i} has a positive token delta (${d})`);
  }
  // the first changed call starts expanded: the hint's message changed, the new words inserted
  const diff = page.locator('[data-testid="message-diff"].op-changed').first();
  await diff.waitFor();
  assert.match(await diff.locator('code').first().textContent(), /truncated-content-hint/);
  assert.match(await diff.locator('ins').first().textContent(), /history e2e test/);
  if (process.env.HOOKSTUDIO_SCREENSHOTS) {
    await screenshot(page, 'history-compare.png');
    await page.emulateMedia({ colorScheme: 'dark' });
    await screenshot(page, 'history-compare-dark.png');
    await page.emulateMedia({ colorScheme: 'light' });
  }
});

test('a run opens read-only in the simulator and "Back to live" returns', async () => {
  await page.click(`button:has-text("Open #${runA.id}")`);
  const banner = page.locator('[data-testid="readonly-banner"]');
  await banner.waitFor();
  assert.match(await banner.textContent(), new RegExp(`read-only: run #${runA.id} from \\d{4}-\\d\\d-\\d\\d`));
  // stepping works in the stored run: End jumps to its last step
  await page.keyboard.press('End');
  const v = await storedRun(page, runA.id);
  await page.locator(`[role="option"][aria-selected="true"] .idx >> text="${v.steps.length - 1}"`).waitFor();
  // the old hint text is what this run's calls saw
  assert.equal(await page.locator('section[aria-label="Message list"]').getByText('history e2e test', { exact: false }).count(), 0);
  await page.click('button:has-text("Back to live")');
  await page.waitForSelector('section[aria-label="Simulator"]');
  assert.equal(await page.locator('[data-testid="readonly-banner"]').count(), 0);
});
