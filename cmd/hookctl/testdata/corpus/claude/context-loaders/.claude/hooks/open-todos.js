#!/usr/bin/env node
// A JSON additionalContext on UserPromptSubmit: the open items of TODO.md.
const fs = require('fs');
let raw = '';
process.stdin.on('data', (d) => { raw += d; });
process.stdin.on('end', () => {
  const items = fs.existsSync('TODO.md')
    ? fs.readFileSync('TODO.md', 'utf8').split('\n').filter((l) => l.startsWith('- [ ]')).length : 0;
  console.log(JSON.stringify({
    hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: `Open items in TODO.md: ${items}` },
  }));
});
