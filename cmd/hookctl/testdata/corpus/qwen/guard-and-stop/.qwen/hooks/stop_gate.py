#!/usr/bin/env python3
"""Ask for a summary line before the session ends, once."""
import json
import sys

event = json.load(sys.stdin)
if event.get("stop_hook_active"):
    sys.exit(0)
print(json.dumps({"decision": "block", "reason": "Before you stop: list the files you changed, one per line."}))
