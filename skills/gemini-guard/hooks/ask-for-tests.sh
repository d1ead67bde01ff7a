#!/bin/sh
# AfterAgent: the first time the agent wants to finish, ask for the tests.
# {"decision": "deny"} sends the reason as a new prompt and the model
# answers again; on an answer right after that retry stop_hook_active is
# true and it lets go (a retry that called a tool reads false: it asks again).
input=$(cat)
case "$input" in
  *'"stop_hook_active":true'*) exit 0;;
esac
printf '%s\n' '{"decision": "deny", "reason": "Run the tests (npm test) before you finish, and say whether they pass."}'
