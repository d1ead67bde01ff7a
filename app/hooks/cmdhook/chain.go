package cmdhook

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"strings"

	"hookstudio/app/agent/engine"
)

// How a chain's answers take effect differs between the behaviours. Seed
// 001: each hook's changes apply as it answers. jcli's code (manager.rs,
// HookManager::execute): the answers are merged into one result the caller
// applies after the chain, and a stop or skip — or a failure under
// on_error: stop — returns only that answer's action, retry_feedback and
// system_message, so the earlier hooks' changes are dropped. Under the code
// behaviour the chain's calls are therefore held (held) and applied when it
// ends (flush), while the next hook reads the earlier answers from a view.

// held is a hook call whose effect waits for the end of its chain.
type held struct {
	hk   *Hook
	call engine.HookCall
	eff  engine.Effect
}

// view is what the earlier hooks of a held chain changed, as jcli's code
// hands it to the next hook (merge_hook_result_into): messages,
// system_prompt, user_input, assistant_output, tool_arguments and
// tool_result. inject_messages, additional_context and tool_error reach
// only the chain's result. toolError is also the text jcli gives the hooks
// it fires for a skipped tool (skippedTool).
type view struct {
	messages                                               []engine.NewMessage
	systemPrompt, userInput, answer, toolResult, toolError *string
	toolArgs                                               map[string]any
}

func (v *view) merge(eff engine.Effect) {
	if eff.Messages != nil {
		v.messages = eff.Messages
	}
	if eff.SystemPrompt != nil {
		v.systemPrompt = eff.SystemPrompt
	}
	if eff.UserInput != nil {
		v.userInput = eff.UserInput
	}
	if eff.Answer != nil {
		v.answer = eff.Answer
	}
	if eff.ToolArguments != nil {
		v.toolArgs = maps.Clone(eff.ToolArguments)
	}
	if eff.ToolResult != nil {
		v.toolResult = eff.ToolResult
	}
}

// apply lays the view over a HookContext built from the event.
func (v *view) apply(c *hookContext) {
	if v == nil {
		return
	}
	if v.messages != nil && c.Messages != nil {
		list := make([]ctxMessage, len(v.messages))
		for i, m := range v.messages {
			list[i] = ctxMessage{Role: m.Role, Content: m.Content}
		}
		c.Messages = &list
	}
	set := func(dst **string, v *string) {
		if v != nil && *dst != nil {
			s := *v
			*dst = &s
		}
	}
	set(&c.SystemPrompt, v.systemPrompt)
	set(&c.UserInput, v.userInput)
	set(&c.AssistantOutput, v.answer)
	set(&c.ToolResult, v.toolResult)
	set(&c.ToolError, v.toolError)
	if v.toolArgs != nil && c.ToolArguments != nil {
		s := argumentsJSON(v.toolArgs)
		c.ToolArguments = &s
	}
}

// unmerged names the fields of an answer at name that seed 001's
// behaviour shows the next hooks of the chain (applied, they are in the
// event) and jcli's code does not (merge_hook_result_into keeps them for
// the chain's result only).
func unmerged(name Event, eff engine.Effect) []string {
	spec := specs[name]
	var out []string
	if eff.AppendSystem != "" && spec.applies&resAdditionalContext != 0 && spec.fills&(ctxSystemPrompt|ctxMessages) != 0 {
		out = append(out, "additional_context")
	}
	if len(eff.Inject) > 0 && spec.applies&resInjectMessages != 0 && spec.fills&ctxMessages != 0 {
		out = append(out, "inject_messages")
	}
	if eff.ToolError != nil && spec.applies&resToolError != 0 && spec.fills&ctxToolError != 0 {
		out = append(out, "tool_error")
	}
	return out
}

// answeredAction is the stop or skip a hook's JSON answer asks for, read
// from the answer itself ("" none): jcli's chain ends at it even where the
// event does not apply it.
func answeredAction(out json.RawMessage) engine.Action {
	var r struct {
		Action string `json:"action"`
		Abort  bool   `json:"abort"`
	}
	if len(out) == 0 || json.Unmarshal(out, &r) != nil {
		return ""
	}
	switch {
	case r.Action == "stop" || r.Action == "skip":
		return engine.Action(r.Action)
	case r.Abort:
		return engine.ActionStop
	}
	return ""
}

// effectFields names the HookResult fields an effect sets.
func effectFields(eff engine.Effect) []string {
	var out []string
	for _, f := range []struct {
		name string
		set  bool
	}{{"user_input", eff.UserInput != nil}, {"assistant_output", eff.Answer != nil}, {"messages", eff.Messages != nil},
		{"system_prompt", eff.SystemPrompt != nil}, {"tool_arguments", eff.ToolArguments != nil}, {"tool_result", eff.ToolResult != nil},
		{"tool_error", eff.ToolError != nil}, {"inject_messages", len(eff.Inject) > 0}, {"retry_feedback", eff.RetryFeedback != ""},
		{"additional_context", eff.AppendSystem != ""}, {"system_message", eff.Notice != ""}, {"action", eff.Action != ""}} {
		if f.set {
			out = append(out, f.name)
		}
	}
	return out
}

// chainEnd is the hook call that ended a chain the way jcli's code drops
// the earlier answers for: at is its index in the held list (-1 none).
type chainEnd struct {
	at  int
	why string // "answered action stop", "failed under on_error: stop", ...
}

// flush applies a held chain: the calls before end.at lose their effect,
// and say so.
func (h *Handler) flush(ev *engine.Event, list []held, end chainEnd) {
	for i := range list {
		x := &list[i]
		if i < end.at {
			dropEarlier(x, list[end.at].hk.Name, end.why)
		}
		ev.Apply(x.call, x.eff)
	}
}

// dropEarlier takes away the effect of a call made before the one that
// ended its chain.
func dropEarlier(x *held, by, why string) {
	fields := effectFields(x.eff)
	if len(fields) == 0 {
		return
	}
	x.call.Warnings = append(x.call.Warnings, fmt.Sprintf("not applied: %s, a later hook of the chain, %s, and jcli's code then keeps only that answer's action, retry_feedback and system_message", by, why))
	x.call.Other = joinNotes(x.call.Other, "as seed 001 describes, its "+strings.Join(fields, ", ")+" would apply as it answered")
	x.eff = engine.Effect{}
}

// dropNote is the note, as seed 001 is followed, on a call whose changes
// jcli's code would drop because a later hook ended the chain.
func dropNote(by, why string) string {
	return fmt.Sprintf("jcli's code would not apply this hook's changes: %s, later in the chain, %s, and only that answer's action, retry_feedback and system_message count", by, why)
}

// skippedTool plays what jcli's code does after a skip at
// pre_tool_execution: the tool is marked failed with the skip text, so
// post_tool_execution_failure runs with it as tool_error and then
// post_tool_execution with the (rewritten) text as tool_result; the model
// reads the last text. It sets the skip's text and returns the calls, to be
// recorded after the skip's (they show at the tool's before_tool point,
// where the engine stands: a skipped tool has no after_tool).
func (h *Handler) skippedTool(ctx context.Context, ev *engine.Event, skip *held) ([]held, error) {
	text := skip.eff.Reason
	if text == "" {
		// What the engine writes for a skip without a reason (engine.applier.deny).
		text = fmt.Sprintf("Tool call %s was skipped by hook %s.", ev.Tool.Name, skip.hk.Name)
	}
	start := text
	var out []held
	for _, name := range []Event{PostToolExecutionFailure, PostToolExecution} {
		chain, notRun := h.chain(name, ev)
		for _, c := range notRun {
			out = append(out, held{call: c})
		}
		if len(chain) == 0 {
			continue
		}
		v := &view{toolError: &text}
		field := "tool_error"
		if name == PostToolExecution {
			v = &view{toolResult: &text}
			field = "tool_result"
		}
		list, end, err := h.runChain(ctx, name, ev, chain, v, true)
		for i := range list {
			x := &list[i]
			if i < end.at {
				dropEarlier(x, list[end.at].hk.Name, end.why)
			}
			val := x.eff.ToolError
			if name == PostToolExecution {
				val = x.eff.ToolResult
			}
			if val != nil && *val != text {
				x.call.Changes = append(x.call.Changes, fmt.Sprintf("%s of the skipped %s rewritten: the model reads it", field, ev.Tool.Name))
				text = *val
			}
			var ignored []string
			for _, f := range effectFields(x.eff) {
				if f != field && f != "system_message" {
					ignored = append(ignored, f)
				}
			}
			if len(ignored) > 0 {
				// Not the hook's mistake (the same answer works after a real
				// failure), so a change line rather than a warning.
				x.call.Changes = append(x.call.Changes, fmt.Sprintf("%s not applied: for a skipped tool jcli's code reads only %s of this answer", strings.Join(ignored, ", "), field))
			}
			x.call.Other = joinNotes(x.call.Other, "as seed 001 describes, a skipped tool is not a failure: this hook would not run for it")
			x.eff = engine.Effect{Notice: x.eff.Notice}
		}
		out = append(out, list...)
		if err != nil {
			return out, err
		}
	}
	if len(out) > 0 {
		skip.call.Other = joinNotes(skip.call.Other, "as seed 001 describes, no post_tool_execution hook would run for the skipped tool")
		if text != start {
			skip.eff.Reason = text
		}
	}
	return out, nil
}

// skipNote is the note, as seed 001 is followed, on a skip at
// pre_tool_execution that jcli's code would follow with the failure hooks
// ("" when no such hook would run).
func (h *Handler) skipNote(ev *engine.Event) string {
	var names []string
	for _, name := range []Event{PostToolExecutionFailure, PostToolExecution} {
		hooks, _ := h.chain(name, ev)
		for _, hk := range hooks {
			names = append(names, fmt.Sprintf("%s (%s)", hk.Name, name))
		}
	}
	if len(names) == 0 {
		return ""
	}
	return "jcli's code marks the skipped tool failed: " + strings.Join(names, ", ") + " would run with the skip text as the tool error, and the model would read the text they leave"
}
