package engine

import (
	"testing"

	"hookstudio/app/agent/scenario"
)

// offerer is fakeHook that says its hooks may offer tools.
type offerer struct{ fakeHook }

func (offerer) OffersTools() bool { return true }

// An agent that declares no tools runs its agent loop when a handler's
// hooks may offer some; without such a handler it makes one direct call.
func TestToolsOfferedByHooksStartTheLoop(t *testing.T) {
	sc, ds := scenario.Parse("s.yaml", []byte(`name: s
system_prompt: sys
requests:
  - user: weather?
    reply: direct answer
    planning: {need_tool: true, content: plan}
    rounds:
      - tool_calls: [{name: get_weather, arguments: {city: Paris}, result: sunny}]
      - content: It is sunny.
`))
	for _, d := range ds {
		if d.Severity == "error" {
			t.Fatal(d)
		}
	}
	weather := scenario.Tool{Name: "get_weather", Description: "the weather"}
	offer := func(ev *Event) Effect { return Effect{AddTools: []scenario.Tool{weather}} }
	hook := fakeHook{name: "plugin", effects: map[Point]func(*Event) Effect{PointBeforeLLM: offer}}

	tr := hookedRun(t, sc, hookList{}, offerer{hook})
	if got := tr.Requests[0].Reply; got != "It is sunny." {
		t.Errorf("reply %q, want the agent loop's answer", got)
	}
	if len(tr.Calls) != 3 || tr.Calls[1].Phase != PhaseAgent || len(tr.Calls[1].AddedTools) != 1 || tr.Calls[1].ToolCalls[0].Result != "sunny" {
		t.Errorf("calls %+v: want planning, a round calling get_weather, the answer", tr.Calls)
	}

	tr = hookedRun(t, sc, hookList{}, hook)
	if got := tr.Requests[0].Reply; got != "direct answer" || len(tr.Calls) != 1 {
		t.Errorf("without an offerer: reply %q after %d calls, want one direct call", got, len(tr.Calls))
	}
}
