#!/usr/bin/env node
// Tell the model which command just ran (a PostToolUse JSON context).
let raw = '';
process.stdin.on('data', (d) => { raw += d; });
process.stdin.on('end', () => {
  const { tool_input: input = {} } = JSON.parse(raw);
  process.stdout.write(JSON.stringify({
    hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: `Logged command: ${input.command}` },
  }));
});
