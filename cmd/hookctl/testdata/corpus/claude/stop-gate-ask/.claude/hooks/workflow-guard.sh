#!/usr/bin/env bash
# Keep the session open while a workflow step is pending, once.
input=$(cat)
case "$input" in *'"stop_hook_active":true'*) exit 0;; esac
printf '%s\n' '{"decision": "block", "reason": "Workflow step 2 of 3 (update the changelog) is still open."}'
