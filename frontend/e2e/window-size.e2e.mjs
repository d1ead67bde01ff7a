// The production build on a 1280x800 screen (its own Xvfb, whatever screen
// the suite runs under): the window fits it, is remembered when it closes,
// reopens where it was left, and a size remembered from a bigger screen is
// fitted again.
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { repo, startXvfb, tempDir } from './harness.mjs';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const SCREEN = { width: 1280, height: 800 };
let xvfb;
let display;

before(async () => {
  xvfb = await startXvfb(SCREEN);
  display = xvfb.display;
});

after(() => xvfb?.stop());

// a UTF-8 locale whatever the job's (none: xwininfo cannot write the title's em dash in ASCII)
const xenv = () => ({ ...process.env, DISPLAY: display, LC_ALL: 'C.UTF-8' });
const x = (cmd, args) => execFileSync(cmd, args, { env: xenv() }).toString();

// appWindow is the app's top-level window id (none yet when a window went
// away while xwininfo walked the tree: the caller polls).
function appWindow() {
  let tree;
  try {
    tree = execFileSync('xwininfo', ['-root', '-tree'], { env: xenv(), stdio: ['ignore', 'pipe', 'ignore'] }).toString();
  } catch {
    return undefined;
  }
  return tree.match(/^\s*(0x[0-9a-f]+) "Hook Studio[^"]*"/m)?.[1];
}

function geometry(id) {
  const info = x('xwininfo', ['-id', id]);
  const n = (re) => Number(info.match(re)[1]);
  return { x: n(/Absolute upper-left X:\s+(-?\d+)/), y: n(/Absolute upper-left Y:\s+(-?\d+)/), width: n(/Width:\s+(\d+)/), height: n(/Height:\s+(\d+)/) };
}

// open starts the app on the 1280x800 screen and returns its window's
// geometry once the window has been placed (the app logs it).
async function open(dataDir) {
  const proc = spawn(join(repo, 'build/bin/hookstudio'), [], { env: { ...process.env, DISPLAY: display, HOOKSTUDIO_DATA_DIR: dataDir }, stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  proc.stderr.on('data', (b) => { log += b.toString(); });
  for (let i = 0; i < 150 && !/hook studio: window \d+x\d+/.test(log); i++) {
    assert.equal(proc.exitCode, null, `the app exited:\n${log}`);
    await sleep(200);
  }
  const [, w, h] = log.match(/hook studio: window (\d+)x(\d+)/) ?? assert.fail('the window was never placed');
  // the X server has the size the app logged, and the place has settled (two reads agree)
  let id;
  let g;
  for (let i = 0; i < 150; i++) {
    id = appWindow();
    if (id) {
      const now = geometry(id);
      if (now.width === Number(w) && now.height === Number(h) && g && JSON.stringify(now) === JSON.stringify(g)) break;
      g = now;
    }
    await sleep(100);
  }
  assert.ok(id, 'no Hook Studio window');
  return { proc, id, geometry: geometry(id), log: () => log };
}

// close asks the window to close as a window manager would, and waits.
async function close(app) {
  execFileSync('python3', [join(repo, 'frontend/e2e/x11-close.py'), app.id], { env: xenv() });
  for (let i = 0; i < 150 && app.proc.exitCode === null; i++) await sleep(200);
  if (app.proc.exitCode === null) {
    app.proc.kill('SIGKILL');
    assert.fail(`the app did not quit when its window was closed:\n${app.log()}`);
  }
}

function assertFits(g) {
  assert.ok(g.x >= 0 && g.y >= 0 && g.x + g.width <= SCREEN.width && g.y + g.height <= SCREEN.height, `window ${JSON.stringify(g)} does not fit ${SCREEN.width}x${SCREEN.height}`);
  assert.ok(g.width >= 960 && g.height >= 600, `window ${JSON.stringify(g)} below the minimum size`);
}

test('the window fits a 1280x800 screen, is remembered and reopens where it was left', async () => {
  const dataDir = tempDir('hs-winsize-');
  const state = join(dataDir, 'window.json');
  try {
    // First start: fitted to the screen, then remembered on close.
    let app = await open(dataDir);
    assertFits(app.geometry);
    await close(app);
    assert.ok(existsSync(state), 'window.json not written on close');
    const saved = JSON.parse(readFileSync(state, 'utf8'));
    assert.deepEqual({ x: saved.x, y: saved.y, width: saved.width, height: saved.height }, app.geometry);
    assert.deepEqual(saved.screen, SCREEN);

    // As the user left it: reopened at that size and place.
    const left = { x: 120, y: 70, width: 1000, height: 650 };
    writeFileSync(state, JSON.stringify({ ...left, screen: SCREEN }));
    app = await open(dataDir);
    assert.deepEqual(app.geometry, left);
    await close(app);

    // Remembered on a bigger screen: fitted to this one.
    writeFileSync(state, JSON.stringify({ x: 300, y: 200, width: 1800, height: 1100, screen: { width: 2560, height: 1440 } }));
    app = await open(dataDir);
    assertFits(app.geometry);
    await close(app);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});
