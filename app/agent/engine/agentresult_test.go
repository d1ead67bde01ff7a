package engine

import (
	"context"
	"errors"
	"strings"
	"testing"

	"hookstudio/app/agent/scenario"
	"hookstudio/app/agentdata/request"
)

// failingTools runs a scenario's tool calls, failing those whose result is
// "FAIL: <words>" with the words.
type failingTools struct{}

func (failingTools) RunTool(_ context.Context, _ Call, tc ToolCall) (string, error) {
	if rest, ok := strings.CutPrefix(tc.Result, "FAIL: "); ok {
		return "", errors.New(rest)
	}
	return tc.Result, nil
}

// TestAgentToolResultFramed: under an agent that words its tool's output
// (Codex's shell tool), the model reads each run of that tool in the
// agent's words — the output, its exit code and token count; a failed
// run's words with exit code 1 — and another tool's result as it is.
func TestAgentToolResultFramed(t *testing.T) {
	frame := request.Text{{Lit: "exit "}, {Slot: request.SlotExitCode}, {Lit: ", "}, {Slot: request.SlotResultTokens}, {Lit: " tokens\n"}, {Slot: request.SlotResult}}
	m := &request.Model{Agent: "a", Version: "1", API: request.Responses, Turn: []request.Part{{Prompt: true}},
		Tools:   []request.Tool{{Name: "sh"}, {Name: "read"}},
		Framing: request.Framing{Results: []request.ResultFrame{{Tool: "sh", Text: frame}}}}
	sc := &scenario.Scenario{Name: "x", EnableTools: true, Requests: []scenario.Request{{User: "go", Rounds: []scenario.Round{
		{ToolCalls: []scenario.ToolCall{{Name: "sh", Result: "ok\n"}, {Name: "sh", Result: ""}, {Name: "sh", Result: "FAIL: nope\n"}, {Name: "read", Result: "text"}}},
		{Content: "done"},
	}}}}
	tr, err := Run(context.Background(), sc, hookList{}, Config{Model: script{sc}, Tools: failingTools{}, Request: m})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, id := range tr.MessageIDsAt(tr.Calls[len(tr.Calls)-1].Step) {
		if msg := tr.Message(id); msg.Role == "tool" {
			got = append(got, msg.Content)
		}
	}
	want := []string{"exit 0, 1 tokens\nok\n", "exit 0, 0 tokens\n", "exit 1, 2 tokens\nnope\n", "text"}
	if len(got) != len(want) {
		t.Fatalf("tool results %q, want %q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("tool result %d: %q, want %q", i, got[i], want[i])
		}
	}
}
