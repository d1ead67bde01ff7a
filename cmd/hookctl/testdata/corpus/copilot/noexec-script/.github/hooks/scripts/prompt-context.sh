#!/bin/bash
# Committed without its executable bit: a context line for each prompt.
cat > /dev/null
echo '{"additionalContext": "Plan step 2 of 3: switch the clients to v2."}'
