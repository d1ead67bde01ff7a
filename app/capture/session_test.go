package capture

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"hookstudio/app/engine"
)

type savedRuns struct {
	mu    sync.Mutex
	saved []*engine.Trace
}

func (s *savedRuns) SaveCapture(_ context.Context, tr *engine.Trace, api string, _, _ time.Time) (int64, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if api != "anthropic" {
		return 0, errors.New("api " + api)
	}
	s.saved = append(s.saved, tr)
	return int64(len(s.saved)), nil
}

// TestSession: the app's capture tells the base URL and the lines to paste,
// lists each request with the hooks whose text it carries, and is kept as a
// history run when it stops.
func TestSession(t *testing.T) {
	dir := t.TempDir()
	answers := filepath.Join(dir, "answers.yaml")
	if err := os.WriteFile(answers, []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var states []SessionState
	runs := &savedRuns{}
	s := NewSession(func(name string, v any) {
		if name == EventState {
			mu.Lock()
			states = append(states, v.(SessionState))
			mu.Unlock()
		}
	}, runs, nil)
	if _, err := s.Start(SessionOptions{}); err == nil {
		t.Error("started without an answers file")
	}
	st, err := s.Start(SessionOptions{AnswersFile: answers})
	if err != nil {
		t.Fatal(err)
	}
	if !st.Running || st.Answers != 3 || len(st.Lines) != 2 || !strings.Contains(st.Lines[0], "ANTHROPIC_BASE_URL="+st.BaseURL) || !strings.Contains(st.Lines[1], st.BaseURL+"/v1") {
		t.Fatalf("state %+v", st)
	}
	if _, err := s.Start(SessionOptions{AnswersFile: answers}); err == nil {
		t.Error("a second capture started beside the first")
	}
	post(t, st.BaseURL+"/v1/messages", claudeSecond, nil)
	st = s.State()
	if len(st.Calls) != 1 || st.Calls[0].Status != 200 || strings.Join(st.Calls[0].Hooks, ",") != "PreToolUse:Bash,Stop" || !strings.Contains(st.Calls[0].Answer, "Bash") {
		t.Fatalf("calls %+v", st.Calls)
	}
	st, err = s.Stop(context.Background())
	if err != nil || st.Running || st.RunID != 1 || len(runs.saved) != 1 {
		t.Fatalf("stop: %v %+v", err, st)
	}
	if _, err := s.Stop(context.Background()); err == nil {
		t.Error("stopped twice")
	}
	mu.Lock()
	defer mu.Unlock()
	if len(states) < 3 || states[len(states)-1].RunID != 1 {
		t.Errorf("%d states sent", len(states))
	}
}
