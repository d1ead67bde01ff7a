package qwenhook

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"hookstudio/app/agent/engine"
	"hookstudio/app/agent/scenario"
	"hookstudio/app/agentdata/profile"
	"hookstudio/app/hooks/ccshape"
	"hookstudio/app/hooks/metrics"
	"hookstudio/app/hooks/process"
)

// Options configure a Handler.
type Options struct {
	Config   *Config
	Scenario *scenario.Scenario
	// Profile is how the Qwen Code version words and places hook output
	// (nil: the newest bundled profile).
	Profile *profile.Profile
}

// Handler runs Qwen Code's hooks at the engine's points.
type Handler struct {
	cfg     *Config
	sc      *scenario.Scenario
	prof    *profile.Profile
	procs   *process.Group
	metrics *metrics.Book
	tmp     string
	session string

	mu         sync.Mutex
	prompts    int
	stopActive bool
}

// New prepares cfg's hooks for a run; Close it when the run ends.
func New(opts Options) (*Handler, error) {
	prof := opts.Profile
	if prof == nil {
		var err error
		if prof, err = profile.NewCatalog("").NewestBundled(System); err != nil {
			return nil, fmt.Errorf("qwen code hooks: %w", err)
		}
	}
	tmp, err := os.MkdirTemp("", "hookstudio-qwen-")
	if err != nil {
		return nil, fmt.Errorf("qwen code hooks: run folder: %w", err)
	}
	var b [16]byte
	_, _ = rand.Read(b[:])
	return &Handler{cfg: opts.Config, sc: opts.Scenario, prof: prof, procs: process.NewGroup(), metrics: metrics.NewBook(System), tmp: tmp,
		session: fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])}, nil
}

// Close kills whatever hook still runs and removes the run's folder.
func (h *Handler) Close() error {
	h.procs.Close()
	return os.RemoveAll(h.tmp)
}

// Metrics are every hook's counters so far.
func (h *Handler) Metrics() []engine.HookMetric { return h.metrics.List() }

// Profile is the rendering profile the handler words hook output with.
func (h *Handler) Profile() *profile.Profile { return h.prof }

// aliases are a tool's other names a matcher may use (Qwen Code's
// TOOL_NAME_ALIASES, the Claude Code names among them).
var aliases = map[string][]string{
	"run_shell_command": {"Shell", "ShellTool", "Bash"},
	"edit":              {"Edit", "EditTool"},
	"write_file":        {"WriteFile", "WriteFileTool", "Write"},
	"read_file":         {"ReadFile", "ReadFileTool", "Read"},
	"grep_search":       {"Grep", "GrepTool", "search_file_content", "SearchFiles"},
	"glob":              {"Glob", "GlobTool", "FindFiles"},
	"list_directory":    {"ListFiles", "ListFilesTool", "ReadFolder"},
	"todo_write":        {"TodoList", "TodoWrite"},
}

// Handle fires the event of ev's point.
func (h *Handler) Handle(ctx context.Context, ev *engine.Event) error {
	event := eventAt(ev.Point)
	if event == "" {
		return nil
	}
	switch ev.Point {
	case engine.PointApproveTool:
		if h.sc == nil || h.sc.Approval == nil || !slices.Contains(h.sc.Approval.Tools, ev.Tool.Name) {
			return nil
		}
	case engine.PointAfterTool:
		if ev.Tool.Error != "" {
			event = PostToolUseFailure
		}
	case engine.PointBeforeSend:
		h.mu.Lock()
		h.prompts++
		h.stopActive = false
		h.mu.Unlock()
	}
	merged, err := h.fire(ctx, event, ev, ev.UserInput)
	if err != nil {
		return err
	}
	switch {
	case ev.Point == engine.PointAfterTools && !ev.Stopped():
		// the results go back to the model as a new turn: UserPromptSubmit
		// fires again, with an empty prompt (seen on 0.24.4)
		_, err = h.fire(ctx, UserPromptSubmit, ev, "")
	case ev.Point == engine.PointStop && merged != nil:
		h.mu.Lock()
		h.stopActive = merged.blocked
		h.mu.Unlock()
		if merged.blocked {
			// the reason is the next user message, and UserPromptSubmit fires on it
			_, err = h.fire(ctx, UserPromptSubmit, ev, merged.reason())
		}
	}
	return err
}

// result is one hook's run, its output as Qwen Code reads it.
type result struct {
	res    process.Result
	out    *output
	ran    bool
	errMsg string
}

// fire runs the hooks of event that match (together, or one by one when a
// group asks for it), records each, and applies their merged output; it
// returns the merged output (nil when no hook matched).
func (h *Handler) fire(ctx context.Context, event string, ev *engine.Event, prompt string) (*output, error) {
	list := h.matching(event, ev)
	if len(list) == 0 {
		return nil, nil
	}
	input := h.input(event, ev, prompt, list[0].Dir)
	results := make([]result, len(list))
	sequential := slices.ContainsFunc(list, func(hd *Hook) bool { return hd.Sequential })
	var wg sync.WaitGroup
	for i, hd := range list {
		if !hd.Runs {
			continue
		}
		if sequential {
			results[i] = h.run(ctx, hd, event, input)
			continue
		}
		wg.Go(func() { results[i] = h.run(ctx, hd, event, input) })
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("qwen code hooks: %w", err)
	}
	var outs []*output
	last := -1
	for i, r := range results {
		if r.out != nil {
			outs = append(outs, r.out)
			last = i
		}
	}
	merged := merge(outs)
	for i, hd := range list {
		call := h.call(hd, event, ev, input, results[i])
		var eff engine.Effect
		if i == last {
			eff = h.effect(event, ev, merged, prompt, &call)
			if len(outs) > 1 {
				eff.Extra = append(eff.Extra, fmt.Sprintf("the outputs of %d hooks merged as Qwen Code merges them (contexts and reasons joined by a newline)", len(outs)))
			}
		}
		m := metrics.Hook{Event: hd.Event, Name: hd.Label(), Source: hd.Source()}
		if call.Outcome == engine.OutcomeSkipped {
			h.metrics.Skipped(m)
		} else {
			h.metrics.Ran(m, &call)
		}
		ev.Apply(call, eff)
	}
	return &merged, nil
}

func (h *Handler) matching(event string, ev *engine.Event) []*Hook {
	var subject string
	var alias []string
	switch event {
	case SessionStart:
		subject = "startup"
	case SessionEnd:
		subject = "other"
	case PreCompact, PostCompact:
		subject = "auto"
	case PreToolUse, PermissionRequest, PostToolUse, PostToolUseFailure:
		subject, alias = ev.Tool.Name, aliases[ev.Tool.Name]
	}
	enabled := ev.EnabledSkills()
	var out []*Hook
	seen := map[string]bool{}
	for _, user := range []bool{false, true} { // project before user
		for i := range h.cfg.Hooks {
			hd := &h.cfg.Hooks[i]
			if hd.user != user || hd.Event != event || hd.Skill != "" && enabled != nil && !slices.Contains(enabled, hd.Skill) {
				continue
			}
			if dialect.HasMatcher(event) && subject != "" && hd.Matcher != "" && !hd.match(subject, alias...) {
				continue
			}
			if key := hd.Name + ":" + hd.Command; seen[key] { // identical hooks run once
				continue
			} else {
				seen[key] = true
			}
			out = append(out, hd)
		}
	}
	return out
}

var ansi = regexp.MustCompile(`\x1b\[[0-9;?]*[ -/]*[@-~]|[\x00-\x08\x0b-\x1f\x7f]`)

func (h *Handler) run(ctx context.Context, hd *Hook, event string, input []byte) result {
	cctx, cancel := context.WithTimeout(ctx, time.Duration(hd.timeoutMS())*time.Millisecond)
	defer cancel()
	env := append(process.Inherited("QWEN_PROJECT_DIR", "CLAUDE_PROJECT_DIR", "GEMINI_PROJECT_DIR"),
		"GEMINI_PROJECT_DIR="+hd.Dir, "CLAUDE_PROJECT_DIR="+hd.Dir, "QWEN_PROJECT_DIR="+hd.Dir)
	for k, v := range hd.Env {
		env = append(env, k+"="+v)
	}
	res := h.procs.Run(cctx, process.Spec{Argv: []string{"bash", "-c", hd.Command}, Dir: hd.Dir, Env: env, Stdin: input,
		MaxStdout: process.HookStdout, MaxStderr: process.HookStderr})
	r := result{res: res, ran: true}
	if res.TimedOut || res.Err != nil {
		return r
	}
	// hookRunner.ts: exit 2 reads stderr, else stdout (or stderr when it
	// printed nothing); JSON is the output, other text becomes one
	stdout, stderr := strings.TrimSpace(string(res.Stdout)), strings.TrimSpace(string(res.Stderr))
	text, fromStdout := stdout, stdout != ""
	if res.ExitCode == 2 || text == "" {
		text, fromStdout = stderr, false
	}
	if res.ExitCode == 2 {
		fromStdout = false
	}
	if text == "" {
		return r
	}
	var o output
	if json.Unmarshal([]byte(text), &o) == nil && strings.HasPrefix(text, "{") {
		r.out = &o
		return r
	}
	if strings.HasPrefix(text, "{") && res.ExitCode != 2 {
		r.errMsg = "the hook printed output that starts like a JSON object but is not valid JSON: Qwen Code ignores it"
		return r
	}
	switch {
	case res.ExitCode == 0 && fromStdout && slices.Contains(contextEvents, event):
		clean := ansi.ReplaceAllString(text, "")
		r.out = &output{Decision: "allow", Specific: &specific{AdditionalContext: &clean}}
	case res.ExitCode == 0:
		r.out = &output{Decision: "allow", SystemMessage: text}
	case res.ExitCode == 2:
		r.out = &output{Decision: "deny", Reason: text}
	default:
		r.out = &output{Decision: "allow", SystemMessage: "Warning: " + text}
	}
	return r
}

// call records one hook's run.
func (h *Handler) call(hd *Hook, event string, ev *engine.Event, input []byte, r result) engine.HookCall {
	name := event
	if ev.Tool != nil && (event == PreToolUse || event == PostToolUse || event == PostToolUseFailure || event == PermissionRequest) {
		name += ":" + ev.Tool.Name
	}
	call := engine.HookCall{System: System, Event: name, Hook: hd.Label(), Source: hd.Source(), Input: input,
		DurationMS: float64(r.res.Duration.Microseconds()) / 1000, Outcome: engine.OutcomeOK, Truncated: r.res.Truncated}
	if !hd.Runs {
		call.Outcome, call.Error = engine.OutcomeSkipped, "not run: "+hd.Why
		return call
	}
	code := r.res.ExitCode
	call.ExitCode, call.Stderr = &code, string(r.res.Stderr)
	stdout := strings.TrimSpace(string(r.res.Stdout))
	if json.Valid([]byte(stdout)) && strings.HasPrefix(stdout, "{") {
		call.Output = json.RawMessage(stdout)
	} else {
		call.OutputText = stdout
	}
	switch {
	case r.res.TimedOut:
		call.Outcome, call.Error = engine.OutcomeTimeout, fmt.Sprintf("Hook timed out after %gs: Qwen Code goes on without it", float64(hd.timeoutMS())/1000)
	case r.res.Err != nil:
		call.Outcome, call.Error = engine.OutcomeError, r.res.Err.Error()
	case r.errMsg != "":
		call.Outcome, call.Error = engine.OutcomeError, r.errMsg
	case code == 2:
		call.Outcome = engine.OutcomeBlocked
	case code != 0:
		call.Outcome, call.Error = engine.OutcomeError, fmt.Sprintf("exit %d: a non-blocking error — Qwen Code shows the output to the user and goes on (only exit 2 blocks)", code)
	case r.out != nil && r.out.blockedAt(event):
		call.Outcome = engine.OutcomeBlocked
	}
	if r.out != nil && r.out.SystemMessage != "" && r.out.context() == nil && !slices.Contains(contextEvents, event) && call.OutputText != "" && code == 0 {
		call.Warnings = append(call.Warnings, fmt.Sprintf("Qwen Code shows a plain stdout of a %s hook to the user only: the model never reads it; print JSON with hookSpecificOutput.additionalContext", event))
	}
	if event == PreToolUse && r.out != nil && r.out.context() != nil {
		call.Warnings = append(call.Warnings, "Qwen Code drops a PreToolUse hook's additionalContext: the model never reads it")
	}
	return call
}

// effect is what the event's merged output does, placed by the profile.
func (h *Handler) effect(event string, ev *engine.Event, o output, prompt string, call *engine.HookCall) engine.Effect {
	var eff engine.Effect
	ctx := o.context()
	v := func(text string) profile.Values {
		vv := profile.Values{Event: event, Text: text, Prompt: prompt}
		if ev.Tool != nil {
			vv.Tool = ev.Tool.Name
		}
		return vv
	}
	render := func(id string, text string) { ccshape.Render(&eff, ev.Point, h.prof.Outcome(id), v(text)) }
	if o.SystemMessage != "" {
		eff.Notice = o.SystemMessage
	}
	stopped := o.Continue != nil && !*o.Continue
	switch event {
	case SessionStart:
		if ctx != nil {
			render(profile.ID(SessionStart, profile.KindContext), *ctx)
		}
	case UserPromptSubmit:
		if o.blockedAt(event) || stopped {
			if ev.Point == engine.PointBeforeSend {
				eff.Action, eff.Reason = engine.ActionStop, o.effectiveReason()
				eff.Extra = append(eff.Extra, "the prompt is blocked: no model call; qwen -p prints nothing and exits 0")
			}
			break
		}
		if ctx != nil {
			render(profile.ID(UserPromptSubmit, profile.KindContext), *ctx)
		}
	case PreToolUse:
		switch d := o.permissionDecision(); {
		case d == "deny":
			render(profile.ID(PreToolUse, profile.KindDeny), o.permissionReason())
			if eff.Action != engine.ActionDeny {
				eff.Action, eff.Reason = engine.ActionDeny, o.permissionReason()
			}
		case d == "ask":
			eff.Action, eff.Reason = engine.ActionDeny, orText(ccshape.Str(o.specific().PermissionDecisionReason), "User confirmation required")
			eff.Extra = append(eff.Extra, "asked for confirmation: with nobody to ask the tool does not run")
		case stopped:
			eff.Action, eff.Reason = engine.ActionStop, o.effectiveReason()
		}
	case PermissionRequest:
		if d := o.specific().Decision; d != nil {
			yes := d.Behavior == "allow"
			eff.Approved, eff.Reason = &yes, ccshape.Str(d.Message)
		}
	case PostToolUse, PostToolUseFailure:
		if ctx != nil {
			id := profile.ID(event, profile.KindContext)
			if h.prof.Outcome(id) == nil {
				id = profile.ID(PostToolUse, profile.KindContext) // PostToolUseFailure's was not measured: PostToolUse's
			}
			render(id, *ctx)
		}
		if o.blockedAt(PostToolBatch) && !stopped {
			call.Warnings = append(call.Warnings, "Qwen Code ignores decision: block at PostToolUse: the tool's result stays as it was")
		}
		if stopped {
			eff.Action, eff.Reason = engine.ActionStop, o.effectiveReason()
		}
	case PostToolBatch:
		if ctx != nil {
			render(profile.ID(PostToolUse, profile.KindContext), *ctx) // appended to the last result, as PostToolUse's
		}
		if stopped || o.blockedAt(PostToolBatch) {
			eff.Action, eff.Reason = engine.ActionStop, o.effectiveReason()
		}
	case Stop:
		switch {
		case stopped:
			eff.Action, eff.Reason = engine.ActionStop, o.effectiveReason()
		case o.blocked:
			render(profile.ID(Stop, profile.KindBlock), o.reason())
			if eff.RetryFeedback == "" {
				eff.RetryFeedback = o.reason()
			}
		}
	}
	return eff
}

func orText(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// input is an event's stdin with the keys Qwen Code 0.24.4 sends, in its
// order (seen against capture).
func (h *Handler) input(event string, ev *engine.Event, prompt, cwd string) []byte {
	h.mu.Lock()
	promptID := fmt.Sprintf("%s########%d", h.session, max(0, h.prompts-1))
	stopActive := h.stopActive
	h.mu.Unlock()
	f := ccshape.Fields{}
	f.Add("session_id", h.session)
	f.Add("transcript_path", filepath.Join(h.tmp, h.session+".jsonl"))
	f.Add("cwd", cwd)
	f.Add("hook_event_name", event)
	f.Add("timestamp", time.Now().UTC().Format("2006-01-02T15:04:05.000Z"))
	f.Add("permission_mode", "default")
	if event != SessionStart && event != SessionEnd {
		f.Add("prompt_id", promptID)
	}
	model := ev.Model
	if model == "" {
		model = "mock"
	}
	tool := func() {
		f.Add("tool_name", ev.Tool.Name)
		f.Add("tool_input", orEmpty(ev.Tool.Arguments))
	}
	switch event {
	case SessionStart:
		f.Add("source", "startup")
		f.Add("model", model)
	case UserPromptSubmit:
		f.Add("prompt", prompt)
		if strings.TrimSpace(prompt) != "" {
			f.Add("submitted_prompt", prompt)
		}
	case PreToolUse, PermissionRequest:
		tool()
		if event == PreToolUse {
			f.Add("tool_use_id", ev.Tool.ID)
			f.Add("tool_call_id", ev.Tool.ID)
		}
	case PostToolUse:
		tool()
		f.Add("tool_response", map[string]string{"llmContent": ev.Tool.Result, "returnDisplay": ev.Tool.Result})
		f.Add("tool_use_id", ev.Tool.ID)
		f.Add("tool_call_id", ev.Tool.ID)
		f.Add("duration_ms", 0)
	case PostToolUseFailure:
		f.Add("tool_use_id", ev.Tool.ID)
		f.Add("tool_call_id", ev.Tool.ID)
		tool()
		f.Add("error", ev.Tool.Error)
		f.Add("is_interrupt", false)
		f.Add("duration_ms", 0)
	case PostToolBatch:
		calls := []any{}
		for _, tc := range ev.ToolCalls {
			status := "success"
			if tc.Error != "" {
				status = "error"
			}
			calls = append(calls, map[string]any{"tool_name": tc.Name, "tool_input": orEmpty(tc.Arguments), "tool_use_id": tc.ID, "tool_call_id": tc.ID, "status": status})
		}
		f.Add("tool_calls", calls)
	case Stop:
		f.Add("stop_hook_active", stopActive)
		f.Add("last_assistant_message", ev.Answer)
		f.Add("background_tasks", []any{})
		f.Add("crons", []any{})
	case PreCompact, PostCompact:
		f.Add("trigger", "auto")
	case SessionEnd:
		f.Add("reason", "other")
	}
	return ev.RequestModel().OrderStdin(event, f.JSON()) // the calibrated CLI's order, when there is one
}

func orEmpty(m map[string]any) map[string]any {
	if m == nil {
		return map[string]any{}
	}
	return m
}
