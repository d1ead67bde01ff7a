#!/usr/bin/env python3
"""Block destructive shell commands before Codex runs them: exit 2, the
reason on stderr."""
import json
import re
import sys

DANGER = [
    (r"\brm\s+-\w*r\w*f|\brm\s+-\w*f\w*r", "rm -rf deletes without a way back; move the folder to .trash/ instead"),
    (r"\bgit\s+clean\s+-\w*f", "git clean -f drops untracked work; list it with git clean -n first"),
]

data = json.load(sys.stdin)
command = data.get("tool_input", {}).get("command", "")
for pattern, why in DANGER:
    if re.search(pattern, command):
        sys.stderr.write(f"safety.py: {why}\n")
        sys.exit(2)
