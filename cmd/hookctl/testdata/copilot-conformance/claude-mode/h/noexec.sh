#!/bin/sh
# left without its executable bit: Copilot CLI adds it before it runs the line
cat > /dev/null
printf '{"additionalContext": "%s"}\n' "$1"
