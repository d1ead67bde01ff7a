#!/bin/sh
cat > /dev/null
echo '{"permissionDecision": "ask", "permissionDecisionReason": "Deploys need a person to confirm."}'
