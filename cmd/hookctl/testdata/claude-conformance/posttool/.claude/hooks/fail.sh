#!/bin/sh
cat > /dev/null
echo '{"hookSpecificOutput":{"hookEventName":"PostToolUseFailure","additionalContext":"failure context F1"}}'
