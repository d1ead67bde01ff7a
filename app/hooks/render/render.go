// Package render puts a hook's output before the simulated model where an
// agent CLI's rendering profile (app/agentdata/profile) says that agent puts
// it: a message before or after the prompt, after a tool's result, joined
// to the prompt or to the tool's result, the tool's result itself, the
// next prompt after an answer, or a notice the model never reads. Hook
// systems of agent CLIs (Gemini CLI, Copilot CLI, …) turn each outcome
// into an engine.Effect through it, so the renderings stay data.
package render

import (
	"errors"
	"fmt"

	"hookstudio/app/agent/engine"
	"hookstudio/app/agentdata/profile"
)

// ErrPlace is wrapped when an outcome's rendering stands where the
// simulated agent cannot put it at the point it fired.
var ErrPlace = errors.New("the rendering profile places this outcome where the simulated agent cannot put it")

// Renderer renders one agent's outcomes: the run's profile's, else the
// system's own measured ones for outcomes the profile does not describe.
type Renderer struct {
	prof *profile.Profile
	own  map[string]*profile.Outcome
}

// New renders with p (nil: own only); own are the outcomes a system
// measured that calibration has not learned yet.
func New(p *profile.Profile, own map[string]*profile.Outcome) Renderer {
	return Renderer{prof: p, own: own}
}

// Profile is the profile rendered with (nil: none).
func (r Renderer) Profile() *profile.Profile { return r.prof }

// Outcome is the outcome id ("BeforeTool.deny"): the profile's, else the
// system's own; nil when neither knows it.
func (r Renderer) Outcome(id string) *profile.Outcome {
	if r.prof != nil {
		if o := r.prof.Outcome(id); o != nil {
			return o
		}
	}
	return r.own[id]
}

// Text is outcome id's first rendering filled with v, and whether there is
// one: a tool's result, a notice.
func (r Renderer) Text(id string, v profile.Values) (string, bool) {
	o := r.Outcome(id)
	if o == nil || len(o.Renderings) == 0 {
		return "", false
	}
	return o.Renderings[0].Render(v).Content, true
}

// Place adds outcome id's renderings, filled with v, to eff for ev's point.
// It says false when neither the profile nor the system knows the outcome
// (the model reads nothing from it), and an ErrPlace error when a
// rendering stands where the point cannot put it.
func (r Renderer) Place(eff *engine.Effect, ev *engine.Event, id string, v profile.Values) (bool, error) {
	o := r.Outcome(id)
	if o == nil {
		return false, nil
	}
	for i := range o.Renderings {
		rd := &o.Renderings[i]
		if err := place(eff, ev, rd, rd.Render(v).Content); err != nil {
			return true, fmt.Errorf("%s: %w", id, err)
		}
	}
	return true, nil
}

func place(eff *engine.Effect, ev *engine.Event, rd *profile.Rendering, text string) error {
	msg := engine.NewMessage{Role: string(rd.Role), Content: text}
	if msg.Role == "" || msg.Role == "developer" {
		msg.Role = map[bool]string{true: "system", false: "user"}[msg.Role == "developer"]
	}
	at := ev.Point
	switch rd.Place {
	case profile.PlaceNotice:
		eff.Notice = joinNotice(eff.Notice, text)
		return nil
	case profile.PlacePromptPrefix:
		if at == engine.PointSessionStart || at == engine.PointBeforeSend {
			msg.Role = "user"
			eff.Preface = append(eff.Preface, msg)
			return nil
		}
	case profile.PlacePromptSuffix:
		if at == engine.PointSessionStart || at == engine.PointBeforeSend {
			msg.Role = "user"
			eff.Context = append(eff.Context, msg)
			return nil
		}
	case profile.PlaceResultSuffix:
		if at == engine.PointAfterTool && ev.Tool != nil {
			joined := resultText(eff, ev) + rd.Separator + text
			setResult(eff, ev, joined)
			return nil
		}
	case profile.PlaceToolResult:
		switch at {
		case engine.PointBeforeTool, engine.PointApproveTool:
			eff.Action, eff.Reason = engine.ActionDeny, text
			return nil
		case engine.PointAfterTool:
			setResult(eff, ev, text)
			return nil
		}
	case profile.PlaceMessage, profile.PlaceBlock, profile.PlaceParagraph:
		switch {
		case rd.Anchor == profile.AnchorBeforePrompt && (at == engine.PointSessionStart || at == engine.PointBeforeSend):
			eff.Preface = append(eff.Preface, msg)
			return nil
		case rd.Anchor == profile.AnchorAfterAnswer && at == engine.PointStop:
			eff.RetryFeedback = text
			return nil
		case at == engine.PointSessionStart, at == engine.PointBeforeSend, at == engine.PointBeforeTool,
			at == engine.PointAfterTool, at == engine.PointAfterTools:
			eff.Context = append(eff.Context, msg)
			return nil
		}
	}
	return fmt.Errorf("%w (%s at %s)", ErrPlace, rd.Place, at)
}

// resultText is the tool's result as the effect leaves it so far.
func resultText(eff *engine.Effect, ev *engine.Event) string {
	if ev.Tool.Error != "" {
		if eff.ToolError != nil {
			return *eff.ToolError
		}
		return "error: " + ev.Tool.Error // as the engine words a failed tool's message
	}
	if eff.ToolResult != nil {
		return *eff.ToolResult
	}
	return ev.Tool.Result
}

// setResult puts text where the model reads the tool's answer: its error
// when the tool failed, else its result.
func setResult(eff *engine.Effect, ev *engine.Event, text string) {
	if ev.Tool.Error != "" {
		eff.ToolError = &text
		return
	}
	eff.ToolResult = &text
}

func joinNotice(a, b string) string {
	if a == "" {
		return b
	}
	return a + "\n" + b
}
