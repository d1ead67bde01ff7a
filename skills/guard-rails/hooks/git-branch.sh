#!/bin/sh
# pre_llm_request: tell the model which git branch the work happens on
# (additional_context is appended to the system prompt for this call only).
cat >/dev/null
branch=$(git -C "$JCLI_CWD" rev-parse --abbrev-ref HEAD 2>/dev/null)
if [ -z "$branch" ]; then
  branch="none (no git repository)"
fi
# JSON-escape backslashes and quotes.
branch=$(printf '%s' "$branch" | sed 's/\\/\\\\/g; s/"/\\"/g')
printf '{"additional_context": "Current git branch: %s"}\n' "$branch"
