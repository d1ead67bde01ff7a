#!/usr/bin/env bash
# A quality gate written with PreToolUse's words: a permission decision
# for a Stop event.
cat > /dev/null
printf '%s\n' '{"hookSpecificOutput": {"hookEventName": "Stop", "permissionDecision": "ask", "permissionDecisionReason": "Quality gate: uncommitted changes. Continue anyway?"}}'
