package bind

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"hookstudio/app/agent/scenario"
	"hookstudio/app/capture/sessions"
	"hookstudio/app/store/history"
)

// payloads records each event with its payload.
type payloads struct {
	ch chan struct {
		name string
		v    any
	}
}

func newPayloads() *payloads {
	return &payloads{ch: make(chan struct {
		name string
		v    any
	}, 1024)}
}

func (p *payloads) emit(name string, v any) {
	p.ch <- struct {
		name string
		v    any
	}{name, v}
}

// wait returns the first event named name whose payload ok accepts.
func (p *payloads) wait(t *testing.T, name string, ok func(any) bool) any {
	t.Helper()
	deadline := time.After(2 * time.Minute)
	for {
		select {
		case e := <-p.ch:
			if e.name == name && ok(e.v) {
				return e.v
			}
		case <-deadline:
			t.Fatalf("no %s event", name)
		}
	}
}

func fixtureLines(t *testing.T) []string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "capture", "sessions", "testdata", "claude-code-2.1.332.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	return strings.SplitAfter(string(data), "\n")
}

// TestSessionsBinding: the app lists the sessions of the folders it is
// given (remembered), imports one with its progress into the history,
// saves it as a scenario, and follows one being written until told to stop.
func TestSessionsBinding(t *testing.T) {
	dataDir := t.TempDir()
	projects := filepath.Join(t.TempDir(), "projects")
	dir := filepath.Join(projects, "-home-user-project")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	lines := fixtureLines(t)
	done := filepath.Join(dir, "done.jsonl")
	if err := os.WriteFile(done, []byte(strings.Join(lines, "")), 0o644); err != nil {
		t.Fatal(err)
	}
	store, err := history.Open(context.Background(), filepath.Join(dataDir, "history.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	ev := newPayloads()
	s := NewSessions(ev.emit, store, nil, nil, dataDir)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	StartSessions(ctx, s)
	defer StopSessions(s)

	// a Copilot CLI session where Copilot CLI keeps them; the other agents' folders empty
	copilot := filepath.Join(t.TempDir(), "session-state")
	events := filepath.Join(copilot, "s1", "events.jsonl")
	log, err := os.ReadFile(filepath.Join("..", "..", "capture", "sessions", "testdata", "copilot-cli-1.0.102.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(events), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(events, log, 0o644); err != nil {
		t.Fatal(err)
	}
	none := filepath.Join(dataDir, "none")
	if _, err := s.SetLocations(sessions.Locations{Claude: projects, Codex: none, Gemini: none, Qwen: none, Copilot: copilot}); err != nil {
		t.Fatal(err)
	}
	if again := NewSessions(ev.emit, store, nil, nil, dataDir); again.locs.Claude != projects || again.locs.Copilot != copilot {
		t.Errorf("the folders are not remembered: %+v", again.locs)
	}
	if list, err := s.List(sessions.Filter{Agent: sessions.CopilotCLI}); err != nil || len(list) != 1 || list[0].File != events {
		t.Fatalf("list of Copilot CLI's: %v %+v", err, list)
	}
	if imp, err := s.Import(events); err != nil || imp.Session.Agent != sessions.CopilotCLI || len(imp.Session.Calls) != 4 {
		t.Fatalf("import of a Copilot CLI session: %v %+v", err, imp.Session)
	}
	list, err := s.List(sessions.Filter{Agent: sessions.ClaudeCode, Search: "clean the build"})
	if err != nil || len(list) != 1 || list[0].File != done {
		t.Fatalf("list: %v %+v", err, list)
	}

	imp, err := s.Import(done)
	if err != nil || imp.Run == 0 || len(imp.Session.Calls) != 4 {
		t.Fatalf("import: %v %+v", err, imp)
	}
	ev.wait(t, EventSessionsProgress, func(v any) bool { p := v.(SessionProgress); return p.File == done && p.Read == p.Total })
	ev.wait(t, "history:run", func(v any) bool { return v.(int64) == imp.Run })

	// saved as a scenario: the Capture binding saves imported sessions too
	sc := filepath.Join(t.TempDir(), "replay.yaml")
	if _, err := NewCapture(ev.emit, store, nil).SaveScenario(imp.Run, sc); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(sc)
	if parsed, diags := scenario.Parse(sc, data); len(diags) > 0 || len(parsed.Requests) == 0 {
		t.Errorf("saved scenario: %v", diags)
	}

	// a session being written: followed until unfollowed
	live := filepath.Join(dir, "live.jsonl")
	if err := os.WriteFile(live, []byte(strings.Join(lines[:25], "")), 0o644); err != nil {
		t.Fatal(err)
	}
	if following, err := s.Follow(live); err != nil || len(following) != 1 {
		t.Fatalf("follow: %v %v", err, following)
	}
	first := ev.wait(t, EventSessionsUpdate, func(v any) bool { u := v.(SessionUpdate); return u.File == live && u.Run != 0 }).(SessionUpdate)
	f, err := os.OpenFile(live, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(strings.Join(lines[25:], "")); err != nil {
		t.Fatal(err)
	}
	f.Close()
	last := ev.wait(t, EventSessionsUpdate, func(v any) bool {
		u := v.(SessionUpdate)
		return u.File == live && u.Session != nil && len(u.Session.Calls) == 4
	}).(SessionUpdate)
	if last.Run != first.Run {
		t.Errorf("the growing session became run %d, then %d", first.Run, last.Run)
	}
	if following, _ := s.Unfollow(live); len(following) > 1 {
		t.Errorf("following %v", following)
	}
	ev.wait(t, EventSessionsUpdate, func(v any) bool { u := v.(SessionUpdate); return u.File == live && !u.Following })
}
