#!/bin/sh
in=$(cat)
case "$in" in
  *'echo a'*) echo '{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"post context P1"}}';;
  *'echo b'*) echo 'post exit2 stderr' >&2; exit 2;;
  *'echo c'*) echo '{"decision":"block","reason":"post block reason"}';;
  *'echo d'*) echo 'post plain stdout'; exit 0;;
  *'echo e'*) echo '{"hookSpecificOutput":{"hookEventName":"PostToolUse","updatedMCPToolOutput":"replaced output"}}';;
esac
exit 0
