// End-to-end: real runs in the app against @dwmkerr/mock-llm (a devDependency:
// an OpenAI-compatible server nobody here wrote), with the Go tests' rule file.
// An empty agent answer is a warning on its call; mock-llm's own HTTP 500 is
// reported with its host and message after the retries.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { openApp, repo, screenshot } from './harness.mjs';

const RULES = join(repo, 'app/agent/llm/testdata/mock-llm/rules.yaml');
const EMPTY = 'empty answer: the model sent neither text nor tool calls, so the reply is empty';
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function freePort() {
  return new Promise((ok, fail) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => { const { port } = srv.address(); srv.close(() => ok(port)); });
    srv.on('error', fail);
  });
}

let mock;
let mockHost;
let app;
let page;

before(async () => {
  const port = await freePort();
  mockHost = `127.0.0.1:${port}`;
  const log = [];
  mock = spawn(join(repo, 'frontend/node_modules/.bin/mock-llm'), ['--config', RULES], {
    env: { ...process.env, HOST: '127.0.0.1', PORT: String(port) }, stdio: ['ignore', 'pipe', 'pipe'],
  });
  mock.stdout.on('data', (d) => log.push(String(d)));
  mock.stderr.on('data', (d) => log.push(String(d)));
  for (let i = 0; ; i++) {
    try { if ((await fetch(`http://${mockHost}/health`)).ok) break; } catch { /* not up yet */ }
    if (i > 100 || mock.exitCode !== null) throw new Error(`mock-llm did not start:\n${log.join('')}`);
    await sleep(100);
  }
  assert.match(log.join(''), new RegExp(`running on ${mockHost}`), 'mock-llm listens on 127.0.0.1 only');
  process.env.OPENAI_API_KEY = 'sk-e2e-mockllm';
  app = await openApp();
  ({ page } = app);
  // Two scenarios whose requests carry the rules' markers.
  const dir = join(app.backend.skillsDir, 'file-tools/scenarios');
  mkdirSync(dir, { recursive: true });
  const tools = 'tools: [{name: read_file, description: Read a file, parameters: {type: object, properties: {path: {type: string}}}}]';
  writeFileSync(join(dir, 'mockllm-empty.yaml'), `name: mockllm-empty\nenabled_skills: []\n${tools}\nrequests:\n  - user: "[empty] Which Go version?"\n`);
  writeFileSync(join(dir, 'mockllm-echo.yaml'), `name: mockllm-echo\nenabled_skills: []\n${tools}\nrequests:\n  - user: "[echo] Hello"\n`);
});

after(async () => {
  await app?.close();
  mock?.kill('SIGTERM');
});

async function select(name) {
  await page.click('[data-testid="scenario-picker"]');
  await page.click(`.scenario-item >> text=${name}`);
  await app.waitSimulated((v) => v.scenario === name, name);
}

async function run() {
  await page.click('[data-testid="run-start"]');
  const end = page.locator('[data-testid="run-end-status"]');
  await end.waitFor({ timeout: 30000 });
  return end.getAttribute('data-status');
}

test('a real run against mock-llm: an empty answer is a warning on its call', async () => {
  await select('mockllm-empty');
  await page.click('[data-testid="run-open"]');
  await page.locator('[data-testid="run-panel"]').waitFor();
  await page.click('text=Endpoints…');
  const dialog = page.getByRole('dialog', { name: 'Model endpoints' });
  await dialog.getByText('Add endpoint').click();
  await dialog.getByLabel('Name', { exact: true }).fill('mock-llm');
  await dialog.getByLabel('Base URL').fill(`http://${mockHost}/v1`);
  await dialog.getByLabel('Model', { exact: true }).fill('mock');
  await dialog.getByText('Save', { exact: true }).click();
  await dialog.locator('[data-testid="profile-mock-llm"]').waitFor();
  await dialog.getByLabel('Close').click();

  assert.equal(await run(), 'ok', await page.locator('[data-testid="run-end"]').textContent());
  const panel = page.locator('[data-testid="run-panel"]');
  // the step of LLM call #2 carries the badge, and its answer says why
  const badge = panel.locator('[role="option"] .badge-warn');
  await badge.waitFor();
  assert.equal(await badge.count(), 1);
  assert.equal(await badge.getAttribute('title'), EMPTY);
  await badge.click();
  const warning = panel.locator('.answer-warning');
  await warning.waitFor();
  assert.equal(await warning.textContent(), `⚠ ${EMPTY}`);
  await screenshot(page, 'mockllm-empty-answer.png');
});

test('a real run against mock-llm: its own HTTP 500 is reported with host and message', async () => {
  await page.getByLabel('Close run panel').click();
  await select('mockllm-echo');
  await page.click('[data-testid="run-open"]');
  assert.equal(await run(), 'error');
  const text = await page.locator('[data-testid="run-end"]').textContent();
  assert.match(text, new RegExp(`server error 500 from ${mockHost.replace(/\./g, '\\.')}: Bad control character in string literal in JSON at position \\d+.*\\(gave up after 3 attempts\\)`));
  assert.doesNotMatch(text, /malformed|apierror|unmarshal/);
  await screenshot(page, 'mockllm-500.png');
});
