// End-to-end: a run under Claude Code is Claude Code's loop and request (issue 33), against the real
// Go backend, Debian's Chromium and the real Claude Code 2.1.332 CLI of tools/agents (on the backend's
// PATH as `claude`). The claude-guard example, trusted: no planning call; before any calibration the
// debug bar says what the run's request model is (none, or the bundled shape) and each call says
// what is missing or shows placeholders. Calibrated from the debug bar, the scenario is simulated
// again: every call starts with the agent's own system prompt and context, a line each and closed, the
// tools it offered in a closed row, the whole request's tokens split by whose they are (the header,
// the matrix's hover), and its request body in Anthropic's shape.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { claudeGuardProject, claudeOnPath, openApp, screenshot, until } from './harness.mjs';

const SCENARIO = 'claude-guard/scenarios/release.yaml';

let app;
let page;
let root;

before(async () => {
  claudeOnPath(); // the backend calibrates it as the installed CLI
  root = claudeGuardProject('hs-agentreq-');
  app = await openApp();
  ({ page } = app);
});

after(async () => {
  await app?.close();
});

const messages = () => page.getByRole('region', { name: 'Message list' });

// jump to LLM call c (0-based) from the visibility matrix (the step list shows only the steps in view)
async function openCall(c) {
  await page.getByTestId(`cell-0-${c}`).click();
  await messages().getByText(`What LLM call #${c + 1} receives`).waitFor();
}

// the message list's rows top down: an agent's group or a message card, by test id
const rowKinds = () => messages().locator('.msg-scroll .vrow').evaluateAll((rows) =>
  rows.sort((a, b) => a.getBoundingClientRect().top - b.getBoundingClientRect().top)
    .map((r) => r.querySelector('[data-testid="agent-group"]') ? 'agent' : (r.querySelector('[data-testid^="msg-"]')?.getAttribute('data-testid') ?? '?')));

test("claude-guard under Claude Code: no planning call; calibrated from the debug bar, each call holds the agent's own context closed at its top, its tools and the token split", async () => {
  await page.evaluate((r) => window.go.bind.Studio.OpenFolder(r), root);
  await app.waitTrace((v) => v.file === SCENARIO && !v.pending, 'the release scenario');
  await page.getByTestId('trust-folder').click();
  const first = await app.waitSimulated((v) => v.exec?.ran && v.agent, 'the trusted run');
  assert.equal(first.agent.version, '2.1.332');
  assert.ok(first.calls.length > 1);
  assert.deepEqual([...new Set(first.calls.map((c) => c.phase))], ['agent'], 'an agent\'s loop makes no planning call');
  assert.ok(!first.messages.some((m) => m.origin === 'prompt'), 'no built-in prompt of seed 000');

  // before a calibration: the debug bar says what the request model is, and the call what that means
  const badge = page.getByTestId('run-agent');
  await badge.waitFor();
  const before = first.agent.request;
  assert.ok(before === 'none' || before === 'bundled', `request model before calibrating: ${before}`);
  assert.equal(await badge.getAttribute('data-kind'), before);
  await openCall(0);
  if (before === 'none') {
    await messages().getByTestId('agent-context-missing').waitFor();
    assert.match(await messages().getByTestId('agent-context-missing').textContent(), /hookctl calibrate claude-code/);
  } else {
    await messages().locator('.agent-line.is-placeholder').first().waitFor();
  }

  // calibrate from the debug bar: the app calibrates the CLI on PATH, then simulates again
  await badge.getByRole('button').first().click();
  const pop = page.getByRole('dialog', { name: "Claude Code 2.1.332's request model" });
  assert.match(await pop.textContent(), /hookctl calibrate claude-code/);
  await pop.getByTestId('run-agent-calibrate').click();
  const v = await app.waitSimulated((x) => x.agent?.request === 'calibrated', 'the run with the calibrated request model', 240000);
  await until(() => badge.getAttribute('data-kind'), (k) => k === 'calibrated', 'the debug bar says calibrated');
  assert.deepEqual([...new Set(v.calls.map((c) => c.phase))], ['agent']);
  const own = v.messages.filter((m) => m.pieces?.length);
  assert.ok(own.some((m) => m.origin === 'system_prompt') && own.some((m) => m.origin === 'agent_context'), 'the agent\'s system prompt and context are in the run');
  assert.ok(!own.some((m) => m.placeholder), 'a calibrated run has no placeholder');
  await pop.getByRole('button', { name: 'Close' }).click();

  for (const c of [0, v.calls.length - 1]) {
    const call = v.calls[c];
    await openCall(c);
    // the agent's own context first, closed, a line each
    const kinds = await until(rowKinds, (k) => k.length > 1, `call #${c + 1}'s rows`);
    assert.equal(kinds[0], 'agent', `call #${c + 1} starts with the agent's own messages: ${kinds.join(' ')}`);
    const group = messages().getByTestId('agent-group').first();
    assert.match(await group.getAttribute('aria-label'), /^Claude Code's own system prompt \(\d+ blocks?\)/);
    const toggles = group.locator('.agent-line-toggle');
    assert.ok(await toggles.count() >= 2);
    assert.deepEqual([...new Set(await toggles.evaluateAll((b) => b.map((x) => x.getAttribute('aria-expanded'))))], ['false']);
    assert.equal(await messages().locator('.agent-text').count(), 0, 'nothing of the agent\'s open');
    // the tools the call offered, closed, with what their definitions cost
    const tools = messages().getByTestId('offered-tools').getByRole('button');
    assert.equal(await tools.getAttribute('aria-expanded'), 'false');
    const line = await tools.textContent();
    assert.match(line, new RegExp(`${call.offered.length} tools offered`));
    assert.ok(line.includes(`${call.tool_tokens.toLocaleString('en-US')} tok`), line);
    // the split: the whole request's tokens, whose they are
    const s = call.split;
    assert.equal(s.agent + s.tools + s.hooks + s.conversation, call.tokens);
    const split = messages().getByTestId('token-split');
    assert.match(await split.locator('[data-part="hooks"]').textContent(), new RegExp(`^hooks ${s.hooks.toLocaleString('en-US')} \\(`));
    assert.equal(await split.locator('[data-part="agent"] b').textContent(), s.agent.toLocaleString('en-US'));
    // the matrix's hover says the same
    assert.match(await page.getByTestId(`call-tokens-${c}`).getAttribute('title'), new RegExp(`hooks: ${s.hooks.toLocaleString('en-US')} tokens`));
  }

  // a line opens on Enter; the tools row lists them
  const last = v.calls[v.calls.length - 1];
  const toggle = messages().locator('.agent-line-toggle').first();
  await toggle.focus();
  await page.keyboard.press('Enter');
  assert.equal(await toggle.getAttribute('aria-expanded'), 'true');
  assert.ok((await messages().locator('.agent-text').first().textContent()).length > 0);
  await page.keyboard.press('Enter');
  await messages().getByTestId('offered-tools').getByRole('button').click();
  assert.deepEqual(await messages().getByRole('list', { name: 'Tools offered' }).locator('code').allTextContents(), last.offered);

  // the matrix, scrolled to the last call: the hooks' column (a command a line long among them) keeps
  // to a part of the panel and stays over the calls scrolled under it; the current call's cells show
  const layout = await page.getByTestId('matrix-scroll').evaluate((el, cur) => {
    const box = el.getBoundingClientRect();
    const head = el.querySelector('tbody .rowhead').getBoundingClientRect();
    const top = (c) => { const r = c.getBoundingClientRect(); return document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2); };
    // the rows the panel shows (it may be scrolled, the window short)
    const bottom = Math.min(box.bottom, window.innerHeight);
    const cells = [...el.querySelectorAll('tbody td.cell')].filter((c) => { const r = c.getBoundingClientRect(); return r.top >= box.top && r.bottom <= bottom; });
    const under = cells.filter((c) => { const r = c.getBoundingClientRect(); return r.right <= head.right && r.left >= box.left; });
    const current = cells.filter((c) => c.dataset.testid.endsWith(`-${cur}`));
    return {
      share: head.width / box.width,
      underCovered: under.every((c) => top(c)?.closest('.rowhead')),
      under: under.length,
      rows: cells.length,
      currentShown: current.length > 0 && current.every((c) => top(c) === c || c.contains(top(c))),
    };
  }, last.index);
  assert.ok(layout.share <= 0.5, `the hooks' column takes ${Math.round(layout.share * 100)}% of the matrix`);
  assert.ok(layout.underCovered, `the cells scrolled under the hooks' column are hidden by it: ${JSON.stringify(layout)}`);
  assert.ok(layout.currentShown, `call #${last.index + 1}'s cells are in view: ${JSON.stringify(layout)}`);

  // the mask covers the words the calibration learned from the CLI: they are the user's, not the docs'
  await screenshot(page, 'agent-request.png', { mask: [messages().locator('.agent-first, .agent-text')], maskColor: '#d7dbe2' });

  // the request body as Claude Code sends it
  await messages().getByTestId('show-request').click();
  const pre = messages().getByLabel(`Request body of LLM call #${last.index + 1}`);
  await pre.waitFor();
  const body = JSON.parse(await pre.textContent());
  assert.ok(Array.isArray(body.system) && body.system.length > 0, 'system blocks');
  assert.ok(Array.isArray(body.messages) && body.messages.length > 1, 'messages');
  assert.deepEqual(body.tools.map((t) => t.name), last.offered);
  await messages().getByRole('tab', { name: 'Messages' }).click();
});
