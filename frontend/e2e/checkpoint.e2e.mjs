// A checkpoint with 10,000 messages, from the real backend: how long the
// message list takes to render and how scrolling it behaves. The figures are
// printed for docs/benchmarks.md; the test checks the list is complete and
// virtualised, not the times.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { openApp, tempDir, screenshot } from './harness.mjs';

const CALLS = 5000; // one answer with 5,000 tool calls: 1 + 5,000 tool + 5,000 hook messages
// the page's elements at that call: the app's frame, the steps and message rows in view, the
// matrix (one hook × three calls) — a few thousand whatever the call receives
const MAX_NODES = 4000;

let app;
let root;

before(async () => {
  root = tempDir('hs-big-');
  const hooks = join(root, 'big', 'hooks');
  mkdirSync(hooks, { recursive: true });
  mkdirSync(join(root, 'big', 'scenarios'));
  writeFileSync(join(hooks, 'hooks.json'), JSON.stringify({ hooks: [
    { name: 'after-each-call', file: 'after.md', timing: 'after_tool_call', role: 'system', persistent: false },
  ] }));
  writeFileSync(join(hooks, 'after.md'), 'Check the result above before the next call.');
  const calls = Array.from({ length: CALLS }, (_, i) => `{name: read_file, arguments: {path: f${i}.go}, result: "contents of f${i}.go"}`);
  writeFileSync(join(root, 'big', 'scenarios', 'wide.yaml'), [
    'name: wide', 'tools: [{name: read_file, description: Read a file}]', 'requests:', '  - user: read every file',
    '    planning: {need_tool: true, content: reading}', '    rounds:', `      - tool_calls: [${calls.join(', ')}]`, '      - content: done', '',
  ].join('\n'));
  app = await openApp();
});

after(async () => {
  await app?.close();
});

test('a 10,000-message checkpoint renders virtualised and scrolls', async () => {
  const { page } = app;
  await page.evaluate((r) => window.go.bind.Studio.OpenFolder(r), root);
  await app.waitSimulated((v) => v.scenario === 'wide', 'the wide scenario');
  await page.waitForSelector('[data-testid="cell-0-2"]');
  const size = await page.evaluate(() => window.go.bind.Studio.Trace().then((v) => v.steps[v.calls[2].step] && v.messages.filter((m) => m.created <= v.calls[2].step && (m.removed === null || m.removed > v.calls[2].step)).length));
  assert.ok(size >= 10000, `the last call receives ${size} messages`);

  // Jump to the call (a matrix click) and time until the list has painted.
  const renderMs = await page.evaluate(async () => {
    const t0 = performance.now();
    document.querySelector('[data-testid="cell-0-2"]').click();
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    return performance.now() - t0;
  });
  const list = page.locator('section[aria-label="Message list"]');
  await list.getByText('What LLM call #3 receives').waitFor();
  const cards = await page.locator('[data-testid^="msg-"]').count();
  assert.ok(cards > 0 && cards < 200, `${cards} message cards in the DOM: the list must be virtualised`);
  // the whole page, not only the list: nothing else may grow with the call's messages (an
  // <option> per message in a picker made the jump 20× slower)
  const nodes = await page.evaluate(() => document.getElementsByTagName('*').length);
  assert.ok(nodes < MAX_NODES, `${nodes} elements in the page at a ${size}-message call: at most ${MAX_NODES} (nothing may grow with the call's messages)`);
  await screenshot(page, 'big-10000.png');

  // Scroll to the end a few screens per frame, as a flung wheel or a dragged
  // scrollbar does, until the end is reached (measured rows change the
  // total height on the way); record how long each frame took (16.7 ms is
  // on time).
  const scroll = await page.evaluate(async () => {
    const el = document.querySelector('.msg-scroll');
    const frames = [];
    const atEnd = () => el.scrollTop + el.clientHeight >= el.scrollHeight - 2;
    await new Promise((r) => requestAnimationFrame(r));
    let last = performance.now();
    for (let i = 0; i < 2000 && !atEnd(); i++) {
      el.scrollTop += el.clientHeight * 3;
      await new Promise((r) => requestAnimationFrame(r));
      const now = performance.now();
      frames.push(now - last);
      last = now;
    }
    frames.sort((a, b) => a - b);
    const at = (q) => frames[Math.min(frames.length - 1, Math.floor(frames.length * q))];
    return { p50: at(0.5), p95: at(0.95), max: frames.at(-1), n: frames.length, atEnd: atEnd() };
  });
  assert.ok(scroll.atEnd, 'scrolled to the end of the list');
  const lastId = await page.evaluate(() => window.go.bind.Studio.Trace().then((v) => {
    const s = v.calls[2].step;
    return v.messages.filter((m) => m.created <= s && (m.removed === null || m.removed > s)).at(-1).id;
  }));
  await page.locator(`[data-testid="msg-${lastId}"]`).waitFor();
  console.log(`# ${size}-message checkpoint: render ${renderMs.toFixed(0)} ms, ${nodes} elements; scroll frames (${scroll.n}) p50 ${scroll.p50.toFixed(1)} ms, p95 ${scroll.p95.toFixed(1)} ms, max ${scroll.max.toFixed(1)} ms`);
});
