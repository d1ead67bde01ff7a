package reqhook

import (
	"context"
	"testing"
	"time"
)

// TestInspect: one row per request with the end context and every hook
// invocation, in call order.
func TestInspect(t *testing.T) {
	src := `name: t
tools: [{name: read}]
requests:
  - user: go
    planning:
      need_tool: true
      attempts: [{status: 429, reason: rate limited}, {status: 200}]
    rounds:
      - content: done
`
	root := t.TempDir()
	cfg := &Config{Start: []Hook{hook(EventStart, "audit", "cat > /dev/null", 5*time.Second)}}
	tr, _, err := simulate(t, context.Background(), parseScenario(t, src), Options{Root: root, Config: cfg, Counter: byteCounter{}}, nil, "")
	if err != nil {
		t.Fatal(err)
	}
	rows := Inspect(tr.Steps())
	if len(rows) != 2 {
		t.Fatalf("%d rows, want 2", len(rows))
	}
	p := rows[0]
	if p.Call != 0 || p.Phase != "planning" || p.Context == nil || p.Context.EndTime == nil || len(p.Context.Attempts) != 2 ||
		p.Context.Attempts[0].StatusCode != 429 || !p.Context.Success || p.Context.UsageMetadata == nil {
		t.Errorf("planning row %+v ctx %+v", p, p.Context)
	}
	var names []string
	for _, h := range p.Hooks {
		names = append(names, h.Event+":"+h.Hook+":"+string(h.Outcome))
		if h.Step <= 0 || tr.Step(h.Step).HookCall == nil {
			t.Errorf("hook %s step %d is not its hook_call step", h.Hook, h.Step)
		}
	}
	if got := names; len(got) != 2 || got[0] != "request_start:audit:ok" || got[1] != "request_end:usage_stats:ok" {
		t.Errorf("planning hooks %v", got)
	}
	if rows[1].Call != 1 || rows[1].Phase != "agent" || rows[1].Round != 0 || len(rows[1].Context.Attempts) != 1 {
		t.Errorf("agent row %+v", rows[1])
	}
	if len(Inspect(nil)) != 0 || Inspect(nil) == nil {
		t.Errorf("no steps: want an empty, non-nil list")
	}
}
