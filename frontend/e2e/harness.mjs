// Shared set-up for end-to-end tests: the real Go backend (the -tags dev
// binary, which serves dist/ and the Wails IPC on a local port) and Debian's
// Chromium driven by playwright-core. Run under xvfb-run: GTK needs a display.
import { spawn } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium } from 'playwright-core';

export const repo = resolve(import.meta.dirname, '..', '..');

export function tempDir(prefix) {
  return mkdtempSync(join(tmpdir(), prefix));
}

async function freePort() {
  return new Promise((ok, fail) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => ok(port));
    });
    srv.on('error', fail);
  });
}

async function waitForHTTP(url, proc, ms) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (proc.exitCode !== null) throw new Error(`backend exited with ${proc.exitCode}`);
    try {
      const r = await fetch(url);
      if (r.ok) return;
    } catch { /* not up yet */ }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`backend did not answer on ${url} within ${ms} ms`);
}

// startBackend starts the dev binary with a fresh data folder; the app opens
// its example skills there on first start. With { dataDir } it reopens that
// folder (an app restarted), which stop({ keep: true }) leaves in place.
export async function startBackend({ dataDir = tempDir('hs-data-') } = {}) {
  if (!process.env.DISPLAY) throw new Error('no DISPLAY: run the e2e tests under xvfb-run');
  const port = await freePort();
  const logs = [];
  // HOOKSTUDIO_DEV_BIN / HOOKSTUDIO_ASSETDIR run another build (one engineer's, beside the shared one)
  const proc = spawn(process.env.HOOKSTUDIO_DEV_BIN ?? join(repo, 'build/bin/hookstudio-dev'), [], {
    cwd: repo,
    env: { ...process.env, HOOKSTUDIO_DATA_DIR: dataDir, devserver: `127.0.0.1:${port}`, assetdir: process.env.HOOKSTUDIO_ASSETDIR ?? join(repo, 'frontend/dist'), loglevel: 'error' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  proc.stdout.on('data', (d) => logs.push(String(d)));
  proc.stderr.on('data', (d) => logs.push(String(d)));
  const url = `http://127.0.0.1:${port}/`;
  try {
    await waitForHTTP(url, proc, 30000);
  } catch (e) {
    proc.kill('SIGKILL');
    throw new Error(`${e.message}\n${logs.join('')}`);
  }
  return {
    url,
    dataDir,
    skillsDir: join(dataDir, 'skills'),
    logs,
    pid: proc.pid,
    async stop({ keep = false } = {}) {
      proc.kill('SIGTERM');
      await new Promise((r) => { if (proc.exitCode !== null) r(); else proc.once('exit', r); setTimeout(r, 3000); });
      if (proc.exitCode === null) proc.kill('SIGKILL');
      if (!keep) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

// startXvfb starts an X server of its own (screen WIDTHxHEIGHT) for a test that looks at the
// whole display (its windows, a screenshot of the root): the suite's other files run beside it
// on the shared display, each backend with its window. Its display (":N") and stop().
export async function startXvfb({ width, height }) {
  const xvfb = spawn('Xvfb', ['-displayfd', '3', '-screen', '0', `${width}x${height}x24`, '-nolisten', 'tcp'], { stdio: ['ignore', 'ignore', 'ignore', 'pipe'] });
  const display = await new Promise((ok, fail) => {
    let out = '';
    xvfb.stdio[3].on('data', (b) => {
      out += b.toString();
      if (out.includes('\n')) ok(`:${out.trim()}`);
    });
    xvfb.on('exit', (code) => fail(new Error(`Xvfb exited with ${code}`)));
  });
  return { display, stop: () => xvfb.kill('SIGTERM') };
}

// until polls read() until pred holds of what it gives and returns that, failing with what was
// awaited and the last value seen (described): a bound for a failing wait, never a timed assertion
export async function until(read, pred, what, { ms = 30000, describe = () => '' } = {}) {
  const end = Date.now() + ms;
  let v;
  while (Date.now() < end) {
    v = await read();
    if (await pred(v)) return v; // awaited: a predicate may ask the page
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`${what}: not seen within ${ms} ms ${describe(v)}`);
}

// HOOKSTUDIO_SCREENSHOTS=DIR: the tests save the README's screenshots there
// (`make screenshots`), taken on a laptop's 1280×800 as most users see the app.
const shotDir = process.env.HOOKSTUDIO_SCREENSHOTS;
export const SCREENSHOT_VIEWPORT = { width: 1280, height: 800 };

// options go to page.screenshot: { mask: [locator…] } covers what the docs may not show (the words a
// calibration learned from a CLI: they are the user's, never the repository's)
export async function screenshot(page, name, options = {}) {
  if (!shotDir) return;
  mkdirSync(shotDir, { recursive: true });
  await page.screenshot({ path: join(shotDir, name), ...options });
}

export async function startBrowser({ viewport = shotDir ? SCREENSHOT_VIEWPORT : { width: 1440, height: 900 } } = {}) {
  const profile = tempDir('hs-chrome-');
  const ctx = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    viewport,
  });
  const page = ctx.pages()[0] ?? (await ctx.newPage());
  const errors = [];
  page.on('pageerror', (e) => {
    // Wails' dev-mode IPC shim (/wails/ipc.js) throws once at load in a plain
    // browser, outside the app's code; any error with a frame of ours counts.
    const frames = (e.stack ?? '').split('\n').filter((l) => l.trim().startsWith('at '));
    if (frames.length > 0 && frames.every((l) => l.includes('/wails/ipc.js'))) return;
    errors.push(`${e.message}\n${e.stack}`);
  });
  return {
    page,
    errors,
    async close() {
      await ctx.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

// projectDir writes a project into a new temporary folder: files maps a path in it to its text,
// or to [text, mode] (a hook script: 0o755).
export function projectDir(prefix, files) {
  const dir = tempDir(prefix);
  for (const [rel, content] of Object.entries(files)) {
    const [text, mode] = Array.isArray(content) ? content : [content, 0o644];
    mkdirSync(join(dir, rel, '..'), { recursive: true });
    writeFileSync(join(dir, rel), text);
    chmodSync(join(dir, rel), mode);
  }
  return dir;
}

// The pinned Claude Code 2.1.332 of tools/agents, put on PATH as `claude`: a backend started after
// finds it as the installed CLI (and calibrates it).
export const CLAUDE_CLI = join(repo, 'tools/agents/node_modules/claude-code-2.1.332/bin/claude.exe');
export function claudeOnPath() {
  if (!existsSync(CLAUDE_CLI)) throw new Error(`${CLAUDE_CLI} is not installed (scripts/setup.sh agents)`);
  const bin = tempDir('hs-bin-');
  symlinkSync(CLAUDE_CLI, join(bin, 'claude'));
  process.env.PATH = `${bin}:${process.env.PATH}`;
}

// claudeGuardProject copies the claude-guard example into a new folder, its release scenario's text
// passed through edit; the folder's path.
export function claudeGuardProject(prefix, edit = (text) => text) {
  const root = tempDir(prefix);
  cpSync(join(repo, 'skills/claude-guard'), join(root, 'claude-guard'), { recursive: true });
  const sc = join(root, 'claude-guard/scenarios/release.yaml');
  writeFileSync(sc, edit(readFileSync(sc, 'utf8')));
  return root;
}

export function copySkills(to) {
  cpSync(join(repo, 'skills'), to, { recursive: true, filter: (p) => !p.endsWith('.go') });
}

// openApp starts the backend and a browser on it, waits for the step list,
// and returns them with close(), which fails the run if the page threw.
// { dataDir, keep } reopen a data folder and leave it for the next start.
export async function openApp({ viewport, dataDir, keep = false } = {}) {
  const backend = await startBackend({ dataDir });
  const browser = await startBrowser({ viewport });
  const { page } = browser;
  await page.goto(backend.url);
  await page.waitForSelector('[role="option"]');
  return {
    backend,
    browser,
    page,
    trace: () => page.evaluate(() => window.go.bind.Studio.Trace()),
    state: () => page.evaluate(() => window.go.bind.Studio.State()),
    // waitTrace and waitState poll the backend from here until pred holds, failing with what was
    // awaited (page.waitForFunction cannot: it takes a predicate's Promise as done at once)
    waitTrace(pred, what, ms = 30000) {
      return until(() => this.trace(), pred, what, { ms, describe: (v) => `(status=${v?.status}, pending=${v?.pending}, draft=${v?.draft}, revision=${v?.revision})` });
    },
    // waitSimulated: the simulation of the view pred picks has finished (not a pending view)
    waitSimulated(pred, what, ms = 30000) {
      return this.waitTrace((v) => pred(v) && !v.pending && v.status !== 'running', `${what} simulated`, ms);
    },
    waitState(pred, what, ms = 30000) {
      return until(() => this.state(), pred, what, { ms, describe: (s) => `(selected=${s?.selected}, scenarios=${s?.scenarios?.length})` });
    },
    async close() {
      await browser.close();
      await backend.stop({ keep });
      if (browser.errors.length > 0) throw new Error(`the page threw:\n${browser.errors.join('\n')}`);
    },
  };
}

/** A stored run as History serves it in pages (its own handle, closed after): its loop, every step and every call. */
export async function storedRun(page, id) {
  return page.evaluate(async (n) => {
    const h = window.go.bind.History;
    const { handle, head } = await h.Open(n);
    try {
      return { flow: { loop: head.loop, why: head.why }, steps: await h.Steps(handle, 0, head.steps), calls: await h.Calls(handle, 0, head.calls) };
    } finally {
      await h.Close(handle);
    }
  }, id);
}
