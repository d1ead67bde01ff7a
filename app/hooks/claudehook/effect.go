package claudehook

import (
	"encoding/json"
	"fmt"
	"strings"

	"hookstudio/app/agent/engine"
	"hookstudio/app/agentdata/profile"
)

// output is the JSON a handler may print on exit 0.
type output struct {
	Continue       *bool           `json:"continue"`
	StopReason     string          `json:"stopReason"`
	SystemMessage  string          `json:"systemMessage"`
	Decision       string          `json:"decision"`
	Reason         string          `json:"reason"`
	SuppressOutput bool            `json:"suppressOutput"`
	Specific       *specificOutput `json:"hookSpecificOutput"`
	// a prompt handler's answer
	OK *bool `json:"ok"`
}

type specificOutput struct {
	HookEventName            string          `json:"hookEventName"`
	AdditionalContext        string          `json:"additionalContext"`
	PermissionDecision       string          `json:"permissionDecision"`
	PermissionDecisionReason string          `json:"permissionDecisionReason"`
	UpdatedInput             map[string]any  `json:"updatedInput"`
	UpdatedMCPToolOutput     json.RawMessage `json:"updatedMCPToolOutput"`
	Decision                 *struct {
		Behavior     string         `json:"behavior"`
		Message      string         `json:"message"`
		UpdatedInput map[string]any `json:"updatedInput"`
	} `json:"decision"`
}

// label is how the real CLI names the hook in the model's text: the event,
// and for tool events and SessionStart what the matcher saw.
func label(event Event, ev *engine.Event) string {
	switch {
	case event.isTool() && ev.Tool != nil:
		return string(event) + ":" + ev.Tool.Name
	}
	return string(event)
}

// effect reads a handler's run as the real CLI does and says what the
// model gets from it. The hook call records everything it printed.
func (h *Handler) effect(hd *Hook, event Event, ev *engine.Event, input []byte, r result) (engine.HookCall, engine.Effect) {
	call := engine.HookCall{System: System, Event: label(event, ev), Hook: hd.Name(), Source: hd.Source(), Input: input,
		DurationMS: float64(r.res.Duration.Microseconds()) / 1000, Outcome: engine.OutcomeOK, Truncated: r.res.Truncated}
	if hd.UsedSkill != "" {
		call.Source += " (skill " + hd.UsedSkill + ")"
	}
	var eff engine.Effect
	if !hd.Runs {
		call.Outcome, call.Error = engine.OutcomeSkipped, "not run: "+hd.Why
		return call, eff
	}
	if hd.Type == TypeCommand {
		code := r.res.ExitCode
		call.ExitCode, call.Stderr = &code, string(r.res.Stderr)
	}
	switch {
	case r.res.TimedOut:
		call.Outcome, call.Error = engine.OutcomeTimeout, fmt.Sprintf("no answer within %s: Claude Code goes on as if the hook had not run (a timed-out hook does not block)", h.timeout(hd))
		return call, eff
	case r.res.Err != nil:
		call.Outcome, call.Error = engine.OutcomeError, r.res.Err.Error()
		return call, eff
	}
	switch hd.Type {
	case TypePrompt:
		return h.promptEffect(hd, event, ev, r, call)
	case TypeHTTP:
		if r.err != nil {
			call.Outcome, call.Error = engine.OutcomeError, "http: "+r.err.Error()+" (a non-blocking error)"
			return call, eff
		}
		if r.status < 200 || r.status > 299 {
			call.Outcome, call.Error, call.OutputText = engine.OutcomeError, fmt.Sprintf("http status %d (a non-blocking error)", r.status), r.text
			return call, eff
		}
		return h.jsonEffect(hd, event, ev, []byte(strings.TrimSpace(r.text)), call)
	}
	stdout := strings.TrimSpace(string(r.res.Stdout))
	if why, ok := background(hd, stdout); ok {
		return backgroundEffect(hd, why, stdout, call)
	}
	if hd.rewake {
		// measured: a quick one's answer reaches the model as a waited
		// hook's does; what a slow one says arrives when it ends
		call.Warnings = append(call.Warnings, "asyncRewake: Claude Code runs it in the background and reads its answer when it ends (here at once, as for a hook that ends before the next request); an exit 2 would wake the model later, which the simulator does not")
	}
	switch code := r.res.ExitCode; {
	case code == 2:
		call.OutputText = stdout
		return h.blocking(hd, event, ev, profile.KindExit2, string(r.res.Stderr), call)
	case code != 0:
		call.OutputText = stdout
		call.Outcome = engine.OutcomeError
		call.Error = fmt.Sprintf("exit %d: a non-blocking error — Claude Code shows stderr to the user and goes on (only exit 2 blocks)", code)
		if code == 127 {
			call.Error += "; 127 means the command was not found, so this hook does nothing"
		}
		return call, eff
	}
	if strings.HasPrefix(stdout, "{") {
		return h.jsonEffect(hd, event, ev, []byte(stdout), call)
	}
	call.OutputText = stdout
	if stdout != "" {
		eff.Context = h.stdoutMessages(hd, event, ev, stdout)
	}
	return call, eff
}

// background says whether Claude Code runs a command handler in the
// background and reads nothing of it — declared "async", or answering
// {"async": true, …} on its first line of stdout — and why.
func background(hd *Hook, stdout string) (string, bool) {
	if hd.Async {
		return "it is declared async", true
	}
	first, _, _ := strings.Cut(stdout, "\n")
	var start struct {
		Async *bool `json:"async"`
	}
	if json.Unmarshal([]byte(strings.TrimSpace(first)), &start) == nil && start.Async != nil && *start.Async {
		return `its first line of stdout is {"async": true}`, true
	}
	return "", false
}

// backgroundEffect: Claude Code does not wait for a background hook, so
// nothing it answers reaches the model when it runs and none of its
// decisions count (measured on 2.1.197 and 2.1.332: plain stdout never
// reaches the model, a deny after the async line lets the tool run). An
// additionalContext it prints after the first line does reach the model,
// bare, at a later request once the hook has finished — which request
// depends on timing, so the simulator says so instead of placing it.
func backgroundEffect(hd *Hook, why, stdout string, call engine.HookCall) (engine.HookCall, engine.Effect) {
	// a warning, not a change: the call changed nothing, and its author
	// may expect its words to reach the model
	call.Notify, call.OutputText = true, stdout
	call.Warnings = append(call.Warnings, "ran in the background ("+why+"): Claude Code does not wait for it, so nothing of its output reached the model and its decisions do not count")
	_, rest, _ := strings.Cut(stdout, "\n")
	if hd.Async {
		rest = stdout
	}
	for _, line := range strings.Split(rest, "\n") {
		var out output
		if json.Unmarshal([]byte(strings.TrimSpace(line)), &out) == nil && out.Specific != nil && out.Specific.AdditionalContext != "" {
			call.Warnings = append(call.Warnings, fmt.Sprintf("its additionalContext %q reaches the model only once the hook has finished, at a later request, as Claude Code collects background hooks; which request depends on timing, so the simulated model never reads it", out.Specific.AdditionalContext))
		}
	}
	return call, engine.Effect{}
}

// stdoutMessages: a plain stdout on exit 0 reaches the model only from
// UserPromptSubmit and SessionStart.
func (h *Handler) stdoutMessages(hd *Hook, event Event, ev *engine.Event, stdout string) []engine.NewMessage {
	if event != UserPromptSubmit && event != SessionStart {
		return nil
	}
	return h.messages(hd, event, ev, profile.KindStdout, stdout)
}

// batchStopped: a PostToolBatch block ends the turn after the tool
// results, with no further model call and no reply (measured on 2.1.197,
// exit 2 and decision: block alike); the model never reads the reason.
func batchStopped(reason string) string {
	return orText(reason, "PostToolBatch hook blocked") + " (the turn ends after the tool results)"
}

// blocking is exit 2 (kind exit2, text its stderr) or a block with a
// reason (a prompt handler's ok: false, kind block): what the model or the
// user reads is the profile's rendering of it where the event shows one.
func (h *Handler) blocking(hd *Hook, event Event, ev *engine.Event, kind, text string, call engine.HookCall) (engine.HookCall, engine.Effect) {
	var eff engine.Effect
	call.Outcome = engine.OutcomeBlocked
	plain := strings.TrimSpace(text)
	switch event {
	case PreToolUse:
		if kind == profile.KindBlock {
			kind = profile.KindDeny
		}
		eff.Action, eff.Reason = engine.ActionDeny, h.text(hd, event, ev, kind, text)+pluginNote(hd, event, ev.RequestModel())
	case PermissionRequest:
		no := false
		if kind == profile.KindBlock {
			kind = profile.KindDeny
		}
		eff.Approved, eff.Reason = &no, h.text(hd, event, ev, kind, text)
	case PostToolUse, PostToolUseFailure:
		eff.Context = h.messages(hd, event, ev, kind, text)
	case UserPromptSubmit:
		eff.Action, eff.Reason, eff.Notice = engine.ActionStop, plain, h.text(hd, event, ev, kind, text)
	case Stop:
		eff.Feedback = h.messages(hd, event, ev, kind, text)
	case PreCompact:
		eff.Action, eff.Reason = engine.ActionStop, plain
	case PostToolBatch:
		eff.Action, eff.Reason = engine.ActionStop, batchStopped(plain)
	default:
		// SessionStart, SessionEnd, PostCompact: exit 2
		// shows stderr to the user only.
		call.Outcome = engine.OutcomeError
		call.Error = fmt.Sprintf("exit 2 does not block %s: stderr is shown to the user only", event)
	}
	return call, eff
}

func (h *Handler) jsonEffect(hd *Hook, event Event, ev *engine.Event, data []byte, call engine.HookCall) (engine.HookCall, engine.Effect) {
	var eff engine.Effect
	var out output
	if err := json.Unmarshal(data, &out); err != nil {
		call.OutputText = string(data)
		call.Warnings = append(call.Warnings, fmt.Sprintf("stdout starts with { but is not JSON (%v): Claude Code reads it as plain text", err))
		eff.Context = h.stdoutMessages(hd, event, ev, string(data))
		return call, eff
	}
	call.Output = json.RawMessage(data)
	eff.Notice = out.SystemMessage
	if out.Continue != nil && !*out.Continue {
		eff.Action, eff.Reason = engine.ActionStop, orText(out.StopReason, "continue: false")
		call.Outcome = engine.OutcomeStopped
		return call, eff
	}
	if out.Decision == "block" {
		reason := out.Reason
		switch event {
		case Stop:
			call.Outcome = engine.OutcomeBlocked
			eff.Feedback = h.messages(hd, event, ev, profile.KindBlock, reason)
		case PostToolUse, PostToolUseFailure:
			call.Outcome = engine.OutcomeBlocked
			eff.Context = append(eff.Context, h.messages(hd, event, ev, profile.KindBlock, reason)...)
		case UserPromptSubmit:
			call.Outcome = engine.OutcomeBlocked
			eff.Action, eff.Reason, eff.Notice = engine.ActionStop, reason, h.text(hd, event, ev, profile.KindBlock, reason)
			return call, eff
		case PostToolBatch:
			call.Outcome = engine.OutcomeBlocked
			eff.Action, eff.Reason = engine.ActionStop, batchStopped(reason)
			return call, eff
		case PreToolUse:
			call.Outcome = engine.OutcomeBlocked
			eff.Action, eff.Reason = engine.ActionDeny, h.text(hd, event, ev, h.denyKind(ev, reason), reason)
		}
	}
	sp := out.Specific
	if sp == nil {
		return call, eff
	}
	if sp.HookEventName != "" && sp.HookEventName != string(event) {
		call.Warnings = append(call.Warnings, fmt.Sprintf("hookSpecificOutput.hookEventName is %q at %s: Claude Code rejects the output", sp.HookEventName, event))
		return call, engine.Effect{Notice: eff.Notice}
	}
	if sp.AdditionalContext != "" {
		eff.Context = append(eff.Context, h.messages(hd, event, ev, profile.KindContext, sp.AdditionalContext)...)
	}
	switch event {
	case PreToolUse:
		switch sp.PermissionDecision {
		case "deny":
			call.Outcome = engine.OutcomeDenied
			eff.Action, eff.Reason = engine.ActionDeny, h.text(hd, event, ev, h.denyKind(ev, sp.PermissionDecisionReason), sp.PermissionDecisionReason)
		case "ask":
			call.Outcome = engine.OutcomeAsked
			if h.needsPermission(ev.Tool.Name) {
				eff.Extra = append(eff.Extra, "asked the user: the scenario's approval answers")
				break
			}
			// claude -p has nobody to ask: the tool does not run and the
			// model reads the reason, or the CLI's words without one
			// (measured, --allowedTools or not)
			eff.Action, eff.Reason = engine.ActionDeny, h.text(hd, event, ev, profile.KindAsk, sp.PermissionDecisionReason)
			if sp.PermissionDecisionReason == "" {
				eff.Reason = h.text(hd, event, ev, profile.KindAskNoReason, "")
			}
			eff.Extra = append(eff.Extra, "asked the user; with nobody to ask (claude -p, no approval: in the scenario) the tool does not run")
		case "allow":
			eff.Extra = append(eff.Extra, "allowed without asking")
		}
		if sp.UpdatedInput != nil && sp.PermissionDecision != "deny" {
			eff.ToolArguments = sp.UpdatedInput
		}
	case PermissionRequest:
		if d := sp.Decision; d != nil {
			yes := d.Behavior == "allow"
			eff.Approved, eff.Reason = &yes, d.Message
			if yes && d.UpdatedInput != nil {
				call.Warnings = append(call.Warnings, "updatedInput at PermissionRequest is not simulated: the approval goes through with the original input")
			}
		}
	case PostToolUse:
		if len(sp.UpdatedMCPToolOutput) > 0 {
			if ev.Tool != nil && strings.HasPrefix(ev.Tool.Name, "mcp__") {
				var s string
				if json.Unmarshal(sp.UpdatedMCPToolOutput, &s) != nil {
					s = string(sp.UpdatedMCPToolOutput)
				}
				eff.ToolResult = &s
			} else {
				call.Warnings = append(call.Warnings, "updatedMCPToolOutput changes only an MCP tool's output (mcp__…): "+ev.Tool.Name+"'s result stays as it was")
			}
		}
	}
	return call, eff
}

// denyKind is the outcome of a deny with reason ("" none) of ev's call:
// Claude Code words a deny without a reason with words of its own, and a
// deny of a call whose file path it resolved apart from the rest.
func (h *Handler) denyKind(ev *engine.Event, reason string) string {
	resolved := false
	if ev.Tool != nil {
		_, resolved = resolvePath(ev.Tool, h.cfg.Root)
	}
	switch {
	case resolved && reason == "":
		return profile.KindDenyResolvedNoReason
	case resolved:
		return profile.KindDenyResolved
	case reason == "":
		return profile.KindDenyNoReason
	}
	return profile.KindDeny
}

// promptEffect reads a prompt handler's answer {ok, reason}: ok false
// blocks as exit 2 with the reason.
func (h *Handler) promptEffect(hd *Hook, event Event, ev *engine.Event, r result, call engine.HookCall) (engine.HookCall, engine.Effect) {
	if r.err != nil {
		call.Outcome, call.Error = engine.OutcomeError, "prompt: "+r.err.Error()
		return call, engine.Effect{}
	}
	var out output
	if err := json.Unmarshal([]byte(strings.TrimSpace(r.text)), &out); err != nil || out.OK == nil {
		call.OutputText = r.text
		call.Outcome, call.Error = engine.OutcomeError, "the model's answer is not {\"ok\": true|false, \"reason\": …}: a non-blocking error"
		return call, engine.Effect{}
	}
	call.Output = json.RawMessage(strings.TrimSpace(r.text))
	if *out.OK {
		return call, engine.Effect{}
	}
	return h.blocking(hd, event, ev, profile.KindBlock, out.Reason, call)
}

func orText(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
