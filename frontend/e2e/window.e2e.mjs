// The production build in a real window under Xvfb (its own: the suite's other files open
// their backends' windows on the shared display): the window must show the
// app (not a blank or error page). Also measures cold start to first paint
// and idle memory, printed for docs/benchmarks.md.
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { repo, startXvfb, tempDir } from './harness.mjs';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// the X server the test starts (startXvfb)
let xenv;

function screenshot(file) {
  execFileSync('import', ['-window', 'root', file], { env: xenv });
  // Unique colours: a blank or single-colour window has a handful, the app
  // with text, chips and the flowchart has hundreds.
  return Number(execFileSync('convert', [file, '-format', '%k', 'info:']).toString().trim());
}

// windowTitles lists the titles of top-level windows on the display (none
// when a window went away while xwininfo walked the tree: the caller polls).
function windowTitles() {
  let out;
  try {
    out = execFileSync('xwininfo', ['-root', '-tree'], { env: xenv, stdio: ['ignore', 'pipe', 'ignore'] }).toString();
  } catch {
    return [];
  }
  return [...out.matchAll(/"([^"]*)"/g)].map((m) => m[1]);
}

// rssKiB sums the resident memory of a process and its descendants (WebKit
// renders in child processes).
function rssKiB(pid) {
  const children = new Map();
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const ppid = Number(readFileSync(`/proc/${d}/stat`, 'utf8').split(') ')[1].split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(d)]);
    } catch { /* exited */ }
  }
  let total = 0;
  const walk = (p) => {
    try {
      const m = readFileSync(`/proc/${p}/status`, 'utf8').match(/VmRSS:\s+(\d+)/);
      if (m) total += Number(m[1]);
    } catch { /* exited */ }
    for (const c of children.get(p) ?? []) walk(c);
  };
  walk(pid);
  return total;
}

test('the production build renders the app in a real window', async () => {
  const xvfb = await startXvfb({ width: 1440, height: 900 });
  // a UTF-8 locale whatever the job's (none: xwininfo cannot write the title's em dash in ASCII)
  xenv = { ...process.env, DISPLAY: xvfb.display, LC_ALL: 'C.UTF-8' };
  const dataDir = tempDir('hs-window-');
  const shotDir = process.env.SCREENSHOT_DIR ?? dataDir;
  const started = Date.now();
  const proc = spawn(join(repo, 'build/bin/hookstudio'), [], { env: { ...xenv, HOOKSTUDIO_DATA_DIR: dataDir }, stdio: 'ignore' });
  try {
    // The title carries the folder once the Go side opened it.
    let titled = false;
    let painted = 0;
    let colours = 0;
    const shot = join(shotDir, 'window.png');
    for (let i = 0; i < 150 && !painted; i++) {
      assert.equal(proc.exitCode, null, 'the app exited');
      titled ||= windowTitles().some((t) => t.startsWith('Hook Studio — '));
      if (titled) {
        colours = screenshot(shot);
        if (colours > 300) painted = Date.now() - started;
      }
      await sleep(200);
    }
    assert.ok(titled, `no window titled "Hook Studio — <folder>"; windows: ${windowTitles().join(' | ')}`);
    assert.ok(painted > 0, `the window did not render the app (${colours} colours in ${shot})`);
    await sleep(3000);
    const rss = rssKiB(proc.pid);
    console.log(`# cold start to first paint: ${painted} ms; idle RSS (app + WebKit processes): ${(rss / 1024).toFixed(0)} MiB; screenshot: ${shot}`);
  } finally {
    proc.kill('SIGTERM');
    await sleep(500);
    if (proc.exitCode === null) proc.kill('SIGKILL');
    if (!process.env.SCREENSHOT_DIR) rmSync(dataDir, { recursive: true, force: true });
    xvfb.stop();
  }
});
