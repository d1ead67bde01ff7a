#!/usr/bin/env node
// Append each edit to .claude/edits.jsonl; print nothing.
const fs = require('fs');
const path = require('path');
let raw = '';
process.stdin.on('data', (d) => { raw += d; });
process.stdin.on('end', () => {
  const input = JSON.parse(raw);
  const dir = path.join(process.env.CLAUDE_PROJECT_DIR || '.', '.claude');
  fs.appendFileSync(path.join(dir, 'edits.jsonl'),
    JSON.stringify({ tool: input.tool_name, file: (input.tool_input || {}).file_path }) + '\n');
});
