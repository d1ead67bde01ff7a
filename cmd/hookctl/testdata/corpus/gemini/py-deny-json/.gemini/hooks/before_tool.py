#!/usr/bin/env python3
"""Gemini CLI BeforeTool guard: a JSON decision "deny" with a reason for
commands that rewrite published history; "{}" (no opinion) otherwise."""
import json
import re
import sys

data = json.load(sys.stdin)
command = data.get("tool_input", {}).get("command", "")
if re.search(r"\bgit\s+(push\s+.*--force\b|rebase\b.*\bmain\b)", command):
    print(json.dumps({"decision": "deny",
                      "reason": "History of main is shared: open a pull request instead of rewriting it."}))
else:
    print("{}")
