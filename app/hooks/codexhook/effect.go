package codexhook

import (
	"encoding/json"
	"fmt"
	"strings"

	"hookstudio/app/agent/engine"
	"hookstudio/app/agentdata/profile"
	"hookstudio/app/hooks/ccshape"
	"hookstudio/app/hooks/process"
)

// effect is a hook's effect, with the raw text of a PostToolUse feedback
// (several hooks' feedback is one tool output, joined).
type effect struct {
	engine.Effect
	fb string
}

func (e effect) feedback() (string, bool) { return e.fb, e.fb != "" }

// values are what a rendering of hd's words at event is filled with.
func (h *Handler) values(hd *Hook, event string, ev *engine.Event, text string) profile.Values {
	v := profile.Values{Event: event, Command: hd.Command, Text: text, Prompt: ev.UserInput,
		HookID: fmt.Sprintf("%s:%d:%s", label(event), hd.Order, hd.Abs)}
	if ev.Tool != nil {
		name, args := toolName(ev.Tool)
		v.Tool = name
		if cmd, ok := args["command"].(string); ok && name == "Bash" {
			v.Input = cmd
		} else {
			b, _ := json.Marshal(args)
			v.Input = string(b)
		}
	}
	return v
}

// render puts the profile's rendering of kind at event into eff.
func (h *Handler) render(eff *engine.Effect, hd *Hook, event, kind string, ev *engine.Event, text string) {
	o := h.prof.Outcome(profile.ID(event, kind))
	if o == nil && kind == profile.KindExit2 {
		o = h.prof.Outcome(profile.ID(event, profile.KindBlock)) // one rendering for both where only one was seen
	}
	ccshape.Render(eff, ev.Point, o, h.values(hd, event, ev, text))
}

// effect reads a hook's run as Codex 0.171 does (codex-rs/hooks
// events/*.rs, output_parser.rs) and says what the model gets from it.
func (h *Handler) effect(hd *Hook, event string, ev *engine.Event, input []byte, r process.Result) (engine.HookCall, effect) {
	name := event
	if ev.Tool != nil && isTool(event) {
		tool, _ := toolName(ev.Tool)
		name += ":" + tool
	}
	var eff effect
	if !hd.Runs {
		return h.Skipped(name, hd.Name(), hd.Source(), hd.Why, input), eff
	}
	call := h.Call(name, hd.Name(), hd.Source(), input, r)
	code := r.ExitCode
	fail := func(format string, args ...any) (engine.HookCall, effect) {
		call.Outcome, call.Error = engine.OutcomeError, fmt.Sprintf(format, args...)+": Codex records a failed hook and goes on"
		return call, effect{}
	}
	switch {
	case r.TimedOut:
		call.Outcome, call.Error = engine.OutcomeTimeout, fmt.Sprintf("hook timed out after %ds: Codex records a failed hook and goes on", hd.Timeout)
		return call, eff
	case r.Err != nil:
		return fail("%v", r.Err)
	}
	stdout := strings.TrimSpace(string(r.Stdout))
	stderr := strings.TrimSpace(string(r.Stderr))
	call.OutputText = stdout
	switch code {
	case 0:
	case 2:
		if stderr == "" {
			return fail("%s hook exited with code 2 but wrote no reason to stderr", event)
		}
		return h.block(call, hd, event, ev, profile.KindExit2, stderr)
	default:
		msg := fmt.Sprintf("hook exited with code %d", code)
		if code == 127 {
			msg += " (127: the command was not found)"
		}
		return fail("%s", msg)
	}
	if stdout == "" {
		return call, eff
	}
	var out ccshape.Output
	var obj map[string]json.RawMessage
	if json.Unmarshal([]byte(stdout), &obj) != nil || json.Unmarshal([]byte(stdout), &out) != nil {
		switch {
		case strings.HasPrefix(stdout, "{") || strings.HasPrefix(stdout, "["):
			return fail("hook returned invalid %s JSON output", label(event))
		case event == Stop:
			return fail("hook returned invalid stop hook JSON output (Codex reads a Stop hook's stdout as JSON only)")
		case event == SessionStart || event == UserPromptSubmit:
			h.render(&eff.Effect, hd, event, profile.KindStdout, ev, stdout)
			return call, eff
		}
		call.Warnings = append(call.Warnings, fmt.Sprintf("Codex ignores plain stdout of a %s hook: only SessionStart and UserPromptSubmit hand it to the model; print JSON such as {\"hookSpecificOutput\": {\"hookEventName\": %q, \"additionalContext\": …}}", event, event))
		return call, eff
	}
	call.Output, call.OutputText = json.RawMessage(stdout), ""
	if why := wireError(event, []byte(stdout)); why != "" {
		// Codex reads the answer through a schema that refuses it whole:
		// the hook fails and nothing of it counts, its systemMessage neither
		return fail("hook returned invalid %s JSON output (%s)", label(event), why)
	}
	return h.jsonEffect(call, hd, event, ev, out)
}

// block is a hook that blocks with words (exit 2's stderr, a decision's
// reason) where its event lets it.
func (h *Handler) block(call engine.HookCall, hd *Hook, event string, ev *engine.Event, kind, text string) (engine.HookCall, effect) {
	var eff effect
	call.Outcome = engine.OutcomeBlocked
	switch event {
	case UserPromptSubmit:
		eff.Action, eff.Reason, eff.Notice = engine.ActionStop, text, text
	case PreToolUse:
		if kind == profile.KindBlock {
			kind = profile.KindDeny
		}
		h.render(&eff.Effect, hd, event, kind, ev, text)
		if eff.Action != engine.ActionDeny {
			eff.Action, eff.Reason = engine.ActionDeny, text
		}
	case PermissionRequest:
		no := false
		eff.Approved, eff.Reason = &no, text
	case PostToolUse:
		h.render(&eff.Effect, hd, event, kind, ev, text)
		eff.fb = text
	case Stop:
		h.render(&eff.Effect, hd, event, kind, ev, text)
	default:
		call.Outcome = engine.OutcomeError
		call.Error = fmt.Sprintf("exit 2 does not block %s: Codex records the hook as failed and goes on", event)
	}
	return call, eff
}

// jsonEffect reads a hook's JSON answer.
func (h *Handler) jsonEffect(call engine.HookCall, hd *Hook, event string, ev *engine.Event, out ccshape.Output) (engine.HookCall, effect) {
	var eff effect
	invalid := func(why string) (engine.HookCall, effect) {
		call.Outcome, call.Error = engine.OutcomeError, why+": Codex records a failed hook and ignores its output"
		return call, effect{}
	}
	sp := out.Specific
	if sp == nil {
		sp = &ccshape.SpecificOutput{}
	}
	notice := ccshape.Str(out.SystemMessage)
	stopped := out.Continue != nil && !*out.Continue
	reason := strings.TrimSpace(ccshape.Str(out.Reason))
	ctx := sp.AdditionalContext
	switch event {
	case SessionStart:
		if ctx != nil {
			h.render(&eff.Effect, hd, event, profile.KindContext, ev, *ctx)
		}
	case UserPromptSubmit:
		if out.Decision == "block" && reason == "" {
			return invalid("UserPromptSubmit hook returned decision:block without a non-empty reason")
		}
		if ctx != nil {
			h.render(&eff.Effect, hd, event, profile.KindContext, ev, *ctx)
		}
		switch {
		case stopped:
			call.Outcome = engine.OutcomeStopped
			eff.Action, eff.Reason = engine.ActionStop, orText(ccshape.Str(out.StopReason), "continue: false")
		case out.Decision == "block":
			call.Outcome = engine.OutcomeBlocked
			eff.Action, eff.Reason, eff.Notice = engine.ActionStop, reason, reason
		}
	case PreToolUse:
		if why := unsupportedPre(out, sp, reason); why != "" {
			return invalid(why)
		}
		if ctx != nil {
			h.render(&eff.Effect, hd, event, profile.KindContext, ev, *ctx)
		}
		switch {
		case sp.PermissionDecision == "deny":
			c, e := h.block(call, hd, event, ev, profile.KindDeny, strings.TrimSpace(ccshape.Str(sp.PermissionDecisionReason)))
			c.Outcome = engine.OutcomeDenied
			e.Context, e.ContextBefore = eff.Context, eff.ContextBefore
			call, eff = c, e
		case out.Decision == "block":
			c, e := h.block(call, hd, event, ev, profile.KindDeny, reason)
			e.Context, e.ContextBefore = eff.Context, eff.ContextBefore
			call, eff = c, e
		case sp.PermissionDecision == "allow" && sp.UpdatedInput != nil:
			eff.ToolArguments = codexArgs(ev.Tool, sp.UpdatedInput)
		}
	case PermissionRequest:
		switch {
		case stopped:
			return invalid("PermissionRequest hook returned unsupported continue:false")
		case out.StopReason != nil:
			return invalid("PermissionRequest hook returned unsupported stopReason")
		case out.SuppressOutput:
			return invalid("PermissionRequest hook returned unsupported suppressOutput")
		}
		if d := sp.Decision; d != nil {
			yes := d.Behavior == "allow"
			eff.Approved = &yes
			if !yes {
				eff.Reason = orText(strings.TrimSpace(ccshape.Str(d.Message)), "PermissionRequest hook denied approval")
			}
		}
	case PostToolUse:
		if out.SuppressOutput {
			return invalid("PostToolUse hook returned unsupported suppressOutput")
		}
		block := out.Decision == "block"
		if block && reason == "" {
			return invalid("PostToolUse hook returned decision:block without a non-empty reason")
		}
		if !block && !stopped && out.Reason != nil {
			return invalid("PostToolUse hook returned reason without decision")
		}
		if ctx != nil {
			h.render(&eff.Effect, hd, event, profile.KindContext, ev, *ctx)
		}
		switch {
		case stopped:
			call.Outcome = engine.OutcomeStopped
			stop := orText(ccshape.Str(out.StopReason), "PostToolUse hook stopped execution")
			fb := orText(reason, stop)
			h.render(&eff.Effect, hd, event, profile.KindBlock, ev, fb)
			eff.fb = fb
			eff.Action, eff.Reason = engine.ActionStop, stop
		case block:
			call.Outcome = engine.OutcomeBlocked
			h.render(&eff.Effect, hd, event, profile.KindBlock, ev, reason)
			eff.fb = reason
		}
	case Stop:
		switch {
		case stopped:
			call.Outcome = engine.OutcomeStopped
			eff.Action, eff.Reason = engine.ActionStop, orText(ccshape.Str(out.StopReason), "continue: false")
		case out.Decision == "block" && reason == "":
			return invalid("Stop hook returned decision:block without a non-empty reason")
		case out.Decision == "block":
			c, e := h.block(call, hd, event, ev, profile.KindBlock, reason)
			call, eff = c, e
		}
	}
	if notice != "" {
		eff.Notice = notice // Codex shows it as a warning; the model never reads it
	}
	return call, eff
}

// unsupportedPre is what makes Codex reject a PreToolUse answer whole
// (output_parser.rs), "" nothing.
func unsupportedPre(out ccshape.Output, sp *ccshape.SpecificOutput, reason string) string {
	switch {
	case out.Continue != nil && !*out.Continue:
		return "PreToolUse hook returned unsupported continue:false"
	case out.StopReason != nil:
		return "PreToolUse hook returned unsupported stopReason"
	case out.SuppressOutput:
		return "PreToolUse hook returned unsupported suppressOutput"
	}
	if sp.PermissionDecision != "" || sp.PermissionDecisionReason != nil || sp.UpdatedInput != nil {
		switch {
		case sp.UpdatedInput != nil && sp.PermissionDecision != "allow":
			return "PreToolUse hook returned updatedInput without permissionDecision:allow"
		case sp.PermissionDecision == "allow" && sp.UpdatedInput == nil:
			return "PreToolUse hook returned unsupported permissionDecision:allow"
		case sp.PermissionDecision == "ask":
			return "PreToolUse hook returned unsupported permissionDecision:ask"
		case sp.PermissionDecision == "deny" && strings.TrimSpace(ccshape.Str(sp.PermissionDecisionReason)) == "":
			return "PreToolUse hook returned permissionDecision:deny without a non-empty permissionDecisionReason"
		case sp.PermissionDecision == "" && sp.PermissionDecisionReason != nil:
			return "PreToolUse hook returned permissionDecisionReason without permissionDecision"
		}
		return ""
	}
	switch out.Decision {
	case "approve":
		return "PreToolUse hook returned unsupported decision:approve"
	case "block":
		if reason == "" {
			return "PreToolUse hook returned decision:block without a non-empty reason"
		}
	case "":
		if out.Reason != nil {
			return "PreToolUse hook returned reason without decision"
		}
	}
	return ""
}

// codexArgs turns a hook's updatedInput back into the tool's arguments:
// the shell tool's {"command": …} is exec_command's {"cmd": …}.
func codexArgs(tc *engine.ToolCall, updated map[string]any) map[string]any {
	if name, _ := toolName(tc); name == "Bash" && tc.Name != "Bash" {
		out := map[string]any{}
		for k, v := range tc.Arguments {
			out[k] = v
		}
		key := "cmd"
		if _, ok := tc.Arguments["command"]; ok {
			key = "command"
		}
		out[key] = updated["command"]
		return out
	}
	return updated
}

func orText(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
