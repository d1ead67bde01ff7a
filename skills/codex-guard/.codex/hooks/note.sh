#!/bin/sh
# PostToolUse note: additionalContext reaches the model as a developer
# message between the command and its output.
cat > /dev/null
printf '%s\n' '{"hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext": "This project checks every change with: npm test"}}'
