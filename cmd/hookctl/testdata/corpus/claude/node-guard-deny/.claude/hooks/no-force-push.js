#!/usr/bin/env node
// Deny force pushes to the shared branches with a JSON permission decision;
// answer {} (no opinion) for everything else.
const RULES = [
  { id: 'force-main', re: /\bgit\s+push\b(?!.*--force-with-lease).*(\s--force\b|\s-f\b).*\b(main|master)\b/, why: 'force push to a shared branch' },
  { id: 'reset-hard', re: /\bgit\s+reset\s+--hard\b/, why: 'git reset --hard drops uncommitted work' },
];

let raw = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => { raw += chunk; });
process.stdin.on('end', () => {
  let input = {};
  try { input = JSON.parse(raw); } catch { console.log('{}'); return; }
  const command = (input.tool_input && input.tool_input.command) || '';
  const hit = RULES.find((r) => r.re.test(command));
  if (!hit) { console.log('{}'); return; }
  console.log(JSON.stringify({
    hookSpecificOutput: {
      hookEventName: 'PreToolUse',
      permissionDecision: 'deny',
      permissionDecisionReason: `[${hit.id}] ${hit.why}: push with --force-with-lease to a branch of your own`,
    },
  }));
});
