#!/usr/bin/env python3
"""Review a commit in the background; only runs for git commit (its "if")."""
import sys

sys.stdin.read()
print("review: a secret-looking string in config.yaml", file=sys.stderr)
sys.exit(2)
