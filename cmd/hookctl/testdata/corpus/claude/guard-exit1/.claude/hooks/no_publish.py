#!/usr/bin/env python3
"""Meant to stop package publishing, but exits 1: Claude Code reads that as
the hook failing, not as a block, and runs the command anyway."""
import json
import sys

command = json.load(sys.stdin).get("tool_input", {}).get("command", "")
if "npm publish" in command:
    print("Publishing is done by CI, not from a workstation.", file=sys.stderr)
    sys.exit(1)
