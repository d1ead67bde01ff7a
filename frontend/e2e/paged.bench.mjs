// The app's bench of large runs (docs/benchmarks.md, "Runs served in pages"). Not a test: run it by
// hand under Xvfb on a dev build, and on another build beside it (HOOKSTUDIO_DEV_BIN and
// HOOKSTUDIO_ASSETDIR name that build's binary and frontend/dist):
//
//   HOOKSTUDIO_BENCH_SESSIONS=S go test -run TestWriteSessionBench ./app/capture/sessions
//   HOOKSTUDIO_BENCH_VIEWS=V go test -run TestWriteBenchViews ./app/capture
//   HOOKSTUDIO_BENCH_SESSIONS=S HOOKSTUDIO_BENCH_VIEWS=V xvfb-run -a node frontend/e2e/paged.bench.mjs
//
// S/history.db holds a 50 MB session (run 1) and a simulated run of the same size (run 2),
// S/synthetic.jsonl the session's transcript; V/history.db a 1,000-call simulated run (1) and
// capture (2). Times are taken in the page (from the click's or key's event until the frame that
// shows what it brings is rendered), three rounds, each run alternately:
// - open: Open in the runs list → the read-only run's first message list painted;
// - jump: a bar of the tokens chart near the end → that call's list painted;
// - end: End → the last step's list painted;
// - memory: the backend's resident memory and the page's JS heap (after a GC) before and with the
//   50 MB session open;
// - keep: Import in History ▸ Open sessions → Open #N offered (usable), and → its tokens counted.
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startBackend, startBrowser, tempDir } from './harness.mjs';

const sessions = process.env.HOOKSTUDIO_BENCH_SESSIONS;
const views = process.env.HOOKSTUDIO_BENCH_VIEWS;
if (!sessions || !views) throw new Error('HOOKSTUDIO_BENCH_SESSIONS=DIR and HOOKSTUDIO_BENCH_VIEWS=DIR: the folders the Go tests wrote');
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const rss = (pid) => Number(readFileSync(`/proc/${pid}/status`, 'utf8').match(/VmRSS:\s+(\d+)/)[1]) / 1024;
const load = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');

/**
 * Time in the page from the next click or key until the frame that shows what ready() looks for
 * has been rendered (ms): ready is checked in every frame's animation callbacks, which run just
 * before that frame is laid out and painted, and the time is taken in a task queued there, which
 * runs once the frame is (as scripts/measure-browser.mjs does); so the figure is neither a poll's
 * interval nor a round trip to this process late.
 */
async function timed(page, act, ready, arg) {
  await page.evaluate(({ src, arg }) => {
    window.__t0 = null;
    window.__t1 = null;
    const mark = () => { window.__t0 ??= performance.now(); };
    document.addEventListener('click', mark, { capture: true, once: true });
    document.addEventListener('keydown', mark, { capture: true, once: true });
    const test = new Function('arg', `return (${src})(arg);`);
    const frame = () => {
      if (window.__t0 !== null && test(arg)) { setTimeout(() => { window.__t1 = performance.now(); }, 0); return; }
      requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  }, { src: ready.toString(), arg });
  await act();
  await page.waitForFunction(() => window.__t1 !== null, null, { timeout: 600000 });
  return page.evaluate(() => Math.round(window.__t1 - window.__t0));
}
const painted = () => document.querySelector('[data-testid="readonly-banner"]') && document.querySelector('section[aria-label="Messages at the cursor"] .msg');
const callAt = (least) => {
  const t = document.querySelector('section[aria-label="Message list"] .title')?.textContent ?? '';
  const m = t.match(/What LLM call #(\d+) receives/);
  return m && Number(m[1]) >= least && document.querySelector('section[aria-label="Messages at the cursor"] .msg');
};
const atEnd = () => {
  const m = (document.querySelector('.debugbar .muted.small')?.textContent ?? '').match(/step (\d+)\/(\d+)/);
  return m && m[1] === m[2] && document.querySelector('section[aria-label="Messages at the cursor"] .msg');
};

async function heap(cdp) {
  await cdp.send('HeapProfiler.collectGarbage');
  return (await cdp.send('Runtime.getHeapUsage')).usedSize / (1 << 20);
}

async function openRuns(db, runs) {
  const dataDir = tempDir('hs-bench-');
  cpSync(db, join(dataDir, 'history.db'));
  const backend = await startBackend({ dataDir });
  const browser = await startBrowser({ viewport: { width: 1280, height: 800 } });
  const { page } = browser;
  const cdp = await page.context().newCDPSession(page);
  const out = Object.fromEntries(runs.map((r) => [r.name, { open: [], jump: [], end: [], rss: [], heap: [] }]));
  try {
    await page.goto(backend.url);
    await page.waitForSelector('[role="option"]');
    await page.keyboard.press('Control+h');
    for (let round = 0; round < ROUNDS; round++) {
      for (const r of runs) {
        const row = page.locator(`[data-testid="run-${r.id}"]`);
        await row.waitFor({ timeout: 300000 });
        await page.waitForTimeout(1000); // the list and its charts settled
        const before = { rss: rss(backend.pid), heap: await heap(cdp) };
        const res = out[r.name];
        res.open.push(await timed(page, () => row.getByText('Open', { exact: true }).click(), painted));
        await page.waitForTimeout(1000);
        res.rss.push([before.rss, rss(backend.pid)]);
        res.heap.push([before.heap, await heap(cdp)]);
        const bars = page.getByTestId('bar');
        const n = await bars.count();
        res.jump.push(await timed(page, () => bars.nth(Math.floor(n * 0.9)).click({ force: true }), callAt, Math.floor(r.calls * 0.85)));
        res.end.push(await timed(page, () => page.keyboard.press('End'), atEnd));
        await page.getByText('← Runs').first().click();
      }
    }
  } finally {
    await browser.close();
    await backend.stop();
  }
  return out;
}

async function keep() {
  const dataDir = tempDir('hs-bench-');
  const claude = join(tempDir('hs-agents-'), 'projects');
  mkdirSync(join(claude, '-home-user-project'), { recursive: true });
  cpSync(join(sessions, 'synthetic.jsonl'), join(claude, '-home-user-project', 'synthetic.jsonl'));
  writeFileSync(join(dataDir, 'sessions.json'), JSON.stringify({ claude, codex: join(dataDir, 'none') }));
  const backend = await startBackend({ dataDir });
  const browser = await startBrowser({ viewport: { width: 1280, height: 800 } });
  const { page } = browser;
  try {
    await page.goto(backend.url);
    await page.waitForSelector('[role="option"]');
    await page.keyboard.press('Control+h');
    await page.getByTestId('open-sessions').click();
    const row = page.locator('.session-row').filter({ hasText: 'tidy the repository' });
    await row.waitFor({ timeout: 120000 });
    const t0 = Date.now();
    const usable = await timed(page, () => row.getByTestId('session-import').click(), () => document.querySelector('[data-testid="session-open"]'));
    for (;;) {
      const runs = await page.evaluate(() => window.go.bind.History.Runs({ source: 'session', limit: 5 }));
      if (runs.length > 0 && !runs[0].tokens_pending) break;
      await page.waitForTimeout(100);
    }
    return { usable, counted: Date.now() - t0 };
  } finally {
    await browser.close();
    await backend.stop();
  }
}

const med = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const spread = (xs) => `${Math.min(...xs)}–${Math.max(...xs)} (median ${med(xs)})`;
console.log(`load before: ${load()}`);
const big = await openRuns(join(sessions, 'history.db'), [{ name: 'session, 50 MB', id: 1, calls: 1922 }, { name: 'simulated, same size', id: 2, calls: 1922 }]);
const thousand = await openRuns(join(views, 'history.db'), [{ name: 'simulated, 1,000 calls', id: 1, calls: 1000 }, { name: 'capture, 1,000 calls', id: 2, calls: 1000 }]);
const kept = [];
for (let i = 0; i < ROUNDS; i++) kept.push(await keep());
for (const [name, r] of Object.entries({ ...big, ...thousand })) {
  console.log(`${name}: open ${spread(r.open)} ms; jump ${spread(r.jump)} ms; end ${spread(r.end)} ms; ` +
    `backend RSS ${r.rss.map(([a, b]) => `${a.toFixed(0)}→${b.toFixed(0)}`).join(', ')} MB; page heap ${r.heap.map(([a, b]) => `${a.toFixed(1)}→${b.toFixed(1)}`).join(', ')} MB`);
}
console.log(`keep 50 MB: usable ${spread(kept.map((k) => k.usable))} ms; counted ${spread(kept.map((k) => k.counted))} ms`);
console.log(`load after: ${load()}`);
console.log(JSON.stringify({ big, thousand, kept }));
