package expect

import (
	"context"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"hookstudio/app/agent/engine"
	"hookstudio/app/agent/llm"
	"hookstudio/app/agent/scenario"
)

var update = flag.Bool("update", false, "rewrite golden files in testdata/")

func simulate(t *testing.T, data []byte) (*scenario.Scenario, *engine.Trace) {
	t.Helper()
	sc, ds := scenario.Parse("s/scenarios/t.yaml", data)
	if len(ds) > 0 {
		t.Fatalf("diagnostics: %v", ds)
	}
	tr, err := engine.Run(context.Background(), sc, testHooks, engine.Config{Model: llm.NewMock(sc)})
	if err != nil {
		t.Fatal(err)
	}
	return sc, tr
}

// TestSnapshot pins what --update writes (golden file), and checks the
// round trip: the written expectations all pass, comments stay.
func TestSnapshot(t *testing.T) {
	in, err := os.ReadFile(filepath.Join("testdata", "snapshot.in.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	_, tr := simulate(t, in)
	out, err := Snapshot(in, tr)
	if err != nil {
		t.Fatal(err)
	}
	golden := filepath.Join("testdata", "snapshot.golden.yaml")
	if *update {
		if err := os.WriteFile(golden, out, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (go test ./app/agent/expect -update)", err)
	}
	if string(out) != string(want) {
		t.Errorf("snapshot differs from %s (go test ./app/agent/expect -update after checking):\n%s", golden, out)
	}
	for _, c := range []string{"# A scenario without expectations", "# the first request plans", "# need_tool explicit"} {
		if !strings.Contains(string(out), c) {
			t.Errorf("comment %q lost", c)
		}
	}
	if strings.Contains(string(out), "nothing-like-this") {
		t.Error("the old expect: list was kept")
	}
	sc, tr2 := simulate(t, out)
	rs := Evaluate(sc, tr2, words{})
	if p, f := Counts(rs); f != 0 || p < 8 {
		t.Errorf("after the snapshot: %d passed, %d failed", p, f)
		for _, r := range rs {
			if !r.Pass {
				t.Logf("%s: %s / %s", r.Title, r.Expected, r.Actual)
			}
		}
	}
}

func TestAdd(t *testing.T) {
	in, _ := os.ReadFile(filepath.Join("testdata", "snapshot.in.yaml"))
	one, two := 1, 2
	tests := []struct {
		name   string
		target Target
		want   string // in the result
		err    error
	}{
		{"under planning", Target{Request: 0, Phase: "planning"}, "planning: {need_tool: true, content: plan, expect: [{sees: memory}]}", nil},
		{"under a scripted round", Target{Request: 0, Phase: "agent", Round: &one}, "      - content: done\n        expect:\n          - {sees: memory}\n", nil},
		{"a round the file does not script", Target{Request: 0, Phase: "agent", Round: &two}, "  - user: first question", nil},
		{"a request without that level", Target{Request: 1, Phase: "direct"}, "- {phase: direct, sees: memory}", nil},
		{"no such request", Target{Request: 5, Phase: "planning"}, "", ErrNotEditable},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, err := Add(in, tt.target, map[string]any{"sees": "memory"})
			if !errors.Is(err, tt.err) {
				t.Fatalf("err %v, want %v", err, tt.err)
			}
			if err != nil {
				return
			}
			if !strings.Contains(string(out), tt.want) {
				t.Errorf("result lacks %q:\n%s", tt.want, out)
			}
			if _, ds := scenario.Parse("t.yaml", out); len(ds) > 0 {
				t.Errorf("the result does not validate: %v", ds)
			}
		})
	}
	if !strings.Contains(string(mustAdd(t, in, Target{Request: 0, Phase: "agent", Round: &two})), "{round: 2, sees: memory}") {
		t.Error("an unscripted round is addressed from its request")
	}
}

func mustAdd(t *testing.T, in []byte, target Target) []byte {
	t.Helper()
	out, err := Add(in, target, map[string]any{"sees": "memory"})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestNotEditable(t *testing.T) {
	json := []byte(`{"name": "t", "requests": [{"user": "hi", "reply": "x"}]}`)
	sc, tr := simulate(t, json)
	_ = sc
	if _, err := Snapshot(json, tr); !errors.Is(err, ErrNotEditable) {
		t.Errorf("JSON snapshot: %v", err)
	}
	alias := []byte("x-req: &r {user: hi, reply: x}\nname: t\nrequests: [*r]\n")
	_, tr = simulate(t, alias)
	if _, err := Snapshot(alias, tr); !errors.Is(err, ErrNotEditable) {
		t.Errorf("alias request: %v", err)
	}
}
