#!/bin/sh
# post_tool_execution_failure: keep the error, add what to do about it,
# and remind the model in the system prompt for the rest of the request.
input=$(cat)
error=$(printf '%s' "$input" | sed -n -E 's/.*"tool_error":"(([^"\\]|\\.)*)".*/\1/p')
case "$error" in
  *"no such file"*|*ENOENT*)
    advice="The path does not exist: list the folder first instead of guessing file names." ;;
  *"permission denied"*|*EACCES*)
    advice="Permission denied: do not retry with sudo; ask the user." ;;
  *)
    advice="The tool failed: read the error before trying again." ;;
esac
printf '{"tool_error": "%s (hint: %s)", "additional_context": "%s"}\n' "$error" "$advice" "$advice"
