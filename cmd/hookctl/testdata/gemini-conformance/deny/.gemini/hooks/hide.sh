#!/bin/sh
case "$(cat)" in
  *'SECRET'*) echo '{"decision": "deny", "reason": "The output held a secret and was hidden."}';;
esac
