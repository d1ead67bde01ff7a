#!/usr/bin/env python3
"""Remind the model of the house conventions on every prompt, as plain
stdout in paragraphs."""
import sys

sys.stdin.read()
print("House conventions:")
print("- tabs in Go, two spaces elsewhere")
print()
print("Commit messages say what and why, in the imperative.")
