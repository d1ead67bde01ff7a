#!/bin/sh
# PreToolUse guard: a shell command that deletes recursively is blocked.
# Exit 2 with a reason on stderr blocks in Codex (exit 1 would NOT: the
# command would run); the model reads "Command blocked by PreToolUse hook:
# <reason>. Command: <command>".
input=$(cat)
case "$input" in
  *'rm -rf'*|*'rm -fr'*)
    echo "Recursive deletes are blocked here; delete the files you mean one by one" >&2
    exit 2;;
esac
exit 0
