#!/usr/bin/env python3
"""Session context for Qwen Code (JSON additionalContext)."""
import json
import sys

sys.stdin.read()
print(json.dumps({"hookSpecificOutput": {"hookEventName": "SessionStart",
                                         "additionalContext": "Lint with ruff; format with black."}}))
