#!/usr/bin/env node
// The same hint written at the top level, as another agent reads it.
process.stdin.resume();
process.stdin.on('end', () => {
  console.log(JSON.stringify({ additionalContext: 'Top-level context: the output above is trimmed.' }));
});
