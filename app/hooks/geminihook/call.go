package geminihook

import (
	"encoding/json"
	"fmt"
	"slices"

	"hookstudio/app/agent/engine"
)

// blocksAt says whether a deny at the event changes the run (elsewhere
// Gemini CLI only logs it).
func blocksAt(e Event) bool {
	switch e {
	case BeforeTool, AfterTool, BeforeAgent, AfterAgent, BeforeModel, AfterModel:
		return true
	}
	return false
}

// call is the trace's record of one handler's run, with what Gemini CLI
// makes of it in words.
func (h *Handler) call(hd *Hook, event Event, ev *engine.Event, input []byte, r result) engine.HookCall {
	name := string(event)
	if event.isTool() && ev.Tool != nil {
		name += ":" + ev.Tool.Name
	}
	c := h.Call(name, hd.Title(), hd.Source(), input, r.res)
	code := exitCode(r.res)
	c.ExitCode = &code
	switch {
	case r.res.TimedOut:
		c.Outcome, c.Error = engine.OutcomeTimeout, fmt.Sprintf("no answer within %s: Gemini CLI kills it, warns that the hook failed and goes on as if it had not run", h.timeout(hd))
		return c
	case r.res.Err != nil:
		c.Outcome, c.Error = engine.OutcomeError, r.res.Err.Error()
		return c
	}
	if r.json {
		raw, _ := json.Marshal(r.output)
		c.Output = raw
	} else {
		c.OutputText = string(r.res.Stdout)
	}
	switch {
	case r.json && code != 0:
		c.Warnings = append(c.Warnings, fmt.Sprintf("exit %d with JSON: Gemini CLI reads the JSON as the answer (the exit code only marks the hook failed)", code))
	case r.plain != "" && code == 0:
		c.Warnings = append(c.Warnings, "plain stdout: Gemini CLI shows it to the user as a \"Hook system message\", never to the model; print JSON {\"hookSpecificOutput\": {\"additionalContext\": …}} for the model")
	case code == 1:
		c.Outcome, c.Error = engine.OutcomeError, "exit 1: a warning — Gemini CLI reports the hook failed and goes on (exit 2 blocks)"
	case code >= 2 && r.plain != "":
		if blocksAt(event) {
			c.Outcome = engine.OutcomeBlocked
		} else {
			c.Outcome, c.Error = engine.OutcomeError, fmt.Sprintf("exit %d does not block %s: Gemini CLI logs the failed hook and goes on", code, event)
		}
		if code == 127 {
			c.Warnings = append(c.Warnings, "127: bash did not find the command — and Gemini CLI reads its error as this hook's block")
		}
	case code >= 2:
		c.Outcome, c.Error = engine.OutcomeError, fmt.Sprintf("exit %d with nothing printed: Gemini CLI has no answer to read, so nothing is blocked", code)
	}
	if r.json && blocksAt(event) {
		if d, _ := r.output["decision"].(string); d == "deny" || d == "block" {
			c.Outcome = engine.OutcomeBlocked
		}
	}
	if r.json {
		c.Warnings = append(c.Warnings, contextWarnings(event, r.output)...)
	}
	return c
}

// contextEvents are the events whose answer's
// hookSpecificOutput.additionalContext Gemini CLI hands the model
// (packages/cli gemini.tsx, core client.ts, coreToolHookTriggers.ts).
var contextEvents = []Event{SessionStart, BeforeAgent, AfterTool}

// contextWarnings say where an answer's additionalContext goes nowhere:
// at the top level of the JSON (Gemini CLI reads it in hookSpecificOutput
// only), or at an event that reads none.
func contextWarnings(event Event, out map[string]any) []string {
	spec, _ := out["hookSpecificOutput"].(map[string]any)
	_, top := out["additionalContext"]
	_, nested := spec["additionalContext"]
	switch {
	case !slices.Contains(contextEvents, event) && (top || nested):
		return []string{fmt.Sprintf("Gemini CLI reads no additionalContext at %s: the model never reads it (SessionStart, BeforeAgent and AfterTool hand it on)", event)}
	case top:
		return []string{fmt.Sprintf("additionalContext at the top level of the JSON: Gemini CLI reads it inside hookSpecificOutput only, so the model never reads it; print {\"hookSpecificOutput\": {\"hookEventName\": %q, \"additionalContext\": …}}", event)}
	}
	return nil
}

// apply counts a handler's call and applies it, with its effect, to ev.
func (h *Handler) apply(ev *engine.Event, hd *Hook, call engine.HookCall, eff engine.Effect) {
	h.Apply(ev, string(hd.Event), hd.Title(), hd.Source(), call, eff)
}
