package cmdhook

import (
	"fmt"
	"strings"

	"hookstudio/app/agent/engine"
	"hookstudio/app/hooks/hostmode"
	"hookstudio/app/hooks/process"
)

// Where seed 001 and jcli's current code (crates/j-agent/src/infra/hook)
// disagree, Options.Mode chooses; each call whose outcome differs carries
// what the other would do (engine.HookCall.Other).

func (h *Handler) code() bool { return h.opts.Mode != hostmode.Document }

// codeEnv is the environment jcli's code gives a hook: its own whole
// environment (PATH is set per hook), less Hook Studio's keys.
func codeEnv() []string { return process.Inherited("PATH") }

// envNote is the environment's note, on a bash hook's first call of a run.
func (h *Handler) envNote(hk *Hook) string {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.envNoted[hk] {
		return ""
	}
	h.envNoted[hk] = true
	if h.code() {
		return "as seed 001 describes, the command's environment would be only HOME, LANG, LC_ALL, TMPDIR, PATH and JCLI_*"
	}
	return "jcli's code gives the command its own whole environment besides JCLI_* (Hook Studio's API keys withheld)"
}

// filterNote says how the behaviours treat hk's filter at event name:
// jcli's code never runs a hook whose tool filter meets an event without a
// tool, or whose model_prefix meets one without a model; seed 001 ignores
// the filter there. "" when they agree.
func filterNote(hk *Hook, name Event) string {
	f := &hk.Filter
	var why string
	switch {
	case (f.ToolName != "" || f.ToolMatcher != "") && !name.HasTool():
		why = fmt.Sprintf("its tool filter meets %s, which has no tool", name)
	case f.ModelPrefix != "" && specs[name].fills&ctxModel == 0:
		why = fmt.Sprintf("its model_prefix meets %s, whose context has no model", name)
	default:
		return ""
	}
	return why
}

// postLLMOnce says whether this post_llm_response is one jcli's code does
// not send: it fires once, for the answer that ends the loop, not for an
// answer with tool calls or the planning call.
func postLLMOnce(name Event, ev *engine.Event) bool {
	return name == PostLLMResponse && (len(ev.ToolCalls) > 0 || ev.Phase == engine.PhasePlanning)
}

// halting applies jcli's code to an answer with action stop or skip: the
// chain ends returning only action, retry_feedback and system_message. It
// returns the fields the other behaviour treats differently ("" none).
func (h *Handler) halting(name Event, eff *engine.Effect) string {
	if eff.Action != engine.ActionStop && eff.Action != engine.ActionSkip {
		return ""
	}
	var dropped []string
	kept := engine.Effect{Action: eff.Action, Reason: eff.Reason, RetryFeedback: eff.RetryFeedback, Notice: eff.Notice}
	for _, f := range []struct {
		name string
		set  bool
	}{{"user_input", eff.UserInput != nil}, {"assistant_output", eff.Answer != nil}, {"system_prompt", eff.SystemPrompt != nil},
		{"messages", eff.Messages != nil}, {"inject_messages", len(eff.Inject) > 0}, {"tool_arguments", eff.ToolArguments != nil},
		{"tool_result", eff.ToolResult != nil}, {"tool_error", eff.ToolError != nil}, {"additional_context", eff.AppendSystem != ""}} {
		if f.set {
			dropped = append(dropped, f.name)
		}
	}
	var notes []string
	if len(dropped) > 0 {
		list := strings.Join(dropped, ", ")
		if h.code() {
			*eff = kept
			notes = append(notes, "as seed 001 describes, "+list+" of this answer would be applied too")
		} else {
			notes = append(notes, "jcli's code keeps only action, retry_feedback and system_message of an answer that stops or skips: "+list+" would not be applied")
		}
	}
	if name == Stop && eff.Action == engine.ActionStop && eff.RetryFeedback != "" {
		// jcli's loop reads retry_feedback before the stop.
		if h.code() {
			eff.Action, eff.Reason = "", ""
			notes = append(notes, "as seed 001 describes, action stop would end the reply here and retry_feedback would be dropped")
		} else {
			notes = append(notes, "jcli's code checks retry_feedback before stop: the round would be sent again with the feedback")
		}
	}
	if name == PreToolExecution && eff.Action == engine.ActionStop {
		if h.code() {
			eff.Action, eff.Reason = "", ""
			notes = append(notes, "as seed 001 describes, action stop would stop the request here; jcli's code ignores it at pre_tool_execution")
		} else {
			notes = append(notes, "jcli's code ignores action stop at pre_tool_execution: the tool would run")
		}
	}
	return strings.Join(notes, "; ")
}

// failedStop applies on_error to a failed hook: under jcli's code a stop
// (abort, in seed 001's name) failure answers action stop for the whole
// operation, where stop applies (not pre_tool_execution, where jcli
// ignores it); seed 001 only ends the chain.
func (h *Handler) failedStop(name Event, eff *engine.Effect) string {
	if specs[name].applies&resActionStop == 0 || name == PreToolExecution {
		return ""
	}
	if h.code() {
		*eff = engine.Effect{Action: engine.ActionStop, Reason: "a hook with on_error: stop failed"}
		return "as seed 001 describes, the failure would only end the chain; the operation would go on"
	}
	return "jcli's code stops the operation when a hook with on_error: stop fails"
}

func (h *Handler) stopInputNote() string {
	if h.code() {
		return "as seed 001 describes, user_input would be the user's message"
	}
	return "jcli's code gives stop the assistant's reply as user_input"
}

func joinNotes(a, b string) string {
	if a == "" || b == "" {
		return a + b
	}
	return a + "; " + b
}
