#!/usr/bin/env python3
"""A PostToolUse hint as JSON additionalContext."""
import json
import sys

sys.stdin.read()
print(json.dumps({"hookSpecificOutput": {"hookEventName": "PostToolUse",
                                         "additionalContext": "Run ruff on the files you touched."}}))
