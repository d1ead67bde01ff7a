#!/usr/bin/env python3
"""Refuse recursive deletes and reads of .env files before the shell runs them."""
import json
import re
import sys

RULES = [
    (re.compile(r"\brm\s+(-\w*[rR]\w*|--recursive)\b"), "recursive rm is off limits in this repository; remove single files or ask first"),
    (re.compile(r"(^|[\s/'\"])\.env(\s|$|['\"])"), "the .env file holds secrets; read .env.example instead"),
]


def main() -> int:
    try:
        event = json.load(sys.stdin)
    except ValueError:
        return 0  # not ours to judge
    if event.get("tool_name") != "Bash":
        return 0
    command = (event.get("tool_input") or {}).get("command", "")
    for pattern, why in RULES:
        if pattern.search(command):
            print(f"BLOCKED by guard.py: {why}", file=sys.stderr)
            return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
