// End-to-end: a run against a "real" model — a local OpenAI Chat Completions server (SSE) started
// here — through the real Go backend, the real frontend and Debian's Chromium. No network.
import assert from 'node:assert/strict';
import {  createServer } from 'node:http';
import { after, before, test } from 'node:test';
import { openApp, screenshot } from './harness.mjs';

const SCENARIO = 'file-tools/scenarios/fix-line-limit.yaml';
const KEY = 'sk-e2e-test';
const FINAL = 'The loader used a bufio.Scanner with a 120-line limit; I removed the limit.';

// ---- the fake model: planning → one list_dir call (the scenario scripts its result) → answer ----
const requests = [];
function chunk(delta, finish = null) {
  return `data: ${JSON.stringify({ id: 'x', object: 'chat.completion.chunk', model: 'm', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
}
function answer(body) {
  const hasTools = Array.isArray(body.tools) && body.tools.length > 0;
  const sawTool = body.messages.some((m) => m.role === 'tool');
  if (!hasTools) {
    const text = JSON.stringify({ need_tool: true, plan: 'list_dir internal/config, then read the loader' });
    return [chunk({ role: 'assistant', content: '' }), chunk({ content: text.slice(0, 20) }), chunk({ content: text.slice(20) }), chunk({}, 'stop')];
  }
  if (!sawTool) {
    return [
      chunk({ role: 'assistant', content: 'Listing the config folder.' }),
      chunk({ tool_calls: [{ index: 0, id: 'call_e2e_1', type: 'function', function: { name: 'list_dir', arguments: '' } }] }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: '{"path": "internal' } }] }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: '/config"}' } }] }),
      chunk({}, 'tool_calls'),
    ];
  }
  return [chunk({ role: 'assistant', content: '' }), ...FINAL.match(/.{1,12}/g).map((t) => chunk({ content: t })), chunk({}, 'stop')];
}
function startModel() {
  const srv = createServer((req, res) => {
    let data = '';
    req.on('data', (d) => { data += d; });
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/chat/completions') { res.writeHead(404).end(); return; }
      const body = JSON.parse(data);
      requests.push({ body, auth: req.headers.authorization });
      if (!body.stream) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ id: 'x', object: 'chat.completion', model: 'm', choices: [{ index: 0, message: { role: 'assistant', content: 'pong' }, finish_reason: 'stop' }] }));
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      for (const c of answer(body)) res.write(c);
      res.end('data: [DONE]\n\n');
    });
  });
  return new Promise((ok) => srv.listen(0, '127.0.0.1', () => ok(srv)));
}

let model;
let app;
let page;

before(async () => {
  model = await startModel();
  process.env.OPENAI_API_KEY = KEY; // no OS keyring under Xvfb: the backend takes the key from here
  app = await openApp();
  ({ page } = app);
});

after(async () => {
  model?.close();
  await app?.close();
});

const noKeyInPage = async () => assert.ok(!(await page.evaluate(() => document.body.innerText)).includes(KEY), 'the key never shows in the page');

test('a scenario runs against a local OpenAI-compatible server, paused before the second LLM call', async () => {
  // the scenario, and a breakpoint on LLM call #2 (index 1) set in the simulator with F9
  await page.click('[data-testid="scenario-picker"]');
  await page.click('.scenario-item >> text=fix-line-limit');
  const sim = await app.waitSimulated((v) => v.file === SCENARIO, SCENARIO);
  const call1 = sim.calls[1];
  assert.equal(call1.phase, 'agent');
  await page.keyboard.press('Control+Shift+F5');
  for (let i = 0; i < call1.step; i++) await page.keyboard.press('F10');
  await page.keyboard.press('F9');

  // an endpoint through the settings dialog, key field left empty
  const port = model.address().port;
  await page.click('[data-testid="run-open"]');
  const panel = page.locator('[data-testid="run-panel"]');
  await panel.waitFor();
  assert.match(await page.locator('[data-testid="run-bps"]').textContent(), /before LLM call #2\./);
  await page.click('text=Endpoints…');
  const dialog = page.getByRole('dialog', { name: 'Model endpoints' });
  await dialog.getByText('Add endpoint').click();
  await dialog.getByLabel('Name', { exact: true }).fill('local-fake');
  await dialog.getByLabel('Base URL').fill(`http://127.0.0.1:${port}/v1`);
  await dialog.getByLabel('Model', { exact: true }).fill('fake-model');
  await dialog.getByText('Save', { exact: true }).click();
  const row = dialog.locator('[data-testid="profile-local-fake"]');
  await row.waitFor();
  assert.match(await row.textContent(), /key from environment/);
  await row.getByText('Test connection').click();
  await row.locator('[data-testid="conn-result"]').waitFor();
  assert.match(await row.locator('[data-testid="conn-result"]').textContent(), /✓/);
  await noKeyInPage();
  await dialog.getByLabel('Close').click();

  // start: the planning call streams, then the run stops before call #2
  assert.equal(await page.locator('#run-profile').inputValue(), 'local-fake');
  const sentBefore = requests.length; // the connection test's request
  await page.click('[data-testid="run-start"]');
  const paused = page.locator('[data-testid="run-paused"]');
  await paused.waitFor({ timeout: 30000 });
  assert.match(await paused.locator('h3').textContent(), /Paused before LLM call #2/);
  assert.match(await page.locator('[data-testid="run-label"]').textContent(), /live run against local-fake/);
  const shown = await page.locator('[data-testid="run-request"]').textContent();
  const body = JSON.parse(shown);
  assert.equal(body.model, 'fake-model');
  assert.deepEqual(body.tools.map((t) => t.function.name).sort(), ['list_dir', 'read_file', 'search_text', 'write_file']);
  // every hook message the simulator puts into this call is in the request shown
  const hookTexts = sim.messages
    .filter((m) => m.request === call1.request && m.origin === 'hook' && m.created <= call1.step && (m.removed === null || m.removed > call1.step))
    .map((m) => m.content.trim());
  assert.ok(hookTexts.length > 0, 'the call sees hook messages');
  for (const t of hookTexts) assert.ok(body.messages.some((m) => typeof m.content === 'string' && m.content.includes(t.slice(0, 60))), `hook text in request: ${t.slice(0, 60)}`);
  assert.ok(body.messages.some((m) => m.role === 'user' && String(m.content).includes('Settings near the end of config/settings.toml')), 'the user input is in the request');
  assert.ok(!shown.includes(KEY));
  assert.equal(requests.length - sentBefore, 1, 'only the planning call was sent so far');
  // the live run's trace is rendered with the simulator's components
  assert.ok(await panel.locator('section[aria-label="Message list"]').count() >= 1);
  await noKeyInPage();
  await screenshot(page, 'model-run.png');

  // continue to the end: list_dir is answered from the scenario, then the final answer streams
  await paused.getByRole('button', { name: /Continue/ }).click();
  const end = page.locator('[data-testid="run-end-status"]');
  await end.waitFor({ timeout: 30000 });
  assert.equal(await end.getAttribute('data-status'), 'ok', await page.locator('[data-testid="run-end"]').textContent());
  assert.equal(await page.locator('[data-testid="run-stream"]').textContent(), FINAL);
  const streamed = requests.slice(sentBefore);
  assert.equal(streamed.length, 3);
  assert.ok(streamed.every((r) => r.auth === `Bearer ${KEY}`), 'the key from the environment was sent');
  const toolMsg = streamed[2].body.messages.find((m) => m.role === 'tool');
  assert.match(toolMsg.content, /loader\.go/, 'the scripted list_dir result went back to the model');

  // keep it as a mock scenario
  await page.getByText('Save as mock scenario').click();
  const toast = page.locator('[data-testid="run-toast"]');
  await toast.waitFor();
  assert.match(await toast.textContent(), /file-tools\/scenarios\/fix-line-limit-replay\.yaml/);
  await noKeyInPage();
});
