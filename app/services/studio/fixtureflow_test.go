package studio

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"hookstudio/app/agent/engine"
)

// The frontend's fixture views carry the flow the backend gives their
// runs (HOOKSTUDIO_UPDATE_FIXTURES=1 writes it in, as the last key).
func TestFrontendFixturesFlow(t *testing.T) {
	for _, name := range []string{"seed-diagrams.json", "invalid-trace.json", "exec-trace.json", "claude-trace.json", "agent-trace.json"} {
		path := filepath.Join("../../../frontend/src/fixtures", name)
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var v TraceView
		if err := json.Unmarshal(data, &v); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		// the run behind the view, as far as the choice of its loop reads it
		tr := &engine.Trace{Hooks: v.Hooks, Requests: v.Requests, Agent: v.Agent}
		for _, c := range v.Calls {
			tr.Calls = append(tr.Calls, c.LLMCall)
		}
		for _, st := range v.Steps {
			if st.HookCall != nil {
				tr.HookCalls = append(tr.HookCalls, *st.HookCall)
			}
		}
		want := v
		want.drawOn(tr, RunOrigin{Simulated: true}, v.Exec.Hooks)
		flow, err := json.MarshalIndent(want.Flow, " ", " ")
		if err != nil {
			t.Fatal(err)
		}
		had, _ := json.Marshal(v.Flow)
		now, _ := json.Marshal(want.Flow)
		if bytes.Equal(had, now) {
			continue
		}
		if os.Getenv("HOOKSTUDIO_UPDATE_FIXTURES") == "" {
			t.Errorf("%s: its flow is not the backend's (HOOKSTUDIO_UPDATE_FIXTURES=1 go test -run %s writes it)", name, t.Name())
			continue
		}
		body := bytes.TrimRight(bytes.TrimSuffix(bytes.TrimRight(data, "\n"), []byte("}")), "\n")
		if i := bytes.LastIndex(body, []byte(",\n \"flow\": ")); i >= 0 {
			body = body[:i]
		}
		out := append(append(append(body, ",\n \"flow\": "...), flow...), "\n}\n"...)
		if err := os.WriteFile(path, out, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
