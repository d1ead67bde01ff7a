#!/bin/bash
# Remind of the plan before each tool as a systemMessage (the user's
# screen, not the model's).
cat > /dev/null
[ -f task_plan.md ] || { echo '{}'; exit 0; }
printf '{"systemMessage": "Plan: %s"}\n' "$(head -1 task_plan.md | sed 's/^# //')"
