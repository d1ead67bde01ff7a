package reqhook

import (
	"encoding/json"

	"hookstudio/app/agent/engine"
)

// Row is one model request as the request inspector shows it, like a
// browser's network tab: its context (attempts, timings, usage, status)
// and every request hook invocation around it.
type Row struct {
	Call    int             `json:"call"`
	Request int             `json:"request"`
	Phase   string          `json:"phase"`
	Round   int             `json:"round"`
	Context *RequestContext `json:"context"` // as the end hooks saw it (the start context if it never ended)
	Hooks   []RowHook       `json:"hooks"`
}

// RowHook is one request hook invocation of a Row.
type RowHook struct {
	Step       int            `json:"step"` // the trace step of the invocation
	Event      string         `json:"event"`
	Hook       string         `json:"hook"`
	Source     string         `json:"source,omitempty"`
	Outcome    engine.Outcome `json:"outcome"`
	DurationMS float64        `json:"duration_ms"`
	Error      string         `json:"error,omitempty"`
}

// Inspect gathers the request hooks' invocations of a trace's steps into
// one row per model request, in call order.
func Inspect(steps []engine.Step) []Row {
	rows := []Row{}
	byCall := map[int]int{}
	for _, st := range steps {
		hc := st.HookCall
		if hc == nil || hc.System != System || len(hc.Input) == 0 {
			continue
		}
		var rc RequestContext
		if json.Unmarshal(hc.Input, &rc) != nil {
			continue
		}
		i, ok := byCall[rc.Call]
		if !ok {
			i = len(rows)
			byCall[rc.Call] = i
			rows = append(rows, Row{Call: rc.Call, Request: rc.Request, Phase: rc.Phase, Round: rc.Round, Hooks: []RowHook{}})
		}
		r := &rows[i]
		if r.Context == nil || (hc.Event == EventEnd && r.Context.EndTime == nil) {
			c := rc
			r.Context = &c
		}
		r.Hooks = append(r.Hooks, RowHook{Step: st.Index, Event: hc.Event, Hook: hc.Hook, Source: hc.Source, Outcome: hc.Outcome,
			DurationMS: hc.DurationMS, Error: hc.Error})
	}
	return rows
}
