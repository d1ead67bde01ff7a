package prochook

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"sort"
	"sync"
	"time"

	"hookstudio/app/engine"
)

// System is the engine's name for this hook system.
const System = "process"

// DefaultGrace is how long a hook may take to exit once its stdin is
// closed before its process group is killed (PicoClaw's
// processHookCloseTimeout).
const DefaultGrace = 2 * time.Second

// Options tune a Handler.
type Options struct {
	// Grace before a process that ignores the closed stdin is killed
	// (DefaultGrace if 0).
	Grace time.Duration
	// Env is the environment every hook starts from (nil: CleanEnv()).
	// The config's env is laid over it.
	Env []string
}

// CleanEnv is the environment hooks get: only what finding programs and
// decoding text need, never the app's own variables (API keys). Python is
// asked not to write __pycache__ into the skill folder (the watcher would
// take it for an edit).
func CleanEnv() []string {
	env := []string{"PYTHONDONTWRITEBYTECODE=1"}
	for _, k := range []string{"PATH", "HOME", "LANG", "LC_ALL", "LC_CTYPE", "TZ", "TMPDIR", "SYSTEMROOT"} {
		if v, ok := os.LookupEnv(k); ok {
			env = append(env, k+"="+v)
		}
	}
	return env
}

// Metrics are one process's figures for the current run.
type Metrics struct {
	Hook          string  `json:"hook"`
	File          string  `json:"file"`
	Starts        int     `json:"starts"`
	StartupMS     float64 `json:"startup_ms"` // spawn + hello of the last start
	Requests      int     `json:"requests"`
	Notifications int     `json:"notifications"`
	Errors        int     `json:"errors"`
	Timeouts      int     `json:"timeouts"`
	TotalMS       float64 `json:"total_ms"` // time spent in requests
	MaxMS         float64 `json:"max_ms"`
}

// slot is one configured hook's process state for the current run.
type slot struct {
	hook     *Hook
	p        *proc
	starts   int
	disabled string // why the hook no longer runs this run ("" runs)
	reported bool   // the current process's exit is in the trace
	m        Metrics
}

// Handler runs PicoClaw process hooks as an engine.Handler. Processes
// live for one run: each starts the first time it has something to
// receive and stops at session_end (or Close), so a script edited between
// two simulations runs anew in the next one.
type Handler struct {
	opts  Options
	hooks []Hook
	mu    sync.Mutex // guards slots against Close from another goroutine
	slots []*slot
	turn  int // 1 + the request whose turn is open, 0 none
	// aborted: a process hook ended the open turn (abort_turn, hard_abort).
	aborted bool

	options map[string]any // before_llm options as the chain left them
}

// New returns a handler for hooks (in any order: they run by priority,
// then name, then file).
func New(hooks []Hook, opts Options) *Handler {
	if opts.Grace <= 0 {
		opts.Grace = DefaultGrace
	}
	if opts.Env == nil {
		opts.Env = CleanEnv()
	}
	hs := slices.Clone(hooks)
	sort.SliceStable(hs, func(i, j int) bool {
		a, b := &hs[i], &hs[j]
		if a.Priority != b.Priority {
			return a.Priority < b.Priority
		}
		if a.Name != b.Name {
			return a.Name < b.Name
		}
		return a.File < b.File
	})
	h := &Handler{opts: opts, hooks: hs}
	h.slots = make([]*slot, len(hs))
	for i := range hs {
		h.slots[i] = &slot{hook: &h.hooks[i], m: Metrics{Hook: hs[i].Name, File: hs[i].File}}
	}
	return h
}

// Hooks lists every hook and method it intercepts or observes, for the
// skills panel and breakpoints.
func (h *Handler) Hooks() []engine.HookInfo {
	var out []engine.HookInfo
	for i := range h.hooks {
		hk := &h.hooks[i]
		src := fmt.Sprintf("%s:%d", hk.File, hk.Line)
		for _, m := range hk.Intercept {
			out = append(out, engine.HookInfo{System: System, Event: "hook." + m, Hook: hk.Name, Skill: hk.Skill, Source: src, Detail: hk.CommandLine()})
		}
		if hk.ObserveAll || len(hk.Observe) > 0 {
			out = append(out, engine.HookInfo{System: System, Event: "hook.runtime_event", Hook: hk.Name, Skill: hk.Skill, Source: src, Detail: hk.CommandLine()})
		}
	}
	return out
}

// Commands lists what would run, for the trust prompt: the command line
// and the folder it runs in.
func (h *Handler) Commands() []string {
	out := make([]string, 0, len(h.hooks))
	for i := range h.hooks {
		hk := &h.hooks[i]
		out = append(out, fmt.Sprintf("%s (in %s)", hk.CommandLine(), hk.Dir))
	}
	return out
}

// Metrics returns each hook's figures for the current (or last) run.
func (h *Handler) Metrics() []Metrics {
	h.mu.Lock()
	defer h.mu.Unlock()
	out := make([]Metrics, len(h.slots))
	for i, s := range h.slots {
		out[i] = s.m
	}
	return out
}

// HookMetrics are Metrics in the engine's common shape, one per hook.
func (h *Handler) HookMetrics() []engine.HookMetric {
	out := []engine.HookMetric{}
	for _, m := range h.Metrics() {
		runs := m.Requests + m.Notifications
		fail := m.Errors + m.Timeouts
		out = append(out, engine.HookMetric{System: System, Event: "process", Hook: m.Hook, Source: m.File,
			Runs: runs, Successes: runs - fail, Failures: fail, TotalMS: m.TotalMS})
	}
	return out
}

// Close stops every process (stdin closed, grace, then the process group
// killed). It is safe to call from another goroutine and more than once.
func (h *Handler) Close() error {
	h.mu.Lock()
	var ps []*proc
	for _, s := range h.slots {
		if s.p != nil {
			ps = append(ps, s.p)
			s.p = nil
		}
	}
	h.mu.Unlock()
	var wg sync.WaitGroup
	for _, p := range ps {
		wg.Go(func() { p.stop(h.opts.Grace) })
	}
	wg.Wait()
	return nil
}

// active says whether s's skill is enabled for the event.
func active(s *slot, ev *engine.Event) bool {
	if s.hook.Skill == "" {
		return true
	}
	en := ev.EnabledSkills()
	return en == nil || slices.Contains(en, s.hook.Skill)
}

// Handle implements engine.Handler.
func (h *Handler) Handle(ctx context.Context, ev *engine.Event) error {
	if len(h.slots) == 0 {
		return nil
	}
	switch ev.Point {
	case engine.PointSessionStart:
		h.reset()
	case engine.PointBeforeSend:
		if err := h.endTurn(ctx, ev); err != nil {
			return err
		}
		h.turn, h.aborted = ev.Request+1, false
		return h.observe(ctx, ev, "agent.turn.start", map[string]any{"UserMessage": ev.UserInput, "Channel": channel})
	case engine.PointBeforeLLM:
		h.options = nil
		if err := h.intercept(ctx, ev, "before_llm"); err != nil || ev.Stopped() {
			return err
		}
		if !h.observed(ev, "agent.llm.request") {
			return nil // spare building the message list
		}
		return h.observe(ctx, ev, "agent.llm.request", map[string]any{"Model": ev.Model, "MessagesCount": len(ev.Messages()), "ToolsCount": len(ev.Tools), "Iteration": h.meta(ev, "").Iteration})
	case engine.PointAfterLLM:
		if ev.Err != nil {
			return h.observe(ctx, ev, "agent.error", map[string]any{"Stage": "llm", "Error": ev.Err.Error()})
		}
		if err := h.observe(ctx, ev, "agent.llm.response", map[string]any{"Model": ev.Model, "Content": ev.Answer, "ToolCalls": len(ev.ToolCalls)}); err != nil {
			return err
		}
		return h.intercept(ctx, ev, "after_llm")
	case engine.PointBeforeTool:
		if err := h.intercept(ctx, ev, "before_tool"); err != nil {
			return err
		}
		if ev.Stopped() {
			return h.observe(ctx, ev, "agent.tool.exec_skipped", map[string]any{"Tool": ev.Tool.Name, "Reason": string(ev.Tool.Status)})
		}
	case engine.PointApproveTool:
		if err := h.intercept(ctx, ev, "approve_tool"); err != nil {
			return err
		}
		if ev.Stopped() {
			return h.observe(ctx, ev, "agent.tool.exec_skipped", map[string]any{"Tool": ev.Tool.Name, "Reason": string(ev.Tool.Status)})
		}
		return h.observe(ctx, ev, "agent.tool.exec_start", map[string]any{"Tool": ev.Tool.Name, "Arguments": orEmpty(ev.Tool.Arguments)})
	case engine.PointAfterTool:
		if err := h.observe(ctx, ev, "agent.tool.exec_end", map[string]any{"Tool": ev.Tool.Name, "Duration": 0, "ForLLMLen": len(ev.Tool.Result), "IsError": ev.Tool.Error != ""}); err != nil {
			return err
		}
		if ev.Tool.Status == engine.ToolResponded {
			return nil // PicoClaw's code goes on to the next call: no after_tool for a hook's answer
		}
		return h.intercept(ctx, ev, "after_tool")
	case engine.PointAfterCompact:
		return h.observe(ctx, ev, "agent.context.compress", map[string]any{"Kind": string(ev.Compact)})
	case engine.PointSessionEnd:
		if err := h.endTurn(ctx, ev); err != nil {
			return err
		}
		h.shutdown(ev)
	}
	return nil
}

// reset starts a run: leftover processes of an earlier run stop, every
// hook may start (and restart once) again.
func (h *Handler) reset() {
	h.Close()
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, s := range h.slots {
		*s = slot{hook: s.hook, m: Metrics{Hook: s.hook.Name, File: s.hook.File}}
	}
	h.turn = 0
}

// endTurn emits agent.turn.end for the open turn. The engine has no
// request-end point, so a turn ends when the next begins or the session
// ends.
func (h *Handler) endTurn(ctx context.Context, ev *engine.Event) error {
	if h.turn == 0 {
		return nil
	}
	t := h.turn
	h.turn = 0
	status := "completed"
	if h.aborted {
		status = "aborted"
	}
	return h.observeTurn(ctx, ev, "agent.turn.end", map[string]any{"Status": status}, t-1)
}

// runtimeEvent is PicoClaw's hook.runtime_event params.
type runtimeEvent struct {
	Kind   string `json:"kind"`
	Source struct {
		Component string `json:"component"`
		Name      string `json:"name"`
	} `json:"source"`
	Scope struct {
		AgentID    string `json:"agent_id"`
		SessionKey string `json:"session_key"`
		TurnID     string `json:"turn_id"`
		Channel    string `json:"channel"`
		ChatID     string `json:"chat_id"`
	} `json:"scope"`
	Payload any `json:"payload"`
}

// observed says whether an active hook observes kind.
func (h *Handler) observed(ev *engine.Event, kind string) bool {
	for _, s := range h.slots {
		if s.hook.Observes(kind) && active(s, ev) {
			return true
		}
	}
	return false
}

func (h *Handler) observe(ctx context.Context, ev *engine.Event, kind string, payload any) error {
	return h.observeTurn(ctx, ev, kind, payload, ev.Request)
}

// observeTurn sends kind to every active hook that observes it. Nothing
// is awaited: a notification has no answer.
func (h *Handler) observeTurn(ctx context.Context, ev *engine.Event, kind string, payload any, req int) error {
	var re runtimeEvent
	re.Kind, re.Payload = kind, payload
	re.Source.Component, re.Source.Name = "agent", agentID
	re.Scope.AgentID, re.Scope.SessionKey, re.Scope.TurnID = agentID, h.session(ev), turnID(req)
	re.Scope.Channel, re.Scope.ChatID = channel, h.chatID(ev)
	for _, s := range h.slots {
		if !s.hook.Observes(kind) || !active(s, ev) {
			continue
		}
		p := h.ensure(ctx, ev, s, "hook.runtime_event")
		if p == nil {
			continue
		}
		x := p.notify("hook.runtime_event", re, s.hook.Defaults.Observer)
		h.count(s, func(m *Metrics) { m.Notifications++ })
		call := h.record(s, p, "hook.runtime_event", x)
		call.Notify = true
		ev.Record(call)
		h.afterExchange(ev, s, p, x)
		if err := ctx.Err(); err != nil {
			return err
		}
	}
	return nil
}

func (h *Handler) timeout(s *slot, method string) time.Duration {
	if method == "approve_tool" {
		return s.hook.Defaults.Approval
	}
	return s.hook.Defaults.Interceptor
}

// intercept sends hook.<method> to every active hook that intercepts it,
// in order, each seeing what the previous changed, until one stops.
func (h *Handler) intercept(ctx context.Context, ev *engine.Event, method string) error {
	rpc := "hook." + method
	for _, s := range h.slots {
		if !s.hook.Intercepts(method) || !active(s, ev) {
			continue
		}
		if ev.Stopped() {
			return nil
		}
		p := h.ensure(ctx, ev, s, rpc)
		if p == nil {
			if method == "approve_tool" && s.disabled != "" {
				// PicoClaw denies when an approval hook fails.
				ev.Apply(engine.HookCall{System: System, Event: rpc, Hook: s.hook.Name, Source: source(s), Outcome: engine.OutcomeSkipped,
					Error: "not asked: " + s.disabled}, denied(fmt.Sprintf("tool approval hook %q failed", s.hook.Name)))
			}
			if err := ctx.Err(); err != nil {
				return err
			}
			continue
		}
		params := h.params(ev, method)
		if method == "before_llm" {
			bp := params.(beforeLLMParams)
			bp.Options = h.options
			params = bp
		}
		x := p.call(ctx, rpc, params, h.timeout(s, method))
		h.count(s, func(m *Metrics) {
			d := ms(x.dur)
			m.Requests++
			m.TotalMS += d
			m.MaxMS = max(m.MaxMS, d)
		})
		call := h.record(s, p, rpc, x)
		var eff engine.Effect
		if x.kind == okay {
			var warns []string
			eff, warns = h.effect(ev, method, params, x.msg.Result)
			call.Warnings = append(call.Warnings, warns...)
		} else if method == "approve_tool" {
			eff = denied(fmt.Sprintf("tool approval hook %q failed", s.hook.Name))
		}
		ev.Apply(call, eff)
		if eff.Action == engine.ActionStop || eff.Action == engine.ActionHardAbort {
			h.aborted = true
		}
		h.afterExchange(ev, s, p, x)
		if x.kind == failCancel {
			return ctx.Err()
		}
	}
	return nil
}

// setOptions keeps a before_llm hook's options for the next hook of the chain.
func (h *Handler) setOptions(_ *engine.Event, opts map[string]any) { h.options = opts }

func source(s *slot) string { return fmt.Sprintf("%s:%d", s.hook.File, s.hook.Line) }

// record makes the HookCall of one exchange.
func (h *Handler) record(s *slot, p *proc, event string, x exchange) engine.HookCall {
	call := engine.HookCall{System: System, Event: event, Hook: s.hook.Name, Source: source(s),
		Input: json.RawMessage(x.request), DurationMS: float64(x.dur) / float64(time.Millisecond),
		Stderr: p.takeStderr(), Warnings: x.strays}
	if len(x.answer) > 0 {
		if json.Valid(x.answer) {
			call.Output = json.RawMessage(x.answer)
		} else {
			call.OutputText = string(x.answer)
		}
	}
	switch x.kind {
	case okay:
	case failTimeout, failWrite:
		call.Outcome, call.Error = engine.OutcomeTimeout, x.err
		h.count(s, func(m *Metrics) { m.Timeouts++ })
	case failRPC:
		call.Outcome, call.Error, call.RPCError = engine.OutcomeError, x.err, x.msg.Error.String()
		h.count(s, func(m *Metrics) { m.Errors++ })
	default:
		call.Outcome, call.Error = engine.OutcomeError, x.err
		h.count(s, func(m *Metrics) { m.Errors++ })
	}
	return call
}

// afterExchange records the process's exit when the exchange found it gone.
func (h *Handler) afterExchange(ev *engine.Event, s *slot, p *proc, x exchange) {
	if x.kind == failExit || p.exited() {
		h.reportExit(ev, s, p)
	}
}

// reportExit puts a crashed (or exited) process in the trace once and
// decides whether it may start again this run.
func (h *Handler) reportExit(ev *engine.Event, s *slot, p *proc) {
	if s.reported {
		return
	}
	<-p.done
	p.stop(h.opts.Grace) // reap the rest of its group and its readers
	s.reported = true
	code, st := p.exitStatus()
	call := engine.HookCall{System: System, Event: "process.exit", Hook: s.hook.Name, Source: source(s), Outcome: engine.OutcomeError,
		ExitCode: code, Stderr: p.takeStderr(), Warnings: p.takeStrays()}
	if s.starts < 2 {
		call.Error = fmt.Sprintf("the process exited during the run (%s); it is restarted once", st)
	} else {
		call.Error = fmt.Sprintf("the process exited again (%s); disabled for the rest of the run", st)
		s.disabled = "the process exited twice this run"
	}
	ev.Record(call)
	h.mu.Lock()
	s.p = nil
	h.mu.Unlock()
}

// ensure returns the running process of s, starting (or restarting) it
// with its hello handshake, or nil when s is disabled for this run.
func (h *Handler) ensure(ctx context.Context, ev *engine.Event, s *slot, method string) *proc {
	if s.disabled != "" {
		if method != "hook.runtime_event" {
			ev.Record(engine.HookCall{System: System, Event: method, Hook: s.hook.Name, Source: source(s),
				Outcome: engine.OutcomeSkipped, Error: "not sent: " + s.disabled})
		}
		return nil
	}
	if cur := h.current(s); cur != nil && cur.exited() {
		h.reportExit(ev, s, cur)
		if s.disabled != "" {
			return h.ensure(ctx, ev, s, method)
		}
	}
	if cur := h.current(s); cur != nil {
		return cur
	}
	if ctx.Err() != nil {
		return nil
	}
	s.starts++
	h.count(s, func(m *Metrics) { m.Starts = s.starts })
	s.reported = false
	hk := s.hook
	start := time.Now()
	env := slices.Clone(h.opts.Env)
	for _, k := range sortedKeys(hk.Env) {
		env = append(env, k+"="+hk.Env[k])
	}
	input, _ := json.Marshal(map[string]any{"command": hk.Command, "dir": hk.Dir, "env": hk.Env})
	p, err := spawn(hk.Name, hk.Command, hk.Dir, env)
	if err != nil {
		s.disabled = "it could not be started"
		ev.Record(engine.HookCall{System: System, Event: "process.start", Hook: hk.Name, Source: source(s), Outcome: engine.OutcomeError,
			Input: input, Error: err.Error(), DurationMS: ms(time.Since(start))})
		return nil
	}
	out, _ := json.Marshal(map[string]any{"pid": p.cmd.Process.Pid, "start": s.starts})
	ev.Record(engine.HookCall{System: System, Event: "process.start", Hook: hk.Name, Source: source(s), Input: input, Output: out,
		DurationMS: ms(time.Since(start))})
	h.mu.Lock()
	s.p = p
	h.mu.Unlock()
	x := p.call(ctx, "hook.hello", map[string]any{"name": hk.Name, "version": 1, "modes": hk.Modes()}, hk.Defaults.Interceptor)
	call := h.record(s, p, "hook.hello", x)
	if x.kind == okay {
		var r struct {
			OK *bool `json:"ok"`
		}
		if json.Unmarshal(x.msg.Result, &r) == nil && r.OK != nil && !*r.OK {
			x.kind = failRPC
			call.Outcome, call.Error = engine.OutcomeError, "the hook refused the handshake (ok: false)"
		}
	}
	startup := ms(time.Since(start))
	h.count(s, func(m *Metrics) { m.StartupMS = startup })
	if x.kind != okay {
		// PicoClaw stops a hook that does not complete the handshake.
		s.disabled = "it did not complete hook.hello"
		if call.Error != "" {
			call.Error += "; the process is stopped and not used this run"
		}
		ev.Record(call)
		killed := p.stop(0)
		h.mu.Lock()
		s.p = nil
		h.mu.Unlock()
		s.reported = true
		code, st := p.exitStatus()
		ev.Record(engine.HookCall{System: System, Event: "process.exit", Hook: hk.Name, Source: source(s), Outcome: engine.OutcomeStopped,
			ExitCode: code, Stderr: p.takeStderr(), Error: stoppedText(killed, st)})
		return nil
	}
	ev.Record(call)
	return p
}

func stoppedText(killed bool, st string) string {
	if killed {
		return "stopped by Hook Studio (killed): " + st
	}
	return "stopped by Hook Studio: " + st
}

// shutdown stops every process at the end of the session, recording how
// each ended: exited after stdin closed, or killed after the grace.
func (h *Handler) shutdown(ev *engine.Event) {
	h.mu.Lock()
	var live []*slot
	var procs []*proc
	for _, s := range h.slots {
		if s.p != nil {
			live = append(live, s)
			procs = append(procs, s.p)
		}
	}
	h.mu.Unlock()
	type result struct {
		killed bool
		dur    time.Duration
	}
	res := make([]result, len(live))
	var wg sync.WaitGroup
	for i := range procs {
		wg.Go(func() {
			start := time.Now()
			res[i] = result{killed: procs[i].stop(h.opts.Grace), dur: time.Since(start)}
		})
	}
	wg.Wait()
	for i, s := range live {
		p := procs[i]
		code, st := p.exitStatus()
		call := engine.HookCall{System: System, Event: "process.exit", Hook: s.hook.Name, Source: source(s), ExitCode: code,
			Stderr: p.takeStderr(), Warnings: p.takeStrays(), DurationMS: ms(res[i].dur)}
		if res[i].killed {
			call.Outcome = engine.OutcomeError
			call.Error = fmt.Sprintf("the process did not exit within %s of its stdin closing; its process group was killed", h.opts.Grace)
		} else {
			call.Outcome = engine.OutcomeOK
			call.OutputText = "exited after stdin closed: " + st
		}
		ev.Record(call)
		h.mu.Lock()
		s.p = nil
		h.mu.Unlock()
	}
}

// current is s's running process (nil none); Close may clear it from
// another goroutine.
func (h *Handler) current(s *slot) *proc {
	h.mu.Lock()
	defer h.mu.Unlock()
	return s.p
}

// count updates s's metrics; Metrics may read them from another goroutine.
func (h *Handler) count(s *slot, f func(*Metrics)) {
	h.mu.Lock()
	f(&s.m)
	h.mu.Unlock()
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
