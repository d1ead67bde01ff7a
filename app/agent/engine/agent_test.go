package engine

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"hookstudio/app/agent/scenario"
	"hookstudio/app/agentdata/request"
)

// demoModel is the request model of a made-up agent, in words of our own.
func demoModel() *request.Model {
	lit := func(s string) request.Seg { return request.Seg{Lit: s} }
	return &request.Model{Agent: "demo", Version: "1", API: request.Anthropic, Model: "demo-model",
		System: []request.Piece{{ID: "system.1", Role: "system", Text: request.Text{lit("You are the demo agent in "), {Slot: request.SlotCwd}, lit(".")}}},
		Turn: []request.Part{
			{Piece: &request.Piece{ID: "turn.1", Role: "user", Text: request.Text{lit("<note>demo context</note>")}}},
			{Prompt: true},
			{Hooks: "SessionStart"},
			{Piece: &request.Piece{ID: "turn.4", Role: "system", Text: request.Text{lit("Today is "), {Slot: request.SlotDate}, lit(".")}}},
		},
		Tools:   []request.Tool{{Name: "Run", Definition: request.Text{lit(`{"name":"Run","description":"Runs a command.","input_schema":{"type":"object"}}`)}, Shape: request.Shape{Tokens: 12}}},
		Framing: request.Framing{Merge: true, Paragraphs: "system", Separator: "\n\n", EmptyResult: request.Text{lit("("), {Slot: "tool"}, lit(" said nothing)")}},
		Loop: request.Loop{KeepsBlockedAnswer: true,
			Reminders: []request.Reminder{{After: 2, Piece: request.Piece{ID: "reminder.1", Role: "system", Text: request.Text{lit("Tell the user.")}}}}},
	}
}

func agentRun(t *testing.T, sc *scenario.Scenario, m *request.Model, hs ...Handler) *Trace {
	t.Helper()
	tr, err := Run(context.Background(), sc, hookList(nil), Config{Model: scriptWithErrors{sc}, Handlers: hs, Agent: &Agent{Agent: m.Agent, Version: m.Version},
		Request: m, Facts: request.Values{request.SlotCwd: "/work", request.SlotDate: "2026-01-02"}})
	if err != nil {
		t.Fatalf("run: %v", err)
	}
	return tr
}

func outline(ms []Message) []string {
	out := make([]string, len(ms))
	for i, m := range ms {
		o := m.Origin
		if o == OriginHistory {
			o = "h." + m.HistoryOf
		}
		out[i] = m.Role + "/" + string(o) + ":" + m.Content
	}
	return out
}

// TestAgentLoop: a run under an agent makes no planning call and sends no
// built-in prompt; its first call is the agent's system prompt and first
// turn around the prompt, with the hooks' words where the agent puts them,
// and its tools; a tool's failure is its words, an empty result the
// agent's; the agent's reminder comes after quiet answers; a blocked
// answer stays before the hook's words; the next request carries all.
func TestAgentLoop(t *testing.T) {
	sc := &scenario.Scenario{Name: "demo", EnableTools: true, SystemPrompt: "seed 000's own system prompt",
		Tools: []scenario.Tool{{Name: "Run"}},
		Requests: []scenario.Request{
			{User: "do it", Rounds: []scenario.Round{
				{ToolCalls: []scenario.ToolCall{{Name: "Run", Arguments: map[string]any{"c": "a"}, Result: ""}}},
				{ToolCalls: []scenario.ToolCall{{Name: "Run", Arguments: map[string]any{"c": "b"}, Error: "exit 1"}}},
				{Content: "First."},
				{Content: "Second."},
			}},
			{User: "again", Rounds: []scenario.Round{{Content: "Third."}}},
		}}
	stops := 0
	hook := fakeHook{name: "h", effects: map[Point]func(*Event) Effect{
		PointSessionStart: func(*Event) Effect {
			return Effect{Context: []NewMessage{{Role: "system", Content: "hook words"}}}
		},
		PointStop: func(*Event) Effect {
			if stops++; stops == 1 {
				return Effect{RetryFeedback: "keep going"}
			}
			return Effect{}
		},
	}}
	// the fake hook's calls say which event they are: SessionStart's is the agent's place
	named := namedEvents{hook}
	tr := agentRun(t, sc, demoModel(), named)
	for _, c := range tr.Calls {
		if c.Phase != PhaseAgent {
			t.Errorf("call %d is a %s call: an agent makes none", c.Index, c.Phase)
		}
		if !slices.Equal(c.Offered, []string{"Run"}) || c.ToolTokens != 12 {
			t.Errorf("call %d offers %v (%d tokens), want the agent's Run (12)", c.Index, c.Offered, c.ToolTokens)
		}
	}
	first := outline(tr.CallMessages(0))
	want := []string{"system/system_prompt:You are the demo agent in /work.", "user/agent_context:<note>demo context</note>", "user/user_input:do it",
		"system/hook:hook words", "system/agent_context:Today is 2026-01-02."}
	if !slices.Equal(first, want) {
		t.Errorf("first call\n%q\nwant\n%q", first, want)
	}
	third := outline(tr.CallMessages(2))
	for _, w := range []string{"tool/tool:(Run said nothing)", "tool/tool:exit 1", "system/agent_context:Tell the user."} {
		if !slices.Contains(third, w) {
			t.Errorf("third call lacks %q: %q", w, third)
		}
	}
	fourth := outline(tr.CallMessages(3))
	if i := slices.Index(fourth, "assistant/assistant:First."); i < 0 || !strings.Contains(fourth[i+1], "keep going") {
		t.Errorf("after a blocked stop, the answer before the hook's words: %q", fourth)
	}
	last := outline(tr.CallMessages(len(tr.Calls) - 1))
	if !slices.Contains(last, "assistant/h.assistant:Second.") || !slices.Contains(last, "tool/h.tool:exit 1") || last[len(last)-1] != "user/user_input:again" {
		t.Errorf("the next request carries the whole conversation: %q", last)
	}
	for _, m := range tr.CallMessages(0) {
		if strings.Contains(m.Content, "seed 000") || m.Origin == OriginPrompt {
			t.Errorf("seed 000's words in an agent's run: %+v", m)
		}
	}
	body, err := tr.Request(0)
	if err != nil {
		t.Fatal(err)
	}
	var b struct {
		Model  string           `json:"model"`
		System []map[string]any `json:"system"`
		Tools  []map[string]any `json:"tools"`
	}
	if err := json.Unmarshal(body, &b); err != nil || b.Model != "demo-model" || len(b.System) != 1 || len(b.Tools) != 1 {
		t.Errorf("request body %s: %v", body, err)
	}
	// a stored trace gives the same bodies back
	back, err := FromRecord(tr.Record())
	if err != nil {
		t.Fatal(err)
	}
	back.SetRequestModel(demoModel())
	again, _ := back.Request(0)
	if string(again) != string(body) {
		t.Errorf("a stored trace's body\n%s\nwant\n%s", again, body)
	}
}

// TestAgentPlaceholders: a shipped model (no texts) puts placeholders of
// the right size where the agent's words go.
func TestAgentPlaceholders(t *testing.T) {
	m := request.ShapeOf(demoModel())
	m.System[0].Shape.Tokens = 1500
	sc := &scenario.Scenario{Name: "demo", EnableTools: true, Requests: []scenario.Request{{User: "hi", Rounds: []scenario.Round{{Content: "ok"}}}}}
	tr := agentRun(t, sc, m)
	msgs := tr.CallMessages(0)
	if !msgs[0].Placeholder || msgs[0].PlaceholderTokens != 1500 || !strings.Contains(msgs[0].Content, "hookctl calibrate demo") {
		t.Errorf("a placeholder of the right size that says how to calibrate: %+v", msgs[0])
	}
}

// TestSeedRunsStaySeed: without a request model the flow is seed 000's.
func TestSeedRunsStaySeed(t *testing.T) {
	sc := &scenario.Scenario{Name: "seed", EnableTools: true, Tools: []scenario.Tool{{Name: "Run"}},
		Requests: []scenario.Request{{User: "hi", Planning: &scenario.Planning{NeedTool: true}, Rounds: []scenario.Round{{Content: "ok"}}}}}
	tr, err := Run(context.Background(), sc, hookList(nil), Config{Model: scriptWithErrors{sc}})
	if err != nil {
		t.Fatal(err)
	}
	if tr.Calls[0].Phase != PhasePlanning {
		t.Errorf("seed 000's run starts with a planning call, not %s", tr.Calls[0].Phase)
	}
	if body, _ := tr.Request(0); body != nil {
		t.Errorf("a seed run has no agent's request body: %s", body)
	}
}

// namedEvents names each hook call by the point's agent event, as an
// agent's hook system does (SessionStart, Stop).
type namedEvents struct{ h fakeHook }

func (n namedEvents) Handle(ctx context.Context, ev *Event) error {
	fn, ok := n.h.effects[ev.Point]
	if !ok || ev.Stopped() {
		return nil
	}
	event := map[Point]string{PointSessionStart: "SessionStart", PointStop: "Stop"}[ev.Point]
	ev.Apply(HookCall{System: "demo", Event: event, Hook: n.h.name, Outcome: OutcomeOK}, fn(ev))
	return nil
}
