#!/bin/sh
# pre_tool_execution (run_command only): a recursive forced delete is
# skipped; the model reads that the call was skipped instead of a result.
input=$(cat)
if printf '%s' "$input" | grep -qE 'rm +-(rf|fr|r +-f|f +-r)'; then
  echo '{"action": "skip", "system_message": "blocked: rm -rf"}'
else
  echo '{}'
fi
