#!/usr/bin/env python3
# A secrets guard: denies reading or writing .env files and any "rm"; says
# why, except for the files under bare/ (a deny without a reason).
import json
import sys

call = json.load(sys.stdin)
tool, args = call["tool_name"], call["tool_input"]
target = args.get("file_path", "") or args.get("command", "")
if ".env" in target or target.startswith("rm "):
    out = {"hookEventName": "PreToolUse", "permissionDecision": "deny"}
    if "bare" not in target:
        out["permissionDecisionReason"] = "secrets stay put (%s)" % tool
    print(json.dumps({"hookSpecificOutput": out}))
elif "old-style" in target:
    print(json.dumps({"decision": "block", "reason": "old-style block"}))
