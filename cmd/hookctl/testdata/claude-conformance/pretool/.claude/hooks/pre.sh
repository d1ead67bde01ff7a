#!/bin/sh
in=$(cat)
case "$in" in
  *'rm -rf'*) echo 'rm is blocked' >&2; exit 2;;
  *'echo hi'*) echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","additionalContext":"pre context C1"}}';;
  *'"ls'*) echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"ls denied R2"}}';;
  *'echo one'*) echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"echo two"}}}';;
  *'echo fail'*) echo 'exit one stderr' >&2; exit 1;;
esac
exit 0
