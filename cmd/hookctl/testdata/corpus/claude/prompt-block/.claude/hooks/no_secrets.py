#!/usr/bin/env python3
"""Refuse prompts that carry what looks like an API key: the prompt never
reaches the model (decision block with a reason for the user)."""
import json
import re
import sys

prompt = json.load(sys.stdin).get("prompt", "")
if re.search(r"\b(sk|ghp|xox[bp])[-_][A-Za-z0-9]{8,}", prompt):
    print(json.dumps({"decision": "block",
                      "reason": "The prompt holds what looks like an API key; remove it and use the secrets store."}))
