import sys

sys.stdin.read()
# plain stdout of a PostToolUse hook: Qwen Code shows it to the user only
print("Remember to run the tests")
