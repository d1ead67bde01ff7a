package history

import (
	"context"
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"hookstudio/app/agent/engine"
	"hookstudio/app/agent/events"
	"hookstudio/app/agent/llm"
	"hookstudio/app/agent/scenario"
	"hookstudio/app/hooks/skills"
)

// TestEventsRoundTrip stores the events of a real run of the ops-policy
// example: everything but the ephemeral kinds comes back as it went in,
// in order; deleting the run deletes them.
func TestEventsRoundTrip(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t)
	const root, rel = "../../../skills", "pitfalls/scenarios/ops-policy.yaml"
	set, err := skills.Load(ctx, root)
	if err != nil {
		t.Fatal(err)
	}
	sc, _, err := scenario.LoadFile(root, rel)
	if err != nil || sc == nil {
		t.Fatalf("load %s: %v", rel, err)
	}
	st := events.NewStream(events.StreamOptions{})
	cfg := engine.Config{Model: llm.NewMock(sc)}
	m := events.Attach(&cfg, events.Options{Stream: st}.ForScenario(sc))
	tr, err := engine.Run(ctx, sc, set, cfg)
	m.Finish(tr, err)
	st.Publish(events.Event{Type: events.LLMPartial, Message: "never stored"})
	st.Publish(events.Event{Type: events.Heartbeat})
	id, err := s.SaveRun(ctx, RunInput{Trace: tr, ScenarioFile: rel, Started: time.Now(), Ended: time.Now()})
	if err != nil {
		t.Fatal(err)
	}
	all := st.Take() // every event, the ephemeral ones too
	if err := s.SaveEvents(ctx, id, all); err != nil {
		t.Fatal(err)
	}
	got, err := s.Events(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	want := st.Persistent()
	if len(got) != len(want) || len(want) < 20 {
		t.Fatalf("%d events back, want %d", len(got), len(want))
	}
	for i := range want {
		w, g := want[i], got[i]
		if events.Ephemeral(g.Type) {
			t.Errorf("ephemeral %s stored", g.Type)
		}
		if g.Seq != w.Seq || g.Type != w.Type || g.Step != w.Step || g.Message != w.Message || g.AgentID != w.AgentID ||
			g.Timestamp.UnixMilli() != w.Timestamp.UnixMilli() {
			t.Errorf("event %d: got %+v, want %+v", i, g, w)
		}
		if (w.Payload == nil) != (g.Payload == nil) || (w.Payload != nil && !reflect.DeepEqual(jsonRound(t, w.Payload), g.Payload)) {
			t.Errorf("event %d payload: got %v, want %v", w.Seq, g.Payload, w.Payload)
		}
	}
	if err := s.DeleteRun(ctx, id); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.Events(ctx, id); len(got) != 0 {
		t.Errorf("%d events left after deleting the run", len(got))
	}
}

func jsonRound(t *testing.T, v map[string]any) map[string]any {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out map[string]any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}
