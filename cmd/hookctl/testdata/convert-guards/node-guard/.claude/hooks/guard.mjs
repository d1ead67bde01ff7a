// PreToolUse guard in Node, as hook collections write them: it reads the
// call from stdin, compares tool_name with Claude Code's names and answers
// with a permission decision.
const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const call = JSON.parse(Buffer.concat(chunks).toString('utf8'));
const input = call.tool_input ?? {};

function deny(reason) {
  process.stdout.write(JSON.stringify({
    hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: reason },
  }) + '\n');
  process.exit(0);
}

if (call.tool_name === 'Bash' && /\brm\s+-(rf|fr)\b/.test(input.command ?? '')) {
  deny('node guard: no recursive deletes; remove the files you mean one by one.');
}
if (call.tool_name === 'Write' && String(input.file_path ?? '').endsWith('.env')) {
  deny('node guard: no .env files; keep secrets out of the project.');
}
