#!/bin/sh
# post_tool_execution: redact secrets in a tool result before the model
# reads it; post_llm_response: the same in the assistant's answer.
# The value is cut out of the JSON still escaped, so it can be printed back
# inside a JSON string as it is.
case "$JCLI_HOOK_EVENT" in
  post_tool_execution) field=tool_result ;;
  post_llm_response) field=assistant_output ;;
  *) cat >/dev/null; exit 0 ;;
esac
value=$(sed -n -E 's/.*"'"$field"'":"(([^"\\]|\\.)*)".*/\1/p')
redacted=$(printf '%s' "$value" | sed -E \
  -e 's/sk-[A-Za-z0-9_-]{8,}/[REDACTED]/g' \
  -e 's/((api_key|token|password|secret)=)[^ ,;\\"]+/\1[REDACTED]/g')
if [ "$redacted" != "$value" ]; then
  printf '{"%s": "%s", "system_message": "a secret was redacted"}\n' "$field" "$redacted"
fi
