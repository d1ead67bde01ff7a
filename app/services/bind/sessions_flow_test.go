package bind

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"hookstudio/app/agent/engine"
	"hookstudio/app/store/history"
)

// hookEvents are the events of the hooks the capture of a fixture's run saw
// (<fixture>.capture.json), each named as its loop's node is.
func hookEvents(t *testing.T, fixture string) []string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "capture", "sessions", "testdata", fixture+".capture.json"))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Calls []struct {
			Messages []struct {
				Hook string `json:"hook"`
			} `json:"messages"`
		} `json:"calls"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, c := range doc.Calls {
		for _, m := range c.Messages {
			if m.Hook != "" {
				seen[eventNode(m.Hook)] = true
			}
		}
	}
	var events []string
	for e := range seen {
		events = append(events, e)
	}
	slices.Sort(events)
	return events
}

// eventNode is the loop node of a hook's event ("PreToolUse:Bash" at
// PreToolUse, Codex's "PostToolUse/PreToolUse:exec_command" at the first).
func eventNode(event string) string {
	event, _, _ = strings.Cut(event, ":")
	event, _, _ = strings.Cut(event, "/")
	return event
}

// nodeOf is the id of the node the view puts step i on ("" none).
// A session imported through History ▸ Open sessions opens from the
// history on the loop of the agent that wrote it, as a capture does: each
// hook the transcript tells of at its event's node (Codex's words that
// could be PostToolUse's or PreToolUse's at the first), each call at the
// model — and so does one whose transcript gives no version. The events it
// must light are every one the capture of the same run saw a hook's words at.
func TestHistoryDrawsASessionOnItsAgentsLoop(t *testing.T) {
	dataDir := t.TempDir()
	store, err := history.Open(context.Background(), filepath.Join(dataDir, "history.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	s := NewSessions(func(string, any) {}, store, nil, nil, dataDir)
	hist := NewHistory(store, byteCount{}, nil)
	for _, tt := range []struct {
		fixture, drop, loop string
		events              []string // hook events the session must light
	}{
		{"claude-code-2.1.332", "", "claude-code", []string{"SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "Stop"}},
		{"claude-code-2.1.197", "", "claude-code", []string{"SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "Stop"}},
		{"codex-0.171.0", "", "codex", []string{"SessionStart", "UserPromptSubmit", "PostToolUse", "PreToolUse", "Stop"}},
		{"claude-code-2.1.332", `"version":"2.1.332",`, "claude-code", []string{"SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "Stop"}},
		{"codex-0.171.0", `"cli_version":"0.171.0",`, "codex", []string{"SessionStart", "UserPromptSubmit", "PostToolUse", "PreToolUse", "Stop"}},
	} {
		name := tt.fixture
		if tt.drop != "" {
			name += " without its version"
		}
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join("..", "..", "capture", "sessions", "testdata", tt.fixture+".jsonl"))
			if err != nil {
				t.Fatal(err)
			}
			if tt.drop != "" {
				if !strings.Contains(string(data), tt.drop) {
					t.Fatalf("the fixture has no %s", tt.drop)
				}
				data = []byte(strings.ReplaceAll(string(data), tt.drop, ""))
			}
			file := filepath.Join(t.TempDir(), tt.fixture+".jsonl")
			if err := os.WriteFile(file, data, 0o644); err != nil {
				t.Fatal(err)
			}
			imp, err := s.Import(file)
			if err != nil {
				t.Fatal(err)
			}
			if (imp.Session.Version == "") != (tt.drop != "") {
				t.Fatalf("version %q", imp.Session.Version)
			}
			v := openWhole(t, hist, imp.Run)
			if v.Head.Loop.ID != tt.loop {
				t.Fatalf("drawn on %s (%s)", v.Head.Loop.ID, v.Head.Why)
			}
			lit := map[string]bool{}
			for i, st := range v.Steps {
				node := v.node(i)
				switch {
				case node == "":
					t.Errorf("step %d (%s) has no node", i, st.Kind)
				case st.Kind == engine.StepLLMCall && node != "model":
					t.Errorf("call of step %d at %s", i, node)
				case st.Kind == engine.StepHookCall:
					if node != eventNode(st.HookCall.Event) {
						t.Errorf("hook %s of step %d at %s", st.HookCall.Event, i, node)
					}
					lit[node] = true
				}
			}
			if want := hookEvents(t, tt.fixture); !slices.Equal(want, slices.Sorted(slices.Values(tt.events))) {
				t.Fatalf("the capture of %s saw hooks at %v, the case lists %v", tt.fixture, want, tt.events)
			}
			for _, e := range tt.events {
				if !lit[e] {
					t.Errorf("%s is not lit (lit: %v)", e, lit)
				}
			}
		})
	}
}
