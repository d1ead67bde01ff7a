#!/usr/bin/env python3
"""A Stop loop: read the session's transcript and send the model back to
work until its last answer carries the completion marker."""
import json
import sys
import time

MARKER = "<done>ALL TESTS PASS</done>"


def last_answer(transcript):
    """The text of the last assistant entry that has text, or None."""
    answer = None
    with open(transcript, encoding="utf-8") as f:
        for line in f:
            try:
                entry = json.loads(line)
            except ValueError:
                continue
            message = entry.get("message") or {}
            if message.get("role") != "assistant":
                continue
            content = message.get("content")
            if isinstance(content, str):
                texts = [content]
            else:
                texts = [b.get("text", "") for b in content or [] if isinstance(b, dict) and b.get("type") == "text"]
            if any(texts):
                answer = "\n".join(texts)
    return answer


def settled_answer(event):
    """The transcript's last answer once it is the one Stop is about: the CLI
    may still be writing the transcript when the hook starts (bounded wait)."""
    want = event.get("last_assistant_message")
    deadline = time.monotonic() + 3
    while True:
        answer = last_answer(event.get("transcript_path", ""))
        if want is None or answer == want or time.monotonic() > deadline:
            return answer
        time.sleep(0.05)


def main():
    event = json.load(sys.stdin)
    try:
        answer = settled_answer(event)
    except OSError:
        print("until_done: no transcript, the loop ends", file=sys.stderr)
        return
    if answer is None:
        print("until_done: no answer in the transcript, the loop ends", file=sys.stderr)
        return
    if MARKER in answer:
        return
    print(json.dumps({"decision": "block",
                      "reason": f"Keep going: run the tests and fix what fails. Say {MARKER} only once they all pass."}))


main()
