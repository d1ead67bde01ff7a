#!/bin/bash
# Give the model the plan's head at session start (JSON on stdout only).
cat > /dev/null
[ -f task_plan.md ] || { echo '{}'; exit 0; }
HEAD=$(head -3 task_plan.md | python3 -c 'import json,sys; print(json.dumps(sys.stdin.read().strip()))')
printf '{"hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": %s}}\n' "$HEAD"
