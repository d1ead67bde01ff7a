package engine_test

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"hookstudio/app/agent/engine"
	"hookstudio/app/agent/llm"
	"hookstudio/app/agent/scenario"
	"hookstudio/app/format/diag"
	"hookstudio/app/hooks/skills"
)

var update = flag.Bool("update", false, "rewrite golden files in testdata/")

// expected is the conformance format: every LLM call's messages in tag
// notation, and the hooks each request yielded.
type expected struct {
	LLMCalls []struct {
		Request  int      `json:"request"`
		Phase    string   `json:"phase"`
		Round    *int     `json:"round"`
		Messages []string `json:"messages"`
	} `json:"llm_calls"`
	Yielded [][]string `json:"yielded"`
}

// simulate loads dir/skills and dir/scenario.yaml and runs the mock.
func simulate(t *testing.T, dir string) *engine.Trace {
	t.Helper()
	set, err := skills.Load(context.Background(), filepath.Join(dir, "skills"))
	if err != nil {
		t.Fatal(err)
	}
	if ds := set.Diagnostics(); diag.HasErrors(ds) {
		t.Fatalf("skills have errors: %+v", ds)
	}
	data, err := os.ReadFile(filepath.Join(dir, "scenario.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	sc, ds := scenario.Parse("scenario.yaml", data)
	if diag.HasErrors(ds) {
		t.Fatalf("scenario has errors: %+v", ds)
	}
	tr, err := engine.Run(context.Background(), sc, set, engine.Config{Model: llm.NewMock(sc)})
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

func checkExpected(t *testing.T, tr *engine.Trace, file string) {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var want expected
	if err := json.Unmarshal(data, &want); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	if len(tr.Calls) != len(want.LLMCalls) {
		t.Fatalf("%d LLM calls, want %d", len(tr.Calls), len(want.LLMCalls))
	}
	for i, w := range want.LLMCalls {
		c := tr.Calls[i]
		if c.Request != w.Request || string(c.Phase) != w.Phase || !equalRound(c.Round, w.Round) {
			t.Errorf("call %d is request %d %s round %v, want request %d %s round %v", i, c.Request, c.Phase, c.Round, w.Request, w.Phase, w.Round)
		}
		if got := tr.CallTags(i); !slices.Equal(got, w.Messages) {
			t.Errorf("call %d messages:\n got %v\nwant %v", i, got, w.Messages)
		}
	}
	for r, w := range want.Yielded {
		if got := tr.Requests[r].Yielded; !slices.Equal(got, w) {
			t.Errorf("request %d yielded %v, want %v", r, got, w)
		}
	}
}

func equalRound(a, b *int) bool { return (a == nil) == (b == nil) && (a == nil || *a == *b) }

// TestConformance runs every case of ../shared/conformance.
func TestConformance(t *testing.T) {
	root := filepath.Join("..", "..", "..", "..", "shared", "conformance")
	cases, _ := filepath.Glob(filepath.Join(root, "*", "expected.json"))
	if len(cases) == 0 {
		if os.Getenv("CI") != "" {
			t.Fatalf("no conformance cases under %s", root)
		}
		t.Skipf("no conformance cases under %s (shared/ is not beside this checkout)", root)
	}
	for _, c := range cases {
		dir := filepath.Dir(c)
		t.Run(filepath.Base(dir), func(t *testing.T) { checkExpected(t, simulate(t, dir), c) })
	}
}

// assertions are a diagram's ✓/✗ claims: how many copies of a hook an LLM
// call receives (history copies included).
type assertions struct {
	Description string `json:"description"`
	Checks      []struct {
		Call struct {
			Request int    `json:"request"`
			Phase   string `json:"phase"`
			Round   *int   `json:"round"`
		} `json:"call"`
		Hook          string `json:"hook"`
		Copies        int    `json:"copies"`
		HistoryCopies *int   `json:"history_copies"`
		Why           string `json:"why"`
	} `json:"checks"`
}

// TestSeedDiagrams replays each sequence diagram of seed 000 §6 and §8:
// the hand-computed expected lists, the diagram's ✓/✗ claims, and a golden
// trace of every step (go test -update rewrites it).
func TestSeedDiagrams(t *testing.T) {
	dirs, _ := filepath.Glob(filepath.Join("testdata", "diagrams", "*"))
	if len(dirs) < 7 {
		t.Fatalf("found %d diagram fixtures, want 7", len(dirs))
	}
	for _, dir := range dirs {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			tr := simulate(t, dir)
			checkExpected(t, tr, filepath.Join(dir, "expected.json"))
			checkAssertions(t, tr, filepath.Join(dir, "assertions.json"))
			golden(t, filepath.Join(dir, "trace.golden.json"), tr.Document())
		})
	}
}

func checkAssertions(t *testing.T, tr *engine.Trace, file string) {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var a assertions
	if err := json.Unmarshal(data, &a); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	if len(a.Checks) == 0 {
		t.Fatalf("%s has no checks", file)
	}
	for _, ck := range a.Checks {
		ci := slices.IndexFunc(tr.Calls, func(c engine.LLMCall) bool {
			return c.Request == ck.Call.Request && string(c.Phase) == ck.Call.Phase && equalRound(c.Round, ck.Call.Round)
		})
		if ci < 0 {
			t.Errorf("no LLM call %+v", ck.Call)
			continue
		}
		fresh, hist := 0, 0
		for _, m := range tr.CallMessages(ci) {
			switch {
			case m.Hook != ck.Hook:
			case m.Origin == engine.OriginHistory:
				hist++
			default:
				fresh++
			}
		}
		if fresh+hist != ck.Copies {
			t.Errorf("call %d (%+v) sees %d copies of %s, want %d: %s", ci, ck.Call, fresh+hist, ck.Hook, ck.Copies, ck.Why)
		}
		if ck.HistoryCopies != nil && hist != *ck.HistoryCopies {
			t.Errorf("call %d sees %d history copies of %s, want %d: %s", ci, hist, ck.Hook, *ck.HistoryCopies, ck.Why)
		}
	}
}

func golden(t *testing.T, file string, v any) {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", " ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	if *update {
		if err := os.WriteFile(file, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("%v (run go test ./app/agent/engine -update to create it)", err)
	}
	if !bytes.Equal(buf.Bytes(), want) {
		t.Errorf("trace differs from %s (run go test ./app/agent/engine -update after checking the change)", file)
	}
}
