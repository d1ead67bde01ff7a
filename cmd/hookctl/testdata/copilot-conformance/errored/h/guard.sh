#!/bin/sh
# exit 1 reads as "go on" in Claude Code; Copilot CLI denies the call
cat > /dev/null
echo "not sure" >&2
exit 1
