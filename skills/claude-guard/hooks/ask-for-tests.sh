#!/bin/sh
# Stop hook: asks for the tests once. When the agent already goes on
# because of a Stop hook (stop_hook_active), or the transcript shows a
# Bash call of npm test, it lets the agent stop.
input=$(cat)
case "$input" in
  *'"stop_hook_active":true'*) exit 0;;
esac
transcript=$(printf '%s' "$input" | sed -n 's/.*"transcript_path":"\([^"]*\)".*/\1/p')
if [ -n "$transcript" ] && grep -q '"command":"npm test' "$transcript" 2>/dev/null; then
  exit 0
fi
printf '%s\n' '{"decision": "block", "reason": "Run the tests (npm test) before you finish, and say whether they pass."}'
