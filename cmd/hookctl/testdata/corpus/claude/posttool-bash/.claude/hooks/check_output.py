#!/usr/bin/env python3
"""After a shell command, look at its output: failures go back to the model
as a PostToolUse block with the failing lines."""
import json
import sys

data = json.load(sys.stdin)
response = data.get("tool_response") or {}
output = response.get("stdout", "") if isinstance(response, dict) else str(response)
failing = [line for line in output.splitlines() if line.startswith(("FAIL", "--- FAIL"))]
if failing:
    print(json.dumps({"decision": "block",
                      "reason": "The command reported failures: " + "; ".join(failing) + ". Fix them before going on."}))
