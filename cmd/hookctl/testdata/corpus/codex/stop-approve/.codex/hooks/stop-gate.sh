#!/usr/bin/env bash
# A Stop quality gate in Claude Code's old words: "approve" with a message
# for the user when all is well.
cat > /dev/null
echo '{"decision": "approve", "systemMessage": "Quality gate passed: changelog and tests are in order."}'
