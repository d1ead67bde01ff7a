package cmdhook

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"hookstudio/app/agent/engine"
	"hookstudio/app/agent/scenario"
	"hookstudio/app/format/diag"
	"hookstudio/app/hooks/answers"
	"hookstudio/app/hooks/hostmode"
	"hookstudio/app/hooks/metrics"
	"hookstudio/app/hooks/process"
	"hookstudio/app/hooks/shellcmd"
)

// ErrNotTrusted is returned by New when the folder is not trusted: no
// command hook runs before the user has seen Commands and agreed.
var ErrNotTrusted = errors.New("the folder's command hooks are not trusted")

// RegisterTool is the tool a scenario (or a model) calls to add a
// session-level hook: arguments {"event": NAME, "hook": {...}}.
const RegisterTool = "register_hook"

// System is the HookCall.System of command hooks.
const System = "command"

// Options configure a Handler for one run.
type Options struct {
	Root     string
	UserFile string            // the user-level hooks.yaml ("" none)
	Drafts   map[string][]byte // unsaved editor texts, by path relative to Root
	// Config is the loaded configuration; nil makes New load it.
	Config *Config
	// Scenario gives the skills enabled per request, hook_answers for llm
	// hooks under the mock, and the register_hook calls it scripts.
	Scenario *scenario.Scenario
	// Completer answers llm hooks in a real run; nil answers them from
	// Scenario.HookAnswers (Scripted).
	Completer answers.Completer
	// Cache keeps results between runs (nil: nothing is reused).
	Cache *Cache
	// Trusted says the user trusted the folder (or hookctl got --trust).
	Trusted bool
	// ChainTimeout bounds one event's whole chain (0: 30 s).
	ChainTimeout time.Duration
	// Session is session_id when the engine's event carries none.
	Session string
	// Mode is where seed 001 and jcli's code disagree, which the run
	// follows ("" is hostmode.Code; behaviour.go).
	Mode hostmode.Mode
}

// Handler runs command hooks for the engine: one per run. Handle is
// called by the engine's goroutine; Metrics, Hooks, Commands and Close may
// be called from any goroutine.
type Handler struct {
	opts  Options
	cfg   *Config
	procs *process.Group
	// exec runs one bash hook: procs.Run; benchmarks swap in a fake to
	// measure what the handler and the engine cost without the process.
	exec     func(ctx context.Context, s process.Spec) process.Result
	scripted *answers.Scripted
	trusted  map[string]bool // commands that may run (file hooks and scripted register_hook)
	baseEnv  []string
	byEvent  map[Event][]*Hook
	envNoted map[*Hook]bool // the environment's note is on a hook's first call

	mu      sync.Mutex
	session []*Hook
	metrics *metrics.Book
	hashes  map[string][32]byte // per run: folder and file hashes for the cache
}

// New returns a Handler for opts, or ErrNotTrusted when opts.Trusted is
// false: it never runs anything in a folder nobody trusted.
func New(opts Options) (*Handler, error) {
	if !opts.Trusted {
		return nil, ErrNotTrusted
	}
	cfg := opts.Config
	if cfg == nil {
		var err error
		if cfg, err = Load(opts.Root, LoadOptions{UserFile: opts.UserFile, Drafts: opts.Drafts}); err != nil {
			return nil, fmt.Errorf("command hooks: %w", err)
		}
	}
	h := &Handler{opts: opts, cfg: cfg, procs: process.NewGroup(), trusted: map[string]bool{}, byEvent: map[Event][]*Hook{},
		metrics: metrics.NewBook(System), hashes: map[string][32]byte{}, envNoted: map[*Hook]bool{}}
	h.exec = h.procs.Run
	if h.opts.Session == "" {
		h.opts.Session = "hookstudio"
		if opts.Scenario != nil {
			h.opts.Session = opts.Scenario.Name
		}
	}
	if h.opts.ChainTimeout <= 0 {
		h.opts.ChainTimeout = DefaultChainTimeout
	}
	var scripted map[string][]string
	if opts.Scenario != nil {
		scripted = opts.Scenario.HookAnswers
	}
	h.scripted = answers.NewScripted(scripted)
	for i := range cfg.Hooks {
		hk := &cfg.Hooks[i]
		h.byEvent[hk.Event] = append(h.byEvent[hk.Event], hk)
	}
	for _, c := range h.Commands() {
		h.trusted[c.Command] = true
	}
	for _, k := range []string{"HOME", "LANG", "LC_ALL", "TMPDIR"} {
		if v, ok := os.LookupEnv(k); ok {
			h.baseEnv = append(h.baseEnv, k+"="+v)
		}
	}
	if h.code() {
		h.baseEnv = codeEnv()
	}
	return h, nil
}

// Config is the configuration the handler runs.
func (h *Handler) Config() *Config { return h.cfg }

// Close kills every hook process still running and refuses new ones.
func (h *Handler) Close() error {
	h.procs.Close()
	return nil
}

// Commands lists exactly the commands a run may execute: every bash hook
// of the files and every command the scenario registers with register_hook.
func (h *Handler) Commands() []Command {
	return append(h.cfg.CommandsFor(h.opts.Scenario), ScenarioCommands(h.opts.Scenario)...)
}

// ScenarioCommands lists the bash commands a scenario's scripted
// register_hook calls would add.
func ScenarioCommands(sc *scenario.Scenario) []Command {
	out := []Command{}
	if sc == nil {
		return out
	}
	for _, rq := range sc.Requests {
		for _, rd := range rq.Rounds {
			for _, tc := range rd.ToolCalls {
				if tc.Name == RegisterFlatTool {
					if ev, cmd := flatCommand(tc.Arguments); cmd != "" {
						out = append(out, Command{Source: fmt.Sprintf("%s:%d", sc.File, rq.Line), Event: Event(ev), Hook: RegisterFlatTool, Command: cmd})
					}
					continue
				}
				if tc.Name != RegisterTool {
					continue
				}
				ev, hook, err := registerArgs(tc.Arguments)
				if err != nil {
					continue
				}
				if cmd, _ := hook["command"].(string); cmd != "" && hook["type"] != string(TypeLLM) {
					out = append(out, Command{Source: fmt.Sprintf("%s:%d", sc.File, rq.Line), Event: Event(ev), Hook: RegisterTool, Command: cmd})
				}
			}
		}
	}
	return out
}

// Hooks describes every hook of the files for the skills panel.
func (h *Handler) Hooks() []engine.HookInfo { return h.cfg.HookInfos() }

// HookInfos describes every hook for the skills panel and breakpoints.
func (c *Config) HookInfos() []engine.HookInfo {
	out := make([]engine.HookInfo, 0, len(c.Hooks))
	for i := range c.Hooks {
		hk := &c.Hooks[i]
		detail := hk.Command
		if hk.Type == TypeLLM {
			detail = "llm: " + strings.TrimSpace(strings.SplitN(strings.TrimSpace(hk.Prompt), "\n", 2)[0])
		}
		out = append(out, engine.HookInfo{System: System, Event: string(hk.Event), Hook: hk.Name, Skill: hk.Skill, Source: hk.Source(), Detail: detail})
	}
	return out
}

// Metrics returns every hook's counters so far, in first-invocation order.
func (h *Handler) Metrics() []engine.HookMetric { return h.metrics.List() }

func (hk *Hook) metric() metrics.Hook {
	return metrics.Hook{Event: string(hk.Event), Name: hk.Name, Source: hk.Source()}
}

func (h *Handler) countSkips(hooks []*Hook) {
	for _, hk := range hooks {
		h.metrics.Skipped(hk.metric())
	}
}

// enabled says whether a skill's hooks are active at ev: the skill is in
// the request's selection (the engine's), or for session_start and
// session_end in the scenario's.
func (h *Handler) enabled(hk *Hook, ev *engine.Event) bool {
	if hk.Level != LevelSkill {
		return true
	}
	sel := ev.EnabledSkills()
	if (ev.Point == engine.PointSessionStart || ev.Point == engine.PointSessionEnd) && h.opts.Scenario != nil {
		sel = h.opts.Scenario.EnabledSkills
	}
	return sel == nil || slices.Contains(sel, hk.Skill)
}

// chain is the event's hooks in order (user → project → skills → session)
// that are active and whose filters match.
//
// notRun are the steps of hooks jcli's code never runs here (their
// filters), for the caller to record where the chain's calls go.
func (h *Handler) chain(name Event, ev *engine.Event) (out []*Hook, notRun []engine.HookCall) {
	tool := ""
	if ev.Tool != nil {
		tool = ev.Tool.Name
	}
	add := func(hk *Hook) {
		if hk.Event != name || !h.enabled(hk, ev) || !hk.matches(tool, ev.Model) {
			return
		}
		if why := filterNote(hk, name); why != "" && h.code() {
			// jcli's code never runs it here; say so where it would have run.
			notRun = append(notRun, engine.HookCall{System: System, Event: string(name), Hook: hk.Name, Source: hk.Source(), Outcome: engine.OutcomeSkipped,
				Error: "not run: " + why + " (jcli's code)", Other: "as seed 001 describes, the filter would be ignored here and the hook would run"})
			return
		}
		out = append(out, hk)
	}
	for _, hk := range h.byEvent[name] {
		add(hk)
	}
	h.mu.Lock()
	session := slices.Clone(h.session)
	h.mu.Unlock()
	for _, hk := range session {
		add(hk)
	}
	return out, notRun
}

// Handle runs the event's chain: each hook sees what the previous ones
// changed; a stop, a skip, an on_error: abort failure or the chain's
// timeout ends it. Only a cancelled run is an error. Under jcli's code the
// chain's effects are applied when it ends (chain.go).
func (h *Handler) Handle(ctx context.Context, ev *engine.Event) error {
	name := eventOf(ev)
	if name == "" {
		return nil
	}
	chain, notRun := h.chain(name, ev)
	for _, c := range notRun {
		ev.Record(c)
	}
	register := name == PreToolExecution && ev.Tool != nil && IsRegister(ev.Tool.Name)
	if len(chain) == 0 && !register {
		return nil
	}
	if postLLMOnce(name, ev) && h.code() {
		for _, hk := range chain {
			ev.Record(engine.HookCall{System: System, Event: string(name), Hook: hk.Name, Source: hk.Source(), Outcome: engine.OutcomeSkipped,
				Error: "not run: jcli's code sends post_llm_response once, for the answer that ends the loop",
				Other: "as seed 001 describes, post_llm_response would run after every model answer"})
		}
		return nil
	}
	list, end, err := h.runChain(ctx, name, ev, chain, &view{}, h.code())
	if h.code() {
		var after []held
		if err == nil && name == PreToolExecution && end.at >= 0 && list[end.at].eff.Action == engine.ActionSkip {
			after, err = h.skippedTool(ctx, ev, &list[end.at])
		}
		h.flush(ev, list, end)
		for _, x := range after {
			ev.Apply(x.call, x.eff)
		}
	}
	if err != nil {
		return err
	}
	if register && !ev.Stopped() {
		h.register(ev)
	}
	return nil
}

// runChain runs chain at name. When hold is set (jcli's code) every call
// and its effect is returned, not applied, and the next hook reads the
// earlier answers from v; otherwise (seed 001) each is applied as the hook
// answers. end is the call that ended the chain with a stop or skip, or a
// failure under on_error: stop (at -1: none).
func (h *Handler) runChain(ctx context.Context, name Event, ev *engine.Event, chain []*Hook, v *view, hold bool) ([]held, chainEnd, error) {
	var list []held
	end := chainEnd{at: -1}
	var changed []int   // seed 001: the trace indices of applied calls that changed something
	var unseen []string // answered fields seed 001 shows the next hooks and jcli's code does not
	emit := func(hk *Hook, call engine.HookCall, eff engine.Effect) int {
		if hold {
			list = append(list, held{hk: hk, call: call, eff: eff})
			return -1
		}
		i := ev.Apply(call, eff)
		if len(ev.Trace().HookCalls[i].Changes) > 0 {
			changed = append(changed, i)
		}
		return i
	}
	once := postLLMOnce(name, ev)
	cctx, cancel := context.WithTimeout(ctx, h.opts.ChainTimeout)
	defer cancel()
	for i, hk := range chain {
		if ev.Stopped() {
			h.countSkips(chain[i:])
			break
		}
		if cctx.Err() != nil {
			if err := ctx.Err(); err != nil {
				return list, end, fmt.Errorf("command hooks: %w", err)
			}
			for _, rest := range chain[i:] {
				emit(rest, engine.HookCall{System: System, Event: string(name), Hook: rest.Name, Source: rest.Source(),
					Outcome: engine.OutcomeSkipped, Error: fmt.Sprintf("not run: the chain's %s timeout ran out", h.opts.ChainTimeout)}, engine.Effect{})
			}
			h.countSkips(chain[i:])
			break
		}
		call, eff, failed, err := h.invoke(ctx, cctx, hk, name, ev, v)
		// retry (HOOK.yaml): a failed hook runs again, each attempt a step.
		for a := 1; failed && err == nil && a <= hk.Retry && cctx.Err() == nil; a++ {
			call.Warnings = append(call.Warnings, fmt.Sprintf("attempt %d of %d failed; retry: %d runs it again", a, hk.Retry+1, hk.Retry))
			h.metrics.Ran(hk.metric(), &call)
			emit(hk, call, engine.Effect{})
			call, eff, failed, err = h.invoke(ctx, cctx, hk, name, ev, v)
		}
		if err != nil {
			return list, end, err
		}
		abort := failed && (hk.OnError == OnErrorAbort || hk.OnError == OnErrorStop)
		// jcli's code ends the chain at any stop or skip answer, wherever
		// the event then applies the action.
		// (An action the event does not apply is dropped when the answer is
		// read; jcli's chain still ends there.)
		why, act := "", eff.Action
		if act == "" && !failed {
			act = answeredAction(call.Output)
		}
		switch {
		case abort:
			why = fmt.Sprintf("failed under on_error: %s", hk.OnError)
		case !failed && (act == engine.ActionStop || act == engine.ActionSkip):
			why = "answered action " + string(act)
		}
		skipped := !failed && eff.Action == engine.ActionSkip && name == PreToolExecution
		var notes []string
		if once {
			notes = append(notes, "jcli's code sends post_llm_response once, for the answer that ends the loop: not for this one")
		}
		if fw := filterNote(hk, name); fw != "" {
			notes = append(notes, "jcli's code never runs this hook here: "+fw)
		}
		if name == Stop && hk.Type == TypeBash {
			notes = append(notes, h.stopInputNote())
		}
		if hk.Type == TypeBash && !call.Reused {
			notes = append(notes, h.envNote(hk))
		}
		if abort {
			notes = append(notes, h.failedStop(name, &eff))
		} else if !failed {
			notes = append(notes, h.halting(name, &eff))
		}
		if skipped && !hold {
			notes = append(notes, h.skipNote(ev))
		}
		if len(unseen) > 0 {
			fields := strings.Join(unseen, ", ")
			if hold {
				notes = append(notes, "as seed 001 describes, this hook's input would include the earlier hooks' "+fields)
			} else {
				notes = append(notes, "jcli's code does not show this hook the earlier hooks' "+fields+": they reach only the chain's result")
			}
		}
		for _, n := range notes {
			call.Other = joinNotes(call.Other, n)
		}
		if why != "" && !hold {
			// Seed 001 applied the earlier answers already; jcli's code
			// would have dropped them.
			for _, ci := range changed {
				hc := &ev.Trace().HookCalls[ci]
				hc.Other = joinNotes(hc.Other, dropNote(hk.Name, why))
			}
		}
		if abort && i+1 < len(chain) {
			call.Warnings = append(call.Warnings, fmt.Sprintf("the %d hook(s) after it in the chain were not run", len(chain)-i-1))
		}
		h.metrics.Ran(hk.metric(), &call)
		if why != "" && hold {
			end = chainEnd{at: len(list), why: why}
		}
		ci := emit(hk, call, eff)
		if why != "" && !hold && !abort && !ev.Stopped() && i+1 < len(chain) {
			hc := &ev.Trace().HookCalls[ci]
			hc.Other = joinNotes(hc.Other, fmt.Sprintf("jcli's code ends the chain at a %s: the %d hook(s) after it would not run", act, len(chain)-i-1))
		}
		if !failed && why == "" {
			if hold {
				v.merge(eff)
			}
			for _, f := range unmerged(name, eff) {
				if !slices.Contains(unseen, f) {
					unseen = append(unseen, f)
				}
			}
		}
		if abort || (why != "" && hold) {
			h.countSkips(chain[i+1:])
			break
		}
	}
	return list, end, nil
}

// invoke runs one hook and returns its record and effect; failed says it
// errored or timed out. err is set only when the run itself was cancelled.
func (h *Handler) invoke(ctx, cctx context.Context, hk *Hook, name Event, ev *engine.Event, v *view) (engine.HookCall, engine.Effect, bool, error) {
	session := ev.Session
	if session == "" {
		session = h.opts.Session
	}
	call := engine.HookCall{System: System, Event: string(name), Hook: hk.Name, Source: hk.Source()}
	if hk.ZeroTimeout {
		if h.code() {
			// jcli waits 0 s for the hook (recv_timeout(0)): it times out at once.
			call.Outcome, call.Error = engine.OutcomeTimeout, "timed out at once: timeout: 0 (jcli's code waits 0 s)"
			call.Other = fmt.Sprintf("as Hook Studio reads seed 001, timeout: 0 would mean the default %s", hk.timeout())
			return call, engine.Effect{}, true, nil
		}
		call.Other = "jcli's code waits 0 s for a hook with timeout: 0: it would time out at once"
	}
	hctx, cancel := context.WithTimeout(cctx, hk.timeout())
	defer cancel()
	if hk.Type == TypeLLM {
		return h.invokeLLM(ctx, cctx, hctx, hk, name, ev, call, v)
	}
	hc := buildContext(name, ev, session, h.cfg.Root)
	if name == Stop && h.code() {
		// jcli's code: stop's user_input is the assistant's reply.
		answer := ev.Answer
		hc.UserInput = &answer
	}
	v.apply(&hc)
	stdin := marshal(hc)
	call.Input = stdin
	var key [32]byte
	var res process.Result
	reused := false
	if h.opts.Cache != nil {
		key = cacheKey([]byte(h.identity(hk)), stdin, h.filesHash(hk))
		res, reused = h.opts.Cache.get(key)
	}
	if !reused {
		env := append(slices.Clone(h.baseEnv), "PATH="+hk.Dir+string(os.PathListSeparator)+os.Getenv("PATH"),
			"JCLI_HOOK_EVENT="+string(name), "JCLI_CWD="+h.cfg.Root, "JCLI_HOOK_DIR="+hk.Dir)
		res = h.exec(hctx, process.Spec{Argv: []string{"/bin/sh", "-c", hk.Command}, Dir: h.cfg.Root, Env: env, Stdin: stdin,
			MaxStdout: process.HookStdout, MaxStderr: process.HookStderr})
		if err := ctx.Err(); err != nil {
			return call, engine.Effect{}, false, fmt.Errorf("command hooks: %w", err)
		}
		if h.opts.Cache != nil {
			h.opts.Cache.put(key, res)
		}
		call.DurationMS = float64(res.Duration.Microseconds()) / 1000
	}
	call.Reused = reused
	call.Stderr = string(res.Stderr)
	call.Truncated = res.Truncated
	if res.Err == nil && !res.TimedOut {
		code := res.ExitCode
		call.ExitCode = &code
	}
	setOutput(&call, res.Stdout)
	fail := func(outcome engine.Outcome, format string, args ...any) (engine.HookCall, engine.Effect, bool, error) {
		call.Outcome, call.Error = outcome, fmt.Sprintf(format, args...)
		return call, engine.Effect{}, true, nil
	}
	switch {
	case res.TimedOut && cctx.Err() != nil && hctx.Err() != nil && !deadlineBefore(hctx, cctx):
		return fail(engine.OutcomeTimeout, "killed: the chain's %s timeout ran out", h.opts.ChainTimeout)
	case res.TimedOut:
		return fail(engine.OutcomeTimeout, "killed after its %s timeout", hk.timeout())
	case res.Err != nil:
		return fail(engine.OutcomeError, "%v", res.Err)
	case res.ExitCode != 0:
		return fail(engine.OutcomeError, "exit status %d", res.ExitCode)
	case len(res.Stdout) >= process.HookStdout && res.Truncated:
		return fail(engine.OutcomeError, "stdout exceeded %d bytes and was cut; a HookResult is a small JSON object", process.HookStdout)
	}
	eff, warns, err := decodeResult(name, res.Stdout)
	if err != nil {
		return fail(engine.OutcomeError, "%v", err)
	}
	call.Warnings = warns
	return call, eff, false, nil
}

// deadlineBefore says whether a's deadline comes strictly before b's.
func deadlineBefore(a, b context.Context) bool {
	da, okA := a.Deadline()
	db, okB := b.Deadline()
	return okA && (!okB || da.Before(db))
}

func setOutput(call *engine.HookCall, out []byte) {
	trimmed := strings.TrimSpace(string(out))
	if trimmed != "" && json.Valid([]byte(trimmed)) {
		call.Output = json.RawMessage(trimmed)
	} else if trimmed != "" {
		call.OutputText = string(out)
	}
}

func (h *Handler) invokeLLM(ctx, cctx, hctx context.Context, hk *Hook, name Event, ev *engine.Event, call engine.HookCall, v *view) (engine.HookCall, engine.Effect, bool, error) {
	prompt := render(hk.Prompt, name, ev, h.cfg.Root, v)
	model := hk.Model
	if model == "" {
		model = ev.Model
	}
	if model == "" {
		model = "mock"
	}
	call.Input = marshal(prompt)
	var key [32]byte
	cacheable := h.opts.Completer != nil // a scripted answer depends on its order, so it is never reused
	if cacheable {
		key = cacheKey([]byte(h.identity(hk)), []byte(prompt), []byte(model))
		if res, ok := h.opts.Cache.get(key); ok {
			call.Reused = true
			setOutput(&call, res.Stdout)
			eff, warns, err := decodeResult(name, extractJSON(string(res.Stdout)))
			if err == nil {
				call.Warnings = warns
				return call, eff, false, nil
			}
		}
	}
	start := time.Now()
	ask := func() (string, error) {
		if h.opts.Completer != nil {
			return h.opts.Completer.Complete(hctx, model, prompt)
		}
		if err := hctx.Err(); err != nil {
			return "", err
		}
		return h.scripted.Answer(hk.qualified(), hk.Name)
	}
	var (
		answer string
		eff    engine.Effect
		warns  []string
		err    error
	)
	for attempt := 0; attempt < 2; attempt++ { // seed 001: one retry
		answer, err = ask()
		if err == nil {
			eff, warns, err = decodeResult(name, extractJSON(answer))
		}
		if err == nil || hctx.Err() != nil || errors.Is(err, answers.ErrNoAnswer) {
			break
		}
		if attempt == 0 {
			call.Warnings = append(call.Warnings, fmt.Sprintf("first attempt failed (%v); retried once", err))
		}
	}
	if cerr := ctx.Err(); cerr != nil {
		return call, engine.Effect{}, false, fmt.Errorf("command hooks: %w", cerr)
	}
	call.DurationMS = float64(time.Since(start).Microseconds()) / 1000
	setOutput(&call, []byte(answer))
	switch {
	case hctx.Err() != nil:
		call.Outcome, call.Error = engine.OutcomeTimeout, fmt.Sprintf("no answer within %s", hk.timeout())
		if cctx.Err() != nil && !deadlineBefore(hctx, cctx) {
			call.Error = fmt.Sprintf("no answer before the chain's %s timeout ran out", h.opts.ChainTimeout)
		}
		return call, engine.Effect{}, true, nil
	case err != nil:
		call.Outcome, call.Error = engine.OutcomeError, err.Error()
		return call, engine.Effect{}, true, nil
	}
	if cacheable {
		h.opts.Cache.put(key, process.Result{Stdout: []byte(answer)})
	}
	call.Warnings = append(call.Warnings, warns...)
	return call, eff, false, nil
}

// qualified is the hook's name under its scope, for hook_answers:
// "skill/name", "user/name", "project/name" or "session/name".
func (hk *Hook) qualified() string {
	if hk.Level == LevelSkill {
		return hk.Skill + "/" + hk.Name
	}
	return string(hk.Level) + "/" + hk.Name
}

// identity is what makes a hook the same hook for the cache.
func (h *Handler) identity(hk *Hook) string {
	return fmt.Sprintf("%s\x00%d\x00%s\x00%s\x00%s\x00%s\x00%s\x00%s\x00%d", hk.File, hk.Line, hk.Event, hk.Name, hk.Type, hk.Command, hk.Prompt, hk.Model, hk.Timeout)
}

// filesHash hashes what a bash hook may read of its own: the folder
// holding its hooks.yaml (JCLI_HOOK_DIR, recursively) and the program or
// script its command names inside the skills root. Hashes are computed
// once per run.
func (h *Handler) filesHash(hk *Hook) []byte {
	h.mu.Lock()
	defer h.mu.Unlock()
	var parts [][]byte
	if hk.Level != LevelSession {
		parts = append(parts, h.hashOf("dir:"+hk.Dir, func() [32]byte { return hashDir(hk.Dir) }))
	}
	for _, f := range commandFiles(hk, h.cfg.Root) {
		parts = append(parts, h.hashOf("file:"+f, func() [32]byte { return hashFile(f) }))
	}
	k := cacheKey(parts...)
	return k[:]
}

func (h *Handler) hashOf(key string, compute func() [32]byte) []byte {
	v, ok := h.hashes[key]
	if !ok {
		v = compute()
		h.hashes[key] = v
	}
	return v[:]
}

// Limits of a folder hash: a hook folder is a handful of scripts.
const (
	hashMaxFiles = 2000
	hashMaxBytes = 64 << 20
)

func hashDir(dir string) [32]byte {
	var parts [][]byte
	files, total := 0, int64(0)
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() {
			if p != dir && strings.HasPrefix(d.Name(), ".") {
				return filepath.SkipDir
			}
			return nil
		}
		if files >= hashMaxFiles || total >= hashMaxBytes {
			return filepath.SkipAll
		}
		if promptFile(d.Name()) {
			return nil
		}
		fi, err := d.Info()
		if err != nil || !fi.Mode().IsRegular() {
			return nil
		}
		files++
		total += fi.Size()
		data, _ := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		parts = append(parts, []byte(rel), []byte(fi.Mode().Perm().String()), data)
		return nil
	})
	return cacheKey(parts...)
}

// promptFile says whether a file of a hook folder belongs to the prompt
// hooks (seed 000): hooks.json and the .md texts. They are left out of the
// folder hash, so editing a prompt reruns only the command hooks whose
// input (the messages) changed; a command that reads a .md itself must
// name it on its command line (e.g. sh check.sh notes.md) to be rerun.
func promptFile(name string) bool {
	return name == "hooks.json" || strings.EqualFold(filepath.Ext(name), ".md")
}

func hashFile(f string) [32]byte {
	data, err := os.ReadFile(f)
	if err != nil {
		return cacheKey([]byte("missing"))
	}
	return cacheKey(data)
}

// commandFiles are the files a command names inside root (its programs
// when they are paths, an interpreter's script).
func commandFiles(hk *Hook, root string) []string {
	cmd, err := shellcmd.Parse(hk.Command)
	if err != nil {
		return nil
	}
	var out []string
	for _, p := range cmd.Programs {
		words := []shellcmd.Word{p.Word}
		if len(p.Args) > 0 {
			words = append(words, p.Args[0])
		}
		for _, w := range words {
			path, ok := resolveWord(w, hk.Dir, root)
			if !ok || !strings.ContainsAny(path, "/.") {
				continue
			}
			if !filepath.IsAbs(path) {
				path = filepath.Join(root, path)
			}
			if rel, err := filepath.Rel(root, path); err == nil && filepath.IsLocal(rel) && !slices.Contains(out, path) {
				out = append(out, path)
			}
		}
	}
	return out
}

// register handles a register_hook tool call: the hook is validated,
// added for the rest of the run, and the call answered in place of a tool.
func (h *Handler) register(ev *engine.Event) {
	if ev.Tool.Name == RegisterFlatTool {
		h.registerFlat(ev)
		return
	}
	args := ev.Tool.Arguments
	call := engine.HookCall{System: System, Event: RegisterTool, Hook: RegisterTool, Source: "tool call " + ev.Tool.ID, Input: marshal(args)}
	answer := func(text string) {
		ev.Apply(call, engine.Effect{Respond: &text})
	}
	event, hook, err := registerArgs(args)
	if err != nil {
		call.Outcome, call.Error = engine.OutcomeError, err.Error()
		answer("register_hook failed: " + err.Error())
		return
	}
	doc := marshal(map[string]any{event: []any{hook}})
	h.mu.Lock()
	n := len(h.session)
	h.mu.Unlock()
	file := fmt.Sprintf("session#%d", n+1)
	hooks, ds := Parse(file, doc)
	if len(hooks) == 1 {
		hooks[0].Level, hooks[0].Dir, hooks[0].File, hooks[0].Line = LevelSession, h.cfg.Root, "session", n+1
		if hooks[0].Name == fmt.Sprintf("%s[0]", event) {
			hooks[0].Name = fmt.Sprintf("session:%s[%d]", event, n)
		}
		ds = append(ds, checkCommand(&hooks[0], h.cfg.Root)...)
	}
	if diag.HasErrors(ds) || len(hooks) != 1 {
		var msgs []string
		for _, d := range ds {
			if d.Severity == diag.Error {
				msgs = append(msgs, d.Message+" ["+d.Code+"]")
			}
		}
		call.Outcome, call.Error = engine.OutcomeError, strings.Join(msgs, "; ")
		answer("register_hook failed: invalid hook: " + call.Error)
		return
	}
	hk := &hooks[0]
	if hk.Type == TypeBash && !h.trusted[hk.Command] {
		call.Outcome, call.Error = engine.OutcomeDenied, "the command is not among the commands the folder was trusted with"
		answer("register_hook refused: the command " + hk.Command + " was not trusted by the user")
		return
	}
	for _, d := range ds {
		call.Warnings = append(call.Warnings, d.Message+" ["+d.Code+"]")
	}
	h.mu.Lock()
	h.session = append(h.session, hk)
	h.mu.Unlock()
	call.Changes = []string{fmt.Sprintf("hook %s added for %s for the rest of the session", hk.Name, event)}
	answer("hook registered for " + event)
}

// registerArgs reads register_hook's arguments: event, and hook as an
// object or a string holding one.
func registerArgs(args map[string]any) (string, map[string]any, error) {
	event, _ := args["event"].(string)
	if event == "" {
		return "", nil, errors.New(`arguments need "event": the event name the hook is for`)
	}
	var hook map[string]any
	switch v := args["hook"].(type) {
	case map[string]any:
		hook = v
	case string:
		if err := json.Unmarshal([]byte(v), &hook); err != nil || hook == nil {
			return "", nil, errors.New(`"hook" is a string but not a JSON object`)
		}
	default:
		return "", nil, errors.New(`arguments need "hook": an object like {"command": "..."}`)
	}
	return event, hook, nil
}
