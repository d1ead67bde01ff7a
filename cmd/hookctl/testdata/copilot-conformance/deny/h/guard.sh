#!/bin/sh
case "$(cat)" in
  *'rm -rf'*) echo '{"permissionDecision": "deny", "permissionDecisionReason": "Use git clean instead."}';;
esac
