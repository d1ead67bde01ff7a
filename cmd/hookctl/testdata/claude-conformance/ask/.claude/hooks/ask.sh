#!/bin/sh
# asks about every echo (with a reason for one of them) and about ls
in=$(cat)
case "$in" in
  *'echo hi'*) echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"a human should confirm A1"}}';;
  *'echo'*|*'"ls'*) echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask"}}';;
esac
exit 0
