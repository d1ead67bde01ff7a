#!/usr/bin/env node
// Exits 0 when DIR/node_modules holds what DIR/package-lock.json locks, 1 (with the reasons on
// stderr) when it does not: scripts/setup.sh installs only then.
// By content, never by mtimes: a clone, a checkout or a worktree gives the lock a new mtime
// although nothing changed. npm records what it installed in node_modules/.package-lock.json
// (its "hidden lockfile"); every package there must have the lock's version, and every package
// the lock does not mark optional must be there (optional ones are other platforms' builds,
// which npm leaves out).
// Usage: node scripts/node-modules-fresh.mjs DIR
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

if (process.argv.length !== 3) {
  console.error('usage: node scripts/node-modules-fresh.mjs DIR');
  process.exit(2);
}
const dir = resolve(process.argv[2]);
const installedFile = join(dir, 'node_modules', '.package-lock.json');

function stale(why) {
  console.error(`${dir}/node_modules: ${why}`);
  process.exit(1);
}

if (!existsSync(join(dir, 'node_modules'))) stale('not installed');
if (!existsSync(installedFile)) stale("no .package-lock.json (npm's record of what it installed)");
const locked = JSON.parse(readFileSync(join(dir, 'package-lock.json'), 'utf8')).packages ?? {};
const installed = JSON.parse(readFileSync(installedFile, 'utf8')).packages ?? {};

const problems = [];
for (const [path, entry] of Object.entries(installed)) {
  const want = locked[path];
  if (!want) problems.push(`${path} is installed but not locked`);
  else if (want.version !== entry.version) problems.push(`${path} is ${entry.version}, the lock has ${want.version}`);
}
for (const [path, entry] of Object.entries(locked)) {
  if (path && !entry.optional && !installed[path]) problems.push(`${path}@${entry.version} is locked but not installed`);
}
if (problems.length > 0) {
  const shown = problems.slice(0, 5).join('; ');
  stale(`differs from the lock: ${shown}${problems.length > 5 ? ` (and ${problems.length - 5} more)` : ''}`);
}
