#!/bin/bash
# Claude Code's shape (hookSpecificOutput), which Copilot CLI does not read.
cat > /dev/null
echo '{"hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": "Release branch: release/3.x"}}'
