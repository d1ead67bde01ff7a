// picoclawhook answers as PicoClaw's own process-hook test helper does
// (sipeed/picoclaw pkg/agent/hook_process_test.go, runProcessHookHelper and
// handleProcessHookRequest at cf67dd38), so the tests check Hook Studio
// against the answers PicoClaw's code is written to read. Mode "respond"
// answers before_tool as that package's respondHook (hooks_test.go) does,
// carried over the wire: the call with hook_result set.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
)

type rpcError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

type message struct {
	JSONRPC string          `json:"jsonrpc,omitempty"`
	ID      uint64          `json:"id,omitempty"`
	Method  string          `json:"method,omitempty"`
	Params  json.RawMessage `json:"params,omitempty"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   *rpcError       `json:"error,omitempty"`
}

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, err.Error())
		os.Exit(1)
	}
}

func run() error {
	mode := os.Getenv("PICOCLAW_HOOK_MODE")
	scanner := bufio.NewScanner(os.Stdin)
	scanner.Buffer(make([]byte, 0, 64*1024), 1024*1024)
	encoder := json.NewEncoder(os.Stdout)
	for scanner.Scan() {
		var msg message
		if err := json.Unmarshal(scanner.Bytes(), &msg); err != nil {
			return err
		}
		if msg.ID == 0 {
			continue
		}
		result, rpcErr := handle(mode, msg)
		resp := message{JSONRPC: "2.0", ID: msg.ID}
		if rpcErr != nil {
			resp.Error = rpcErr
		} else if result != nil {
			body, err := json.Marshal(result)
			if err != nil {
				return err
			}
			resp.Result = body
		} else {
			resp.Result = []byte("{}")
		}
		if err := encoder.Encode(resp); err != nil {
			return err
		}
	}
	return scanner.Err()
}

func handle(mode string, msg message) (any, *rpcError) {
	switch msg.Method {
	case "hook.hello":
		return map[string]any{"ok": true}, nil
	case "hook.before_llm":
		if mode != "rewrite" {
			return map[string]any{"action": "continue"}, nil
		}
		var req map[string]any
		_ = json.Unmarshal(msg.Params, &req)
		req["model"] = "process-model"
		return map[string]any{"action": "modify", "request": req}, nil
	case "hook.after_llm":
		if mode != "rewrite" {
			return map[string]any{"action": "continue"}, nil
		}
		var resp map[string]any
		_ = json.Unmarshal(msg.Params, &resp)
		if rawResponse, ok := resp["response"].(map[string]any); ok {
			if content, ok := rawResponse["content"].(string); ok {
				rawResponse["content"] = content + "|ipc"
			}
		}
		return map[string]any{"action": "modify", "response": resp}, nil
	case "hook.before_tool":
		var call map[string]any
		_ = json.Unmarshal(msg.Params, &call)
		switch mode {
		case "rewrite":
			rawArgs, ok := call["arguments"].(map[string]any)
			if !ok || rawArgs == nil {
				rawArgs = map[string]any{}
			}
			rawArgs["text"] = "ipc"
			call["arguments"] = rawArgs
			return map[string]any{"action": "modify", "call": call}, nil
		case "respond":
			call["hook_result"] = map[string]any{"for_llm": "hook-responded: " + fmt.Sprint(call["tool"]), "for_user": "", "silent": false, "is_error": false}
			return map[string]any{"action": "respond", "call": call}, nil
		}
		return map[string]any{"action": "continue"}, nil
	case "hook.after_tool":
		if mode != "rewrite" {
			return map[string]any{"action": "continue"}, nil
		}
		var result map[string]any
		_ = json.Unmarshal(msg.Params, &result)
		if rawResult, ok := result["result"].(map[string]any); ok {
			if forLLM, ok := rawResult["for_llm"].(string); ok {
				rawResult["for_llm"] = "ipc:" + forLLM
			}
		}
		return map[string]any{"action": "modify", "result": result}, nil
	case "hook.approve_tool":
		if mode == "deny" {
			return map[string]any{"approved": false, "reason": "blocked by ipc hook"}, nil
		}
		return map[string]any{"approved": true}, nil
	default:
		return nil, &rpcError{Code: -32601, Message: "method not found"}
	}
}
