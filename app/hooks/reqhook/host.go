package reqhook

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"sync"
	"time"

	"hookstudio/app/agent/engine"
	"hookstudio/app/agent/llm"
	"hookstudio/app/agent/scenario"
	"hookstudio/app/hooks/process"
)

// TokenCounter counts a chat message's tokens (tokens.Counter is one); it
// gives the mock's requests their usage.
type TokenCounter interface {
	CountMessage(role, content string) int
}

// Options configure a Host.
type Options struct {
	Root     string             // the skills root: the hooks' working directory
	Config   *Config            // declared hooks (nil: none)
	Scenario *scenario.Scenario // enabled skills per request, scripted attempts
	Policy   *Policy            // the built-in policy hook (nil: none)
	// Route, Credential and Email describe where requests go:
	// "mock.chat"/"mock" for the mock, "openai.chat"/profile name, ...
	Route      string
	Credential string
	Email      string // shown masked only
	Streaming  bool
	// Real says the model is a real provider: attempts come from its
	// retry loop instead of the scenario's script.
	Real    bool
	Counter TokenCounter     // usage for models that report none (nil: none)
	Now     func() time.Time // nil: time.Now
	// RunID prefixes request ids ("" → "req").
	RunID string
}

// Host is the request hook system of one run: an engine.Handler (last in
// Config.Handlers: request hooks are innermost) that notes each call's
// before_llm event, and a model wrapper (Model) that runs the start hooks
// when the request goes out and the end hooks when it ended, however it
// ended. A run is sequential, so the Host needs no locking of its own
// except for Stats, which the app may read while a run goes on.
type Host struct {
	opts  Options
	now   func() time.Time
	procs *process.Group

	pending *engine.Event // the before_llm event of the call about to be made

	mu    sync.Mutex
	stats map[string]*ModelStats
	order []string
}

// ModelStats is the usage statistics built-in's figures for one model.
type ModelStats struct {
	Model            string `json:"model"`
	Requests         int    `json:"requests"`
	Successes        int    `json:"successes"`
	Failures         int    `json:"failures"`
	PromptTokens     int    `json:"prompt_tokens"`
	CompletionTokens int    `json:"completion_tokens"`
	ThinkingTokens   int    `json:"thinking_tokens"`
	CachedTokens     int    `json:"cached_tokens"`
}

// New returns a Host.
func New(opts Options) *Host {
	now := opts.Now
	if now == nil {
		now = time.Now
	}
	if opts.Route == "" {
		opts.Route = "mock.chat"
	}
	if opts.Credential == "" {
		opts.Credential = "mock"
	}
	if opts.RunID == "" {
		opts.RunID = "req"
	}
	return &Host{opts: opts, now: now, procs: process.NewGroup(), stats: map[string]*ModelStats{}}
}

// Close kills whatever hook still runs; the run has ended.
func (h *Host) Close() error {
	h.procs.Close()
	return nil
}

// Needed says whether a run needs a Host at all: declared hooks, a
// policy, or scripted attempts. Without one the run stays exactly as a
// run without request hooks.
func Needed(cfg *Config, sc *scenario.Scenario, policy *Policy) bool {
	if policy != nil || (cfg != nil && len(cfg.Start)+len(cfg.End) > 0) {
		return true
	}
	if sc == nil {
		return false
	}
	if sc.RequestPolicy != nil {
		return true
	}
	for _, r := range sc.Requests {
		if len(r.Attempts) > 0 || (r.Planning != nil && len(r.Planning.Attempts) > 0) {
			return true
		}
		for _, rd := range r.Rounds {
			if len(rd.Attempts) > 0 {
				return true
			}
		}
	}
	return false
}

// PolicyFromScenario is the scenario's request_policy as a Policy (nil
// when it has none).
func PolicyFromScenario(sc *scenario.Scenario, now func() time.Time) *Policy {
	if sc == nil || sc.RequestPolicy == nil {
		return nil
	}
	p := sc.RequestPolicy
	return NewPolicy(PolicyConfig{RateLimitPerMinute: p.RateLimitPerMinute, TokenQuota: p.TokenQuota, Allow: p.Allow, Deny: p.Deny}, now)
}

// Handle notes the before_llm event of each call; the hooks themselves
// run in the model wrapper, around the wire call.
func (h *Host) Handle(ctx context.Context, ev *engine.Event) error {
	if ev.Point == engine.PointBeforeLLM {
		h.pending = ev
	}
	return nil
}

// Stats are the usage statistics so far, per model in first-seen order.
func (h *Host) Stats() []ModelStats {
	h.mu.Lock()
	defer h.mu.Unlock()
	out := make([]ModelStats, 0, len(h.order))
	for _, m := range h.order {
		out = append(out, *h.stats[m])
	}
	return out
}

// Model wraps the run's model: every Complete is one request with its
// start and end hooks.
func (h *Host) Model(inner engine.Model) engine.Model { return &model{h: h, inner: inner} }

type model struct {
	h     *Host
	inner engine.Model
}

// Complete makes one request: start hooks (the policy first), then the
// model unless a start hook denied it, then, exactly once whatever
// happened, the end hooks (usage statistics first).
func (m *model) Complete(ctx context.Context, call engine.Call) (engine.Reply, error) {
	h := m.h
	ev := h.pending
	h.pending = nil
	if ev == nil {
		// Not fired through the engine (no before_llm): nothing to hook.
		return m.inner.Complete(ctx, call)
	}
	rc := &RequestContext{
		RequestID: fmt.Sprintf("%s-%d", h.opts.RunID, ev.Call), Route: h.opts.Route, Model: ev.Model, IsStreaming: h.opts.Streaming,
		CurrentCredentialID: h.opts.Credential, CurrentCredentialEmail: MaskEmail(h.opts.Email), Attempts: []AttemptInfo{},
		StartTime: h.now().UTC(), Call: ev.Call, Request: ev.Request, Phase: string(ev.Phase), Round: ev.Round,
	}
	if call.Model != "" {
		rc.Model = call.Model
	}
	var rep engine.Reply
	var err error
	// The end hooks run once, after the model or a denial, and even after
	// a cancel: on their own context, each under its own timeout.
	defer func() { h.end(context.WithoutCancel(ctx), ev, rc, &rep, err, call) }()

	if denied := h.start(ctx, ev, rc); denied != nil {
		err = denied
		return engine.Reply{}, err
	}
	rep, err = m.request(ctx, call, rc)
	return rep, err
}

// request asks the model, collecting attempts and the first byte.
func (m *model) request(ctx context.Context, call engine.Call, rc *RequestContext) (engine.Reply, error) {
	h := m.h
	attempt := func(status int, reason string, at time.Time) {
		rc.Attempts = append(rc.Attempts, AttemptInfo{CredID: rc.CurrentCredentialID, EmailMasked: rc.CurrentCredentialEmail,
			StatusCode: status, Reason: reason, Timestamp: at.UTC()})
	}
	stream := call.Stream
	call.Stream = func(text string) {
		if rc.FirstByteTime == nil {
			t := h.now().UTC()
			rc.FirstByteTime = &t
		}
		stream(text)
	}
	if h.opts.Real {
		ctx = llm.WithAttemptObserver(ctx, func(a llm.Attempt) { attempt(a.Status, a.Reason, a.Time) })
		return m.inner.Complete(ctx, call)
	}
	// The mock: the scenario's scripted tries, then the scripted answer.
	script := h.script(rc)
	for i, a := range script {
		if a.Succeeded() {
			break
		}
		attempt(a.Status, a.Reason, h.now())
		if i == len(script)-1 {
			msg := a.Reason
			if msg == "" {
				msg = http.StatusText(a.Status)
			}
			return engine.Reply{}, &llm.StatusError{Host: "mock", Status: a.Status, Message: msg, Attempts: len(script)}
		}
	}
	rep, err := m.inner.Complete(ctx, call)
	status, reason := http.StatusOK, ""
	if err != nil {
		status, reason = statusOf(err), err.Error()
	}
	attempt(status, reason, h.now())
	return rep, err
}

// script is the scenario's attempts for the call at rc.
func (h *Host) script(rc *RequestContext) []scenario.Attempt {
	sc := h.opts.Scenario
	if sc == nil || rc.Request < 0 || rc.Request >= len(sc.Requests) {
		return nil
	}
	r := &sc.Requests[rc.Request]
	switch engine.Phase(rc.Phase) {
	case engine.PhaseDirect:
		return r.Attempts
	case engine.PhasePlanning:
		if r.Planning != nil {
			return r.Planning.Attempts
		}
		return nil
	}
	if rc.Round >= 0 && rc.Round < len(r.Rounds) {
		return r.Rounds[rc.Round].Attempts
	}
	return nil
}

func statusOf(err error) int {
	var se *llm.StatusError
	var kr *llm.KeyRejectedError
	var de *DeniedError
	switch {
	case errors.As(err, &de):
		return de.Status
	case errors.As(err, &se):
		return se.Status
	case errors.As(err, &kr):
		return kr.Status
	}
	return 0
}

// active says whether a declared hook applies to the request: project
// hooks always, a skill's while the skill is enabled.
func (h *Host) active(hk *Hook, request int) bool {
	if hk.Skill == "" || h.opts.Scenario == nil {
		return true
	}
	sc := h.opts.Scenario
	enabled := sc.EnabledSkills
	if request >= 0 && request < len(sc.Requests) && sc.Requests[request].EnabledSkills != nil {
		enabled = sc.Requests[request].EnabledSkills
	}
	return enabled == nil || slices.Contains(enabled, hk.Skill)
}

// start runs the policy and the start hooks in order; a denial ends the
// chain and the request.
func (h *Host) start(ctx context.Context, ev *engine.Event, rc *RequestContext) *DeniedError {
	input := mustJSON(rc)
	if p := h.opts.Policy; p != nil {
		t0 := time.Now()
		ok, status, msg := p.Check(rc.Model)
		hc := engine.HookCall{System: System, Event: EventStart, Hook: "policy", Source: "built-in", Input: input, Outcome: engine.OutcomeOK}
		if !ok {
			hc.Outcome = engine.OutcomeDenied
			hc.Output = mustJSON(map[string]any{"deny": map[string]any{"message": msg, "status": status}})
		}
		hc.DurationMS = ms(time.Since(t0))
		ev.Record(hc)
		if !ok {
			return &DeniedError{Hook: "policy", Status: status, Message: msg}
		}
	}
	if h.opts.Config == nil {
		return nil
	}
	for i := range h.opts.Config.Start {
		hk := &h.opts.Config.Start[i]
		if !h.active(hk, rc.Request) {
			continue
		}
		if err := ctx.Err(); err != nil {
			return nil // cancelled: the model call fails on ctx, the end hooks still run
		}
		res := run(ctx, h.procs, hk, h.opts.Root, input)
		hc := callOf(hk, input, &res)
		deny, status, msg := false, 0, ""
		if res.err == nil {
			deny, status, msg = decide(&res)
		}
		if deny {
			hc.Outcome = engine.OutcomeDenied
			if msg == "" {
				msg = "denied by request hook " + hk.Name
			}
		}
		ev.Record(hc)
		if deny {
			return &DeniedError{Hook: hk.Name, Status: status, Message: msg}
		}
	}
	return nil
}

// end completes the context and runs the usage statistics and the end
// hooks, recorded at after_llm.
func (h *Host) end(ctx context.Context, ev *engine.Event, rc *RequestContext, rep *engine.Reply, err error, call engine.Call) {
	t := h.now().UTC()
	rc.EndTime = &t
	rc.Success = err == nil
	rc.HTTPStatus = http.StatusOK
	if err != nil {
		rc.Error = err.Error()
		rc.HTTPStatus = statusOf(err)
	} else if rc.FirstByteTime == nil {
		rc.FirstByteTime = &t // the answer came whole
	}
	var denied *DeniedError
	if err == nil || !errors.As(err, &denied) {
		rc.UsageMetadata = h.usage(rep, err, call)
	}
	if h.opts.Policy != nil && rc.UsageMetadata != nil {
		h.opts.Policy.Use(rc.UsageMetadata.PromptTokens + rc.UsageMetadata.CompletionTokens)
	}
	input := mustJSON(rc)

	// The engine fires no after_llm for a cancelled call, so every end
	// hook is recorded through the call's before_llm event with its point
	// set to after_llm for the record (Apply stamps HookCall.Point from
	// the event), then set back.
	ev.Point = engine.PointAfterLLM
	defer func() { ev.Point = engine.PointBeforeLLM }()

	t0 := time.Now()
	snap := h.count(rc)
	ev.Record(engine.HookCall{System: System, Event: EventEnd, Hook: "usage_stats", Source: "built-in", Input: input,
		Output: mustJSON(snap), Outcome: engine.OutcomeOK, DurationMS: ms(time.Since(t0))})
	if h.opts.Config == nil {
		return
	}
	for i := range h.opts.Config.End {
		hk := &h.opts.Config.End[i]
		if !h.active(hk, rc.Request) {
			continue
		}
		res := run(ctx, h.procs, hk, h.opts.Root, input)
		ev.Record(callOf(hk, input, &res))
	}
}

// usage is what the provider reported, or the counted tokens.
func (h *Host) usage(rep *engine.Reply, err error, call engine.Call) *Usage {
	if err == nil && rep.Usage != nil {
		u := &Usage{PromptTokens: rep.Usage.InputTokens, CompletionTokens: rep.Usage.OutputTokens}
		u.TotalTokens = u.PromptTokens + u.CompletionTokens + u.ThinkingTokens
		return u
	}
	if h.opts.Counter == nil || call.Messages == nil {
		return nil
	}
	u := &Usage{Counted: true}
	for _, msg := range call.Messages() {
		u.PromptTokens += h.opts.Counter.CountMessage(msg.Role, msg.Content)
	}
	if err == nil && rep.Content != "" {
		u.CompletionTokens = h.opts.Counter.CountMessage("assistant", rep.Content) - h.opts.Counter.CountMessage("assistant", "")
	}
	u.TotalTokens = u.PromptTokens + u.CompletionTokens
	return u
}

// count adds a finished request to the usage statistics and returns the
// model's figures after it.
func (h *Host) count(rc *RequestContext) ModelStats {
	h.mu.Lock()
	defer h.mu.Unlock()
	s, ok := h.stats[rc.Model]
	if !ok {
		s = &ModelStats{Model: rc.Model}
		h.stats[rc.Model] = s
		h.order = append(h.order, rc.Model)
	}
	s.Requests++
	if rc.Success {
		s.Successes++
	} else {
		s.Failures++
	}
	if u := rc.UsageMetadata; u != nil {
		s.PromptTokens += u.PromptTokens
		s.CompletionTokens += u.CompletionTokens
		s.ThinkingTokens += u.ThinkingTokens
		s.CachedTokens += u.CachedTokens
	}
	return *s
}

// callOf is a command hook's invocation as the trace keeps it.
func callOf(hk *Hook, input []byte, res *result) engine.HookCall {
	hc := engine.HookCall{System: System, Event: hk.Event, Hook: hk.Name, Source: hk.Source, Input: input,
		Stderr: res.stderr, ExitCode: res.exit, DurationMS: ms(res.duration), Truncated: res.truncated, Outcome: engine.OutcomeOK}
	if out := bytes.TrimSpace([]byte(res.stdout)); json.Valid(out) && len(out) > 0 {
		hc.Output = json.RawMessage(out)
	} else {
		hc.OutputText = res.stdout
	}
	switch {
	case res.timedOut:
		hc.Outcome, hc.Error = engine.OutcomeTimeout, res.err.Error()
	case res.err != nil:
		hc.Outcome, hc.Error = engine.OutcomeError, res.err.Error()
	case res.exit != nil && *res.exit != 0 && !(hk.Event == EventStart && *res.exit == DenyExit):
		hc.Outcome, hc.Error = engine.OutcomeError, fmt.Sprintf("exit status %d", *res.exit)
	}
	return hc
}

func mustJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		// Only plain data is marshalled here.
		panic(err)
	}
	return b
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
