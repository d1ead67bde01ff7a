package capture

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"hookstudio/app/agent/engine"
	"hookstudio/app/agent/llm"
	"hookstudio/app/agent/scenario"
	"hookstudio/app/hooks/skills"
)

type noHooks struct{}

func (noHooks) Hooks([]string) []skills.Hook { return nil }

// claudeSession is a captured Claude Code-like session: a tool call a
// PreToolUse hook blocked, a retry after an overloaded error, the end of
// the turn, a second turn with two tool calls, and a Stop hook's feedback
// that made the agent go on.
func claudeSession(t *testing.T) []Call {
	t.Helper()
	sys := Message{Role: "system", Content: "You are Claude Code.", Origin: OriginSystem}
	user := Message{Role: "user", Content: "clean the build", Origin: OriginUser}
	bash := ToolCall{ID: "toolu_1", Name: "Bash", Arguments: json.RawMessage(`{"command":"rm -rf build"}`)}
	a1 := Message{Role: "assistant", Origin: OriginAssistant, ToolCalls: []ToolCall{bash}}
	blocked := Message{Role: "tool", Content: "PreToolUse:Bash hook error: [./guard.sh]: blocked by test hook", Origin: OriginHook, Hook: "PreToolUse:Bash", ToolCallID: "toolu_1", IsError: true}
	a2 := Message{Role: "assistant", Content: "The hook blocked it.", Origin: OriginAssistant}
	user2 := Message{Role: "user", Content: "then list both folders", Origin: OriginUser}
	ls := ToolCall{ID: "toolu_2", Name: "Bash", Arguments: json.RawMessage(`{"command":"ls a"}`)}
	read := ToolCall{ID: "toolu_3", Name: "Read", Arguments: json.RawMessage(`{"path":"b"}`)}
	a3 := Message{Role: "assistant", Origin: OriginAssistant, ToolCalls: []ToolCall{ls, read}}
	r2 := Message{Role: "tool", Content: "x.go", Origin: OriginToolResult, ToolCallID: "toolu_2"}
	r3 := Message{Role: "tool", Content: "contents of b", Origin: OriginToolResult, ToolCallID: "toolu_3"}
	a4 := Message{Role: "assistant", Content: "a holds x.go.", Origin: OriginAssistant}
	stop := Message{Role: "user", Content: "Stop hook feedback: also say what b holds", Origin: OriginHook, Hook: "Stop"}
	tools := []string{"Bash", "Read"}
	ok := func(n int, ms []Message, a Answer) Call {
		return Call{N: n, API: Anthropic, Status: 200, Messages: ms, Tools: tools, Answer: &a}
	}
	return []Call{
		ok(0, []Message{sys, user}, Answer{ToolCalls: []ToolCall{bash}}),
		{N: 1, API: Anthropic, Status: 529, Messages: []Message{sys, user, a1, blocked}, Tools: tools, Error: "answered with an error: overloaded",
			Answer: &Answer{Error: &AnswerError{Status: 529, Message: "overloaded"}}},
		ok(2, []Message{sys, user, a1, blocked}, Answer{Content: "The hook blocked it."}),
		ok(3, []Message{sys, user, a1, blocked, a2, user2}, Answer{Content: "Listing.", ToolCalls: []ToolCall{ls, read}}),
		ok(4, []Message{sys, user, a1, blocked, a2, user2, a3, r2, r3}, Answer{Content: "a holds x.go."}),
		ok(5, []Message{sys, user, a1, blocked, a2, user2, a3, r2, r3, a4, stop}, Answer{Content: "b holds its contents."}),
	}
}

// TestScenarioReplaysCapture: a capture saved as a scenario, read back by
// the scenario parser and simulated with the mock, gives the same
// assistant answers and tool calls in the same order.
func TestScenarioReplaysCapture(t *testing.T) {
	calls := claudeSession(t)
	tr, err := Trace("capture: clean the build", calls)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		from []Call
	}{
		{"the capture's calls", calls},
		{"a capture run read back from its trace (the history)", CallsFromTrace(tr)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { checkReplay(t, calls, tt.from) })
	}
}

// checkReplay saves from as a scenario, simulates it and compares the
// simulated answers with the captured calls'.
func checkReplay(t *testing.T, calls, from []Call) {
	data, notes, err := ScenarioYAML("capture: clean the build", from)
	if err != nil {
		t.Fatal(err)
	}
	if len(notes) == 0 || !strings.Contains(notes[0], "call #2 is not replayed") {
		t.Errorf("notes %q", notes)
	}
	sc, diags := scenario.Parse("replay.yaml", data)
	for _, d := range diags {
		if d.Severity == "error" {
			t.Fatalf("the saved scenario does not parse: %v\n%s", d, data)
		}
	}
	if sc.SystemPrompt != "You are Claude Code." || len(sc.Requests) != 3 || sc.Requests[1].User != "then list both folders" ||
		!strings.HasPrefix(sc.Requests[2].User, "Stop hook feedback") || sc.Requests[1].Rounds[0].ToolCalls[1].Result != "contents of b" {
		t.Fatalf("scenario:\n%s", data)
	}
	tr, err := engine.Run(context.Background(), sc, noHooks{}, engine.Config{Model: llm.NewMock(sc)})
	if err != nil {
		t.Fatal(err)
	}
	type answer struct {
		Content string
		Tools   string
	}
	var want, got []answer
	for _, c := range calls {
		if c.Status != 200 {
			continue
		}
		var tools []string
		for _, tc := range c.Answer.ToolCalls {
			tools = append(tools, tc.Name+string(tc.Arguments))
		}
		want = append(want, answer{c.Answer.Content, strings.Join(tools, ";")})
	}
	for _, c := range tr.Calls {
		if c.Phase != engine.PhaseAgent {
			continue // the simulator's flow plans before each request's rounds
		}
		var tools []string
		for _, tc := range c.ToolCalls {
			args, _ := json.Marshal(tc.Arguments)
			tools = append(tools, tc.Name+string(args))
		}
		got = append(got, answer{c.Content, strings.Join(tools, ";")})
	}
	if len(got) != len(want) {
		t.Fatalf("simulated %d answers, captured %d:\n%+v\n%+v", len(got), len(want), got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("answer %d: simulated %+v, captured %+v", i, got[i], want[i])
		}
	}
}

// TestScenarioWithoutTools: a plain chat capture becomes direct requests,
// one per call; a capture with no answer at all is an error.
func TestScenarioWithoutTools(t *testing.T) {
	calls := []Call{
		{N: 0, API: OpenAI, Status: 200, Messages: []Message{{Role: "user", Content: "hi", Origin: OriginUser}}, Answer: &Answer{Content: "hello"}},
		{N: 1, API: OpenAI, Status: 200, Messages: []Message{{Role: "user", Content: "hi", Origin: OriginUser}, {Role: "assistant", Content: "hello", Origin: OriginAssistant}, {Role: "user", Content: "bye", Origin: OriginUser}}, Answer: &Answer{Content: "ciao"}},
	}
	sc, _, err := ToScenario("chat", calls)
	if err != nil || sc.EnableTools || len(sc.Requests) != 2 || sc.Requests[0].Reply != "hello" || sc.Requests[1].User != "bye" || sc.Requests[1].Reply != "ciao" {
		t.Fatalf("%v %+v", err, sc)
	}
	if _, _, err := ToScenario("x", []Call{{Status: 500, Error: "boom"}}); err == nil {
		t.Error("a capture with no answer was saved")
	}
}

// TestScenarioSideRequest: a side request interleaved in a tool loop does
// not cut the loop: it becomes requests of its own after the conversation
// it interrupted, and the simulation answers in that order.
func TestScenarioSideRequest(t *testing.T) {
	sys := Message{Role: "system", Content: "You are Claude Code.", Origin: OriginSystem}
	user := Message{Role: "user", Content: "clean the build", Origin: OriginUser}
	bash := ToolCall{ID: "toolu_1", Name: "Bash", Arguments: json.RawMessage(`{"command":"ls"}`)}
	asked := Message{Role: "assistant", Origin: OriginAssistant, ToolCalls: []ToolCall{bash}}
	result := Message{Role: "tool", Content: "build/", Origin: OriginToolResult, ToolCallID: "toolu_1"}
	titleSys := Message{Role: "system", Content: "Write a 5-word title.", Origin: OriginSystem}
	calls := []Call{
		{N: 0, Status: 200, Tools: []string{"Bash"}, Messages: []Message{sys, user}, Answer: &Answer{ToolCalls: []ToolCall{bash}}},
		{N: 1, Status: 200, Messages: []Message{titleSys, user}, Answer: &Answer{Content: "Cleaning the build"}},
		{N: 2, Status: 200, Tools: []string{"Bash"}, Messages: []Message{sys, user, asked, result}, Answer: &Answer{Content: "Done."}},
	}
	sc, _, err := ToScenario("side", calls)
	if err != nil {
		t.Fatal(err)
	}
	if len(sc.Requests) != 2 || len(sc.Requests[0].Rounds) != 2 || sc.Requests[0].Rounds[0].ToolCalls[0].Result != "build/" || sc.Requests[1].User != "clean the build" {
		t.Fatalf("requests %+v", sc.Requests)
	}
	tr, err := engine.Run(context.Background(), sc, noHooks{}, engine.Config{Model: llm.NewMock(sc)})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range tr.Calls {
		if c.Phase == engine.PhaseAgent {
			s := c.Content
			for _, tc := range c.ToolCalls {
				s += "→" + tc.Name
			}
			got = append(got, s)
		}
	}
	if strings.Join(got, "|") != "→Bash|Done.|Cleaning the build" {
		t.Errorf("simulated %q", got)
	}
}
