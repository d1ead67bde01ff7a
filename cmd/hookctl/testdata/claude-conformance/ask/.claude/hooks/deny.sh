#!/bin/sh
# denies ls, which ask.sh asks about too: deny wins over ask
in=$(cat)
case "$in" in
  *'"ls'*) echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"ls denied D1"}}';;
esac
exit 0
