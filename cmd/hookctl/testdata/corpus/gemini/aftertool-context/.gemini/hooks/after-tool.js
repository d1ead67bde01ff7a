#!/usr/bin/env node
// After a shell command: a hint for the model in hookSpecificOutput.
let raw = '';
process.stdin.on('data', (d) => { raw += d; });
process.stdin.on('end', () => {
  const input = JSON.parse(raw);
  const cmd = (input.tool_input || {}).command || '';
  process.stdout.write(JSON.stringify({
    hookSpecificOutput: { hookEventName: 'AfterTool', additionalContext: `Ran "${cmd}" in the sandbox.` },
  }) + '\n');
});
