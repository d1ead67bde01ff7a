#!/usr/bin/env node
// Qwen Code PreToolUse guard: installs must go through the lockfile;
// exit 2 with the reason on stderr.
let raw = '';
process.stdin.on('data', (d) => { raw += d; });
process.stdin.on('end', () => {
  const command = ((JSON.parse(raw).tool_input) || {}).command || '';
  if (/\bnpm\s+(i|install)\s+\S/.test(command)) {
    process.stderr.write('Add dependencies with the lockfile: pnpm add <pkg>, then commit pnpm-lock.yaml.\n');
    process.exit(2);
  }
});
