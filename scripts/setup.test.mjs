// scripts/setup.sh installs node_modules only when their content differs from the lock, and
// never through a node_modules that is a link (a worktree sharing another checkout's: npm ci
// there once wiped the folder every worktree used). Each case runs the real setup.sh in a copy
// of the repository's scripts and locks, with an npm on PATH that only records how it was called.
// Run: node --test scripts/setup.test.mjs (make test-frontend)
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { test } from 'node:test';

const repo = resolve(import.meta.dirname, '..');

// npm's record of an install that matches lockFile (other platforms' optional builds left out),
// with edit applied to its packages
function installedRecord(lockFile, edit = () => {}) {
  const lock = JSON.parse(readFileSync(lockFile, 'utf8'));
  const packages = Object.fromEntries(Object.entries(lock.packages).filter(([k, v]) => k && !v.optional));
  edit(packages);
  return JSON.stringify({ name: lock.name, lockfileVersion: 3, requires: true, packages });
}

// a version the lock does not hold: an install made from another lock
function bumpFirst(packages) {
  const k = Object.keys(packages)[0];
  packages[k] = { ...packages[k], version: `${packages[k].version}-other` };
}

const cases = [
  { name: 'frontend: none installed', target: 'frontend', dir: 'frontend', state: 'none', want: 'ci' },
  { name: 'frontend: the lock installed, the lock newer on disk', target: 'frontend', dir: 'frontend', state: 'fresh', want: null },
  { name: 'frontend: another lock installed', target: 'frontend', dir: 'frontend', state: 'stale', want: 'ci' },
  { name: 'frontend: a link to another lock installed', target: 'frontend', dir: 'frontend', state: 'stale-link', want: null },
  { name: 'frontend: a link to the lock installed', target: 'frontend', dir: 'frontend', state: 'fresh-link', want: null },
  { name: 'agents: none installed', target: 'agents', dir: 'tools/agents', state: 'none', want: 'install' },
  { name: 'agents: the lock installed, the lock newer on disk', target: 'agents', dir: 'tools/agents', state: 'fresh', want: null },
  { name: 'agents: another lock installed', target: 'agents', dir: 'tools/agents', state: 'stale', want: 'install' },
  { name: 'agents: a link to another lock installed', target: 'agents', dir: 'tools/agents', state: 'stale-link', want: null },
];

for (const c of cases) {
  test(c.name, () => {
    const root = mkdtempSync(join(tmpdir(), 'hs-setup-'));
    try {
      for (const f of ['setup.sh', 'node-modules-fresh.mjs', 'check-lockfile.mjs']) {
        cpSync(join(repo, 'scripts', f), join(root, 'scripts', f));
      }
      const dir = join(root, c.dir);
      mkdirSync(dir, { recursive: true });
      for (const f of ['package.json', 'package-lock.json']) cpSync(join(repo, c.dir, f), join(dir, f));
      const lockFile = join(dir, 'package-lock.json');

      if (c.state !== 'none') {
        // a link points at another checkout's node_modules; a plain folder is this checkout's own
        const modules = c.state.endsWith('-link') ? join(root, 'elsewhere', 'node_modules') : join(dir, 'node_modules');
        mkdirSync(modules, { recursive: true });
        const edit = c.state.startsWith('stale') ? bumpFirst : undefined;
        writeFileSync(join(modules, '.package-lock.json'), installedRecord(lockFile, edit));
        if (c.state.endsWith('-link')) symlinkSync(modules, join(dir, 'node_modules'));
        // the installed record older than the lock: what a fresh checkout of the lock looks like
        const past = new Date(Date.now() - 3600_000);
        utimesSync(join(modules, '.package-lock.json'), past, past);
      }

      const bin = join(root, 'bin');
      mkdirSync(bin);
      const calls = join(root, 'npm-calls');
      writeFileSync(join(bin, 'npm'), `#!/bin/sh\necho "$1" >> '${calls}'\n`);
      chmodSync(join(bin, 'npm'), 0o755);

      const r = spawnSync('bash', [join(root, 'scripts', 'setup.sh'), c.target], {
        env: { ...process.env, PATH: `${bin}:${process.env.PATH}` },
        encoding: 'utf8',
      });
      assert.equal(r.status, 0, `setup.sh ${c.target}: exit ${r.status}\n${r.stderr}`);
      const ran = existsSync(calls) ? readFileSync(calls, 'utf8').trim().split('\n') : [];
      assert.deepEqual(ran, c.want ? [c.want] : [], `npm calls\n${r.stderr}`);
      if (c.state === 'stale-link') assert.match(r.stderr, /link/);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
}
