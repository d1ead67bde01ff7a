package qwenhook

import (
	"context"
	"encoding/json"
	"fmt"
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
	"hookstudio/app/hooks/hookrun"
	"hookstudio/app/hooks/process"
)

// Options configure a Handler.
type Options = hookrun.Options[*Config]

// Handler runs Qwen Code's hooks at the engine's points.
type Handler struct {
	*hookrun.Run
	cfg  *Config
	sc   *scenario.Scenario
	prof *profile.Profile

	mu         sync.Mutex
	prompts    int
	stopActive bool
}

// New prepares cfg's hooks for a run; Close it when the run ends.
func New(opts Options) (*Handler, error) {
	prof, err := hookrun.NewestOr(opts.Profile, System)
	if err != nil {
		return nil, err
	}
	run, err := hookrun.NewRun(System, "qwen code hooks", hookrun.UUID())
	if err != nil {
		return nil, err
	}
	return &Handler{Run: run, cfg: opts.Config, sc: opts.Scenario, prof: prof}, nil
}

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
	event := eventAt[ev.Point]
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
	runs := func(i int) bool { return list[i].Runs }
	do := func(i int) { results[i] = h.run(ctx, list[i], event, input) }
	if slices.ContainsFunc(list, func(hd *Hook) bool { return hd.Sequential }) {
		for i := range list {
			if runs(i) {
				do(i)
			}
		}
	} else {
		hookrun.Parallel(len(list), runs, do)
	}
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
		h.Apply(ev, hd.Event, hd.Label(), hd.Source(), call, eff)
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
	env := append(process.Inherited("QWEN_PROJECT_DIR", "CLAUDE_PROJECT_DIR", "GEMINI_PROJECT_DIR"),
		"GEMINI_PROJECT_DIR="+hd.Dir, "CLAUDE_PROJECT_DIR="+hd.Dir, "QWEN_PROJECT_DIR="+hd.Dir)
	for k, v := range hd.Env {
		env = append(env, k+"="+v)
	}
	res := h.Exec(ctx, time.Duration(hd.timeoutMS())*time.Millisecond, []string{"bash", "-c", hd.Command}, hd.Dir, env, input)
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
	if !hd.Runs {
		return h.Skipped(name, hd.Label(), hd.Source(), hd.Why, input)
	}
	call := h.Call(name, hd.Label(), hd.Source(), input, r.res)
	code := r.res.ExitCode
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

// opening are the keys of Qwen Code's stdin that open every event.
var opening = []string{"session_id", "transcript_path", "cwd", "hook_event_name", "timestamp", "permission_mode:=default"}

// stdin is each event's stdin with the keys Qwen Code 0.24.4 sends, in
// its order (seen against capture).
var stdin = hookrun.Stdin{
	SessionStart:       hookrun.Keys(opening, []string{"source:=startup", "model"}),
	UserPromptSubmit:   hookrun.Keys(opening, []string{"prompt_id", "prompt", "submitted_prompt"}),
	PreToolUse:         hookrun.Keys(opening, []string{"prompt_id", "tool_name", "tool_input", "tool_use_id", "tool_call_id=tool_use_id"}),
	PermissionRequest:  hookrun.Keys(opening, []string{"prompt_id", "tool_name", "tool_input"}),
	PostToolUse:        hookrun.Keys(opening, []string{"prompt_id", "tool_name", "tool_input", "tool_response", "tool_use_id", "tool_call_id=tool_use_id", "duration_ms"}),
	PostToolUseFailure: hookrun.Keys(opening, []string{"prompt_id", "tool_use_id", "tool_call_id=tool_use_id", "tool_name", "tool_input", "error", "is_interrupt", "duration_ms"}),
	PostToolBatch:      hookrun.Keys(opening, []string{"prompt_id", "tool_calls"}),
	Stop:               hookrun.Keys(opening, []string{"prompt_id", "stop_hook_active", "last_assistant_message", "background_tasks", "crons"}),
	PreCompact:         hookrun.Keys(opening, []string{"prompt_id", "trigger:=auto"}),
	PostCompact:        hookrun.Keys(opening, []string{"prompt_id", "trigger:=auto"}),
	SessionEnd:         hookrun.Keys(opening, []string{"reason:=other"}),
}

// input is an event's stdin.
func (h *Handler) input(event string, ev *engine.Event, prompt, cwd string) []byte {
	h.mu.Lock()
	promptID := fmt.Sprintf("%s########%d", h.Session, max(0, h.prompts-1))
	stopActive := h.stopActive
	h.mu.Unlock()
	model := ev.Model
	if model == "" {
		model = "mock"
	}
	v := hookrun.Values{
		"session_id": h.Session, "transcript_path": filepath.Join(h.Dir, h.Session+".jsonl"), "cwd": cwd, "hook_event_name": event,
		"timestamp": time.Now().UTC().Format("2006-01-02T15:04:05.000Z"), "prompt_id": promptID, "model": model,
		"prompt": prompt, "stop_hook_active": stopActive, "last_assistant_message": ev.Answer,
		"background_tasks": []any{}, "crons": []any{}, "is_interrupt": false, "duration_ms": 0,
		"submitted_prompt": func() any {
			if strings.TrimSpace(prompt) == "" {
				return hookrun.Omit{}
			}
			return prompt
		},
		"tool_name":     func() any { return ev.Tool.Name },
		"tool_input":    func() any { return orEmpty(ev.Tool.Arguments) },
		"tool_use_id":   func() any { return ev.Tool.ID },
		"tool_response": func() any { return map[string]string{"llmContent": ev.Tool.Result, "returnDisplay": ev.Tool.Result} },
		"error":         func() any { return ev.Tool.Error },
		"tool_calls": func() any {
			calls := []any{}
			for _, tc := range ev.ToolCalls {
				status := "success"
				if tc.Error != "" {
					status = "error"
				}
				calls = append(calls, map[string]any{"tool_name": tc.Name, "tool_input": orEmpty(tc.Arguments), "tool_use_id": tc.ID, "tool_call_id": tc.ID, "status": status})
			}
			return calls
		},
	}
	// the keys in the calibrated CLI's order, when a request model has one
	return ev.RequestModel().OrderStdin(event, stdin.Build(event, v).JSON())
}

func orEmpty(m map[string]any) map[string]any {
	if m == nil {
		return map[string]any{}
	}
	return m
}
