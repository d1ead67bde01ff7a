#!/usr/bin/env node
let raw = '';
process.stdin.on('data', (d) => { raw += d; });
process.stdin.on('end', () => {
  const { tool_input: input = {} } = JSON.parse(raw);
  process.stdout.write(JSON.stringify({
    hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: `Ran: ${input.command}` },
  }));
});
