#!/usr/bin/env node
// Fails when frontend/package-lock.json drifts from what `npm ci` needs on every
// platform the app is built on:
//   - package.json's dependencies and devDependencies are the ones the
//     lock was made from (npm ci refuses the lock otherwise);
//   - every optional dependency of every locked package has its own entry (npm ci
//     refuses "Missing: @rollup/rollup-… from lock file" otherwise, and a macOS or
//     Windows checkout would get no bundler binary);
//   - the native packages of the bundlers (rollup, esbuild) are locked for Linux,
//     macOS and Windows, at the version of the bundler itself.
// Usage: node scripts/check-lockfile.mjs [frontend-dir]   (no network needed)
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const dir = resolve(process.argv[2] ?? join(import.meta.dirname, '..', 'frontend'));
const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
const lock = JSON.parse(readFileSync(join(dir, 'package-lock.json'), 'utf8'));
const packages = lock.packages ?? {};
const root = packages[''] ?? {};
const problems = [];

// The platforms people build Hook Studio on, by each bundler's package names.
const natives = {
  rollup: [
    '@rollup/rollup-linux-x64-gnu',
    '@rollup/rollup-linux-arm64-gnu',
    '@rollup/rollup-darwin-x64',
    '@rollup/rollup-darwin-arm64',
    '@rollup/rollup-win32-x64-msvc',
    '@rollup/rollup-win32-arm64-msvc',
  ],
  esbuild: [
    '@esbuild/linux-x64',
    '@esbuild/linux-arm64',
    '@esbuild/darwin-x64',
    '@esbuild/darwin-arm64',
    '@esbuild/win32-x64',
    '@esbuild/win32-arm64',
  ],
};

function sameMap(a = {}, b = {}) {
  const ka = Object.keys(a).sort();
  const kb = Object.keys(b).sort();
  return ka.length === kb.length && ka.every((k, i) => k === kb[i] && JSON.stringify(a[k]) === JSON.stringify(b[k]));
}

for (const field of ['dependencies', 'devDependencies', 'optionalDependencies', 'peerDependencies']) {
  if (!sameMap(pkg[field], root[field])) {
    const want = pkg[field] ?? {};
    const have = root[field] ?? {};
    const names = new Set([...Object.keys(want), ...Object.keys(have)]);
    for (const n of [...names].sort()) {
      if (want[n] !== have[n]) {
        problems.push(`package.json ${field} has ${n}@${want[n] ?? '(none)'} but the lock has ${n}@${have[n] ?? '(none)'}`);
      }
    }
  }
}

// Where Node would find `name` from the package installed at `from`.
function locate(from, name) {
  let base = from;
  for (;;) {
    const key = (base ? `${base}/` : '') + `node_modules/${name}`;
    if (packages[key]) return key;
    if (!base) return null;
    const i = base.lastIndexOf('/node_modules/');
    base = i < 0 ? '' : base.slice(0, i);
  }
}

for (const [key, entry] of Object.entries(packages)) {
  if (!key || entry.link) continue;
  for (const dep of Object.keys(entry.optionalDependencies ?? {})) {
    if (!locate(key, dep)) problems.push(`${key} has the optional dependency ${dep}, which the lock does not list`);
  }
}

for (const [bundler, names] of Object.entries(natives)) {
  const at = packages[`node_modules/${bundler}`];
  if (!at) {
    problems.push(`${bundler} is not in the lock`);
    continue;
  }
  for (const name of names) {
    const found = locate(`node_modules/${bundler}`, name);
    if (!found) problems.push(`${name} (${bundler}'s native build) is not in the lock`);
    else if (packages[found].version !== at.version) {
      problems.push(`${name}@${packages[found].version} does not match ${bundler}@${at.version}`);
    }
  }
}

if (problems.length > 0) {
  for (const p of problems) console.error(`package-lock.json: ${p}`);
  console.error(
    `\n${problems.length} problem(s). Regenerate the lock as the README says ("The lockfile"): ` +
      'cd frontend && rm package-lock.json && npm install --package-lock-only; ' +
      "if rollup's native builds are still missing, pin rollup in package.json's overrides " +
      'to the newest version whose builds the registry serves for every platform.',
  );
  process.exit(1);
}
console.log(
  `package-lock.json: in sync with package.json; ${Object.keys(packages).length - 1} packages, ` +
    `rollup ${packages['node_modules/rollup'].version} and esbuild ${packages['node_modules/esbuild'].version} locked for every platform`,
);
