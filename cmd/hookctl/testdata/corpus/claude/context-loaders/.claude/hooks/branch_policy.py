#!/usr/bin/env python3
"""Plain stdout on UserPromptSubmit: Claude Code adds it as context."""
import json
import sys

prompt = json.load(sys.stdin).get("prompt", "")
if "commit" in prompt or "push" in prompt:
    print("Policy: commit on a feature branch; main only takes merges.")
