#!/usr/bin/env python3
"""Deny network installs from the agent (Copilot CLI's top-level decision)."""
import json
import sys

data = json.load(sys.stdin)
args = data.get("toolArgs") or "{}"
args = json.loads(args) if isinstance(args, str) else args
if "curl" in args.get("command", "") and "| sh" in args.get("command", ""):
    print(json.dumps({"permissionDecision": "deny", "permissionDecisionReason": "Piping a download into a shell is not allowed."}))
