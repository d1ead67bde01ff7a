#!/bin/sh
# agentStop: the first time the agent wants to stop, ask for the tests.
# {"decision": "block"} sends the reason as the next prompt; on that turn
# stop_hook_active is true and it lets go.
input=$(cat)
case "$input" in
  *'"stop_hook_active":true'*) exit 0;;
esac
printf '%s\n' '{"decision": "block", "reason": "Run the tests (npm test) before you finish, and say whether they pass."}'
