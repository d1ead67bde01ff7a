#!/bin/sh
# prints its second argument as Claude Code's nested additionalContext for event $1
cat > /dev/null
printf '{"hookSpecificOutput": {"hookEventName": "%s", "additionalContext": "%s"}}\n' "$1" "$2"
