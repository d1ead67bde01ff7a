#!/usr/bin/env node
// Copilot CLI's own shape: additionalContext at the top level.
process.stdin.resume();
process.stdin.on('end', () => {
  console.log(JSON.stringify({ additionalContext: 'Run npm test before you say done.' }));
});
