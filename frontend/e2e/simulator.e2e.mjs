// End-to-end: the real Go backend, the real frontend, Debian's Chromium.
import assert from 'node:assert/strict';
import {  writeFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { openApp } from './harness.mjs';

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

// trace asks the real backend (through the same binding the UI uses).
const trace = () => app.trace();

async function cursorIndex() {
  return Number(await page.locator('[role="option"][aria-selected="true"] .idx').textContent());
}

async function pickScenario(file) {
  await page.click('[data-testid="scenario-picker"]');
  await page.click(`.scenario-item >> text=${file.split('/').pop().replace('.yaml', '')}`);
  return app.waitSimulated((v) => v.file === file, file);
}

test('the example folder opens with its skills and scenarios', async () => {
  const state = await page.evaluate(() => window.go.bind.Studio.State());
  assert.equal(state.root, backend.skillsDir);
  assert.ok(state.skills.some((s) => s.name === 'file-tools'), 'file-tools skill listed');
  assert.equal(await page.title(), `Hook Studio — ${backend.skillsDir}`);
  for (const name of ['file-tools', 'planner', 'persona-memory']) {
    assert.ok(await page.locator('aside[aria-label="Skills"]').getByText(name, { exact: true }).count() > 0, `${name} shown`);
  }
});

test('stepping to the first agent round after a read shows the filtered after_tool_call hook', async () => {
  const v = await pickScenario(SCENARIO);
  // The first agent call made after a read_file call: the hint's filter
  // lists read_file, so this call sees it; the call before (after
  // list_dir) must not.
  const readStep = v.steps.find((s) => s.kind === 'tool_call' && s.tool === 'read_file');
  const call = v.calls.find((c) => c.phase === 'agent' && c.step > readStep.index);
  const before = v.calls.find((c) => c.index === call.index - 1);
  await page.keyboard.press('Control+Shift+F5'); // restart: cursor on step 0
  assert.equal(await cursorIndex(), 0);
  for (let i = 0; i < before.step; i++) await page.keyboard.press('F10');
  assert.equal(await cursorIndex(), before.step);
  const list = page.locator('section[aria-label="Message list"]');
  assert.equal(await list.getByText('hook truncated-content-hint', { exact: false }).count(), 0, 'hint not seen after list_dir');
  for (let i = before.step; i < call.step; i++) await page.keyboard.press('F10');
  assert.equal(await cursorIndex(), call.step);
  await list.getByText(`What LLM call #${call.index + 1} receives`, { exact: false }).waitFor();
  assert.ok(await list.getByText('hook truncated-content-hint', { exact: false }).count() >= 1, 'hint seen after read_file');
  const hintText = readFileSync(join(backend.skillsDir, HINT), 'utf8').trim().split('\n')[0];
  assert.ok(await list.getByText(hintText.slice(0, 40), { exact: false }).count() >= 1, 'hint text rendered');
});

test('editing a hook on disk updates the affected LLM calls and marks them changed', async () => {
  const v0 = await trace();
  const marker = `Edited by the e2e test at ${Date.now()}.`;
  const started = Date.now();
  writeFileSync(join(backend.skillsDir, HINT), marker + '\n');
  const list = page.locator('section[aria-label="Message list"]');
  await list.getByText(marker).first().waitFor({ timeout: 30000 });
  await page.locator('[role="option"].is-changed').first().waitFor({ timeout: 30000 });
  const elapsed = Date.now() - started;
  const v1 = await trace();
  assert.ok(v1.revision > v0.revision);
  const hinted = v1.calls.filter((c) => v1.matrix.copies[v1.matrix.hooks.indexOf('file-tools/truncated-content-hint')][c.index] > 0).map((c) => c.index);
  assert.deepEqual(v1.changes.map((c) => c.call).sort(), hinted.sort(), 'exactly the calls that see the hint changed');
  // The cursor stays on the same LLM call across the update.
  assert.match(await list.locator('header').first().textContent(), /What LLM call #\d+ receives/);
  console.log(`# save to changed marks in the UI: ${elapsed} ms`);
});
