#!/bin/sh
# PostToolUse note: additionalContext reaches the model as a developer
# message between the command and its output.
cat > /dev/null
printf '%s\n' '{"hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext": "This project runs its tests with: sh run-tests.sh"}}'
