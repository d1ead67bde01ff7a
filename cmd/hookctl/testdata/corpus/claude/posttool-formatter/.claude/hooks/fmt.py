#!/usr/bin/env python3
"""Format the file an edit wrote (trailing spaces, one final newline) and say
so in a JSON context the model reads. What needs formatting is judged from
the text the tool wrote; the file is rewritten where it exists."""
import json
import os
import sys


def formatted(text):
    return "\n".join(line.rstrip() for line in text.rstrip("\n").split("\n")) + "\n"


data = json.load(sys.stdin)
tool_input = data.get("tool_input", {})
path = tool_input.get("file_path", "")
if not path.endswith((".md", ".txt", ".py")):
    sys.exit(0)
written = tool_input.get("content", "")
name = os.path.basename(path)
if formatted(written) == written:
    note = f"{name} was already formatted."
else:
    note = f"Formatted {name}: trailing spaces removed."
    if os.path.exists(path):
        with open(path, "w", encoding="utf-8") as f:
            f.write(formatted(written))
print(json.dumps({"hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext": note}}))
