// The debugger on a laptop screen and a big one: the example folder, untrusted (its trust
// banner showing), keeps the step list at least 8 rows and the message pane at least 3
// messages on a 1280×800 screen, more on bigger ones; a divider dragged is where it was left
// when the app is opened again; collapsing the flowchart and the bottom panel gives the step
// list their room. HOOKSTUDIO_SCREENSHOTS=DIR saves layout-1280.png and layout-1920.png there.
import assert from 'node:assert/strict';
import { cpSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { openApp, repo, screenshot, tempDir, until } from './harness.mjs';

// The window the app opens (app/store/winstate): a 1280×800 screen less its margins, the default
// size where the screen has room for it, and a maximised window on a 1920×1080 screen.
const LAPTOP = { width: 1248, height: 728 };
const DEFAULT = { width: 1440, height: 900 };
const BIG = { width: 1920, height: 1048 };

const shotDir = process.env.HOOKSTUDIO_SCREENSHOTS;

// What the user sees: step rows and message cards wholly inside their pane and the window,
// whether the page itself scrolls (something pushed below the fold), the trust banner.
function measure(page) {
  return page.evaluate(() => {
    // wholly visible: inside the window and inside every ancestor that clips it
    const visible = (el) => {
      const r = el.getBoundingClientRect();
      if (r.height <= 0 || r.top < -1 || r.bottom > window.innerHeight + 1) return false;
      for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
        if (getComputedStyle(a).overflowY === 'visible') continue;
        const b = a.getBoundingClientRect();
        if (r.top < b.top - 1 || r.bottom > b.bottom + 1) return false;
      }
      return true;
    };
    const right = document.querySelector('section.right');
    const bottomTabs = document.querySelector('.bottom .panel-tabs');
    return {
      rows: [...document.querySelectorAll('.steps [role="option"]')].filter(visible).length,
      messages: [...right.querySelectorAll('.msg')].filter(visible).length,
      allMessages: right.querySelectorAll('.msg').length,
      pageScrolls: document.scrollingElement.scrollHeight > window.innerHeight + 1,
      banner: !!document.querySelector('[data-testid="trust-banner"]'),
      bottomTabsVisible: !!bottomTabs && visible(bottomTabs),
      flow: document.querySelector('[data-testid="flow-pane"]')?.getBoundingClientRect().height ?? 0,
      messagesWidth: right.getBoundingClientRect().width,
    };
  });
}

// Steps forward until the message pane holds at least n messages (a call with history).
async function stepToMessages(page, n) {
  for (let i = 0; i < 60; i++) {
    if (await page.locator('section.right .msg').count() >= n) return;
    const at = await page.locator('.dbg-info').textContent();
    await page.keyboard.press('F10');
    await page.waitForFunction((t) => document.querySelector('.dbg-info')?.textContent !== t, at);
  }
  assert.fail(`no step with ${n} messages`);
}

// The example folder as it opens (untrusted: the trust banner shows), at a call with history.
async function atACallWithHistory(page) {
  await page.waitForSelector('[data-testid="trust-banner"]');
  await page.locator('.steps').click();
  await stepToMessages(page, 3);
  return measure(page);
}

async function drag(page, testId, dx, dy) {
  const box = await page.getByTestId(testId).boundingBox();
  const x = box.x + box.width / 2;
  const y = box.y + box.height / 2;
  await page.mouse.move(x, y);
  await page.mouse.down();
  for (let i = 1; i <= 5; i++) await page.mouse.move(x + (dx * i) / 5, y + (dy * i) / 5);
  await page.mouse.up();
}

test('a 1280×800 screen: 8 step rows and 3 messages with the trust banner; a dragged divider is kept across a restart', async () => {
  const dataDir = tempDir('hs-layout-');
  let app = await openApp({ viewport: LAPTOP, dataDir, keep: true });
  let saved;
  try {
    const { page } = app;
    const m = await atACallWithHistory(page);
    assert.ok(m.banner, 'the trust banner shows');
    // words that are true: the count it names is the commands it lists, the folder's all
    const said = Number((await page.locator('.trust-text').textContent()).match(/these (\d+) commands/)?.[1]);
    const listed = await page.locator('.trust-commands .trust-cmd').count();
    assert.ok(said > 10 && said === listed, `the banner says ${said} commands and lists ${listed}`);
    assert.ok(m.rows >= 8, `step rows visible: ${m.rows}`);
    assert.ok(m.messages >= 3, `messages visible: ${m.messages} of ${m.allMessages}`);
    assert.equal(m.pageScrolls, false, 'nothing is pushed below the window');
    assert.ok(m.bottomTabsVisible, "the bottom panel's tabs are on screen");
    if (shotDir) await page.screenshot({ path: join(shotDir, 'layout-1280.png') });

    // the flowchart cannot grow into the step list's 8 rows here: dragging it down stops
    await drag(page, 'split-flow', 0, 120);
    assert.ok((await measure(page)).rows >= 8, 'the step list keeps its rows');
    // drag the flowchart's divider up (the step list gets the room) and the message pane's left
    await drag(page, 'split-flow', 0, -50);
    await drag(page, 'split-messages', -60, 0);
    // the layout is written to the data folder when the drag ends: it says what the panes show
    const file = join(dataDir, 'layout.json');
    const shown = () => page.evaluate(() => document.querySelector('section.right').getBoundingClientRect().width);
    const saved_ = () => (existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {});
    const layout = await until(saved_, async (l) => Math.abs(await shown() - (l.messages_width ?? 0)) <= 1, 'layout.json with the pane as shown');
    assert.ok(layout.flow_height > 0 && Math.abs(await shown() - layout.messages_width) <= 1, `the message pane shows ${await shown()} px; layout.json: ${JSON.stringify(layout)}`);
    const after = await measure(page);
    assert.ok(after.flow <= m.flow - 30, `flowchart ${m.flow} → ${after.flow}`);
    assert.ok(after.rows > m.rows, `step rows ${m.rows} → ${after.rows}`);
    assert.ok(after.messagesWidth >= m.messagesWidth + 45, `message pane ${m.messagesWidth} → ${after.messagesWidth}`);
    saved = after;
  } finally {
    await app.close();
  }

  app = await openApp({ viewport: LAPTOP, dataDir });
  try {
    const { page } = app;
    await page.waitForSelector('[data-testid="flow-pane"]');
    await page.waitForFunction((w) => Math.abs(document.querySelector('section.right').getBoundingClientRect().width - w) <= 2, saved.messagesWidth);
    const m = await measure(page);
    assert.ok(Math.abs(m.flow - saved.flow) <= 2, `flowchart reopened at ${m.flow}, left at ${saved.flow}`);
    assert.ok(Math.abs(m.messagesWidth - saved.messagesWidth) <= 2, `message pane reopened at ${m.messagesWidth}, left at ${saved.messagesWidth}`);

    // the flowchart and the bottom panel collapse from the keyboard; the step list gets the room
    await page.locator('.steps').click();
    await page.keyboard.press('Control+Shift+F');
    await page.waitForSelector('[data-testid="flow-expand"]');
    await page.keyboard.press('Control+j');
    await page.waitForSelector('.bottom .panel-body', { state: 'detached' });
    const collapsed = await measure(page);
    assert.ok(collapsed.rows >= m.rows + 5, `step rows with both panes collapsed: ${collapsed.rows} (were ${m.rows})`);
    await page.getByTestId('flow-expand').click();
    await page.getByTestId('bottom-toggle').click();
    await page.waitForSelector('[data-testid="flow-pane"]');
    await page.waitForSelector('.bottom .panel-body');
  } finally {
    await app.close();
  }
});

test('bigger windows show more: 1440×900 and a maximised window on 1920×1080', async () => {
  const rows = {};
  for (const [name, viewport] of [['laptop', LAPTOP], ['default', DEFAULT], ['big', BIG]]) {
    const app = await openApp({ viewport });
    try {
      const { page } = app;
      const m = await atACallWithHistory(page);
      assert.equal(m.pageScrolls, false, `${name}: nothing below the window`);
      assert.ok(m.messages >= 3, `${name}: messages visible ${m.messages}`);
      rows[name] = m.rows;
      if (shotDir && name === 'big') await page.screenshot({ path: join(shotDir, 'layout-1920.png') });
    } finally {
      await app.close();
    }
  }
  assert.ok(rows.laptop >= 8, `laptop rows ${rows.laptop}`);
  assert.ok(rows.default > rows.laptop, `1440×900 shows more rows (${rows.default}) than 1248×728 (${rows.laptop})`);
  assert.ok(rows.big > rows.default, `1920×1048 shows more rows (${rows.big}) than 1440×900 (${rows.default})`);
});

test('long skill and hook names are read whole at 1280×800: wrapped, or a tooltip with the whole name', async () => {
  const app = await openApp({ viewport: LAPTOP });
  try {
    const { page, backend } = app;
    const skill = 'file-tools-for-the-monorepo-with-a-long-descriptive-name';
    const hook = 'truncated-content-hint-for-read-file-and-search-text-results';
    const dir = join(backend.skillsDir, skill);
    cpSync(join(repo, 'skills/file-tools'), dir, { recursive: true });
    const hooksFile = join(dir, 'hooks/hooks.json');
    writeFileSync(hooksFile, readFileSync(hooksFile, 'utf8').replace('"name": "truncated-content-hint"', `"name": "${hook}"`));
    await page.waitForSelector(`.skill-name[title="${skill}"]`);
    for (const name of [skill, hook]) {
      const el = page.locator(`[title="${name}"]`).first();
      await el.waitFor();
      const r = await el.evaluate((e) => ({ text: e.textContent, cut: e.scrollWidth > e.clientWidth + 1, title: e.getAttribute('title'), width: e.getBoundingClientRect().width }));
      assert.equal(r.text, name);
      // shown whole, or cut with the whole name a hover away — and never to a few letters
      assert.ok(!r.cut || r.title === name, `${name}: cut without a tooltip`);
      assert.ok(r.width >= 120, `${name}: ${r.width}px wide`);
    }
  } finally {
    await app.close();
  }
});

// At the size the README's screenshots are taken (1280×800 with HOOKSTUDIO_SCREENSHOTS).
test('the first screen, in light and dark, the scenario picker and the help with the pane shortcuts', async () => {
  const app = await openApp();
  try {
    const { page } = app;
    await page.locator('.steps').click();
    await stepToMessages(page, 3);
    // the theme button cycles system → light → dark
    const theme = async (want) => {
      for (let i = 0; i < 3 && await page.evaluate(() => document.documentElement.getAttribute('data-theme')) !== want; i++) {
        const was = await page.evaluate(() => document.documentElement.getAttribute('data-theme'));
        await page.getByLabel('Toggle theme').click();
        await page.waitForFunction((w) => document.documentElement.getAttribute('data-theme') !== w, was);
      }
      assert.equal(await page.evaluate(() => document.documentElement.getAttribute('data-theme')), want);
    };
    await theme('light');
    await screenshot(page, 'main-light.png');
    await theme('dark');
    await screenshot(page, 'main-dark.png');
    await theme('light');

    await page.getByTestId('scenario-picker').click();
    await page.getByRole('menu').waitFor();
    await screenshot(page, 'scenario-picker.png');
    await page.keyboard.press('Escape');
    await page.getByRole('menu').waitFor({ state: 'detached' });

    await page.keyboard.press('F1');
    const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await help.waitFor();
    for (const k of ['Ctrl+Shift+F', 'Ctrl+J']) assert.ok(await help.getByText(k, { exact: true }).count() === 1, `help lists ${k}`);
    await screenshot(page, 'help.png');
    await page.keyboard.press('Escape');
    await help.waitFor({ state: 'detached' });

    // an invalid scenario: nothing is simulated, and every problem is listed with its position
    writeFileSync(join(app.backend.skillsDir, 'file-tools/scenarios/read-and-fix.yaml'), [
      'name: read-and-fix',
      'enable_tools: "yes"',
      'tools: [{name: read_file, description: Read a file}]',
      'requests:',
      '  - user: Fix the loader.',
      '    rounds:',
      '      - tool_calls: [{name: grep, arguments: {pattern: limit}}]',
      '',
    ].join('\n'));
    // picked from the scenario menu once the watcher has brought it in
    await app.waitState((s) => s.scenarios.some((x) => x.file === 'file-tools/scenarios/read-and-fix.yaml' && !x.valid), 'read-and-fix.yaml invalid');
    await page.getByTestId('scenario-picker').click();
    await page.getByRole('menuitem').filter({ hasText: 'read-and-fix' }).first().click();
    await page.getByText('Scenario “read-and-fix” is invalid').waitFor();
    await page.getByTestId('scenario-picker').getByText('read-and-fix').waitFor(); // the top bar names it too
    const diags = await page.locator('.centre').textContent();
    assert.match(diags, /read-and-fix\.yaml:2:\d+/);
    assert.match(diags, /grep/);
    await screenshot(page, 'invalid-scenario.png');
  } finally {
    await app.close();
  }
});
