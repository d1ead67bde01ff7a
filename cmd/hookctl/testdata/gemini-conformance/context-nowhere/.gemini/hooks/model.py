import json
import sys

sys.stdin.read()
# BeforeModel has no additionalContext: neither form reaches the model
print(json.dumps({"additionalContext": "BeforeModel top level",
                  "hookSpecificOutput": {"hookEventName": "BeforeModel", "additionalContext": "BeforeModel nested"}}))
