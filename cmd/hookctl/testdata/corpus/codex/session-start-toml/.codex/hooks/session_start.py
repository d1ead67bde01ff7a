#!/usr/bin/env python3
"""Load the project's working notes at session start (JSON context)."""
import json
import sys

event = json.load(sys.stdin)
with open("NOTES.md", encoding="utf-8") as f:
    notes = " ".join(line.strip() for line in f if line.strip())
print(json.dumps({"hookSpecificOutput": {"hookEventName": "SessionStart",
                                         "additionalContext": f"Session {event.get('source', '?')}: {notes}"}}))
