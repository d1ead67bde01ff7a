#!/usr/bin/env bash
# An output style as session context: several paragraphs in one
# additionalContext.
cat <<'JSON'
{
  "hookSpecificOutput": {
    "hookEventName": "SessionStart",
    "additionalContext": "Teaching mode is on for this repository.\n\nBefore each change, say in two sentences why it is needed.\n\nAfter each change, name one thing the reader could try next."
  }
}
JSON
