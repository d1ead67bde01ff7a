package prochook

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"sync"
	"time"

	"hookstudio/app/agent/engine"
	"hookstudio/app/hooks/hostmode"
	"hookstudio/app/hooks/process"
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
	// Env is the environment every hook starts from (nil: the app's whole
	// environment as PicoClaw's code passes it, or CleanEnv() under
	// hostmode.Document). The config's env is laid over it.
	Env []string
	// Mode is where seed 003 and PicoClaw's code disagree, which the run
	// follows ("" is hostmode.Code).
	Mode hostmode.Mode

	custom bool // Env was given
}

// CleanEnv is the environment hooks get: only what finding programs and
// decoding text need, never the app's own variables (API keys). Python is
// asked not to write __pycache__ into the skill folder (the watcher would
// take it for an edit).
func CleanEnv() []string {
	return append([]string{"PYTHONDONTWRITEBYTECODE=1"}, process.Pick("PATH", "HOME", "LANG", "LC_ALL", "LC_CTYPE", "TZ", "TMPDIR", "SYSTEMROOT")...)
}

// FullEnv is the environment PicoClaw's code gives a hook: its own, whole
// (exec.Cmd with the config's env appended to os.Environ()), less Hook
// Studio's API keys, which never reach a hook or a trace. Python is
// still asked not to write __pycache__ into the skill folder, which the
// watcher would take for an edit.
func FullEnv() []string {
	return append(process.Inherited(), "PYTHONDONTWRITEBYTECODE=1")
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
	// status is how the open turn ends: PicoClaw's "error" after
	// abort_turn, "aborted" after hard_abort, else "completed".
	status    string
	abortTurn bool // the open turn ended by abort_turn (the behaviours report it differently)
	iter      int  // the open turn's iteration: its LLM calls so far
	events    int  // runtime events sent this run (their ids)
	// What agent.turn.end reports of the open turn.
	final string
	execs []toolExecution

	failed  error          // a hook failed to start under PicoClaw's code: the run ends
	options map[string]any // before_llm options as the chain left them
	renamed string         // after_tool: the tool name the chain left ("" kept)
	note    string         // the other behaviour's note for the notification being sent
}

// toolExecution is PicoClaw's ToolExecutionRecord.
type toolExecution struct {
	Name    string `json:"name"`
	Success bool   `json:"success"`
}

// New returns a handler for hooks (in any order: they run by priority,
// then name, then file).
func New(hooks []Hook, opts Options) *Handler {
	if opts.Grace <= 0 {
		opts.Grace = DefaultGrace
	}
	opts.custom = opts.Env != nil
	if opts.Env == nil {
		opts.Env = CleanEnv()
		if opts.Mode != hostmode.Document {
			opts.Env = FullEnv()
		}
	}
	hs := Runnable(hooks, opts.Mode)
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

// OffersTools says whether a hook may offer the model tools of its own
// (engine.ToolOfferer): one that intercepts before_llm, where seed 003 lets
// it add tool definitions. PicoClaw's code reverts such additions, so under
// it a hook offers none.
func (h *Handler) OffersTools() bool {
	if h.opts.Mode != hostmode.Document {
		return false
	}
	return slices.ContainsFunc(h.hooks, func(hk Hook) bool { return hk.Intercepts("before_llm") })
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
		h.turn, h.status, h.abortTurn, h.iter, h.final, h.execs = ev.Request+1, "completed", false, 0, "", nil
		return h.observe(ctx, ev, "agent.turn.start", "turn.start", map[string]any{"UserMessage": ev.UserInput, "MediaCount": 0})
	case engine.PointBeforeLLM:
		h.iter++
		h.options = defaultOptions()
		if err := h.intercept(ctx, ev, "before_llm"); err != nil || ev.Stopped() {
			return err
		}
		if !h.observed(ev, "agent.llm.request") {
			return nil // spare building the message list
		}
		return h.observe(ctx, ev, "agent.llm.request", "turn.llm.request", map[string]any{"Model": ev.Model, "MessagesCount": len(ev.Messages()),
			"ToolsCount": len(ev.Tools), "MaxTokens": defaultMaxTokens, "Temperature": defaultTemperature})
	case engine.PointAfterLLM:
		if ev.Err != nil {
			h.status = "error"
			return h.observe(ctx, ev, "agent.error", "turn.error", map[string]any{"Stage": "llm", "Message": ev.Err.Error()})
		}
		// PicoClaw reports the answer after its after_llm hooks changed it.
		if err := h.intercept(ctx, ev, "after_llm"); err != nil || ev.Stopped() {
			return err
		}
		return h.observe(ctx, ev, "agent.llm.response", "turn.llm.response", map[string]any{"ContentLen": len(ev.Answer), "ToolCalls": len(ev.ToolCalls), "HasReasoning": false})
	case engine.PointBeforeTool:
		if err := h.intercept(ctx, ev, "before_tool"); err != nil {
			return err
		}
		if ev.Stopped() {
			return h.toolSkipped(ctx, ev)
		}
	case engine.PointApproveTool:
		if err := h.intercept(ctx, ev, "approve_tool"); err != nil {
			return err
		}
		if ev.Stopped() {
			return h.toolSkipped(ctx, ev)
		}
		return h.observe(ctx, ev, "agent.tool.exec_start", "turn.tool.start", map[string]any{"Tool": ev.Tool.Name, "Arguments": ev.Tool.Arguments})
	case engine.PointAfterTool:
		h.renamed = ""
		if ev.Tool.Status == engine.ToolResponded {
			// PicoClaw's code reports a hook's answer as started and ended,
			// and asks no after_tool hook about it.
			if err := h.observe(ctx, ev, "agent.tool.exec_start", "turn.tool.start", map[string]any{"Tool": ev.Tool.Name, "Arguments": ev.Tool.Arguments}); err != nil {
				return err
			}
		} else if err := h.intercept(ctx, ev, "after_tool"); err != nil || ev.Stopped() {
			return err
		}
		name := ev.Tool.Name
		if h.renamed != "" {
			name = h.renamed
		}
		text, failed := ev.Tool.Result, ev.Tool.Error != ""
		if failed {
			text = ev.Tool.Error
		}
		h.execs = append(h.execs, toolExecution{Name: name, Success: !failed})
		return h.observe(ctx, ev, "agent.tool.exec_end", "turn.tool.end", map[string]any{"Tool": name, "Duration": 0, "ForLLMLen": len(text),
			"ForUserLen": 0, "IsError": failed, "Async": false})
	case engine.PointStop:
		h.final = ev.Answer
	case engine.PointAfterCompact:
		return h.observe(ctx, ev, "agent.context.compress", "turn.context.compress", map[string]any{"Reason": compressReason(ev.Compact), "DroppedMessages": 0, "RemainingMessages": len(ev.Messages())})
	case engine.PointSessionEnd:
		var err error
		if h.failed == nil {
			err = h.endTurn(ctx, ev)
		}
		h.shutdown(ev)
		return err
	}
	return nil
}

// compressReason is PicoClaw's ContextCompressReason for a compaction.
func compressReason(c engine.Compaction) string {
	if c == engine.CompactAuto {
		return "summarize"
	}
	return "proactive_budget"
}

// toolSkipped reports a tool a hook kept from running, with the text the
// model reads.
func (h *Handler) toolSkipped(ctx context.Context, ev *engine.Event) error {
	return h.observe(ctx, ev, "agent.tool.exec_skipped", "turn.tool.skipped", map[string]any{"Tool": ev.Tool.Name, "Reason": ev.Tool.Result})
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
	h.turn, h.events, h.failed = 0, 0, nil
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
	kinds := []string{}
	for _, x := range h.execs {
		if !slices.Contains(kinds, x.Name) {
			kinds = append(kinds, x.Name)
		}
	}
	var path []string
	if h.status == "completed" {
		path = []string{}
	}
	payload := map[string]any{"Status": h.status, "Workspace": "", "Iterations": h.iter, "Duration": 0,
		"FinalContentLen": len(h.final), "UserMessage": ev.UserInput, "FinalContent": h.final,
		"ActiveSkills": orNone(ev.EnabledSkills()), "AttemptedSkills": nil, "FinalSuccessfulPath": path,
		"SkillContextSnapshots": nil, "ToolKinds": kinds, "ToolExecutions": h.execs}
	h.note = ""
	if h.abortTurn {
		h.note = "PicoClaw's code ends a turn stopped by abort_turn with status error"
		if h.opts.Mode != hostmode.Document {
			h.note = "as seed 003 describes, a turn stopped by abort_turn ends with status aborted"
		}
	}
	defer func() { h.note = "" }()
	return h.observeTurn(ctx, ev, "agent.turn.end", "turn.end", payload, t-1)
}

func orNone(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// runtimeEvent is PicoClaw's runtime event envelope (pkg/events.Event).
type runtimeEvent struct {
	ID     string `json:"id"`
	Kind   string `json:"kind"`
	Time   string `json:"time"`
	Source struct {
		Component string `json:"component"`
		Name      string `json:"name,omitempty"`
	} `json:"source"`
	Scope struct {
		AgentID    string `json:"agent_id,omitempty"`
		SessionKey string `json:"session_key,omitempty"`
		TurnID     string `json:"turn_id,omitempty"`
		Channel    string `json:"channel,omitempty"`
		ChatID     string `json:"chat_id,omitempty"`
		SenderID   string `json:"sender_id,omitempty"`
	} `json:"scope"`
	Correlation struct {
		TraceID string `json:"trace_id,omitempty"`
	} `json:"correlation"`
	Severity string         `json:"severity"`
	Payload  any            `json:"payload,omitempty"`
	Attrs    map[string]any `json:"attrs,omitempty"`
}

// severity is PicoClaw's runtimeSeverityForAgentEvent.
func severity(kind string, payload any) string {
	switch kind {
	case "agent.error":
		return "error"
	case "agent.context.compress", "agent.tool.exec_skipped":
		return "warn"
	}
	p, _ := payload.(map[string]any)
	switch {
	case kind == "agent.turn.end" && p["Status"] == "error":
		return "error"
	case kind == "agent.turn.end" && p["Status"] == "aborted":
		return "warn"
	case kind == "agent.tool.exec_end" && p["IsError"] == true:
		return "warn"
	}
	return "info"
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

func (h *Handler) observe(ctx context.Context, ev *engine.Event, kind, tracePath string, payload any) error {
	return h.observeTurn(ctx, ev, kind, tracePath, payload, ev.Request)
}

// observeTurn sends kind to every active hook that observes it, as
// PicoClaw's emitEvent builds it. Nothing is awaited: a notification has
// no answer.
func (h *Handler) observeTurn(ctx context.Context, ev *engine.Event, kind, tracePath string, payload any, req int) error {
	if !h.observed(ev, kind) {
		return nil
	}
	h.events++
	var re runtimeEvent
	re.ID, re.Kind, re.Time, re.Payload = fmt.Sprintf("evt-%d", h.events), kind, time.Now().UTC().Format(time.RFC3339Nano), payload
	re.Source.Component, re.Source.Name = "agent", agentID
	re.Scope.AgentID, re.Scope.SessionKey, re.Scope.TurnID = agentID, h.session(ev), turnID(req)
	re.Scope.Channel, re.Scope.ChatID, re.Scope.SenderID = channel, h.chatID(ev), senderID
	re.Correlation.TraceID = tracePath
	re.Severity = severity(kind, payload)
	re.Attrs = map[string]any{"agent_source": "runTurn"}
	if h.iter != 0 {
		re.Attrs["iteration"] = h.iter
	}
	for _, s := range h.slots {
		if !s.hook.Observes(kind) || !active(s, ev) {
			continue
		}
		p := h.ensure(ctx, ev, s, "hook.runtime_event")
		if h.failed != nil {
			return h.failed
		}
		if p == nil {
			continue
		}
		x := p.notify("hook.runtime_event", re, s.hook.Defaults.Observer)
		h.count(s, func(m *Metrics) { m.Notifications++ })
		call := h.record(s, p, "hook.runtime_event", x)
		call.Notify, call.Other = true, h.note
		ev.Record(call)
		h.afterExchange(ev, s, p, x)
		if err := ctx.Err(); err != nil {
			return err
		}
	}
	return nil
}

// intercepts says whether hk is sent method. PicoClaw's code turns the
// intercept list into modes: before_llm or after_llm sends both LLM
// methods, before_tool or after_tool both tool methods; seed 003 sends
// exactly the methods listed.
func (h *Handler) intercepts(hk *Hook, method string) bool {
	if hk.Intercepts(method) || h.opts.Mode == hostmode.Document {
		return hk.Intercepts(method)
	}
	if pair := pairOf(method); pair != "" {
		return hk.Intercepts(pair)
	}
	return false
}

// pairNote says, on a call the two behaviours send differently, what the
// other would send.
func (h *Handler) pairNote(hk *Hook, method string) string {
	pair := pairOf(method)
	if pair == "" {
		return ""
	}
	if !hk.Intercepts(method) {
		return fmt.Sprintf("as seed 003 describes, hook.%s would not be sent: the hook's intercept lists %s only", method, pair)
	}
	if !hk.Intercepts(pair) && h.opts.Mode == hostmode.Document {
		return fmt.Sprintf("PicoClaw's code would also send this hook hook.%s (one intercept entry enables both)", pair)
	}
	return ""
}

func joinNotes(a, b string) string {
	if a == "" || b == "" {
		return a + b
	}
	return a + "; " + b
}

func pairOf(method string) string {
	switch method {
	case "before_llm":
		return "after_llm"
	case "after_llm":
		return "before_llm"
	case "before_tool":
		return "after_tool"
	case "after_tool":
		return "before_tool"
	}
	return ""
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
		if !h.intercepts(s.hook, method) || !active(s, ev) {
			continue
		}
		if ev.Stopped() {
			return nil
		}
		p := h.ensure(ctx, ev, s, rpc)
		if h.failed != nil {
			return h.failed
		}
		if p == nil {
			if method == "approve_tool" && s.disabled != "" {
				// PicoClaw denies when an approval hook fails.
				ev.Apply(engine.HookCall{System: System, Event: rpc, Hook: s.hook.Name, Source: source(s), Outcome: engine.OutcomeSkipped,
					Error: "not asked: " + s.disabled}, h.denied(fmt.Sprintf("tool approval hook %q failed", s.hook.Name)))
			}
			if err := ctx.Err(); err != nil {
				return err
			}
			continue
		}
		params := h.params(ev, method)
		if method == "before_llm" && h.options != nil {
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
			eff, warns, call.Other = h.effect(ev, method, params, x.msg.Result)
			call.Warnings = append(call.Warnings, warns...)
		} else if method == "approve_tool" {
			verb := "failed"
			if x.kind == failTimeout {
				verb = "timed out" // PicoClaw's runApprovalHook words a timeout so
			}
			eff = h.denied(fmt.Sprintf("tool approval hook %q %s", s.hook.Name, verb))
		}
		call.Other = joinNotes(call.Other, h.pairNote(s.hook, method))
		ev.Apply(call, eff)
		switch eff.Action {
		case engine.ActionStop:
			h.status, h.abortTurn = "error", true // PicoClaw's code ends an abort_turn as an error
			if h.opts.Mode == hostmode.Document {
				h.status = "aborted"
			}
		case engine.ActionHardAbort:
			h.status = "aborted"
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
	var p *proc
	var err error
	if hk.dirProblem != "" {
		// Only this behaviour's dir breaks it (a warning when validated).
		err = fmt.Errorf("cannot start in %s: %s", hk.Dir, hk.dirProblem)
	} else {
		p, err = spawn(hk.Name, hk.Command, hk.Dir, env)
	}
	if err != nil {
		s.disabled = "it could not be started"
		ev.Record(engine.HookCall{System: System, Event: "process.start", Hook: hk.Name, Source: source(s), Outcome: engine.OutcomeError,
			Input: input, Error: err.Error(), DurationMS: ms(time.Since(start)), Other: joinNotes(h.startFailed(hk, err), hk.dirNote(h.opts.Mode))})
		return nil
	}
	out, _ := json.Marshal(map[string]any{"pid": p.cmd.Process.Pid, "start": s.starts})
	ev.Record(engine.HookCall{System: System, Event: "process.start", Hook: hk.Name, Source: source(s), Input: input, Output: out,
		DurationMS: ms(time.Since(start)), Other: joinNotes(joinNotes(h.envNote(), enabledNote(hk)), hk.dirNote(h.opts.Mode))})
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
		call.Other = h.startFailed(hk, errors.New(orText(call.Error, "hook.hello failed")))
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

// envNote says how the other behaviour's environment differs, unless the
// caller chose the environment.
func (h *Handler) envNote() string {
	if h.opts.custom {
		return ""
	}
	if h.opts.Mode == hostmode.Document {
		return "PicoClaw's code gives the process its own whole environment (Hook Studio's API keys withheld)"
	}
	return "as seed 003 describes, the process's environment would be only PATH, HOME, LANG, LC_*, TZ, TMPDIR and the config's env"
}

// enabledNote is the note of a hook that runs because PicoClaw's code
// takes an absent hooks.enabled for true.
func enabledNote(hk *Hook) string {
	if !hk.DefaultEnabled {
		return ""
	}
	return "as seed 003 describes, this process would not start: its config has no hooks.enabled"
}

// ErrStartFailed ends a run (PicoClaw's code) when a hook could not be
// started or did not answer hook.hello.
var ErrStartFailed = errors.New("a process hook failed to start")

// startFailed decides what a start failure does: under PicoClaw's code
// every hook is unmounted and the run fails (h.failed), as seed 003
// describes the hook is left out. It returns the other behaviour's note.
func (h *Handler) startFailed(hk *Hook, err error) string {
	if h.opts.Mode == hostmode.Document {
		return "PicoClaw's code unmounts every hook and the run fails when one cannot start"
	}
	if h.failed == nil {
		h.failed = fmt.Errorf("%w: %s: %w (PicoClaw unmounts every hook and the agent does not run)", ErrStartFailed, hk.Name, err)
	}
	return "as seed 003 describes, this hook would be left out and the run would go on without it"
}

func orText(s, def string) string {
	if s == "" {
		return def
	}
	return s
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
