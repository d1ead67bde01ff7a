#!/bin/sh
# postToolUse note after an edit: additionalContext, at the top level of the
# JSON (Claude Code's hookSpecificOutput is ignored), is appended to the
# tool's result. Plain stdout is ignored.
cat > /dev/null
printf '%s\n' '{"additionalContext": "This project checks every change with: npm test"}'
