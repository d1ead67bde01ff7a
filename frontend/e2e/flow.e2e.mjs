// End-to-end: each run drawn on its agent's loop (app/agents/loop), against the real Go backend in
// Debian's Chromium at 1280×800. A Claude Code project (a PreToolUse guard, a Stop hook) is drawn on
// Claude Code's loop — SessionStart … UserPromptSubmit → model → PreToolUse → tool → … → Stop, no
// seed-000 checkpoints — before and after it is trusted; stepping to the guard's hook call lights
// PreToolUse, to an LLM call the model; a click on the Stop node sets a breakpoint there, and F5 stops
// at the Stop hook's call. The example planner stays on seed 000's flowchart. HOOKSTUDIO_SCREENSHOTS=DIR
// saves flow-claude-code.png.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { copySkills, openApp, projectDir, screenshot, tempDir, until } from './harness.mjs';

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
