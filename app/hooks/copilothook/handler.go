package copilothook

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"sync"
	"time"

	"hookstudio/app/agent/engine"
	"hookstudio/app/agent/scenario"
	"hookstudio/app/hooks/hookrun"
	"hookstudio/app/hooks/process"
	"hookstudio/app/hooks/render"
)

// Options configure a Handler.
type Options = hookrun.Options[*Config]

// Handler runs Copilot CLI's hooks at the engine's points.
type Handler struct {
	*hookrun.Run
	cfg    *Config
	sc     *scenario.Scenario
	render render.Renderer

	mu         sync.Mutex
	stopActive bool
}

// New prepares the hooks of opts.Config for a run; Close it when the run ends.
func New(opts Options) (*Handler, error) {
	run, err := hookrun.NewRun(System, "copilot cli hooks", hookrun.UUID())
	if err != nil {
		return nil, err
	}
	return &Handler{Run: run, cfg: opts.Config, sc: opts.Scenario, render: render.New(opts.Profile, ownOutcomes)}, nil
}

// target is what a matcher is compared with at the event.
func target(event Event, ev *engine.Event) string {
	if event.Base() == PreCompact {
		return "auto"
	}
	if ev.Tool != nil {
		return ev.Tool.Name
	}
	return ""
}

// matching lists the handlers of event (its camelCase name and its
// PascalCase one) that fire for ev, in declaration order: a PascalCase
// event's matcher is compared with the tool's VS Code name and with its
// own (Bash and bash both fire on bash, seen), a camelCase event's with
// its own only.
func (h *Handler) matching(event Event, ev *engine.Event) []*Hook {
	var out []*Hook
	tgt := target(event, ev)
	for _, hd := range h.cfg.Running(ev.EnabledSkills()) {
		if hd.Event.Base() != event || !hd.match(tgt) && !(hd.Event.Compat() && ev.Tool != nil && hd.match(compatName(tgt))) {
			continue
		}
		out = append(out, hd)
	}
	return out
}

// Handle fires the native event of ev's point.
func (h *Handler) Handle(ctx context.Context, ev *engine.Event) error {
	evs := eventsAt[ev.Point]
	if len(evs) == 0 {
		return nil
	}
	event := evs[0]
	switch ev.Point {
	case engine.PointAfterTool:
		if ev.Tool.Error != "" {
			event = PostToolUseFailure
		}
	case engine.PointBeforeSend:
		h.setStopActive(false)
	}
	return h.fire(ctx, event, ev)
}

func (h *Handler) setStopActive(v bool) {
	h.mu.Lock()
	h.stopActive = v
	h.mu.Unlock()
}

func (h *Handler) timeout(hd *Hook) time.Duration {
	if hd.TimeoutSec > 0 {
		return time.Duration(hd.TimeoutSec) * time.Second
	}
	return DefaultTimeout * time.Second
}

// env is what a command gets: Hook Studio's environment less its keys,
// and the hook's own env.
func (h *Handler) env(hd *Hook) []string {
	env := process.Inherited()
	for k, v := range hd.Env {
		env = append(env, k+"="+os.Expand(v, func(n string) string { return os.Getenv(n) }))
	}
	return env
}

// answer is one handler's run read as Copilot CLI reads it.
type answer struct {
	res    process.Result
	input  []byte
	out    map[string]any // its JSON answer (top level; PascalCase PreToolUse's hookSpecificOutput laid over it)
	failed bool           // a non-zero exit, a timeout or no start
	chmod  string         // the file made executable before the run ("" none)
}

func (h *Handler) run(ctx context.Context, hd *Hook, input []byte) answer {
	chmod := hd.makeExecutable(h.cfg.Root) // as Copilot CLI does before it runs the line
	res := h.Exec(ctx, h.timeout(hd), []string{"bash", "-c", hd.Bash}, hd.dir(h.cfg.Root), h.env(hd), input)
	a := answer{res: res, input: input, failed: res.TimedOut || res.Err != nil || res.ExitCode != 0, chmod: chmod}
	if a.failed {
		return a
	}
	text := strings.TrimSpace(string(res.Stdout))
	var m map[string]any
	if text == "" || json.Unmarshal([]byte(text), &m) != nil {
		return a // plain stdout: ignored
	}
	if hd.Event.Base() == PreToolUse && hd.Event.Compat() {
		// PascalCase PreToolUse alone reads hookSpecificOutput (seen: the
		// nested additionalContext of SessionStart, UserPromptSubmit and
		// PostToolUse never reached the model)
		if spec, ok := m["hookSpecificOutput"].(map[string]any); ok {
			for k, v := range spec {
				m[k] = v
			}
		}
	}
	a.out = m
	return a
}
