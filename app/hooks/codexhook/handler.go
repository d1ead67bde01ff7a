package codexhook

import (
	"context"
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
	"hookstudio/app/hooks/hookrun"
	"hookstudio/app/hooks/process"
)

// Options configure a Handler.
type Options = hookrun.Options[*Config]

// Handler runs Codex's hooks at the engine's points.
type Handler struct {
	*hookrun.Run
	cfg   *Config
	sc    *scenario.Scenario
	prof  *profile.Profile
	shell string

	mu         sync.Mutex
	turn       string
	stopActive bool
	requests   int
}

// New prepares cfg's hooks for a run; Close it when the run ends.
func New(opts Options) (*Handler, error) {
	prof, err := hookrun.NewestOr(opts.Profile, System)
	if err != nil {
		return nil, err
	}
	run, err := hookrun.NewRun(System, "codex hooks", hookrun.UUID7()) // Codex's thread ids are v7
	if err != nil {
		return nil, err
	}
	shell := os.Getenv("SHELL")
	if shell == "" {
		shell = "/bin/sh"
	}
	return &Handler{Run: run, cfg: opts.Config, sc: opts.Scenario, prof: prof, shell: shell}, nil
}

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
	event := eventAt[ev.Point]
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
		h.turn, h.stopActive = hookrun.UUID7(), false
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
	hookrun.Parallel(len(list), func(i int) bool { return list[i].Runs }, func(i int) { results[i] = h.run(ctx, list[i], input) })
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
		if len(feedback) > 1 && eff.ToolResult != nil {
			joined := strings.Join(feedback, "\n\n")
			eff.ToolResult = &joined
		}
		h.Apply(ev, hd.Event, hd.Name(), hd.Source(), call, eff.Effect)
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

// run starts a hook as Codex does: with the user's shell as a login
// shell, in the session's folder, with Codex's own environment.
func (h *Handler) run(ctx context.Context, hd *Hook, input []byte) process.Result {
	return h.Exec(ctx, time.Duration(hd.Timeout)*time.Second, []string{h.shell, "-lc", hd.Command}, hd.Dir, process.Inherited(), input)
}

// session are the keys of Codex's stdin that open most events.
var session = []string{"session_id", "turn_id", "transcript_path", "cwd", "hook_event_name", "model", "permission_mode:=default"}

// stdin is each event's stdin with the keys Codex 0.171 sends, in its
// order (seen against capture).
var stdin = hookrun.Stdin{
	SessionStart:      {"session_id", "transcript_path", "cwd", "hook_event_name", "model", "permission_mode:=default", "source:=startup"},
	UserPromptSubmit:  hookrun.Keys(session, []string{"prompt"}),
	PreModelRequest:   {"kind:=sampling", "request_id", "attempt_number", "session_id", "thread_id=session_id", "turn_id", "cwd", "transcript_path", "model", "hook_event_name"},
	PostModelRequest:  {"kind:=sampling", "request_id", "attempt_number", "session_id", "thread_id=session_id", "turn_id", "cwd", "transcript_path", "model", "hook_event_name", "status", "error", "token_usage"},
	PreToolUse:        hookrun.Keys(session, []string{"tool_name", "tool_input", "tool_use_id"}),
	PermissionRequest: hookrun.Keys(session, []string{"tool_name", "tool_input"}),
	PostToolUse:       hookrun.Keys(session, []string{"tool_name", "tool_input", "tool_response", "tool_use_id"}),
	Stop:              hookrun.Keys(session, []string{"stop_hook_active", "last_assistant_message"}),
	PreCompact:        hookrun.Keys(session, []string{"trigger:=auto"}),
	PostCompact:       hookrun.Keys(session, []string{"trigger:=auto"}),
	SessionEnd:        {"session_id", "transcript_path", "cwd", "hook_event_name", "reason:=other"},
}

// input is the stdin of an event; cwd is the session's folder.
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
	tool := func() (string, map[string]any) { return toolName(ev.Tool) }
	v := hookrun.Values{
		"session_id": h.Session, "turn_id": turn, "transcript_path": transcript, "cwd": cwd, "hook_event_name": event, "model": model,
		"prompt": ev.UserInput, "stop_hook_active": stopActive, "last_assistant_message": ev.Answer,
		"request_id":     fmt.Sprintf("00000000-0000-7000-8000-%012d", requests), // numbered, so a trace stays the same run to run
		"attempt_number": 1,
		"tool_name":      func() any { name, _ := tool(); return name },
		"tool_input":     func() any { _, args := tool(); return args },
		"tool_use_id":    func() any { return ev.Tool.ID },
		"tool_response": func() any {
			if ev.Tool.Error != "" {
				return ev.Tool.Error
			}
			return ev.Tool.Result
		},
		"status": func() any {
			if ev.Err != nil {
				return "failed"
			}
			return "completed"
		},
		"error": func() any {
			if ev.Err != nil {
				return ev.Err.Error()
			}
			return nil
		},
		"token_usage": func() any {
			usage := map[string]int{"input_tokens": 0, "cached_input_tokens": 0, "cache_write_input_tokens": 0, "output_tokens": 0, "reasoning_output_tokens": 0, "total_tokens": 0}
			if u := ev.Usage; u != nil {
				usage["input_tokens"], usage["output_tokens"], usage["total_tokens"] = u.InputTokens, u.OutputTokens, u.InputTokens+u.OutputTokens
			}
			return usage
		},
	}
	return stdin.Build(event, v).JSON(), nil
}

// writeTranscript writes the conversation so far as a Codex rollout
// (JSONL, one response item per message), which some hooks read.
func (h *Handler) writeTranscript(ev *engine.Event) (string, error) {
	file := filepath.Join(h.Dir, "rollout-"+h.Session+".jsonl")
	var lines []any
	for _, m := range ev.Messages() {
		kind := "input_text"
		if m.Role == "assistant" {
			kind = "output_text"
		}
		lines = append(lines, map[string]any{"type": "response_item", "payload": map[string]any{"type": "message", "role": m.Role,
			"content": []any{map[string]string{"type": kind, "text": m.Content}}}})
	}
	if err := hookrun.WriteJSONL(file, lines); err != nil {
		return "", fmt.Errorf("codex hooks: %w", err)
	}
	return file, nil
}
