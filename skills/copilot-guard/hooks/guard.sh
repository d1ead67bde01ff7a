#!/bin/sh
# preToolUse guard: a shell command that deletes recursively is denied.
# The reason reaches the model only through JSON: exit 2 would deny too,
# but the model would read "hook exited with code 2" and not why.
input=$(cat)
case "$input" in
  *'rm -rf'*|*'rm -fr'*)
    printf '%s\n' '{"permissionDecision": "deny", "permissionDecisionReason": "Recursive deletes are blocked here; delete the files you mean one by one."}';;
esac
exit 0
