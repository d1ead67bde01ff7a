#!/usr/bin/env python3
"""Point at failures in a command's output (JSON context after the tool)."""
import json
import sys

event = json.load(sys.stdin)
out = json.dumps(event.get("tool_response", ""))
if "error" in out.lower():
    note = "The command printed an error: read it before retrying."
else:
    note = "The command ran clean."
print(json.dumps({"hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext": note}}))
