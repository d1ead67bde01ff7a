package capture_test

import (
	"context"
	"path/filepath"
	"testing"

	"hookstudio/app/agent/engine"
	"hookstudio/app/agent/scenario"
	"hookstudio/app/agentdata/profile"
	"hookstudio/app/agentdata/request"
	"hookstudio/app/capture"
	"hookstudio/app/hooks/skills"
	"hookstudio/app/store/history"
)

// scripted answers a simulated call from the scenario's rounds.
type scripted struct{ sc *scenario.Scenario }

func (s scripted) Complete(_ context.Context, c engine.Call) (engine.Reply, error) {
	rd := s.sc.Requests[c.Request].Rounds[c.Round]
	r := engine.Reply{Content: rd.Content}
	for _, tc := range rd.ToolCalls {
		r.ToolCalls = append(r.ToolCalls, engine.ToolCall{Name: tc.Name, Arguments: tc.Arguments, Result: tc.Result})
	}
	return r, nil
}

// promptHook is a UserPromptSubmit hook whose words Claude Code 2.1.332
// renders as a system paragraph after the prompt.
type promptHook struct{}

func (promptHook) Handle(_ context.Context, ev *engine.Event) error {
	if ev.Point == engine.PointBeforeSend {
		ev.Apply(engine.HookCall{System: "claude-code", Event: "UserPromptSubmit", Hook: "echo shared", Outcome: engine.OutcomeOK},
			engine.Effect{Context: []engine.NewMessage{{Role: "system", Content: "UserPromptSubmit hook success: the build folder is shared"}}})
	}
	return nil
}

type none struct{}

func (none) Hooks([]string) []skills.Hook { return nil }

// TestCompareSimulationWithCapture: a simulated agent's run and a capture
// of the very requests it would send compare as the same, call by call:
// History's compare of a simulation with a capture shows only what truly
// differs, whatever each calls a hook or the agent's own context.
func TestCompareSimulationWithCapture(t *testing.T) {
	lit := func(s string) request.Seg { return request.Seg{Lit: s} }
	m := &request.Model{Agent: "claude-code", Version: "2.1.332", API: request.Anthropic, Model: "demo",
		Headers: map[string]string{"user-agent": "claude-cli/2.1.332 (external, sdk-cli)"},
		System:  []request.Piece{{ID: "system.1", Role: "system", Text: request.Text{lit("Our own system prompt.")}}},
		// the hook's words last: a reader runs a hook's text on to the next
		// paragraph the agent's profile knows as its own
		Turn: []request.Part{{Prompt: true},
			{Piece: &request.Piece{ID: "turn.2", Role: "system", Text: request.Text{lit("Today is "), {Slot: request.SlotDate}, lit(".")}}},
			{Hooks: "UserPromptSubmit"}},
		Tools:   []request.Tool{{Name: "Bash", Definition: request.Text{lit(`{"name":"Bash","description":"Runs a command.","input_schema":{"type":"object"}}`)}}},
		Framing: request.Framing{Merge: true, Paragraphs: "system", Separator: "\n\n", SystemInMessages: true},
		Loop:    request.Loop{KeepsBlockedAnswer: true}}
	sc := &scenario.Scenario{Name: "demo", EnableTools: true, Requests: []scenario.Request{{User: "clean the build", Rounds: []scenario.Round{
		{ToolCalls: []scenario.ToolCall{{Name: "Bash", Arguments: map[string]any{"command": "ls"}, Result: "build/"}}},
		{Content: "Done."}}}}}
	sim, err := engine.Run(context.Background(), sc, none{}, engine.Config{Model: scripted{sc}, Handlers: []engine.Handler{promptHook{}},
		Agent: &engine.Agent{Agent: m.Agent, Version: m.Version}, Request: m, Facts: request.Values{request.SlotDate: "2026-11-29"}})
	if err != nil {
		t.Fatal(err)
	}
	// what a capture of those requests records (another day's date)
	reader := capture.NewAgentReader(profile.NewCatalog(""))
	var calls []capture.Call
	for c := range sim.Calls {
		body, err := sim.Request(c)
		if err != nil {
			t.Fatal(err)
		}
		call := capture.ReadBody(capture.Anthropic, []byte(string(body)), m.Headers, reader)
		call.N, call.Answer = c, &capture.Answer{Content: sim.Calls[c].Content}
		for _, tc := range sim.Calls[c].ToolCalls {
			call.Answer.ToolCalls = append(call.Answer.ToolCalls, capture.ToolCall{ID: tc.ID, Name: tc.Name, Arguments: []byte(`{"command":"ls"}`)})
		}
		calls = append(calls, call)
	}
	for i := range calls {
		for k := range calls[i].Messages {
			if calls[i].Messages[k].Content == "Today is 2026-11-29." {
				calls[i].Messages[k].Content = "Today is 2026-11-30."
			}
		}
	}
	captured, err := capture.Trace("capture", calls)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	store, err := history.Open(ctx, filepath.Join(t.TempDir(), "history.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	a, err := store.SaveRun(ctx, history.RunInput{Trace: sim, ScenarioFile: "demo.yaml", Source: history.SourceCLI})
	if err != nil {
		t.Fatal(err)
	}
	b, err := store.SaveRun(ctx, history.RunInput{Trace: captured, ScenarioFile: "capture", Source: history.SourceCapture})
	if err != nil {
		t.Fatal(err)
	}
	cmp, err := store.Compare(ctx, a, b)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range cmp.Calls {
		if len(d.Messages) > 0 || d.A == nil || d.B == nil {
			t.Errorf("call %+v differs: %+v", d, d.Messages)
		}
	}
}
