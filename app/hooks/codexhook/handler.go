package codexhook

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
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
	// Profile is how the Codex version words and places hook output (nil:
	// the newest bundled profile).
	Profile *profile.Profile
}

// Handler runs Codex's hooks at the engine's points.
type Handler struct {
	cfg     *Config
	sc      *scenario.Scenario
	prof    *profile.Profile
	procs   *process.Group
	metrics *metrics.Book
	tmp     string // the run's folder: the transcript
	session string
	shell   string

	mu         sync.Mutex
	turn       string
	stopActive bool
	requests   int
}

// New prepares cfg's hooks for a run; Close it when the run ends.
func New(opts Options) (*Handler, error) {
	prof := opts.Profile
	if prof == nil {
		var err error
		if prof, err = profile.NewCatalog("").NewestBundled(System); err != nil {
			return nil, fmt.Errorf("codex hooks: %w", err)
		}
	}
	tmp, err := os.MkdirTemp("", "hookstudio-codex-")
	if err != nil {
		return nil, fmt.Errorf("codex hooks: run folder: %w", err)
	}
	shell := os.Getenv("SHELL")
	if shell == "" {
		shell = "/bin/sh"
	}
	return &Handler{cfg: opts.Config, sc: opts.Scenario, prof: prof, procs: process.NewGroup(), metrics: metrics.NewBook(System),
		tmp: tmp, session: newID(), shell: shell}, nil
}

func newID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x70 // a v7-looking id, as Codex's thread ids
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
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

// toolName is the tool as Codex's hooks see it: its shell tool
// (exec_command, shell) is Bash with {"command": …}.
func toolName(tc *engine.ToolCall) (string, map[string]any) {
	args := tc.Arguments
	if args == nil {
		args = map[string]any{}
	}
	switch tc.Name {
	case "exec_command", "shell", "local_shell":
		cmd, _ := args["cmd"].(string)
		if cmd == "" {
			cmd, _ = args["command"].(string)
		}
		return "Bash", map[string]any{"command": cmd}
	}
	return tc.Name, args
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
			return nil // Codex asks (and its hooks fire) only where approval is needed
		}
	case engine.PointBeforeSend:
		h.mu.Lock()
		h.turn, h.stopActive = newID(), false
		h.mu.Unlock()
	case engine.PointBeforeLLM:
		h.mu.Lock()
		h.requests++
		h.mu.Unlock()
	}
	list := h.matching(event, ev)
	if len(list) == 0 {
		return nil
	}
	// a Codex project in a skill folder is a session of its own there
	input, err := h.input(event, ev, list[0].Dir)
	if err != nil {
		return err
	}
	results := make([]process.Result, len(list))
	var wg sync.WaitGroup
	for i, hd := range list {
		if !hd.Runs {
			continue
		}
		wg.Go(func() { results[i] = h.run(ctx, hd, input) })
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("codex hooks: %w", err)
	}
	blocked := false
	var feedback []string // PostToolUse: one tool output, the hooks' texts joined
	for i, hd := range list {
		call, eff := h.effect(hd, event, ev, input, results[i])
		if t, ok := eff.feedback(); ok {
			feedback = append(feedback, t)
		}
		blocked = blocked || eff.RetryFeedback != ""
		if ev.Stopped() {
			eff.Action, eff.Reason = engine.ActionNone, ""
		}
		m := metrics.Hook{Event: hd.Event, Name: hd.Name(), Source: hd.Source()}
		if call.Outcome == engine.OutcomeSkipped {
			h.metrics.Skipped(m)
		} else {
			h.metrics.Ran(m, &call)
		}
		if len(feedback) > 1 && eff.ToolResult != nil {
			joined := strings.Join(feedback, "\n\n")
			eff.ToolResult = &joined
		}
		ev.Apply(call, eff.Effect)
	}
	if event == Stop {
		h.mu.Lock()
		h.stopActive = blocked
		h.mu.Unlock()
	}
	return nil
}

// matching lists the hooks that fire for ev, in Codex's order.
func (h *Handler) matching(event string, ev *engine.Event) []*Hook {
	var subject string
	switch event {
	case SessionStart:
		subject = "startup"
	case PreToolUse, PermissionRequest, PostToolUse:
		subject, _ = toolName(ev.Tool)
	}
	var out []*Hook
	enabled := ev.EnabledSkills()
	for i := range h.cfg.Hooks {
		hd := &h.cfg.Hooks[i]
		if hd.Event != event || hd.Skill != "" && enabled != nil && !slices.Contains(enabled, hd.Skill) {
			continue
		}
		if hasMatcher(event) && !hd.match(subject) {
			continue
		}
		out = append(out, hd)
	}
	return out
}

func (h *Handler) run(ctx context.Context, hd *Hook, input []byte) process.Result {
	cctx, cancel := context.WithTimeout(ctx, time.Duration(hd.Timeout)*time.Second)
	defer cancel()
	// Codex runs a hook with the user's shell as a login shell, in the
	// session's folder, with its own environment.
	env := process.Inherited()
	return h.procs.Run(cctx, process.Spec{Argv: []string{h.shell, "-lc", hd.Command}, Dir: hd.Dir, Env: env, Stdin: input,
		MaxStdout: process.HookStdout, MaxStderr: process.HookStderr})
}

// input is the stdin of an event with the keys Codex 0.171 sends, in its
// order (seen against capture); cwd is the session's folder.
func (h *Handler) input(event string, ev *engine.Event, cwd string) ([]byte, error) {
	transcript, err := h.writeTranscript(ev)
	if err != nil {
		return nil, err
	}
	h.mu.Lock()
	turn, stopActive, requests := h.turn, h.stopActive, h.requests
	h.mu.Unlock()
	model := ev.Model
	if model == "" {
		model = "mock"
	}
	f := ccshape.Fields{}
	base := func(withTurn bool) {
		f.Add("session_id", h.session)
		if withTurn {
			f.Add("turn_id", turn)
		}
		f.Add("transcript_path", transcript)
		f.Add("cwd", cwd)
		f.Add("hook_event_name", event)
		f.Add("model", model)
		f.Add("permission_mode", "default")
	}
	switch event {
	case SessionStart:
		base(false)
		f.Add("source", "startup")
	case UserPromptSubmit:
		base(true)
		f.Add("prompt", ev.UserInput)
	case PreModelRequest, PostModelRequest:
		f.Add("kind", "sampling")
		f.Add("request_id", fmt.Sprintf("00000000-0000-7000-8000-%012d", requests)) // numbered, so a trace stays the same run to run
		f.Add("attempt_number", 1)
		f.Add("session_id", h.session)
		f.Add("thread_id", h.session)
		f.Add("turn_id", turn)
		f.Add("cwd", cwd)
		f.Add("transcript_path", transcript)
		f.Add("model", model)
		f.Add("hook_event_name", event)
		if event == PostModelRequest {
			status, errText := "completed", any(nil)
			if ev.Err != nil {
				status, errText = "failed", ev.Err.Error()
			}
			f.Add("status", status)
			f.Add("error", errText)
			usage := map[string]int{"input_tokens": 0, "cached_input_tokens": 0, "cache_write_input_tokens": 0, "output_tokens": 0, "reasoning_output_tokens": 0, "total_tokens": 0}
			if u := ev.Usage; u != nil {
				usage["input_tokens"], usage["output_tokens"], usage["total_tokens"] = u.InputTokens, u.OutputTokens, u.InputTokens+u.OutputTokens
			}
			f.Add("token_usage", usage)
		}
	case PreToolUse, PermissionRequest, PostToolUse:
		base(true)
		name, args := toolName(ev.Tool)
		f.Add("tool_name", name)
		f.Add("tool_input", args)
		if event == PostToolUse {
			out := ev.Tool.Result
			if ev.Tool.Error != "" {
				out = ev.Tool.Error
			}
			f.Add("tool_response", out)
		}
		if event != PermissionRequest {
			f.Add("tool_use_id", ev.Tool.ID)
		}
	case Stop:
		base(true)
		f.Add("stop_hook_active", stopActive)
		f.Add("last_assistant_message", ev.Answer)
	case PreCompact, PostCompact:
		base(true)
		f.Add("trigger", "auto")
	case SessionEnd:
		f.Add("session_id", h.session)
		f.Add("transcript_path", transcript)
		f.Add("cwd", cwd)
		f.Add("hook_event_name", event)
		f.Add("reason", "other")
	}
	if m := ev.RequestModel(); m != nil {
		f.Order(m.Stdin[event]) // the calibrated CLI's order
	}
	return f.JSON(), nil
}

// writeTranscript writes the conversation so far as a Codex rollout
// (JSONL, one response item per message), which some hooks read.
func (h *Handler) writeTranscript(ev *engine.Event) (string, error) {
	file := filepath.Join(h.tmp, "rollout-"+h.session+".jsonl")
	var buf []byte
	for _, m := range ev.Messages() {
		kind := "input_text"
		if m.Role == "assistant" {
			kind = "output_text"
		}
		line, err := json.Marshal(map[string]any{"type": "response_item", "payload": map[string]any{"type": "message", "role": m.Role,
			"content": []any{map[string]string{"type": kind, "text": m.Content}}}})
		if err != nil {
			return "", fmt.Errorf("codex hooks: transcript: %w", err)
		}
		buf = append(append(buf, line...), '\n')
	}
	if err := os.WriteFile(file, buf, 0o600); err != nil {
		return "", fmt.Errorf("codex hooks: transcript: %w", err)
	}
	return file, nil
}
