#!/bin/sh
# AfterTool note after an edit: additionalContext is appended to the tool's
# result as <hook_context>…</hook_context>. Plain stdout would only be shown
# to the user ("Hook system message"), never to the model.
cat > /dev/null
printf '%s\n' '{"hookSpecificOutput": {"hookEventName": "AfterTool", "additionalContext": "This project checks every change with: npm test"}}'
