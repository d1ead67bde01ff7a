#!/usr/bin/env python3
"""Deny sudo outright: a permission decision with no reason given."""
import json
import sys

data = json.load(sys.stdin)
command = data.get("tool_input", {}).get("command", "")
if command.split()[:1] == ["sudo"]:
    json.dump({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny"}}, sys.stdout)
sys.exit(0)
