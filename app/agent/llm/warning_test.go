package llm

import (
	"context"
	"testing"

	"hookstudio/app/agent/engine"
)

func TestAnswerWarning(t *testing.T) {
	round := 0
	tests := []struct {
		name string
		call engine.LLMCall
		warn bool
	}{
		{"empty direct answer", engine.LLMCall{Phase: engine.PhaseDirect}, true},
		{"whitespace only", engine.LLMCall{Phase: engine.PhaseAgent, Round: &round, Content: " \n\t"}, true},
		{"text", engine.LLMCall{Phase: engine.PhaseAgent, Round: &round, Content: "Done."}, false},
		{"tool calls without text", engine.LLMCall{Phase: engine.PhaseAgent, Round: &round, ToolCalls: []engine.ToolCall{{ID: "c", Name: "grep"}}}, false},
		{"failed call: the error says it", engine.LLMCall{Phase: engine.PhaseDirect, Error: "server error 500"}, false},
		{"planning: an empty answer is an undecidable error", engine.LLMCall{Phase: engine.PhasePlanning}, false},
	}
	for _, tt := range tests {
		if got := AnswerWarning(tt.call); (got != "") != tt.warn {
			t.Errorf("%s: AnswerWarning = %q, want a warning: %v", tt.name, got, tt.warn)
		}
	}
}

// TestEmptyAnswerWarnedInRun runs a scenario whose agent round is answered
// with an empty stream: the run ends with an empty reply, and that call,
// only that one, carries the warning.
func TestEmptyAnswerWarnedInRun(t *testing.T) {
	for _, p := range providers {
		t.Run(p.name, func(t *testing.T) {
			planning := okText(p.name, `{"need_tool": true, "plan": "read main.go"}`)
			empty := okText(p.name, "")
			if p.name == "anthropic" {
				empty = anthropicStream("end_turn")
			}
			s := newServer(t, planning, empty)
			m := p.make(t, s, nil)
			sc, hs := testScenario()
			var after []int
			tr, err := engine.Run(context.Background(), sc, hs, engine.Config{
				Model: m, Tools: &ToolRunner{}, MaxRounds: 5,
				AfterCall: MarkWarnings(func(_ *engine.Trace, c int) { after = append(after, c) }),
			})
			if err != nil {
				t.Fatalf("run: %v", err)
			}
			if len(tr.Calls) != 2 || len(after) != 2 {
				t.Fatalf("calls = %d, AfterCall saw %v; want 2 calls", len(tr.Calls), after)
			}
			if tr.Calls[0].Warning != "" {
				t.Errorf("planning call warned: %q", tr.Calls[0].Warning)
			}
			if tr.Calls[1].Warning != EmptyAnswer {
				t.Errorf("empty agent answer: warning = %q, want %q", tr.Calls[1].Warning, EmptyAnswer)
			}
		})
	}
}
