#!/bin/sh
# UserPromptSubmit context: in Codex a plain stdout is context too — a
# developer message after the prompt.
cat > /dev/null
echo "Releases are cut from the release/ branch; never push tags from main."
