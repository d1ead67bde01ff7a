package answers

import (
	"context"
	"errors"
	"testing"

	"hookstudio/app/agent/engine"
)

func TestScripted(t *testing.T) {
	s := NewScripted(map[string][]string{"guard-rails/review": {"a", "b"}, "summary": {"s"}})
	for i, want := range []string{"a", "b", "b"} {
		if got, err := s.Answer("guard-rails/review", "review"); got != want || err != nil {
			t.Errorf("answer %d = %q %v, want %q", i, got, err, want)
		}
	}
	if got, err := s.Answer("other/summary", "summary"); got != "s" || err != nil {
		t.Errorf("by plain name: %q %v", got, err)
	}
	if _, err := s.Answer("x/none", "none"); !errors.Is(err, ErrNoAnswer) {
		t.Errorf("no answer: %v", err)
	}
}

type recordingModel struct {
	calls []engine.Call
	msgs  [][]engine.Message
}

func (m *recordingModel) Complete(_ context.Context, call engine.Call) (engine.Reply, error) {
	m.calls = append(m.calls, call)
	m.msgs = append(m.msgs, call.Messages())
	return engine.Reply{Content: `{"action": "skip"}`}, nil
}

func TestModel(t *testing.T) {
	m := &recordingModel{}
	got, err := (&Model{Model: m}).Complete(context.Background(), "gpt-4.1", "review this")
	if err != nil || got != `{"action": "skip"}` {
		t.Fatalf("%q %v", got, err)
	}
	if len(m.calls) != 1 || m.calls[0].Model != "gpt-4.1" || m.calls[0].Phase != engine.PhaseDirect || len(m.calls[0].Tools) != 0 {
		t.Errorf("call %+v", m.calls)
	}
	if len(m.msgs[0]) != 1 || m.msgs[0][0].Role != "user" || m.msgs[0][0].Content != "review this" {
		t.Errorf("messages %+v", m.msgs[0])
	}
	if _, err := (&Model{}).Complete(context.Background(), "", "x"); err == nil {
		t.Error("no model: no error")
	}
}
