#!/bin/sh
# BeforeTool guard: a shell command that deletes recursively is blocked.
# Gemini CLI reads exit 2 (any code but 0 and 1) with a plain stderr as
# {"decision": "deny"} and the model reads "Tool execution blocked: <stderr>".
# Exit 1 would only warn: the command would run.
input=$(cat)
case "$input" in
  *'rm -rf'*|*'rm -fr'*)
    echo "Recursive deletes are blocked here; delete the files you mean one by one." >&2
    exit 2;;
esac
exit 0
