#!/usr/bin/env node
// Keep secrets files out of the model's reach: deny Read, Edit and Write of
// .env and *.pem, whatever folder they are in.
const path = require('path');

const SECRET = [/^\.env(\..+)?$/, /\.pem$/];

const chunks = [];
process.stdin.on('data', (c) => chunks.push(c));
process.stdin.on('end', () => {
  const input = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
  const file = (input.tool_input && (input.tool_input.file_path || input.tool_input.path)) || '';
  const base = path.basename(file);
  if (base.endsWith('.example') || !SECRET.some((re) => re.test(base))) {
    process.exit(0);
  }
  process.stdout.write(JSON.stringify({
    hookSpecificOutput: {
      hookEventName: 'PreToolUse',
      permissionDecision: 'deny',
      permissionDecisionReason: `${base} is a secrets file; use ${base}.example for its keys`,
    },
  }) + '\n');
});
