package render

import (
	"errors"
	"testing"

	"hookstudio/app/agent/engine"
	"hookstudio/app/agentdata/profile"
)

// TestPlace: each place of a profile lands where the engine puts it at
// the point the outcome fired, and a place the point cannot hold is
// ErrPlace.
func TestPlace(t *testing.T) {
	wrap := &profile.Wrapper{Open: "<x>", Close: "</x>"}
	p := &profile.Profile{Agent: "a", Version: "1", Outcomes: map[string]*profile.Outcome{
		"S.context":  {Renderings: []profile.Rendering{{Place: profile.PlacePromptPrefix, Wrapper: wrap, Text: "{text}", Escape: profile.EscapeAngles, Separator: "\n\n"}}},
		"U.context":  {Renderings: []profile.Rendering{{Place: profile.PlacePromptSuffix, Text: "{text}", Separator: "\n\n"}}},
		"B.context":  {Renderings: []profile.Rendering{{Place: profile.PlaceMessage, Role: "user", Anchor: profile.AnchorBeforePrompt, Text: "{text}"}}},
		"T.deny":     {Renderings: []profile.Rendering{{Place: profile.PlaceToolResult, Text: "Denied by {event}: {text}"}}},
		"A.context":  {Renderings: []profile.Rendering{{Place: profile.PlaceResultSuffix, Text: "Tool {tool}: {text}", Separator: "\n\n"}}},
		"Stop.block": {Renderings: []profile.Rendering{{Place: profile.PlaceMessage, Role: "user", Anchor: profile.AnchorAfterAnswer, Text: "{text}"}}},
		"N.stdout":   {Renderings: []profile.Rendering{{Place: profile.PlaceNotice, Text: "msg: {text}"}}},
	}}
	r := New(p, map[string]*profile.Outcome{"Own.deny": {Renderings: []profile.Rendering{{Place: profile.PlaceToolResult, Text: "own {text}"}}}})
	tool := &engine.ToolCall{Name: "bash", Result: "out"}
	cases := []struct {
		id    string
		point engine.Point
		check func(e engine.Effect) bool
	}{
		{"S.context", engine.PointSessionStart, func(e engine.Effect) bool {
			return len(e.Preface) == 1 && e.Preface[0].Content == "<x>&lt;b&gt;</x>" && e.Preface[0].Role == "user"
		}},
		{"U.context", engine.PointBeforeSend, func(e engine.Effect) bool { return len(e.Context) == 1 && e.Context[0].Content == "<b>" }},
		{"B.context", engine.PointSessionStart, func(e engine.Effect) bool { return len(e.Preface) == 1 }},
		{"T.deny", engine.PointBeforeTool, func(e engine.Effect) bool {
			return e.Action == engine.ActionDeny && e.Reason == "Denied by T: <b>"
		}},
		{"A.context", engine.PointAfterTool, func(e engine.Effect) bool { return e.ToolResult != nil && *e.ToolResult == "out\n\nTool bash: <b>" }},
		{"Stop.block", engine.PointStop, func(e engine.Effect) bool { return e.RetryFeedback == "<b>" }},
		{"N.stdout", engine.PointAfterTool, func(e engine.Effect) bool { return e.Notice == "msg: <b>" }},
		{"Own.deny", engine.PointBeforeTool, func(e engine.Effect) bool { return e.Reason == "own <b>" }},
	}
	for _, c := range cases {
		var eff engine.Effect
		ev := &engine.Event{Point: c.point, Tool: tool}
		ok, err := r.Place(&eff, ev, c.id, profile.Values{Event: c.id[:1], Tool: "bash", Text: "<b>"})
		if !ok || err != nil || !c.check(eff) {
			t.Errorf("%s at %s: ok %v, err %v, effect %+v", c.id, c.point, ok, err, eff)
		}
	}
	var eff engine.Effect
	if _, err := r.Place(&eff, &engine.Event{Point: engine.PointAfterLLM}, "S.context", profile.Values{}); !errors.Is(err, ErrPlace) {
		t.Errorf("a prompt prefix after the model answered: %v", err)
	}
	if ok, _ := r.Place(&eff, &engine.Event{Point: engine.PointBeforeTool}, "X.deny", profile.Values{}); ok {
		t.Error("an outcome neither knows")
	}
}
