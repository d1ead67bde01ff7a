#!/bin/sh
# prints its argument as additionalContext (top level, as Copilot CLI reads it)
cat > /dev/null
printf '{"additionalContext": "%s"}\n' "$1"
