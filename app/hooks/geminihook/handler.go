package geminihook

import (
	"context"
	"encoding/json"
	"regexp"
	"strings"
	"sync"
	"time"

	"hookstudio/app/agent/engine"
	"hookstudio/app/hooks/hookrun"
	"hookstudio/app/hooks/process"
	"hookstudio/app/hooks/render"
)

// Options configure a Handler.
type Options = hookrun.Options[*Config]

// Handler runs Gemini CLI's hooks at the engine's points.
type Handler struct {
	*hookrun.Run
	cfg    *Config
	render render.Renderer

	mu         sync.Mutex
	prefix     string          // SessionStart context waiting for the first prompt (rendered)
	turnPrompt string          // the request's prompt as AfterAgent reads it
	cumulative string          // the request's answers so far (AfterAgent's prompt_response)
	stopActive bool            // the answer being judged follows an AfterAgent retry
	rewritten  map[string]bool // tool calls whose input a BeforeTool hook replaced
}

// New prepares the hooks of opts.Config for a run; Close it when the run ends.
func New(opts Options) (*Handler, error) {
	run, err := hookrun.NewRun(System, "gemini cli hooks", hookrun.UUID())
	if err != nil {
		return nil, err
	}
	return &Handler{Run: run, cfg: opts.Config, render: render.New(opts.Profile, ownOutcomes), rewritten: map[string]bool{}}, nil
}

// OffersTools: Gemini CLI's hooks never offer tools of their own.
func (h *Handler) OffersTools() bool { return false }

// target is what a group's matcher is compared with.
func target(event Event, ev *engine.Event) string {
	switch event {
	case SessionStart:
		return "startup"
	case SessionEnd:
		return "exit"
	case PreCompress:
		return "auto"
	}
	if ev.Tool != nil {
		return ev.Tool.Name
	}
	return ""
}

// matching lists the handlers Gemini CLI's planner picks for ev: the
// event's, matched, one per name:command, in declaration order (user's
// first); and whether they run one after another.
func (h *Handler) matching(event Event, ev *engine.Event) ([]*Hook, bool) {
	var out []*Hook
	seen := map[string]bool{}
	seq := false
	tgt := target(event, ev)
	for _, hd := range h.cfg.Running(ev.EnabledSkills()) {
		if hd.Event != event || seen[hd.key()] || !hd.match(tgt) {
			continue
		}
		seen[hd.key()] = true
		seq = seq || hd.Sequential
		out = append(out, hd)
	}
	return out, seq
}

// Handle fires the native events of ev's point.
func (h *Handler) Handle(ctx context.Context, ev *engine.Event) error {
	switch ev.Point {
	case engine.PointBeforeSend:
		h.mu.Lock()
		h.turnPrompt, h.cumulative, h.stopActive = "", "", false
		if h.prefix != "" {
			h.turnPrompt = h.prefix + "\n\n" + ev.UserInput
		} else {
			h.turnPrompt = ev.UserInput
		}
		h.mu.Unlock()
		defer func() { h.mu.Lock(); h.prefix = ""; h.mu.Unlock() }()
	case engine.PointAfterLLM:
		if ev.Err == nil {
			defer h.noteAnswer(ev)
		}
		if ev.AnsweredBy != "" {
			return nil // a BeforeModel answer bypasses AfterModel, as Gemini CLI's synthetic response does
		}
	case engine.PointAfterTool:
		defer h.noteRewrite(ev)
	}
	for _, event := range eventsAt[ev.Point] {
		if ev.Stopped() {
			return nil
		}
		ended, err := h.fire(ctx, event, ev)
		if err != nil || ended {
			return err // a BeforeModel block or answer skips BeforeToolSelection (seen)
		}
	}
	return nil
}

// noteAnswer adds an answer's text to the turn's, as Gemini CLI keeps it
// for AfterAgent's prompt_response.
func (h *Handler) noteAnswer(ev *engine.Event) {
	if ev.Answer == "" {
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.cumulative != "" {
		h.cumulative += "\n"
	}
	h.cumulative += ev.Answer
}

// modifiedNote is what Gemini CLI 0.61 appends to a tool's result when a
// BeforeTool hook replaced its input (its scheduler, after AfterTool).
const modifiedNote = "\n\n[System] Tool input parameters were modified by a hook before execution."

// noteRewrite appends modifiedNote to the result of a call a BeforeTool
// hook rewrote.
func (h *Handler) noteRewrite(ev *engine.Event) {
	h.mu.Lock()
	done := h.rewritten[ev.Tool.ID]
	delete(h.rewritten, ev.Tool.ID)
	h.mu.Unlock()
	if !done || ev.Tool.Status == engine.ToolSkipped || ev.Tool.Status == engine.ToolDenied {
		return
	}
	var eff engine.Effect
	if ev.Tool.Error != "" {
		s := "error: " + ev.Tool.Error + modifiedNote
		eff.ToolError = &s
	} else {
		s := ev.Tool.Result + modifiedNote
		eff.ToolResult = &s
	}
	// the note is the agent's own words, recorded as a step of the hook
	// system so the trace says where they came from
	ev.Apply(engine.HookCall{System: System, Event: string(BeforeTool), Hook: "Gemini CLI", Outcome: engine.OutcomeOK, Notify: true}, eff)
}

// result is how one handler's run ended, read as Gemini CLI's runner reads it.
type result struct {
	res    process.Result
	output map[string]any // the JSON object it answered, or the one plain text became
	json   bool           // output came as JSON (not converted from plain text)
	plain  string         // the text that was converted
}

func (h *Handler) timeout(hd *Hook) time.Duration {
	if hd.TimeoutMS > 0 {
		return time.Duration(hd.TimeoutMS) * time.Millisecond
	}
	return DefaultTimeoutMS * time.Millisecond
}

var safeArg = regexp.MustCompile(`^[A-Za-z0-9_\-./:@%+=,]+$`)

// shellArg quotes s as Gemini CLI's escapeShellArg does for bash.
func shellArg(s string) string {
	if s == "" {
		return ""
	}
	if safeArg.MatchString(s) {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// command is the line Gemini CLI hands bash: its variables replaced in
// the text before the shell sees it.
func (h *Handler) command(hd *Hook) string {
	root := shellArg(h.cfg.Root)
	return strings.NewReplacer("$GEMINI_PROJECT_DIR", root, "$GEMINI_CWD", root, "$GEMINI_PLANS_DIR", shellArg(h.plansDir()),
		"$GEMINI_SESSION_ID", shellArg(h.Session), "$CLAUDE_PROJECT_DIR", root).Replace(hd.Command)
}

func (h *Handler) plansDir() string { return h.Dir + "/plans" }

// env is what a command gets: Hook Studio's environment less its keys,
// Gemini CLI's variables and the hook's own env.
func (h *Handler) env(hd *Hook) []string {
	env := append(process.Inherited("GEMINI_PROJECT_DIR", "GEMINI_PLANS_DIR", "GEMINI_CWD", "GEMINI_SESSION_ID", "CLAUDE_PROJECT_DIR"),
		"GEMINI_PROJECT_DIR="+h.cfg.Root, "GEMINI_PLANS_DIR="+h.plansDir(), "GEMINI_CWD="+h.cfg.Root,
		"GEMINI_SESSION_ID="+h.Session, "CLAUDE_PROJECT_DIR="+h.cfg.Root)
	for k, v := range hd.Env {
		env = append(env, k+"="+v)
	}
	return env
}

func (h *Handler) run(ctx context.Context, hd *Hook, input []byte) result {
	res := h.Exec(ctx, h.timeout(hd), []string{"bash", "-c", h.command(hd)}, h.cfg.Root, h.env(hd), input)
	r := result{res: res}
	if res.TimedOut || res.Err != nil {
		return r
	}
	text := strings.TrimSpace(string(res.Stdout))
	if text == "" {
		text = strings.TrimSpace(string(res.Stderr))
	}
	if text == "" {
		return r
	}
	var v any
	if err := json.Unmarshal([]byte(text), &v); err == nil {
		if s, ok := v.(string); ok {
			v = nil
			_ = json.Unmarshal([]byte(s), &v)
		}
		if m, ok := v.(map[string]any); ok {
			r.output, r.json = m, true
		}
		return r
	}
	r.plain = text
	code := res.ExitCode
	if code < 0 {
		code = 0 // killed by a signal: Node reports no code, which Gemini CLI reads as 0
	}
	switch code {
	case 0:
		r.output = map[string]any{"decision": "allow", "systemMessage": text}
	case 1:
		r.output = map[string]any{"decision": "allow", "systemMessage": "Warning: " + text}
	default:
		r.output = map[string]any{"decision": "deny", "reason": text}
	}
	return r
}

// exitCode is the code Gemini CLI sees: none (a signal) is 0.
func exitCode(r process.Result) int {
	if r.ExitCode < 0 {
		return 0
	}
	return r.ExitCode
}
