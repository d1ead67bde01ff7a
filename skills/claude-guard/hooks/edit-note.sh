#!/bin/sh
# PostToolUse note after an edit: additionalContext reaches the model as a
# reminder after the tool result.
cat > /dev/null
printf '%s\n' '{"hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext": "This project checks every change with: npm test"}}'
