#!/bin/sh
# prints its second argument as additionalContext in hookSpecificOutput for event $1
cat > /dev/null
printf '{"hookSpecificOutput": {"hookEventName": "%s", "additionalContext": "%s"}}\n' "$1" "$2"
