#!/bin/sh
# PreToolUse guard: a shell command that deletes recursively is blocked.
# Exit 2 blocks in Qwen Code and its stderr alone is the tool's result
# (exit 1 would NOT block: the command would run).
input=$(cat)
case "$input" in
  *'rm -rf'*|*'rm -fr'*)
    echo "Recursive deletes are blocked here; delete the files you mean one by one" >&2
    exit 2;;
esac
exit 0
