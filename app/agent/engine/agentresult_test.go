package engine

import (
	"context"
	"errors"
	"slices"
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
// the model reads each run of that tool in the agent's words, another
// tool's result as it is. Words for the model alone (Codex's shell tool:
// the output, its exit code and token count) word a failed run too, with
// exit code 1, and leave the result the hooks read as the tool printed
// it; words that are the result itself (Gemini CLI's, Hooks) are what the
// hooks read too, and a failed run's is its error.
func TestAgentToolResultFramed(t *testing.T) {
	codex := request.Text{{Lit: "exit "}, {Slot: request.SlotExitCode}, {Lit: ", "}, {Slot: request.SlotResultTokens}, {Lit: " tokens\n"}, {Slot: request.SlotResult}}
	gemini := request.Text{{Lit: "<o>"}, {Slot: request.SlotResult, Empty: "(none)"}, {Lit: "</o>"}}
	for _, c := range []struct {
		name        string
		frame       request.ResultFrame
		model, hook []string
	}{
		{"the model's words", request.ResultFrame{Tool: "sh", Text: codex},
			[]string{"exit 0, 1 tokens\nok\n", "exit 0, 0 tokens\n", "exit 1, 2 tokens\nnope\n", "text"}, []string{"ok\n", "", "", "text"}},
		{"the result itself", request.ResultFrame{Tool: "sh", Text: gemini, Hooks: true},
			[]string{"<o>ok\n</o>", "<o>(none)</o>", "nope\n", "text"}, []string{"<o>ok\n</o>", "<o>(none)</o>", "", "text"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := &request.Model{Agent: "a", Version: "1", API: request.Responses, Turn: []request.Part{{Prompt: true}},
				Tools:   []request.Tool{{Name: "sh"}, {Name: "read"}},
				Framing: request.Framing{Results: []request.ResultFrame{c.frame}}}
			sc := &scenario.Scenario{Name: "x", EnableTools: true, Requests: []scenario.Request{{User: "go", Rounds: []scenario.Round{
				{ToolCalls: []scenario.ToolCall{{Name: "sh", Result: "ok\n"}, {Name: "sh", Result: ""}, {Name: "sh", Result: "FAIL: nope\n"}, {Name: "read", Result: "text"}}},
				{Content: "done"},
			}}}}
			tr, err := Run(context.Background(), sc, hookList{}, Config{Model: script{sc}, Tools: failingTools{}, Request: m})
			if err != nil {
				t.Fatal(err)
			}
			var got, hooks []string
			for _, id := range tr.MessageIDsAt(tr.Calls[len(tr.Calls)-1].Step) {
				if msg := tr.Message(id); msg.Role == "tool" {
					got = append(got, msg.Content)
				}
			}
			for _, tc := range tr.toolCalls {
				hooks = append(hooks, tc.Result)
			}
			if !slices.Equal(got, c.model) {
				t.Errorf("the model reads %q, want %q", got, c.model)
			}
			if !slices.Equal(hooks, c.hook) {
				t.Errorf("the hooks read %q, want %q", hooks, c.hook)
			}
		})
	}
}
