#!/usr/bin/env node
// Count TODO/FIXME markers under src/ and print a one-line summary on stdout
// (plain stdout: Claude Code gives it to the model at session start).
const fs = require('fs');
const path = require('path');

const root = path.join(process.env.CLAUDE_PROJECT_DIR || process.cwd(), 'src');
let todo = 0;
let fixme = 0;
for (const name of fs.existsSync(root) ? fs.readdirSync(root).sort() : []) {
  const text = fs.readFileSync(path.join(root, name), 'utf8');
  todo += (text.match(/\bTODO\b/g) || []).length;
  fixme += (text.match(/\bFIXME\b/g) || []).length;
}
console.log(`Open markers in src/: ${todo} TODO, ${fixme} FIXME.`);
