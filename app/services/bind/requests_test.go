package bind

import (
	"context"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"hookstudio/app/agent/engine"
	"hookstudio/app/agent/llm"
	"hookstudio/app/agent/scenario"
	"hookstudio/app/hooks/reqhook"
	"hookstudio/app/hooks/skills"
	"hookstudio/app/services/studio"
	"hookstudio/app/store/history"
)

type fixedTrace struct{ v studio.TraceView }

func (f fixedTrace) Trace() studio.TraceView { return f.v }

type noSkillHooks struct{}

func (noSkillHooks) Hooks([]string) []skills.Hook { return nil }

type byteCount struct{}

func (byteCount) CountMessage(role, content string) int { return 1 + len(content) }

// TestRequestsInspector: the bound inspector lists each model request of
// the current simulation and of a stored run, with the retried request's
// attempts and the usage per model.
func TestRequestsInspector(t *testing.T) {
	src := `name: retry
tools: [{name: read}]
requests:
  - user: go
    planning:
      need_tool: true
      attempts: [{status: 429, reason: rate limited}, {status: 200}]
    rounds:
      - content: done
`
	sc, ds := scenario.Parse("x/scenarios/retry.yaml", []byte(src))
	if len(ds) != 0 {
		t.Fatal(ds)
	}
	h := reqhook.New(reqhook.Options{Scenario: sc, Counter: byteCount{}})
	tr, err := engine.Run(context.Background(), sc, noSkillHooks{}, engine.Config{Model: h.Model(llm.NewMock(sc)), Handlers: []engine.Handler{h}})
	if err != nil {
		t.Fatal(err)
	}
	check := func(v RequestsView) {
		t.Helper()
		if len(v.Rows) != 2 || len(v.Rows[0].Context.Attempts) != 2 || v.Rows[0].Context.Attempts[0].StatusCode != 429 {
			t.Fatalf("rows %+v", v.Rows)
		}
		if len(v.Usage) != 1 || v.Usage[0].Model != "mock" || v.Usage[0].Requests != 2 || v.Usage[0].Attempts != 3 || v.Usage[0].PromptTokens == 0 {
			t.Errorf("usage %+v", v.Usage)
		}
	}
	store, err := history.Open(context.Background(), filepath.Join(t.TempDir(), "h.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	r := NewRequests(fixedTrace{studio.RunView(tr, sc.File, byteCount{}, studio.RunOrigin{Simulated: true})}, store)
	check(r.Current())

	id, err := store.SaveRun(context.Background(), history.RunInput{Trace: tr, ScenarioFile: sc.File, Started: time.Now(), Ended: time.Now()})
	if err != nil {
		t.Fatal(err)
	}
	v, err := r.Run(int64(id))
	if err != nil {
		t.Fatal(err)
	}
	check(v)
	if len(v.ExecHooks) != 1 || v.ExecHooks[0].Hook != "usage_stats" || v.ExecHooks[0].Executions != 2 || v.ExecHooks[0].Successes != 2 {
		t.Errorf("stored run's hook metrics %+v", v.ExecHooks)
	}

	// The stored run goes to a collector as one OTLP request.
	var got atomic.Int32
	col := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if req.URL.Path == "/v1/traces" && req.Header.Get("Content-Type") == "application/x-protobuf" {
			got.Add(1)
		}
	}))
	defer col.Close()
	if n, err := r.ExportOTLP("retry", col.URL); err != nil || n != int64(id) || got.Load() != 1 {
		t.Errorf("export: run %d, %v, %d requests", n, err, got.Load())
	}
	if _, err := r.ExportOTLP("nothing", col.URL); err == nil {
		t.Errorf("exporting a scenario without runs must fail")
	}
	if _, err := r.ExportOTLP("retry", "not a url"); err == nil {
		t.Errorf("a bad endpoint must fail")
	}
	// The settings' policy, through the binding.
	ps, err := studio.LoadRequestPolicy(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	r.WithPolicy(ps)
	if err := r.SetPolicy(reqhook.PolicyConfig{Allow: []string{"gpt-*"}, TokenQuota: 10}); err != nil {
		t.Fatal(err)
	}
	if got, err := r.Policy(); err != nil || got.TokenQuota != 10 || ps.Policy() == nil {
		t.Errorf("policy %+v, %v", got, err)
	}
	if err := r.SetPolicy(reqhook.PolicyConfig{Deny: []string{"["}}); err == nil {
		t.Errorf("a bad glob was saved")
	}
	if _, err := NewRequests(fixedTrace{}, nil).Policy(); err == nil {
		t.Errorf("no setting: want an error")
	}
	if _, err := NewRequests(fixedTrace{}, nil).Run(1); err != ErrNoHistory {
		t.Errorf("no history: %v", err)
	}
	if v := NewRequests(fixedTrace{studio.TraceView{}}, nil).Current(); v.Rows == nil || v.Usage == nil {
		t.Errorf("empty view must list nothing, not null: %+v", v)
	}
}
