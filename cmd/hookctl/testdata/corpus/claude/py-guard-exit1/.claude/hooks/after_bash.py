#!/usr/bin/env python3
"""Tell the model which command just ran (a PostToolUse JSON context)."""
import json
import sys

data = json.load(sys.stdin)
ran = data.get("tool_input", {}).get("command", "")
print(json.dumps({"hookSpecificOutput": {"hookEventName": "PostToolUse",
                                         "additionalContext": f"Logged command: {ran}"}}))
