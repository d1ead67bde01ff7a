package events

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"hookstudio/app/agent/engine"
)

var update = flag.Bool("update", false, "rewrite the golden event files")

// golden is the part of an event the golden files pin: everything but
// the wall-clock timestamp.
type golden struct {
	Seq     uint64         `json:"seq"`
	Type    Type           `json:"type"`
	Step    int            `json:"step"`
	Message string         `json:"message"`
	Payload map[string]any `json:"payload,omitempty"`
}

// TestGoldenEvents pins the event order, sequence numbers and steps of
// every example scenario, headless (scripted approvals).
func TestGoldenEvents(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(skillsRoot, "*", "scenarios", "*.yaml"))
	if len(files) < 5 {
		t.Fatalf("found %d example scenarios", len(files))
	}
	for _, f := range files {
		rel, _ := filepath.Rel(skillsRoot, f)
		rel = filepath.ToSlash(rel)
		name := strings.ReplaceAll(strings.TrimSuffix(rel, ".yaml"), "/scenarios/", "--") + ".jsonl"
		t.Run(name, func(t *testing.T) {
			sc, set := exampleScenario(t, rel)
			tr, st, err := run(t, context.Background(), sc, set, Options{}.ForScenario(sc))
			if err != nil {
				t.Fatalf("run: %v", err)
			}
			evs := st.Persistent()
			var buf bytes.Buffer
			for i, e := range evs {
				if e.Step >= tr.NumSteps() {
					t.Errorf("event %d points at step %d of %d", e.Seq, e.Step, tr.NumSteps())
				}
				if i > 0 && e.Seq <= evs[i-1].Seq {
					t.Errorf("sequence numbers not increasing: %d after %d", e.Seq, evs[i-1].Seq)
				}
				line, _ := json.Marshal(golden{e.Seq, e.Type, e.Step, e.Message, e.Payload})
				buf.Write(line)
				buf.WriteByte('\n')
			}
			if evs[0].Type != WorkflowStarted || evs[len(evs)-1].Type != WorkflowCompleted {
				t.Errorf("run events from %s to %s, want WORKFLOW_STARTED .. WORKFLOW_COMPLETED", evs[0].Type, evs[len(evs)-1].Type)
			}
			path := filepath.Join("testdata", name)
			if *update {
				if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run with -update)", err)
			}
			if !bytes.Equal(buf.Bytes(), want) {
				t.Errorf("events differ from %s (run with -update to accept):\n%s", path, firstDiff(string(want), buf.String()))
			}
		})
	}
}

func firstDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := range max(len(w), len(g)) {
		var a, b string
		if i < len(w) {
			a = w[i]
		}
		if i < len(g) {
			b = g[i]
		}
		if a != b {
			return fmt.Sprintf("line %d\nwant %s\ngot  %s", i+1, a, b)
		}
	}
	return ""
}

// TestOpsPolicyScenario checks what the example is for: the denied
// restart with the human's feedback in the tool message, the approved
// command run, the budget crossing 80 % and then 95 % on later calls.
func TestOpsPolicyScenario(t *testing.T) {
	sc, set := exampleScenario(t, "pitfalls/scenarios/ops-policy.yaml")
	tr, st, err := run(t, context.Background(), sc, set, Options{}.ForScenario(sc))
	if err != nil {
		t.Fatal(err)
	}
	var decisions []string
	var levels []string
	calls := map[string]any{}
	for _, e := range st.Persistent() {
		switch e.Type {
		case ApprovalDecision:
			decisions = append(decisions, e.Payload["decision"].(string))
		case BudgetThreshold:
			levels = append(levels, e.Payload["level"].(string))
			calls[e.Payload["level"].(string)] = e.Payload["call"]
		}
	}
	if !slices.Equal(decisions, []string{"denied", "approved"}) {
		t.Errorf("decisions %v", decisions)
	}
	if !slices.Equal(levels, []string{LevelWarning, LevelCritical}) || calls[LevelWarning] == calls[LevelCritical] {
		t.Errorf("budget levels %v at calls %v, want warning then critical on different calls", levels, calls)
	}
	restart := tr.Calls[1].ToolCalls[0]
	if restart.Status != engine.ToolDenied || !strings.Contains(restart.Result, "find the cause first") {
		t.Errorf("restart: status %q, result %q", restart.Status, restart.Result)
	}
	// The model reads the denial in the tool message of the next call.
	found := false
	for _, m := range tr.CallMessages(2) {
		if m.Role == "tool" && strings.Contains(m.Content, "denied by the user: Do not restart") {
			found = true
		}
	}
	if !found {
		t.Error("call 3 does not see the denial in a tool message")
	}
	if ss := tr.Calls[3].ToolCalls[0]; ss.Status != engine.ToolApproved || !strings.Contains(ss.Result, "api-old") {
		t.Errorf("approved command: status %q result %q", ss.Status, ss.Result)
	}
}

// TestQuietTraceUnchanged: watching a run leaves a prompt-only trace as it
// was (no approvals or budget stop to record).
func TestQuietTraceUnchanged(t *testing.T) {
	sc, set := exampleScenario(t, "file-tools/scenarios/fix-line-limit.yaml")
	cfg := engine.Config{Model: mockOf(sc)}
	plain, err := engine.Run(context.Background(), sc, set, cfg)
	if err != nil {
		t.Fatal(err)
	}
	watched, _, err := run(t, context.Background(), sc, set, Options{})
	if err != nil {
		t.Fatal(err)
	}
	a, _ := json.Marshal(plain.Document())
	b, _ := json.Marshal(watched.Document())
	if !bytes.Equal(a, b) {
		t.Error("the watched trace differs from the plain one")
	}
}

// TestPersistenceRules: ephemeral kinds are never kept; every other kind is.
func TestPersistenceRules(t *testing.T) {
	st := NewStream(StreamOptions{})
	for _, ty := range Types {
		st.Publish(Event{Type: ty})
	}
	var kept []Type
	for _, e := range st.Persistent() {
		kept = append(kept, e.Type)
	}
	for _, ty := range Types {
		if got, want := slices.Contains(kept, ty), !Ephemeral(ty); got != want {
			t.Errorf("%s kept %v, want %v", ty, got, want)
		}
	}
	if Ephemeral(WorkflowCompleted) || Ephemeral(ToolInvoked) || !Ephemeral(LLMPartial) || !Ephemeral(Heartbeat) {
		t.Error("the seed's persistence rules are not followed")
	}
}

// TestFloodNeverBlocks: a consumer that is stuck does not stall the
// publisher; LLM_PARTIAL beyond the queue is dropped and counted, and
// every persistent event still arrives, in order.
func TestFloodNeverBlocks(t *testing.T) {
	const n, capacity = 100000, 64
	st := NewStream(StreamOptions{Capacity: capacity})
	release := make(chan struct{})
	var got []Event
	done := make(chan struct{})
	go func() {
		defer close(done)
		first := true
		st.Pump(func(evs []Event) {
			if first {
				first = false
				<-release // stuck until the flood is over
			}
			got = append(got, evs...)
		})
	}()
	published := make(chan struct{})
	go func() {
		defer close(published)
		st.Publish(Event{Type: WorkflowStarted})
		for i := range n {
			st.Publish(Event{Type: LLMPartial, Message: "x"})
			if i%1000 == 0 {
				st.Publish(Event{Type: ToolInvoked, Payload: map[string]any{"i": i}})
			}
		}
		st.Publish(Event{Type: WorkflowCompleted})
	}()
	select {
	case <-published:
	case <-time.After(20 * time.Second):
		t.Fatal("publishing blocked on a stuck consumer")
	}
	close(release)
	st.Close()
	<-done
	var partials, persistent int
	for i, e := range got {
		if i > 0 && e.Seq <= got[i-1].Seq {
			t.Fatalf("out of order: %d after %d", e.Seq, got[i-1].Seq)
		}
		if e.Type == LLMPartial {
			partials++
		} else {
			persistent++
		}
	}
	if persistent != 2+n/1000 {
		t.Errorf("%d persistent events arrived, want %d", persistent, 2+n/1000)
	}
	if st.Dropped() == 0 || partials+st.Dropped() != n {
		t.Errorf("%d partials arrived and %d were dropped, want %d in all with some dropped", partials, st.Dropped(), n)
	}
	if st.Published() != uint64(n+2+n/1000) {
		t.Errorf("published %d", st.Published())
	}
}

// TestPartialFromStream: streamed text becomes LLM_PARTIAL at the call's
// step, between LLM_PROMPT and LLM_OUTPUT, and is not stored.
func TestPartialFromStream(t *testing.T) {
	sc := parseText(t, "s.yaml", "name: s\nrequests:\n  - user: hi\n    reply: hello there\n")
	st := NewStream(StreamOptions{})
	var seen []Type
	var mu sync.Mutex
	done := make(chan struct{})
	go func() {
		defer close(done)
		st.Pump(func(evs []Event) {
			mu.Lock()
			defer mu.Unlock()
			for _, e := range evs {
				seen = append(seen, e.Type)
			}
		})
	}()
	cfg := engine.Config{Model: streamingModel{mockOf(sc)}}
	m := Attach(&cfg, Options{Stream: st})
	tr, err := engine.Run(context.Background(), sc, noHooks{}, cfg)
	m.Finish(tr, err)
	st.Close()
	<-done
	want := []Type{WorkflowStarted, AgentStarted, AgentThinking, LLMPrompt, LLMPartial, LLMPartial, LLMOutput, AgentCompleted, WorkflowCompleted}
	if !slices.Equal(seen, want) {
		t.Errorf("events %v\nwant   %v", seen, want)
	}
	for _, e := range st.Persistent() {
		if e.Type == LLMPartial {
			t.Error("LLM_PARTIAL was kept")
		}
	}
}

// streamingModel streams the mock's answer in two pieces.
type streamingModel struct{ m engine.Model }

func (s streamingModel) Complete(ctx context.Context, c engine.Call) (engine.Reply, error) {
	r, err := s.m.Complete(ctx, c)
	if err == nil && r.Content != "" {
		half := len(r.Content) / 2
		c.Stream(r.Content[:half])
		c.Stream(r.Content[half:])
	}
	return r, err
}
