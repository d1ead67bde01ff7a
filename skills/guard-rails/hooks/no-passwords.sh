#!/bin/sh
# pre_send_message: a message that seems to hand over a password is not
# sent to the model at all (action stop); the user is told why.
input=$(cat)
if printf '%s' "$input" | grep -qiE '"user_input":"[^"]*(password|passwd|pwd) (is|=|:)'; then
  echo '{"action": "stop", "system_message": "not sent: the message seems to contain a password"}'
fi
