"""A PicoClaw process hook, as plugin authors write them (standard library only).

It speaks JSON-RPC 2.0, one message per line over stdin/stdout:
  * before_llm   offers a plugin tool, lookup_docs, to the model;
  * before_tool  answers lookup_docs itself (action "respond": the agent has
                 no such tool) and rewrites read_file's arguments (a line limit);
  * approve_tool denies dangerous shell commands.
It writes what it does to stderr: Hook Studio shows it at each step.
"""

import json
import os
import re
import sys

PLUGIN_TOOL = {
    "type": "function",
    "function": {
        "name": "lookup_docs",
        "description": "Search the project's internal documentation. Returns the best matching section.",
        "parameters": {
            "type": "object",
            "properties": {"query": {"type": "string", "description": "What to look for."}},
            "required": ["query"],
        },
    },
}

DOCS = {
    "build": "Build: run `make build`. The build needs Go 1.26; `make clean` only removes build/.",
    "release": "Release: tag vX.Y.Z on main; CI publishes the binaries.",
}

DANGEROUS = re.compile(r"\brm\s+-[a-z]*r[a-z]*f?\b.*(\s/|\s~|\s\*)|\bmkfs\b|\bdd\s+if=|:\(\)\s*\{")

READ_LIMIT = 200


def log(msg):
    print(f"[plugin_tools] {msg}", file=sys.stderr, flush=True)


def before_llm(params):
    tools = params.get("tools") or []
    if not tools:
        return {"action": "continue"}  # a call without tools (planning): nothing to add
    if any(t.get("function", {}).get("name") == "lookup_docs" for t in tools):
        return {"action": "continue"}
    log("offering lookup_docs")
    return {
        "action": "modify",
        "request": {
            "model": params["model"],
            "messages": params["messages"],
            "tools": tools + [PLUGIN_TOOL],
            "options": params.get("options", {}),
        },
    }


def before_tool(params):
    tool = params.get("tool", "")
    args = params.get("arguments") or {}
    if tool == "lookup_docs":
        query = str(args.get("query", "")).lower()
        section = next((text for key, text in DOCS.items() if key in query), "No section matches %r." % query)
        version = os.environ.get("PLUGIN_DOCS_VERSION", "?")
        log(f"answering lookup_docs({query!r})")
        return {
            "action": "respond",
            "result": {"for_llm": f"[docs v{version}] {section}", "silent": False, "is_error": False},
        }
    if tool == "read_file" and "limit" not in args:
        log(f"limiting read_file({args.get('path')}) to {READ_LIMIT} lines")
        return {"action": "modify", "call": {"tool": tool, "arguments": dict(args, limit=READ_LIMIT)}}
    return {"action": "continue"}


def approve_tool(params):
    command = str((params.get("arguments") or {}).get("command", ""))
    if params.get("tool") == "run_command" and DANGEROUS.search(command):
        log(f"denying {command!r}")
        return {"approved": False, "reason": f"Refused by plugin_tools: `{command}` is destructive. Remove only build/ instead."}
    return {"approved": True}


HANDLERS = {
    "hook.before_llm": before_llm,
    "hook.before_tool": before_tool,
    "hook.approve_tool": approve_tool,
}


def main():
    for line in sys.stdin:
        if not line.strip():
            continue
        msg = json.loads(line)
        method = msg.get("method", "")
        if "id" not in msg:  # a notification (hook.runtime_event): never answered
            if method == "hook.runtime_event":
                log("event " + msg["params"]["kind"])
            continue
        if method == "hook.hello":
            result = {"ok": True, "name": msg["params"]["name"]}
        elif method in HANDLERS:
            result = HANDLERS[method](msg.get("params") or {})
        else:
            result = {"action": "continue"}
        sys.stdout.write(json.dumps({"jsonrpc": "2.0", "id": msg["id"], "result": result}) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
