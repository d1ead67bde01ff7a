#!/bin/sh
# exit 2 with a plain stderr: Gemini CLI reads it as a deny with stderr as the reason
case "$(cat)" in
  *'rm -rf'*) echo "Recursive deletes are blocked here." >&2; exit 2;;
esac
exit 0
