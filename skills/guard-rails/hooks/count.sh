#!/bin/sh
# Notifications with a number: how many tool results micro compaction
# cleared, or how many messages the list holds.
input=$(cat)
case "$1" in
  cleared)
    n=$(printf '%s' "$input" | grep -o 'cleared by micro-compaction' | wc -l | tr -d ' ')
    printf '{"system_message": "%s older tool result(s) cleared"}\n' "$n" ;;
  *)
    n=$(printf '%s' "$input" | grep -o '"role":' | wc -l | tr -d ' ')
    printf '{"system_message": "%s: %s message(s) in the list"}\n' "$JCLI_HOOK_EVENT" "$n" ;;
esac
