#!/bin/sh
cat > /dev/null
echo '{"decision": "deny", "reason": "answered from the cache", "hookSpecificOutput": {"llm_response": {"candidates": [{"content": {"role": "model", "parts": ["The cached answer: 42."]}}]}}}'
