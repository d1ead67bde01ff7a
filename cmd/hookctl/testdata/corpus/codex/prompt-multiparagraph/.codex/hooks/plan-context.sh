#!/bin/sh
# Put the active plan in front of every prompt as plain stdout, in
# paragraphs: the plan's head, then what to read next.
cat > /dev/null
[ -f task_plan.md ] || exit 0
echo "ACTIVE PLAN (task_plan.md):"
head -3 task_plan.md
echo ""
echo "Read findings.md before you continue."
