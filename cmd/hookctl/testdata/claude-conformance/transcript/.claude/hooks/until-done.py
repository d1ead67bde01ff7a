#!/usr/bin/env python3
"""A Stop loop: keep the agent going until its last answer says DONE.

It reads the transcript Claude Code keeps for hooks (transcript_path), as
Stop-loop plugins do: the last assistant entry's text blocks.
"""
import json
import sys

hook = json.load(sys.stdin)
last = ""
with open(hook["transcript_path"]) as f:
    for line in f:
        entry = json.loads(line)
        if entry.get("type") != "assistant":
            continue
        blocks = entry.get("message", {}).get("content", [])
        texts = [b.get("text", "") for b in blocks if isinstance(b, dict) and b.get("type") == "text"]
        if texts:
            last = "\n".join(texts)
if "DONE" not in last:
    print(json.dumps({"decision": "block", "reason": "The last answer was: " + last + " — keep going until DONE."}))
