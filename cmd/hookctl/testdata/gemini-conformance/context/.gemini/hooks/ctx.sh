#!/bin/sh
# prints its argument as additionalContext
cat > /dev/null
printf '{"hookSpecificOutput": {"additionalContext": "%s"}}\n' "$1"
