package cmdhook

import (
	"errors"
	"fmt"
	"strings"

	"hookstudio/app/agent/engine"
	"hookstudio/app/format/diag"
)

// RegisterFlatTool is jcli's current name of the session-hook tool
// (tools/hook.rs): flat arguments action (register, the default; list;
// remove; help), event, type, command, prompt, model, timeout, retry,
// index, on_error. It is accepted beside the seed's register_hook.
const RegisterFlatTool = "RegisterHook"

// IsRegister says whether a tool call registers session hooks, in either
// name.
func IsRegister(tool string) bool { return tool == RegisterTool || tool == RegisterFlatTool }

// flatHook turns RegisterHook's flat arguments into the event and a
// HOOK.yaml document, read as jcli reads them: type other than llm is
// bash, on_error other than stop is skip.
func flatHook(args map[string]any) (string, []byte, error) {
	event, _ := args["event"].(string)
	if event == "" {
		return "", nil, errors.New(`arguments need "event": the event name the hook is for`)
	}
	doc := map[string]any{"events": []any{event}, "type": string(TypeBash), "on_error": string(OnErrorSkip)}
	if t, _ := args["type"].(string); t == string(TypeLLM) {
		doc["type"] = string(TypeLLM)
	}
	if s, _ := args["on_error"].(string); s == string(OnErrorStop) {
		doc["on_error"] = string(OnErrorStop)
	}
	for _, k := range []string{"command", "prompt", "model", "timeout", "retry"} {
		if v, ok := args[k]; ok && v != nil {
			doc[k] = v
		}
	}
	if doc["type"] == string(TypeBash) && args["command"] == nil {
		return "", nil, errors.New("a bash hook needs command")
	}
	if doc["type"] == string(TypeLLM) && args["prompt"] == nil {
		return "", nil, errors.New("an llm hook needs prompt")
	}
	return event, marshal(doc), nil
}

// flatCommand is the bash command a RegisterHook call would add ("" none).
func flatCommand(args map[string]any) (string, string) {
	if a, _ := args["action"].(string); a != "" && a != "register" {
		return "", ""
	}
	event, _ := args["event"].(string)
	cmd, _ := args["command"].(string)
	if t, _ := args["type"].(string); t == string(TypeLLM) {
		return "", ""
	}
	return event, cmd
}

// registerFlat handles a RegisterHook call.
func (h *Handler) registerFlat(ev *engine.Event) {
	args := ev.Tool.Arguments
	call := engine.HookCall{System: System, Event: RegisterFlatTool, Hook: RegisterFlatTool, Source: "tool call " + ev.Tool.ID, Input: marshal(args)}
	answer := func(text string) { ev.Apply(call, engine.Effect{Respond: &text}) }
	fail := func(outcome engine.Outcome, text string) {
		call.Outcome, call.Error = outcome, text
		answer(text)
	}
	action, _ := args["action"].(string)
	switch action {
	case "", "register":
	case "help":
		answer("Session hooks: register with event plus command (type bash) or prompt (type llm); optional model, timeout, retry, on_error (skip or stop). The hook reads the HookContext as JSON on stdin and answers a HookResult as JSON on stdout (docs/command-hooks.md).")
		return
	case "list":
		h.mu.Lock()
		var lines []string
		for i, hk := range h.session {
			lines = append(lines, fmt.Sprintf("  [%d] event=%s, source=session, type=%s, session_idx=%d, on_error=%s", i, hk.Event, hk.Type, i, hk.OnError))
		}
		h.mu.Unlock()
		if len(lines) == 0 {
			answer("no session hooks are registered")
			return
		}
		answer("registered session hooks:\n" + strings.Join(lines, "\n"))
		return
	case "remove":
		idx, ok := args["index"].(float64)
		h.mu.Lock()
		n := len(h.session)
		if ok && idx >= 0 && int(idx) < n && idx == float64(int(idx)) {
			removed := h.session[int(idx)]
			h.session = append(h.session[:int(idx):int(idx)], h.session[int(idx)+1:]...)
			h.mu.Unlock()
			call.Changes = []string{fmt.Sprintf("session hook %s at %s removed", removed.Name, removed.Event)}
			answer(fmt.Sprintf("removed session hook %d", int(idx)))
			return
		}
		h.mu.Unlock()
		fail(engine.OutcomeError, fmt.Sprintf("RegisterHook remove: index must be a session_idx from list (0 to %d)", n-1))
		return
	default:
		fail(engine.OutcomeError, fmt.Sprintf("RegisterHook: unknown action %q (register, list, remove or help)", action))
		return
	}
	event, doc, err := flatHook(args)
	if err != nil {
		fail(engine.OutcomeError, "RegisterHook failed: "+err.Error())
		return
	}
	h.mu.Lock()
	n := len(h.session)
	h.mu.Unlock()
	hooks, ds := ParseHookDir(fmt.Sprintf("session#%d", n+1), fmt.Sprintf("session:%s[%d]", event, n), doc)
	if len(hooks) == 1 {
		hooks[0].Level, hooks[0].Dir, hooks[0].File, hooks[0].Line = LevelSession, h.cfg.Root, "session", n+1
		ds = append(ds, checkCommand(&hooks[0], h.cfg.Root)...)
	}
	if diag.HasErrors(ds) || len(hooks) != 1 {
		var msgs []string
		for _, d := range ds {
			if d.Severity == diag.Error {
				msgs = append(msgs, d.Message+" ["+d.Code+"]")
			}
		}
		fail(engine.OutcomeError, "RegisterHook failed: invalid hook: "+strings.Join(msgs, "; "))
		return
	}
	hk := &hooks[0]
	// jcli asks the user to confirm every RegisterHook; in Hook Studio
	// that is the folder's trust, which lists the commands a scenario
	// registers (ScenarioCommands).
	if hk.Type == TypeBash && !h.trusted[hk.Command] {
		fail(engine.OutcomeDenied, "RegisterHook refused: the command "+hk.Command+" was not confirmed by the user (not among the commands the folder was trusted with)")
		return
	}
	h.mu.Lock()
	h.session = append(h.session, hk)
	h.mu.Unlock()
	call.Changes = []string{fmt.Sprintf("hook %s added for %s for the rest of the session", hk.Name, event)}
	answer(fmt.Sprintf("registered session hook: event=%s, type=%s, on_error=%s, retry=%d", event, hk.Type, hk.OnError, hk.Retry))
}
