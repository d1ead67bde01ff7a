#!/usr/bin/env python3
"""Before an edit lands, look for calls that are easy to misuse and send the
model back with the safer alternative (exit 2: the edit does not happen)."""
import json
import sys

RISKS = {
    "innerHTML": "assigning innerHTML with user text allows XSS; set textContent or sanitise first",
    "eval(": "eval runs arbitrary code; parse the data with JSON.parse",
    "pickle.loads": "unpickling untrusted bytes runs code; use json",
}


def new_text(tool_input):
    if "content" in tool_input:
        return tool_input["content"]
    if "new_string" in tool_input:
        return tool_input["new_string"]
    return "\n".join(e.get("new_string", "") for e in tool_input.get("edits", []))


def main():
    data = json.load(sys.stdin)
    text = new_text(data.get("tool_input", {}))
    found = [why for needle, why in RISKS.items() if needle in text]
    if found:
        path = data.get("tool_input", {}).get("file_path", "?")
        print(f"Security reminder for {path.rsplit('/', 1)[-1]}: " + "; ".join(found), file=sys.stderr)
        sys.exit(2)
    sys.exit(0)


if __name__ == "__main__":
    main()
