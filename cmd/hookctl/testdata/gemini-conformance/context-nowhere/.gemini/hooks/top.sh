#!/bin/sh
# prints its argument as additionalContext at the top level of the JSON
cat > /dev/null
printf '{"additionalContext": "%s"}\n' "$1"
