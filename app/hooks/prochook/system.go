package prochook

import (
	"context"
	"fmt"
	"strings"

	"hookstudio/app/agent/engine"
	"hookstudio/app/agent/scenario"
	"hookstudio/app/format/diag"
	"hookstudio/app/hooks/hostmode"
	"hookstudio/app/hooks/registry"
	"hookstudio/schema"
)

// KindPicoClaw is a PicoClaw hooks config for the editor.
const KindPicoClaw = "picoclaw"

// Registration is process hooks (PicoClaw, seed 003) as the registry
// knows them: the root's .picoclaw/hooks.json and each skill's
// hooks/picoclaw.json, whose processes a run starts and talks JSON-RPC to.
func Registration() registry.System {
	return registry.System{
		Name:  System,
		Title: "process hooks (PicoClaw's hooks.json, seed 003)",
		Label: "proc",
		Files: []registry.File{
			{Kind: KindPicoClaw, Role: registry.Config, Level: registry.Root, Patterns: []string{RootFile}, Schema: schema.PicoClawHooks, Trust: true},
			{Kind: KindPicoClaw, Role: registry.Config, Level: registry.Skill, Patterns: []string{"*/" + SkillFile}, Schema: schema.PicoClawHooks, Trust: true},
		},
		Dirs:    []string{".picoclaw"},
		Starter: &registry.Starter{Path: RootFile, Text: "{\n  \"hooks\": {\n    \"processes\": {}\n  }\n}\n"},
		Load: func(ctx context.Context, req registry.LoadRequest) (registry.Loaded, error) {
			c, err := read(ctx, req.Root, nil, req.Drafts, req.Mode)
			if err != nil {
				return nil, err
			}
			return &loaded{cfg: c, runnable: Runnable(c.Hooks, req.Mode), mode: req.Mode}, nil
		},
	}
}

// loaded is a folder's process hooks for the registry.
type loaded struct {
	cfg      *Config
	runnable []Hook // the hooks the folder's behaviour can start
	mode     hostmode.Mode
}

func (l *loaded) Diagnostics() []diag.Diagnostic { return l.cfg.Diagnostics }
func (l *loaded) Skills(*scenario.SkillNames)    {} // its skills are the folders
func (l *loaded) Hooks() []engine.HookInfo       { return New(l.cfg.Hooks, Options{}).Hooks() }
func (l *loaded) Active(sc *scenario.Scenario) bool {
	return len(Reachable(l.runnable, sc)) > 0
}

// Commands lists what the process hooks would start: those a run of sc
// reaches, or every runnable one with folder.
func (l *loaded) Commands(sc *scenario.Scenario, folder bool) []registry.Command {
	hs := l.runnable
	if !folder {
		hs = Reachable(hs, sc)
	}
	var out []registry.Command
	for i := range hs {
		h := &hs[i]
		out = append(out, registry.Command{Source: fmt.Sprintf("%s:%d", h.File, h.Line), Event: "process: hook." + strings.Join(h.Intercept, ", hook."),
			Hook: h.Name, Skill: h.Skill, Command: h.CommandLine(), Dir: h.Dir})
	}
	return out
}

func (l *loaded) Attach(cfg *engine.Config, run registry.Run) (registry.Attached, error) {
	procs := Reachable(l.runnable, run.Scenario)
	if len(procs) == 0 {
		return nil, nil
	}
	h := New(procs, Options{Mode: l.mode})
	cfg.Handlers = append(cfg.Handlers, h)
	return attached{h}, nil
}

// attached is a run's process hooks: their counters in the common shape.
type attached struct{ *Handler }

func (a attached) Metrics() []engine.HookMetric { return a.HookMetrics() }
