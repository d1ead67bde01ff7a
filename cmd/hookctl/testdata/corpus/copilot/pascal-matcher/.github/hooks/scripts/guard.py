#!/usr/bin/env python3
"""A Claude Code guard carried over to Copilot CLI as it was: PascalCase
event, matcher "Bash", Claude Code's JSON deny."""
import json
import sys

data = json.load(sys.stdin)
raw = data.get("tool_input") or data.get("toolArgs") or {}
if isinstance(raw, str):
    raw = json.loads(raw or "{}")
if "rm -rf" in raw.get("command", ""):
    print(json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny",
                                             "permissionDecisionReason": "Recursive deletes need a person: ask first."}}))
