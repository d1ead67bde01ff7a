package claudehook

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"hookstudio/app/agent/engine"
	"hookstudio/app/agent/scenario"
	"hookstudio/app/agentdata/profile"
	"hookstudio/app/hooks/answers"
	"hookstudio/app/hooks/metrics"
	"hookstudio/app/hooks/process"
)

// Default timeouts, as Claude Code's.
const (
	DefaultCommandTimeout = 600 * time.Second
	DefaultPromptTimeout  = 30 * time.Second
	DefaultHTTPTimeout    = 30 * time.Second
)

// Options configure a Handler.
type Options struct {
	Config   *Config
	Scenario *scenario.Scenario
	// Completer answers prompt handlers in a real run (the profile's
	// model); nil: the scenario's hook_answers.
	Completer answers.Completer
	// HTTPClient posts http handlers' input (nil: a client of its own).
	HTTPClient *http.Client
	// Profile is how the chosen Claude Code version words and places hook
	// output for the model (nil: the newest bundled profile).
	Profile *profile.Profile
}

// Handler runs Claude Code's hooks at the engine's points.
type Handler struct {
	cfg      *Config
	sc       *scenario.Scenario
	complete answers.Completer
	scripted *answers.Scripted
	client   *http.Client
	loopback *http.Client // for handlers declared at a loopback URL, which ran without trust
	procs    *process.Group
	exec     func(ctx context.Context, s process.Spec) process.Result // procs.Run; a fake in benchmarks
	tmp      string                                                   // the run's folder: transcript, CLAUDE_ENV_FILE
	session  string
	started  time.Time // the session's start: the transcript's first time
	prof     *profile.Profile
	firing   firing // the event being read (Handle's goroutine only)

	mu            sync.Mutex
	used          map[string]bool // Claude Code skills the model used: their frontmatter hooks are on
	onceDone      map[string]bool
	stopActive    bool   // the previous stop of this request was blocked by a Stop hook
	prompt        int    // prompt_id counter (per user prompt)
	transcriptKey string // what the transcript file holds (writeTranscript)
	envFiles      int
	metrics       *metrics.Book
}

// New prepares the hooks of cfg for a run; Close it when the run ends.
func New(opts Options) (*Handler, error) {
	prof := opts.Profile
	if prof == nil {
		var err error
		if prof, err = profile.NewCatalog("").NewestBundled(profile.ClaudeCode); err != nil {
			return nil, fmt.Errorf("claude code hooks: %w", err)
		}
	}
	if err := checkProfile(prof); err != nil {
		return nil, fmt.Errorf("claude code hooks: %w", err)
	}
	tmp, err := os.MkdirTemp("", "hookstudio-claude-")
	if err != nil {
		return nil, fmt.Errorf("claude code hooks: run folder: %w", err)
	}
	var id [16]byte
	_, _ = rand.Read(id[:])
	s := hex.EncodeToString(id[:])
	h := &Handler{cfg: opts.Config, sc: opts.Scenario, complete: opts.Completer, client: opts.HTTPClient,
		procs: process.NewGroup(), tmp: tmp, used: map[string]bool{}, onceDone: map[string]bool{}, prof: prof,
		metrics: metrics.NewBook(System), started: time.Now(),
		session: s[0:8] + "-" + s[8:12] + "-" + s[12:16] + "-" + s[16:20] + "-" + s[20:32]}
	if h.client == nil {
		h.client = &http.Client{}
	}
	h.loopback = loopbackClient()
	h.exec = h.procs.Run
	var scripted map[string][]string
	if opts.Scenario != nil {
		scripted = opts.Scenario.HookAnswers
	}
	h.scripted = answers.NewScripted(scripted)
	return h, nil
}

// Close kills whatever hook still runs and removes the run's folder.
func (h *Handler) Close() error {
	h.procs.Close()
	h.loopback.CloseIdleConnections() // its own transport: nothing else closes them
	return os.RemoveAll(h.tmp)
}

// Config is the configuration the handler runs (for the skills panel).
func (h *Handler) Config() *Config { return h.cfg }

// Profile is the rendering profile the handler words hook output with.
func (h *Handler) Profile() *profile.Profile { return h.prof }

// Metrics are every handler's counters so far.
func (h *Handler) Metrics() []engine.HookMetric { return h.metrics.List() }

// count counts a handler's invocation: one that did not run for a reason
// (an error with a skipped outcome) is a skip.
func (h *Handler) count(hd *Hook, call *engine.HookCall) {
	m := metrics.Hook{Event: string(hd.Event), Name: hd.Name(), Source: hd.Source()}
	if call.Outcome == engine.OutcomeSkipped && call.Error != "" {
		h.metrics.Skipped(m)
		return
	}
	h.metrics.Ran(m, call)
}

// target is what a matcher filters at an event: the tool's name, the
// session's source, the compaction's trigger, the end's reason.
func target(event Event, ev *engine.Event) string {
	switch event {
	case SessionStart:
		return "startup"
	case PreCompact, PostCompact:
		return "auto"
	case SessionEnd:
		return "other"
	}
	if ev.Tool != nil {
		return ev.Tool.Name
	}
	return ""
}

// Handle fires the native event of ev's point.
func (h *Handler) Handle(ctx context.Context, ev *engine.Event) error {
	evs := eventsAt(ev.Point)
	if len(evs) == 0 {
		return nil
	}
	event := evs[0]
	switch ev.Point {
	case engine.PointAfterTool:
		if ev.Tool.Error != "" {
			event = PostToolUseFailure
		}
		defer h.noteSkillUse(ev)
	case engine.PointApproveTool:
		if !h.needsPermission(ev.Tool.Name) {
			return nil
		}
	case engine.PointBeforeSend:
		h.mu.Lock()
		h.prompt++
		h.stopActive = false
		h.mu.Unlock()
	}
	list := h.matching(event, ev)
	if len(list) == 0 {
		if event == Stop {
			h.setStopActive(false)
		}
		return nil
	}
	input, err := h.input(event, ev)
	if err != nil {
		return err
	}
	results := make([]result, len(list))
	var wg sync.WaitGroup
	for i, hd := range list {
		if !hd.Runs {
			continue
		}
		wg.Go(func() { results[i] = h.run(ctx, hd, event, input) })
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("claude code hooks: %w", err)
	}
	calls := make([]engine.HookCall, len(list))
	effs := make([]engine.Effect, len(list))
	denied := false
	h.firing = firing{}
	for i, hd := range list {
		h.firing.i = i
		calls[i], effs[i] = h.effect(hd, event, ev, input, results[i])
		denied = denied || effs[i].Action == engine.ActionDeny && calls[i].Outcome != engine.OutcomeAsked
	}
	h.join(effs) // several hooks' words the profile joins into one text

	blocked := false
	for i, hd := range list {
		call, eff := calls[i], effs[i]
		if denied && call.Outcome == engine.OutcomeAsked && eff.Action == engine.ActionDeny {
			// deny > ask: the tool result is the denying handler's reason
			eff.Action, eff.Reason = engine.ActionNone, ""
			eff.Extra = append(eff.Extra, "another handler denied the call: deny wins over ask")
		}
		if ev.Stopped() {
			eff.Action, eff.Reason = engine.ActionNone, ""
		}
		blocked = blocked || eff.RetryFeedback != "" || len(eff.Feedback) > 0
		h.count(hd, &call)
		ev.Apply(call, eff)
		if hd.Once && results[i].ran && results[i].res.ExitCode == 0 {
			h.mu.Lock()
			h.onceDone[hd.identity()] = true // Claude Code drops a once handler after a run that did not block
			h.mu.Unlock()
		}
	}
	if event == Stop {
		h.setStopActive(blocked)
	}
	return nil
}

func (h *Handler) setStopActive(v bool) {
	h.mu.Lock()
	h.stopActive = v
	h.mu.Unlock()
}

// noteSkillUse turns on a skill's frontmatter hooks once the model used
// it through the Skill tool (Claude Code registers them then).
func (h *Handler) noteSkillUse(ev *engine.Event) {
	if ev.Tool == nil || ev.Tool.Name != "Skill" || ev.Tool.Error != "" {
		return
	}
	name, _ := ev.Tool.Arguments["skill"].(string)
	if name == "" {
		name, _ = ev.Tool.Arguments["command"].(string)
	}
	if name == "" {
		return
	}
	enabled := ev.EnabledSkills()
	h.mu.Lock()
	defer h.mu.Unlock()
	for s := range h.cfg.Skills {
		// A skill the request does not enable is not offered to the model:
		// using it registers nothing.
		if usedAs(s, name) && h.cfg.SkillOn(s, enabled) {
			h.used[s] = true
		}
	}
}

// needsPermission says whether Claude Code would ask before running the
// tool — in the simulated agent, the scenario's approval policy lists it.
func (h *Handler) needsPermission(tool string) bool {
	return h.sc != nil && h.sc.Approval != nil && contains(h.sc.Approval.Tools, tool)
}

// matching lists the handlers that fire for ev, in declaration order,
// identical handlers once.
func (h *Handler) matching(event Event, ev *engine.Event) []*Hook {
	var out []*Hook
	seen := map[string]bool{}
	tgt := target(event, ev)
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, hd := range h.cfg.Active(ev.EnabledSkills()) {
		if hd.Event != event || seen[hd.identity()] || h.onceDone[hd.identity()] || (hd.UsedSkill != "" && !h.used[hd.UsedSkill]) {
			continue
		}
		if event.HasMatcher() && !hd.match(tgt) {
			continue
		}
		if hd.If != "" && (hd.rule == nil || !event.HasIf() || ev.Tool == nil || !ruleMatches(*hd.rule, ev.Tool.Name, ev.Tool.Arguments)) {
			continue
		}
		seen[hd.identity()] = true
		out = append(out, hd)
	}
	return out
}

// result is how one handler's run ended.
type result struct {
	ran    bool
	res    process.Result
	text   string // a prompt's answer, an http body
	status int    // http
	err    error  // prompt / http failure
}

func (h *Handler) timeout(hd *Hook) time.Duration {
	if hd.Timeout > 0 {
		return time.Duration(hd.Timeout) * time.Second
	}
	switch hd.Type {
	case TypePrompt:
		return DefaultPromptTimeout
	case TypeHTTP:
		return DefaultHTTPTimeout
	}
	return DefaultCommandTimeout
}

func (h *Handler) run(ctx context.Context, hd *Hook, event Event, input []byte) result {
	cctx, cancel := context.WithTimeout(ctx, h.timeout(hd))
	defer cancel()
	switch hd.Type {
	case TypeCommand:
		argv := []string{"/bin/sh", "-c", hd.Command}
		if len(hd.Args) > 0 {
			argv = append([]string{hd.Command}, hd.Args...)
		}
		return result{ran: true, res: h.exec(cctx, process.Spec{Argv: argv, Dir: h.cfg.Root, Env: h.env(hd, event), Stdin: input,
			MaxStdout: process.HookStdout, MaxStderr: process.HookStderr})}
	case TypePrompt:
		start := time.Now()
		prompt := strings.ReplaceAll(hd.Prompt, "$ARGUMENTS", string(input))
		var text string
		var err error
		if h.complete != nil {
			text, err = h.complete.Complete(cctx, hd.Model, prompt)
		} else {
			first, _, _ := strings.Cut(hd.Prompt, "\n")
			text, err = h.scripted.Answer(string(event), first)
		}
		r := result{ran: true, text: text, err: err, res: process.Result{Duration: time.Since(start), TimedOut: errors.Is(cctx.Err(), context.DeadlineExceeded)}}
		return r
	case TypeHTTP:
		return h.post(cctx, hd, input)
	}
	return result{}
}

func (h *Handler) post(ctx context.Context, hd *Hook, input []byte) result {
	start := time.Now()
	r := result{ran: true}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, hd.URL, bytes.NewReader(input))
	if err != nil {
		r.err = err
		return r
	}
	req.Header.Set("Content-Type", "application/json")
	client := h.client
	if !hd.NeedsTrust() {
		client = h.loopback
	}
	resp, err := client.Do(req)
	r.res.Duration = time.Since(start)
	if err != nil {
		r.err, r.res.TimedOut = err, errors.Is(ctx.Err(), context.DeadlineExceeded)
		return r
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, process.HookStdout))
	r.status, r.text = resp.StatusCode, string(body)
	return r
}

// errNotLoopback: a handler declared at a loopback URL tried to reach
// another machine (a redirect, a name that resolves elsewhere, a proxy).
var errNotLoopback = errors.New("a hook declared at a loopback URL may only connect to this machine")

// loopbackClient connects only to loopback addresses, whatever the name
// resolves to or a redirect says, and through no proxy: the folder was not
// trusted to send the session anywhere else.
func loopbackClient() *http.Client {
	d := &net.Dialer{Control: func(_, address string, _ syscall.RawConn) error {
		host, _, err := net.SplitHostPort(address)
		if ip := net.ParseIP(host); err != nil || ip == nil || !ip.IsLoopback() {
			return errNotLoopback // the dial error names the address
		}
		return nil
	}}
	return &http.Client{Transport: &http.Transport{DialContext: d.DialContext}}
}

// env is what a command handler gets: Hook Studio's environment less its
// keys, and Claude Code's variables.
func (h *Handler) env(hd *Hook, event Event) []string {
	env := append(process.Inherited("CLAUDE_PROJECT_DIR", "CLAUDE_PLUGIN_ROOT", "CLAUDE_ENV_FILE", "CLAUDECODE"),
		"CLAUDECODE=1", "CLAUDE_PROJECT_DIR="+h.cfg.Root, "CLAUDE_CODE_SESSION_ID="+h.session)
	if hd.Plugin != "" {
		env = append(env, "CLAUDE_PLUGIN_ROOT="+hd.Plugin)
	}
	if event == SessionStart {
		h.mu.Lock()
		n := h.envFiles
		h.envFiles++
		h.mu.Unlock()
		env = append(env, "CLAUDE_ENV_FILE="+filepath.Join(h.tmp, "session-env", fmt.Sprintf("sessionstart-hook-%d.sh", n)))
		_ = os.MkdirAll(filepath.Join(h.tmp, "session-env"), 0o700)
	}
	return env
}

// Hooks describes every handler for the skills panel and breakpoints.
func (c *Config) HookInfos() []engine.HookInfo {
	out := []engine.HookInfo{}
	for i := range c.Hooks {
		hd := &c.Hooks[i]
		detail := hd.CommandLine()
		switch hd.Type {
		case TypePrompt:
			detail = hd.Prompt
		case TypeHTTP:
			detail = "POST " + hd.URL
		}
		if hd.If != "" {
			detail = "if " + hd.If + ": " + detail
		}
		if hd.Matcher != "" && hd.Matcher != "*" {
			detail = hd.Matcher + " · " + detail
		}
		out = append(out, engine.HookInfo{System: System, Event: string(hd.Event), Hook: hd.Name(), Skill: hd.Skill, Source: hd.Source(), Detail: detail})
	}
	return out
}

// Command is one thing a run would execute, for the trust prompt.
type Command struct {
	Source  string `json:"source"`
	Event   string `json:"event"`
	Command string `json:"command"`
	Skill   string `json:"skill,omitempty"`
	Dir     string `json:"dir"`
}

// Commands lists every handler that needs trust to run (NeedsTrust).
func (c *Config) Commands(enabled []string) []Command {
	var out []Command
	for _, hd := range c.Active(enabled) {
		if !hd.Runs || !hd.NeedsTrust() {
			continue
		}
		text := hd.CommandLine()
		if hd.Type == TypeHTTP {
			text = "POST " + hd.URL
		}
		out = append(out, Command{Source: hd.Source(), Event: string(hd.Event), Command: text, Skill: hd.Skill, Dir: c.Root})
	}
	return out
}

func marshal(v any) []byte {
	b, _ := json.Marshal(v)
	return b
}
