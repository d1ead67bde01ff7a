#!/bin/sh
case "$(cat)" in
  *'rm -rf'*) echo '{"decision": "deny", "reason": "Use git clean instead."}';;
esac
