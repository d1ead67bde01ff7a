#!/usr/bin/env python3
"""A logger that also says what it logged, as plain stdout."""
import json
import sys

data = json.load(sys.stdin)
print(f"logged: {data.get('tool_input', {}).get('command', '')}")
