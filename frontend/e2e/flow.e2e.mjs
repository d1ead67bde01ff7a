// End-to-end: each run drawn on its agent's loop (app/agents/loop), against the real Go backend in
// Debian's Chromium at 1280×800. A Claude Code project (a PreToolUse guard, a Stop hook) is drawn on
// Claude Code's loop — SessionStart … UserPromptSubmit → model → PreToolUse → tool → … → Stop, no
// seed-000 checkpoints — before and after it is trusted; stepping to the guard's hook call lights
// PreToolUse, to an LLM call the model; a click on the Stop node sets a breakpoint there, and F5 stops
// at the Stop hook's call. The example planner stays on seed 000's flowchart. Sessions real agents wrote
// (app/capture/sessions/testdata), imported through History ▸ Open sessions, are drawn on their agent's
// loop like a capture: every event the capture of the same run saw a hook at is lit at its hook call,
// Claude Code's and Codex's.
// HOOKSTUDIO_SCREENSHOTS=DIR saves flow-claude-code.png and flow-session-claude-code.png.
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { copySkills, openApp, projectDir, repo, screenshot, storedRun, tempDir, until } from './harness.mjs';

const SETTINGS = {
  hooks: {
    UserPromptSubmit: [{ hooks: [{ type: 'command', command: "echo 'The build folder is shared with CI.'" }] }],
    PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'sh "$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.sh' }] }],
    Stop: [{ hooks: [{ type: 'command', command: 'true' }] }],
  },
};
const GUARD = "if grep -q 'rm -rf'; then echo 'Recursive deletes are blocked' >&2; exit 2; fi\nexit 0\n";
const SCENARIO = `name: clean
system_prompt: You are Claude Code, working in the user's repository.
tools:
  - name: Bash
    description: Run a shell command.
    parameters: {type: object, properties: {command: {type: string}}, required: [command]}
requests:
  - user: Clean the build folder.
    rounds:
      - tool_calls:
          - {name: Bash, arguments: {command: "rm -rf build/"}, result: ""}
      - content: The guard refused the delete.
`;

function project() {
  return projectDir('hs-flow-', { '.claude/settings.json': JSON.stringify(SETTINGS, null, 2), '.claude/hooks/guard.sh': [GUARD, 0o755], '.hookstudio/scenarios/clean.yaml': SCENARIO });
}

let app;
let page;
before(async () => {
  app = await openApp({ viewport: { width: 1280, height: 800 } });
  ({ page } = app);
});
after(async () => {
  await app?.close();
});

const flow = () => page.locator('.centre .flow');
const current = () => flow().locator('.node.is-current').getAttribute('data-node');
const hookStep = (v, event) => v.steps.find((s) => s.kind === 'hook_call' && s.hook_call?.event === event);

test('a Claude Code run is drawn on Claude Code\'s loop, its hook calls and LLM calls lit where they happen', async () => {
  const root = project();
  await page.evaluate((r) => window.go.bind.Studio.OpenFolder(r), root);
  const untrusted = await app.waitSimulated((v) => v.scenario === 'clean', 'the project\'s scenario');
  assert.equal(untrusted.flow.loop.id, 'claude-code', untrusted.flow.why);
  await until(() => flow().getAttribute('data-loop'), (id) => id === 'claude-code', 'Claude Code\'s loop on screen before trust');

  await page.getByTestId('trust-folder').click();
  const v = await app.waitSimulated((x) => x.exec?.ran && hookStep(x, 'PreToolUse:Bash'), 'the guard\'s hook call');
  assert.equal(v.flow.loop.id, 'claude-code');
  const nodes = await flow().locator('.node').evaluateAll((ns) => ns.map((n) => n.getAttribute('data-node')));
  for (const n of ['SessionStart', 'UserPromptSubmit', 'model', 'PreToolUse', 'PermissionRequest', 'tool', 'PostToolUse', 'PostToolUseFailure', 'PostToolBatch', 'Stop', 'SessionEnd']) {
    assert.ok(nodes.includes(n), `node ${n} drawn (${nodes.join(', ')})`);
  }
  assert.equal(await flow().locator('.node.is-cp').count(), 0, 'no seed-000 checkpoint on Claude Code\'s loop');
  assert.equal(await flow().locator('[data-node="cp1"], [data-node="plan"]').count(), 0);
  assert.match(await page.getByTestId('flow-title').textContent(), /Claude Code/);

  // the guard's hook call: PreToolUse lit, and its ϟ tag
  const guard = hookStep(v, 'PreToolUse:Bash');
  await page.getByTestId(`step-${guard.index}`).click();
  await until(current, (n) => n === 'PreToolUse', 'PreToolUse lit at the guard\'s step');
  assert.match(await flow().locator('[data-hooknode="PreToolUse"]').getAttribute('class'), /is-lit/);
  assert.match(await page.getByTestId('flow-hook-caption').textContent(), /PreToolUse:Bash/);
  // UserPromptSubmit ran first; the tool has not run yet at the guard's step
  assert.match(await flow().locator('[data-node="UserPromptSubmit"]').getAttribute('class'), /is-visited/);
  assert.doesNotMatch(await flow().locator('[data-node="tool"]').getAttribute('class'), /is-visited/);
  await screenshot(page, 'flow-claude-code.png');

  // an LLM call lights the model
  await page.getByTestId(`step-${v.calls[v.calls.length - 1].step}`).click();
  await until(current, (n) => n === 'model', 'the model lit at the last LLM call');

  // a breakpoint on the Stop event from its node: restart, continue, stopped at the Stop hook's call
  await flow().locator('[data-node="Stop"]').click();
  await flow().locator('[data-node="Stop"] .bpdot').waitFor();
  await page.keyboard.press('Control+Shift+F5');
  await page.keyboard.press('F5');
  await until(current, (n) => n === 'Stop', 'stopped at the Stop hook');
  const stop = hookStep(v, 'Stop');
  assert.equal(await page.getByTestId(`step-${stop.index}`).getAttribute('aria-selected'), 'true', 'the Stop hook\'s step is the cursor');

  // the whole flowchart is on screen at 1280×800
  const box = await flow().locator('svg').boundingBox();
  assert.ok(box && box.y >= 0 && box.y + box.height <= 800 && box.x >= 0 && box.x + box.width <= 1280, `flowchart at ${JSON.stringify(box)}`);
});

test('the example planner stays on seed 000\'s flowchart', async () => {
  const skills = tempDir('hs-flow-skills-');
  copySkills(skills);
  await page.evaluate((r) => window.go.bind.Studio.OpenFolder(r), skills);
  await page.evaluate(() => window.go.bind.Studio.SelectScenario('planner/scenarios/multi-step-change.yaml'));
  const v = await app.waitSimulated((x) => x.scenario === 'multi-step-change', 'the planner');
  assert.equal(v.flow.loop.id, 'seed-000', v.flow.why);
  await until(() => flow().getAttribute('data-loop'), (id) => id === 'seed-000', 'seed 000\'s loop on screen');
  assert.equal(await flow().locator('.node.is-cp').count(), 5);
});

const fixtures = join(repo, 'app/capture/sessions/testdata');
const CLAUDE_SESSION = 'claude-code-2.1.332';
const CODEX_SESSION = 'codex-0.171.0';

// The loop node of a hook's event: PreToolUse:Bash at PreToolUse, Codex's words that could be
// PostToolUse's or PreToolUse's (PostToolUse/PreToolUse:exec_command) at the first.
const eventNode = (event) => event.split(':')[0].split('/')[0];

// The events the capture of a fixture's run saw hooks' words at (<fixture>.capture.json), as nodes.
function capturedEvents(fixture) {
  const { calls } = JSON.parse(readFileSync(join(fixtures, `${fixture}.capture.json`), 'utf8'));
  return [...new Set(calls.flatMap((c) => c.messages.filter((m) => m.hook).map((m) => eventNode(m.hook))))].sort();
}

// Steps to a hook call at each event the fixture's capture saw and waits for its node to be lit.
async function lightsEveryHook(v, fixture) {
  const events = capturedEvents(fixture);
  assert.ok(events.length > 0, `${fixture}'s capture saw no hook`);
  for (const event of events) {
    const step = v.steps.find((s) => s.kind === 'hook_call' && eventNode(s.hook_call?.event ?? '') === event);
    assert.ok(step, `${fixture}: no hook call at ${event}`);
    await page.getByTestId(`step-${step.index}`).click();
    await until(current, (n) => n === event, `${fixture}: ${event} lit at its hook call`);
    assert.match(await flow().locator(`[data-hooknode="${event}"]`).getAttribute('class'), /is-lit/, `${fixture}: ${event}`);
  }
}

// A Claude Code projects folder and a Codex sessions folder, each holding one of the sessions make
// test's real runs wrote.
function sessionFolders() {
  const home = tempDir('hs-flow-sessions-');
  const claude = join(home, 'claude', 'projects');
  const codex = join(home, 'codex', 'sessions');
  mkdirSync(join(claude, '-home-user-project'), { recursive: true });
  mkdirSync(join(codex, '2026', '11', '26'), { recursive: true });
  cpSync(join(fixtures, `${CLAUDE_SESSION}.jsonl`), join(claude, '-home-user-project', 'finished.jsonl'));
  cpSync(join(fixtures, `${CODEX_SESSION}.jsonl`), join(codex, '2026', '11', '26', 'rollout-2026-11-26T23-12-00-codex.jsonl'));
  return { claude, codex };
}

// Imports the listed session whose row says agent, opens it, and returns its view as History gives it.
async function importAndOpen(agent) {
  await page.getByTestId('history-toggle').click();
  if (await page.getByTestId('readonly-banner').isVisible()) await page.getByText('← Runs').first().click();
  await page.getByTestId('open-sessions').click();
  const row = page.locator('.session-row').filter({ hasText: agent });
  await row.getByTestId('session-import').click();
  const open = row.getByTestId('session-open');
  await open.waitFor();
  const id = Number((await open.textContent()).match(/#(\d+)/)[1]);
  await open.click();
  await page.getByTestId('readonly-banner').waitFor();
  return storedRun(page, id);
}

test('an imported session is drawn on its agent\'s loop, its hooks at their events', async () => {
  await page.evaluate((l) => window.go.bind.Sessions.SetLocations(l), sessionFolders());

  const v = await importAndOpen('claude-code');
  assert.equal(v.flow.loop.id, 'claude-code', v.flow.why);
  await until(() => flow().getAttribute('data-loop'), (id) => id === 'claude-code', 'Claude Code\'s loop under the session');
  assert.match(await page.getByTestId('flow-title').textContent(), /Claude Code/);
  assert.equal(await flow().locator('.node.is-cp').count(), 0, 'no seed-000 checkpoint under a session');
  // a hook the transcript tells of lights its event; the session went through those before it
  const post = hookStep(v, 'PostToolUse:Bash');
  assert.ok(post, 'the session\'s PostToolUse hook call');
  await page.getByTestId(`step-${post.index}`).click();
  await until(current, (n) => n === 'PostToolUse', 'PostToolUse lit at its hook call');
  assert.match(await flow().locator('[data-hooknode="PostToolUse"]').getAttribute('class'), /is-lit/);
  for (const n of ['SessionStart', 'UserPromptSubmit', 'model']) {
    assert.match(await flow().locator(`[data-node="${n}"]`).getAttribute('class'), /is-visited/, `${n} visited before PostToolUse`);
  }
  await screenshot(page, 'flow-session-claude-code.png');
  // every event the capture of the same run saw a hook at — the guard's blocked PreToolUse too
  await lightsEveryHook(v, CLAUDE_SESSION);
  await page.getByTestId(`step-${v.calls[v.calls.length - 1].step}`).click();
  await until(current, (n) => n === 'model', 'the model lit at the last call');

  // Codex: its loop, the blocked command's PreToolUse at its node
  const codex = await importAndOpen('codex');
  assert.equal(codex.flow.loop.id, 'codex', codex.flow.why);
  await until(() => flow().getAttribute('data-loop'), (id) => id === 'codex', 'Codex\'s loop under its session');
  const blocked = codex.steps.find((s) => s.kind === 'hook_call' && s.hook_call?.event.startsWith('PreToolUse') && s.hook_call?.outcome === 'blocked');
  assert.ok(blocked, 'Codex\'s blocked PreToolUse');
  await page.getByTestId(`step-${blocked.index}`).click();
  await until(current, (n) => n === 'PreToolUse', 'PreToolUse lit at Codex\'s blocked command');
  await lightsEveryHook(codex, CODEX_SESSION);
});
