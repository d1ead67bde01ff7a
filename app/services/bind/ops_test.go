package bind

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"hookstudio/app/agent/engine"
	"hookstudio/app/agent/events"
	"hookstudio/app/agent/llm"
	"hookstudio/app/agent/scenario"
	"hookstudio/app/hooks/skills"
	"hookstudio/app/services/studio"
	"hookstudio/app/store/history"
)

// TestOpsBinding: the controlled run through the bound methods: it runs
// the selected scenario, nothing is pending without an approval policy,
// and a stored run's events come back from the history.
func TestOpsBinding(t *testing.T) {
	s, _, em := newStudio(t)
	if _, err := s.OpenFolder(skillsFolder(t)); err != nil {
		t.Fatal(err)
	}
	store, err := history.Open(context.Background(), filepath.Join(t.TempDir(), "h.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	o := NewOps(studio.NewOperations(s.svc), store)
	if err := o.DecideApproval(true, ""); !errors.Is(err, studio.ErrNoApproval) {
		t.Errorf("decide with no run: %v", err)
	}
	if err := o.PauseRun(); !errors.Is(err, studio.ErrNoRun) {
		t.Errorf("pause with no run: %v", err)
	}
	if err := o.StartControlledRun(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for !em.has(studio.EventRunEnded) {
		if time.Now().After(deadline) {
			t.Fatal("the controlled run did not end")
		}
		time.Sleep(5 * time.Millisecond)
	}
	if p, _ := o.PendingApproval(); p != nil {
		t.Errorf("pending %+v", p)
	}
	if !em.has(studio.EventRunEvents) {
		t.Error("no events were emitted")
	}
	evs := []events.Event{{Seq: 1, Type: events.WorkflowStarted, Step: -1}, {Seq: 2, Type: events.LLMPartial}, {Seq: 3, Type: events.WorkflowCompleted, Step: 4}}
	sc, _ := scenario.Parse("s.yaml", []byte("name: s\nrequests:\n  - user: hi\n    reply: hello\n"))
	tr, err := engine.Run(context.Background(), sc, noHooks{}, engine.Config{Model: llm.NewMock(sc)})
	if err != nil {
		t.Fatal(err)
	}
	id, err := store.SaveRun(context.Background(), history.RunInput{Trace: tr, ScenarioFile: "s.yaml"})
	if err != nil {
		t.Fatal(err)
	}
	if err := store.SaveEvents(context.Background(), id, evs); err != nil {
		t.Fatal(err)
	}
	got, err := o.RunEvents(int64(id))
	if err != nil || len(got) != 2 || got[0].Type != events.WorkflowStarted || got[1].Step != 4 {
		t.Errorf("stored events %+v %v", got, err)
	}
	if got, err := o.RunEvents(int64(id) + 1); err != nil || len(got) != 0 {
		t.Errorf("events of a missing run: %v %v", got, err)
	}
}

type noHooks struct{}

func (noHooks) Hooks([]string) []skills.Hook { return nil }

func (e *fakeEmitter) has(name string) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	return slices.Contains(e.events, name)
}
