package bind

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"hookstudio/app/hooks/reqhook"
	"hookstudio/app/platform/otelexport"
	"hookstudio/app/services/studio"
	"hookstudio/app/store/history"
)

// TraceSource is the simulator's current trace (studio.Service).
type TraceSource interface {
	Trace() studio.TraceView
}

// RunLoader reads stored runs (history.Store).
type RunLoader interface {
	LoadRun(ctx context.Context, id history.RunID) (*history.Run, error)
	ListRuns(ctx context.Context, f history.Filter) ([]history.RunSummary, error)
}

// Requests is bound as window.go.bind.Requests: the request inspector's
// rows (seed 004 request hooks: attempts, timings, usage, hook outcomes)
// for the current simulation or a stored run.
type Requests struct {
	traces TraceSource
	runs   RunLoader     // nil without a history
	policy PolicySetting // nil: no settings policy

	mu  sync.Mutex
	ctx context.Context
}

// RequestsView is what the inspector shows: one row per model request and
// the usage statistics per model.
type RequestsView struct {
	Rows  []reqhook.Row        `json:"rows"`
	Usage []history.ModelUsage `json:"usage"`
	// ExecHooks are a stored run's seed-001 metrics per executable hook
	// (empty for the current simulation).
	ExecHooks []history.ExecHookMetrics `json:"exec_hooks"`
}

// NewRequests binds the inspector to the simulator and, when runs is not
// nil, the history.
func NewRequests(traces TraceSource, runs RunLoader) *Requests {
	return &Requests{traces: traces, runs: runs, ctx: context.Background()}
}

// PolicySetting is the request policy of the app's settings
// (studio.RequestPolicySetting).
type PolicySetting interface {
	Get() reqhook.PolicyConfig
	Set(reqhook.PolicyConfig) error
}

// WithPolicy lets the inspector read and change the settings' request
// policy; it returns r.
func (r *Requests) WithPolicy(p PolicySetting) *Requests {
	r.policy = p
	return r
}

// Policy is the settings' request policy (rate limit, quota, allow/deny
// by model glob).
func (r *Requests) Policy() (reqhook.PolicyConfig, error) {
	if r.policy == nil {
		return reqhook.PolicyConfig{}, errNoPolicy
	}
	return r.policy.Get(), nil
}

// SetPolicy saves the settings' request policy; the next run uses it.
func (r *Requests) SetPolicy(cfg reqhook.PolicyConfig) error {
	if r.policy == nil {
		return errNoPolicy
	}
	return r.policy.Set(cfg)
}

var errNoPolicy = errors.New("the request policy setting is not available")

// StartRequests sets the app's context.
func StartRequests(ctx context.Context, r *Requests) {
	r.mu.Lock()
	r.ctx = ctx
	r.mu.Unlock()
}

// Current is the inspector for the simulation on screen.
func (r *Requests) Current() RequestsView {
	v := r.traces.Trace()
	rows := reqhook.Inspect(v.Steps)
	return RequestsView{Rows: rows, Usage: usageOfRows(rows), ExecHooks: []history.ExecHookMetrics{}}
}

// Run is the inspector for a stored run, with its stored usage.
func (r *Requests) Run(id int64) (RequestsView, error) {
	if r.runs == nil {
		return RequestsView{}, ErrNoHistory
	}
	r.mu.Lock()
	ctx := r.ctx
	r.mu.Unlock()
	run, err := r.runs.LoadRun(ctx, history.RunID(id))
	if err != nil {
		return RequestsView{}, err
	}
	usage := run.Usage
	if usage == nil {
		usage = []history.ModelUsage{}
	}
	hooks := run.ExecHooks
	if hooks == nil {
		hooks = []history.ExecHookMetrics{}
	}
	return RequestsView{Rows: reqhook.Inspect(run.Trace.Steps()), Usage: usage, ExecHooks: hooks}, nil
}

// ExportOTLP sends the newest stored run of scenario (every simulation on
// screen is stored) to the OpenTelemetry collector at endpoint (OTLP/HTTP)
// and returns its run number.
func (r *Requests) ExportOTLP(scenario, endpoint string) (int64, error) {
	if r.runs == nil {
		return 0, ErrNoHistory
	}
	if _, err := otelexport.Endpoint(endpoint); err != nil {
		return 0, err
	}
	r.mu.Lock()
	ctx := r.ctx
	r.mu.Unlock()
	runs, err := r.runs.ListRuns(ctx, history.Filter{Scenario: scenario, Limit: 1})
	if err != nil {
		return 0, err
	}
	if len(runs) == 0 {
		return 0, fmt.Errorf("no stored run of %q to export", scenario)
	}
	run, err := r.runs.LoadRun(ctx, runs[0].ID)
	if err != nil {
		return 0, err
	}
	ectx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	err = otelexport.Export(ectx, otelexport.Run{Trace: run.Trace, Scenario: run.ScenarioFile, Backend: run.Backend,
		Started: run.Started, Ended: run.Ended, RunID: int64(run.ID)}, endpoint)
	return int64(run.ID), err
}

// usageOfRows sums the rows per model, as the history stores it.
func usageOfRows(rows []reqhook.Row) []history.ModelUsage {
	out := []history.ModelUsage{}
	idx := map[string]int{}
	for _, row := range rows {
		c := row.Context
		if c == nil || c.EndTime == nil {
			continue
		}
		i, ok := idx[c.Model]
		if !ok {
			i = len(out)
			idx[c.Model] = i
			out = append(out, history.ModelUsage{Model: c.Model})
		}
		u := &out[i]
		u.Requests++
		u.Attempts += len(c.Attempts)
		if c.Success {
			u.Successes++
		} else {
			u.Failures++
		}
		if m := c.UsageMetadata; m != nil {
			u.PromptTokens += m.PromptTokens
			u.CompletionTokens += m.CompletionTokens
			u.ThinkingTokens += m.ThinkingTokens
			u.CachedTokens += m.CachedTokens
		}
	}
	return out
}
