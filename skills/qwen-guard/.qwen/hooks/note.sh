#!/bin/sh
# PostToolUse note: additionalContext is appended to the tool's result
# after a blank line, with < and > escaped. A plain echo here would reach
# the user only.
cat > /dev/null
printf '%s\n' '{"hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext": "This project runs its tests with: sh run-tests.sh"}}'
