#!/usr/bin/env python3
"""Load the project's notes at session start as additionalContext: the
session's source, then each notes file's first lines."""
import json
import os
import sys

event = json.load(sys.stdin)
root = os.environ.get("CLAUDE_PROJECT_DIR", ".")
lines = [f"Session source: {event.get('source', 'unknown')}"]
for rel in (".claude/CONTEXT.md", "TODO.md"):
    path = os.path.join(root, rel)
    if os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            body = [l.rstrip() for l in f if l.strip()][:5]
        lines.append(f"--- {rel} ---")
        lines.extend(body)
print(json.dumps({"hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": "\n".join(lines)}}))
