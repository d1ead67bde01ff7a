#!/bin/sh
cat > /dev/null
echo '{"hookSpecificOutput": {"additionalContext": "Tests: npm test"}}'
