package copilothook

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"

	"hookstudio/app/agent/engine"
	"hookstudio/app/agentdata/profile"
)

// ownOutcomes are renderings seen from Copilot CLI 1.0.102 (run against
// capture here) that the bundled profile does not describe yet.
var ownOutcomes = map[string]*profile.Outcome{
	"preToolUse.ask": {Renderings: []profile.Rendering{{Place: profile.PlaceToolResult,
		Text: "Denied by {event} hook (unable to ask user for confirmation): {text}"}}},
	"postToolUseFailure.context": {Renderings: []profile.Rendering{{Place: profile.PlaceMessage, Role: "user", Anchor: profile.AnchorAfterToolResult,
		Text: "Tool \"{tool}\" failed. Additional guidance from {event} hooks:\n{text}"}}},
}

// contextSep joins several hooks' additionalContext of one event (seen).
const contextSep = "\n\n"

// fire runs the handlers of one event one after another, as Copilot CLI
// runs them, and applies what they answered.
func (h *Handler) fire(ctx context.Context, event Event, ev *engine.Event) error {
	list := h.matching(event, ev)
	if len(list) == 0 {
		if event == AgentStop {
			h.setStopActive(false)
		}
		return nil
	}
	answers := make([]answer, 0, len(list))
	for _, hd := range list {
		input, err := h.input(hd.Event, ev)
		if err != nil {
			return err
		}
		a := h.run(ctx, hd, input)
		answers = append(answers, a)
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("copilot cli hooks: %w", err)
		}
		if event == PreToolUse && stopsChain(a) {
			break // a deny, an ask or a failure ends the chain (seen)
		}
	}
	eff, calls := h.effect(event, ev, list[:len(answers)], answers)
	var again []applied
	if event == AgentStop {
		blocked := eff.RetryFeedback != ""
		if blocked {
			again = h.retryPrompt(ctx, ev, eff.RetryFeedback)
		}
		h.setStopActive(blocked)
	}
	carrier := len(calls) - 1
	for i := range calls {
		e := engine.Effect{}
		if i == carrier {
			e = eff
		}
		h.apply(ev, list[i], calls[i], e)
	}
	for _, a := range again {
		h.apply(ev, a.hook, a.call, a.eff)
	}
	return nil
}

func stopsChain(a answer) bool {
	if a.failed {
		return true
	}
	d, _ := a.out["permissionDecision"].(string)
	return d == "deny" || d == "ask"
}

// values fill a rendering: Copilot CLI names the camelCase event in its
// words, whichever name the hook was declared under (seen).
func values(event Event, ev *engine.Event, text string) profile.Values {
	v := profile.Values{Event: string(event.Base()), Text: text, Prompt: ev.UserInput}
	if ev.Tool != nil {
		v.Tool = ev.Tool.Name
	}
	return v
}

func (h *Handler) place(eff *engine.Effect, ev *engine.Event, event Event, text string, kinds ...string) {
	for _, k := range kinds {
		ok, err := h.render.Place(eff, ev, profile.ID(string(event.Base()), k), values(event, ev, text))
		if err != nil {
			eff.Extra = append(eff.Extra, err.Error())
		}
		if ok || err != nil {
			return
		}
	}
	eff.Extra = append(eff.Extra, fmt.Sprintf("no rendering of %s.%s: the model reads nothing of it here", event.Base(), kinds[0]))
}

// effect reads the answers of one event's chain: the calls the trace
// records, and the effect the last of them carries.
func (h *Handler) effect(event Event, ev *engine.Event, list []*Hook, answers []answer) (engine.Effect, []engine.HookCall) {
	var eff engine.Effect
	calls := make([]engine.HookCall, len(answers))
	var contexts []string
	for i, a := range answers {
		hd := list[i]
		c := h.call(hd, ev, a)
		code := a.res.ExitCode
		switch {
		case a.failed && event == PreToolUse:
			c.Outcome = engine.OutcomeBlocked
			if code == 2 && !a.res.TimedOut {
				h.place(&eff, ev, event, "", profile.KindExit2)
				c.Error = "exit 2: Copilot CLI denies the tool call (its stderr is not shown to the model, seen) and runs no later preToolUse hook"
			} else {
				eff.Action, eff.Reason = engine.ActionDeny, fmt.Sprintf("Denied by %s hook from %q (hook errored)", PreToolUse, hd.origin())
				c.Error = "the hook failed: Copilot CLI denies the tool call (\"hook errored\", seen) and runs no later preToolUse hook"
			}
		case a.failed && event == PostToolUseFailure && code == 2:
			// exit 2: stderr is recovery guidance for the model
			if s := strings.TrimSpace(string(a.res.Stderr)); s != "" {
				contexts = append(contexts, s)
			}
			c.Outcome, c.Error = engine.OutcomeOK, ""
		case a.failed && event == UserPromptSubmitted && code != 0 && !a.res.TimedOut:
			if s := strings.TrimSpace(string(a.res.Stderr)); s != "" {
				eff.Notice = joinLines(eff.Notice, "! "+s)
			}
		}
		if a.out != nil {
			if s, ok := a.out["additionalContext"].(string); ok && s != "" {
				contexts = append(contexts, s)
			}
			switch event {
			case PreToolUse:
				h.decide(&eff, &c, ev, a.out)
			case AgentStop:
				if d, _ := a.out["decision"].(string); d == "block" && eff.RetryFeedback == "" {
					reason, _ := a.out["reason"].(string)
					h.place(&eff, ev, event, reason, profile.KindBlock)
					c.Outcome = engine.OutcomeBlocked
				}
			}
			if event != PreToolUse && event != AgentStop {
				if _, ok := a.out["permissionDecision"]; ok {
					c.Warnings = append(c.Warnings, fmt.Sprintf("permissionDecision is read at preToolUse only: at %s Copilot CLI ignores it", event.Base()))
				}
			}
			if _, ok := a.out["hookSpecificOutput"]; ok && !(hd.Event.Compat() && event == PreToolUse) {
				c.Warnings = append(c.Warnings, fmt.Sprintf("hookSpecificOutput is Claude Code's: at %s Copilot CLI reads additionalContext at the top level of the JSON only, and ignores the nested one (seen; a PascalCase PreToolUse alone reads it)", hd.Event))
			}
		}
		calls[i] = c
	}
	if len(contexts) > 1 && event == UserPromptSubmitted {
		// the last hook's context is the one the model reads (seen)
		contexts = contexts[len(contexts)-1:]
		eff.Extra = append(eff.Extra, "several userPromptSubmitted hooks gave additionalContext: Copilot CLI hands the model the last one only")
	}
	if len(contexts) > 0 {
		switch event {
		case SessionStart, UserPromptSubmitted, PreToolUse, PostToolUse, PostToolUseFailure:
			h.place(&eff, ev, event, strings.Join(contexts, contextSep), profile.KindContext)
		default:
			eff.Extra = append(eff.Extra, fmt.Sprintf("additionalContext at %s: Copilot CLI does not read it", event))
		}
	}
	return eff, calls
}

// decide reads a preToolUse answer's permissionDecision and modifiedArgs.
func (h *Handler) decide(eff *engine.Effect, c *engine.HookCall, ev *engine.Event, out map[string]any) {
	reason, _ := out["permissionDecisionReason"].(string)
	switch d, _ := out["permissionDecision"].(string); d {
	case "deny":
		c.Outcome = engine.OutcomeDenied
		h.place(eff, ev, PreToolUse, reason, profile.KindDeny)
	case "ask":
		c.Outcome = engine.OutcomeAsked
		if h.sc != nil && h.sc.Approval != nil && contains(h.sc.Approval.Tools, ev.Tool.Name) {
			eff.Extra = append(eff.Extra, "asked the user: the scenario's approval answers")
			return
		}
		h.place(eff, ev, PreToolUse, reason, profile.KindAsk)
		eff.Extra = append(eff.Extra, "asked the user; copilot -p has nobody to ask: the tool call is denied (seen)")
	case "allow":
		eff.Extra = append(eff.Extra, "allowed without asking")
	}
	if args, ok := out["modifiedArgs"].(map[string]any); ok {
		eff.ToolArguments = args
		eff.Extra = append(eff.Extra, "the model's tool call shows the new arguments in the conversation too (seen)")
	}
}

// applied is one hook call to record with its effect.
type applied struct {
	hook *Hook
	call engine.HookCall
	eff  engine.Effect
}

// retryPrompt is an agentStop block: Copilot CLI submits the reason as a
// new prompt and userPromptSubmitted fires on it (seen), its context
// joined to that prompt.
func (h *Handler) retryPrompt(ctx context.Context, ev *engine.Event, prompt string) []applied {
	stand := *ev
	stand.UserInput = prompt
	list := h.matching(UserPromptSubmitted, &stand)
	var out []applied
	var contexts []string
	for _, hd := range list {
		input, err := h.input(hd.Event, &stand)
		if err != nil {
			return out
		}
		a := h.run(ctx, hd, input)
		if s, ok := a.out["additionalContext"].(string); ok && s != "" {
			contexts = append(contexts, s)
		}
		out = append(out, applied{hook: hd, call: h.call(hd, &stand, a)})
	}
	if len(contexts) > 0 && len(out) > 0 {
		o := h.render.Outcome(profile.ID(string(UserPromptSubmitted), profile.KindContext))
		if o != nil && len(o.Renderings) > 0 { // the last hook's context (seen)
			out[len(out)-1].eff.RetryFeedback = o.Renderings[0].Render(values(UserPromptSubmitted, &stand, contexts[len(contexts)-1])).Content
		}
	}
	return out
}

// call is the trace's record of one handler's run.
func (h *Handler) call(hd *Hook, ev *engine.Event, a answer) engine.HookCall {
	event := string(hd.Event)
	if hd.Event.isTool() && ev.Tool != nil {
		event += ":" + ev.Tool.Name
	}
	c := h.Call(event, hd.Title(), hd.Source(), a.input, a.res)
	code := a.res.ExitCode
	if a.chmod != "" {
		c.Warnings = append(c.Warnings, fmt.Sprintf("%s was not executable: Copilot CLI makes it so (chmod +x) before it runs the line, and so did the simulator", filepath.Base(a.chmod)))
	}
	switch {
	case a.res.TimedOut:
		c.Outcome, c.Error = engine.OutcomeTimeout, fmt.Sprintf("no answer within %s: Copilot CLI kills it and logs the failure", h.timeout(hd))
		return c
	case a.res.Err != nil:
		c.Outcome, c.Error = engine.OutcomeError, a.res.Err.Error()
		return c
	}
	if a.out != nil {
		raw, _ := json.Marshal(a.out)
		c.Output = raw
	} else {
		c.OutputText = string(a.res.Stdout)
	}
	switch {
	case code == 127:
		c.Outcome, c.Error = engine.OutcomeError, "exit 127: bash did not find the command; Copilot CLI logs the failure"
	case code != 0:
		c.Outcome, c.Error = engine.OutcomeError, fmt.Sprintf("exit %d: Copilot CLI logs the failure and goes on", code)
	case a.out == nil && strings.TrimSpace(string(a.res.Stdout)) != "":
		c.Warnings = append(c.Warnings, "plain stdout: Copilot CLI ignores it (seen); print JSON {\"additionalContext\": …} for the model")
	}
	return c
}

// apply counts a handler's call and applies it, with its effect, to ev.
func (h *Handler) apply(ev *engine.Event, hd *Hook, call engine.HookCall, eff engine.Effect) {
	h.Apply(ev, string(hd.Event), hd.Title(), hd.Source(), call, eff)
}

func joinLines(a, b string) string {
	if a == "" {
		return b
	}
	return a + "\n" + b
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// Outcomes are the answers whose words reach the model, in the order of
// docs/copilot-cli-hooks.md.
var Outcomes = []profile.Spec{
	{ID: "sessionStart.context", Hook: "sessionStart `additionalContext: C` (several hooks: joined by a blank line)"},
	{ID: "userPromptSubmitted.context", Hook: "userPromptSubmitted `additionalContext: C` (several hooks: the last one's)"},
	{ID: "preToolUse.deny", Hook: "preToolUse `permissionDecision: deny`, reason `R`"},
	{ID: "preToolUse.exit2", Hook: "preToolUse exit 2 (its stderr is not shown)"},
	{ID: "preToolUse.ask", Hook: "preToolUse `permissionDecision: ask`, reason `R` (copilot -p: nobody to ask)"},
	{ID: "preToolUse.context", Hook: "preToolUse `additionalContext: C` (tool allowed)"},
	{ID: "postToolUse.context", Hook: "postToolUse `additionalContext: C`"},
	{ID: "postToolUseFailure.context", Hook: "postToolUseFailure `additionalContext: C` (or exit 2, stderr `C`)"},
	{ID: "agentStop.block", Hook: "agentStop `decision: block`, reason `R`"},
}
