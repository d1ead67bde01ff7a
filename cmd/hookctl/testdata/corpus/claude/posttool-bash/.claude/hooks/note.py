#!/usr/bin/env python3
import json
import sys

sys.stdin.read()
print(json.dumps({"hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext": "Shell output logged."}}))
