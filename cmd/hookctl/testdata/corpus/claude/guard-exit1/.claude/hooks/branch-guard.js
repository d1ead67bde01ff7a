#!/usr/bin/env node
// Meant to keep commits off main, but process.exit(1) is a failing hook to
// Claude Code, not a block: the command runs.
let raw = '';
process.stdin.on('data', (d) => { raw += d; });
process.stdin.on('end', () => {
  const { tool_input: input = {} } = JSON.parse(raw);
  if (/\bgit\s+commit\b/.test(input.command || '')) {
    console.error('Commit on a feature branch, not on main.');
    process.exit(1);
  }
});
