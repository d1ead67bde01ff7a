#!/bin/sh
# stop: the final answer must end with a "Summary:" line. If it does not,
# ask once (retry_feedback sends the loop round again); never twice, so the
# loop always ends.
input=$(cat)
ask="Please end your answer with a line starting with Summary:"
last=$(printf '%s' "$input" | sed 's/\\"//g' | grep -o '"role":"assistant","content":"[^"]*' | tail -n 1)
if printf '%s' "$last" | grep -q 'Summary:'; then
  exit 0
fi
if printf '%s' "$input" | grep -qF "$ask"; then
  echo '{"system_message": "the answer still has no summary; asked once already"}'
  exit 0
fi
printf '{"retry_feedback": "%s"}\n' "$ask"
