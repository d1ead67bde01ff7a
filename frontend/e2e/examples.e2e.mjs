// End-to-end: the example folder as a new user first sees it, on a laptop's 1280×800 — before it is
// trusted and after. The visibility matrix of the untrusted folder says how many executable hooks
// wait for its trust (not that the folder has no hooks), with the Trust action; every executable
// hook in the skills panel is one line inside the column, a Claude Code inline command too.
// HOOKSTUDIO_SCREENSHOTS=DIR saves both screens there (trust.png, examples-trusted.png).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { openApp, screenshot, SCREENSHOT_VIEWPORT } from './harness.mjs';

let app;
let page;

before(async () => {
  app = await openApp({ viewport: SCREENSHOT_VIEWPORT });
  ({ page } = app);
});

after(async () => {
  await app?.close();
});

// each executable hook's name in the skills panel: its lines (by its height and font size), and
// whether it stays inside the panel's column
const execNames = () => page.evaluate(() => {
  const col = document.querySelector('aside.skills').getBoundingClientRect();
  return [...document.querySelectorAll('aside.skills .exec-hook .hook-name')].map((el) => {
    const r = el.getBoundingClientRect();
    const font = parseFloat(getComputedStyle(el).fontSize);
    return { text: el.textContent, title: el.getAttribute('title') ?? '', lines: Math.round(r.height / (font * 1.4)), inside: r.left >= col.left - 0.5 && r.right <= col.right + 0.5 };
  });
});

test('the example folder, untrusted then trusted: the matrix says which hooks wait for trust; each executable hook is one line', async () => {
  const untrusted = await app.waitSimulated((v) => v.exec?.not_run === 'folder not trusted', 'the untrusted first simulation');
  // the example the app opens on reaches no LLM call with prompt hooks alone
  assert.equal(untrusted.matrix.hooks.length, 0, `matrix rows before trust: ${untrusted.matrix.hooks.join(', ')}`);
  const waiting = untrusted.exec.hooks.length;
  assert.ok(waiting > 0, 'the example folder has executable hooks');

  const note = page.getByTestId('matrix-untrusted');
  await note.waitFor();
  assert.match(await note.textContent(), new RegExp(`^${waiting} executable hooks did not run: this folder is not trusted`));
  assert.equal(await page.getByText(/No hook reached any LLM call/).count(), 0, 'not the sentence of a folder without hooks');

  const names = await execNames();
  assert.equal(names.length, waiting, 'every executable hook in the skills panel');
  for (const n of names) {
    assert.equal(n.lines, 1, `"${n.text}" takes ${n.lines} lines`);
    assert.ok(n.inside, `"${n.text}" overflows the skills column`);
  }
  // a Claude Code inline command: cut on its line, whole in its tooltip
  const inline = names.find((n) => n.text.startsWith('printf '));
  assert.ok(inline, `the inline printf command among ${names.map((n) => n.text).join(' | ')}`);
  assert.ok(inline.title.includes(inline.text.replace(/…$/, '')) && inline.title.length > inline.text.length, `its tooltip: ${inline.title}`);
  await screenshot(page, 'trust.png'); // the README's "before it is trusted"

  // Trust from the matrix: the hooks run, their messages are rows of the matrix.
  await page.getByTestId('matrix-trust').click();
  await page.getByTestId('trust-banner').waitFor({ state: 'detached' });
  const trusted = await app.waitSimulated((v) => v.exec?.ran && v.scenario === untrusted.scenario, 'the trusted simulation');
  assert.ok(trusted.matrix.hooks.length > 0, 'executable hooks reach the LLM calls');
  await page.locator('table.matrix tbody tr').first().waitFor();
  assert.equal(await note.count(), 0);
  for (const n of await execNames()) assert.equal(n.lines, 1, `"${n.text}" takes ${n.lines} lines once trusted`);
  await screenshot(page, 'examples-trusted.png');
});
