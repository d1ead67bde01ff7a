"""A small Python process hook for the tests: after_tool upper-cases the
result; a before_tool call of the tool "boom" raises, so the process dies
with a traceback on stderr."""
import json
import sys

for line in sys.stdin:
    msg = json.loads(line)
    if "id" not in msg:
        continue
    method, params = msg["method"], msg.get("params") or {}
    if method == "hook.hello":
        result = {"ok": True, "name": params["name"]}
    elif method == "hook.before_tool" and params["tool"] == "boom":
        raise RuntimeError("boom is not allowed here")
    elif method == "hook.after_tool":
        result = {"action": "modify", "result": dict(params["result"], for_llm=params["result"]["for_llm"].upper())}
    else:
        result = {"action": "continue"}
    print(json.dumps({"jsonrpc": "2.0", "id": msg["id"], "result": result}), flush=True)
