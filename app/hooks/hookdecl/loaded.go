package hookdecl

import (
	"cmp"
	"context"
	"slices"

	"hookstudio/app/agent/engine"
	"hookstudio/app/agent/scenario"
	"hookstudio/app/agentdata/profile"
	"hookstudio/app/format/diag"
	"hookstudio/app/hooks/hookrun"
	"hookstudio/app/hooks/registry"
)

// Decl is what the registry and the panels need of one declared hook.
type Decl struct {
	Event string
	// Name is how traces and panels name the hook (Title).
	Name   string
	Source string // file:line
	// Skill is the skill folder whose enabling runs the hook ("" always).
	Skill string
	// Detail is what the panels show it does (its command); Matcher what
	// it fires on ("" or "*": everything).
	Detail, Matcher string
	// Command is the line it starts, in Dir ("" none).
	Command, Dir string
	// Runs is false for a hook the simulated agent does not run; Why says why.
	Runs bool
	Why  string
}

// reached says whether a run enabling these skills (nil: all) reaches d.
func (d Decl) reached(enabled []string) bool {
	return d.Skill == "" || enabled == nil || slices.Contains(enabled, d.Skill)
}

// Loaded is one folder's hooks of an agent as the registry sees them.
type Loaded struct {
	System string
	Diags  []diag.Diagnostic
	Decls  []Decl
	// New starts the agent's handler for a run, rendering with prof.
	New func(run registry.Run, prof *profile.Profile) (Handler, error)
}

// Handler is an agent's handler of one run.
type Handler interface {
	engine.Handler
	registry.Attached
}

func (l Loaded) Diagnostics() []diag.Diagnostic { return l.Diags }
func (l Loaded) Skills(*scenario.SkillNames)    {}

// Hooks describes every hook for the skills panel and breakpoints: what it
// fires on and does, and why it does not run.
func (l Loaded) Hooks() []engine.HookInfo {
	out := []engine.HookInfo{}
	for _, d := range l.Decls {
		detail := d.Detail
		if d.Matcher != "" && d.Matcher != "*" {
			detail = d.Matcher + " · " + detail
		}
		if !d.Runs && d.Why != "" {
			detail += " (not run: " + d.Why + ")"
		}
		out = append(out, engine.HookInfo{System: l.System, Event: d.Event, Hook: d.Name, Skill: d.Skill, Source: d.Source, Detail: detail})
	}
	return out
}

// Declared is what the registry sees of hooks of system: decl describes
// each one, start starts the handler of a run that reaches one.
func Declared[H any](system string, diags []diag.Diagnostic, hooks []H, decl func(h *H) Decl, start func(run registry.Run, prof *profile.Profile) (Handler, error)) Loaded {
	decls := make([]Decl, len(hooks))
	for i := range hooks {
		decls[i] = decl(&hooks[i])
	}
	return Loaded{System: system, Diags: diags, Decls: decls, New: start}
}

// running are the hooks a run enabling these skills starts (nil: all).
func (l Loaded) running(enabled []string) []Decl {
	var out []Decl
	for _, d := range l.Decls {
		if d.Runs && d.reached(enabled) {
			out = append(out, d)
		}
	}
	return out
}

// Active says whether a run of sc reaches a hook the agent runs.
func (l Loaded) Active(sc *scenario.Scenario) bool {
	return len(l.running(sc.SkillsAnyRequestEnables())) > 0
}

// Commands lists what a run of sc would start (every command with folder).
func (l Loaded) Commands(sc *scenario.Scenario, folder bool) []registry.Command {
	var enabled []string
	if !folder {
		enabled = sc.SkillsAnyRequestEnables()
	}
	var out []registry.Command
	for _, d := range l.running(enabled) {
		if d.Command != "" {
			out = append(out, registry.Command{Source: d.Source, Event: l.System + ": " + d.Event, Hook: d.Name, Skill: d.Skill, Command: d.Command, Dir: d.Dir})
		}
	}
	return out
}

// Attach adds the agent's handler to a run that reaches one of its hooks,
// rendering with the profile the run chose for the agent (else the newest
// bundled); the trace says which version renders the run — the
// scenario's agent first, when another system's said so too.
func (l Loaded) Attach(cfg *engine.Config, run registry.Run) (registry.Attached, error) {
	if !l.Active(run.Scenario) {
		return nil, nil
	}
	prof := Profile(run, l.System)
	h, err := l.New(run, prof)
	if err != nil {
		return nil, err
	}
	cfg.Handlers = append(cfg.Handlers, h)
	if prof != nil {
		var ref profile.Ref
		if run.Scenario != nil {
			ref, _ = profile.ParseRef(run.Scenario.Agent)
		}
		if cfg.Agent == nil || ref.Agent == prof.Agent {
			cfg.Agent = &engine.Agent{Agent: prof.Agent, Version: prof.Version, By: cmp.Or(prof.By, profile.ByNewest)}
		}
	}
	return h, nil
}

// Profile is the rendering profile a run chose for agent, else its newest
// bundled one (nil: none; the system's own renderings).
func Profile(run registry.Run, agent string) *profile.Profile {
	if run.Profiles != nil {
		if p, ok := run.Profiles(agent).(*profile.Profile); ok && p != nil {
			return p
		}
	}
	p, _, err := (*profile.Picker)(nil).Choose(agent, "")
	if err != nil {
		return nil
	}
	return p
}

// Options say where an agent's hooks are besides the opened folder.
type Options struct {
	// User is the agent's user-level file or folder (~/.codex/config.toml,
	// ~/.copilot/hooks: its registry.UserFile, an app setting and a hookctl
	// flag); "" none.
	User string
	// Drafts are unsaved editor texts by root-relative path.
	Drafts map[string][]byte
}

// Config is an agent's hooks of a folder, as its system reads them.
type Config interface{ Loaded() Loaded }

// Loader is a system's registry.System Load: load reads the folder.
func Loader[C Config](load func(root string, opts Options) (C, error)) func(context.Context, registry.LoadRequest) (registry.Loaded, error) {
	return func(_ context.Context, req registry.LoadRequest) (registry.Loaded, error) {
		cfg, err := load(req.Root, Options{User: req.User, Drafts: req.Drafts})
		if err != nil {
			return nil, err
		}
		return cfg.Loaded(), nil
	}
}

// StartWith starts an agent's handler for a run of cfg's hooks with newH
// (the system's New).
func StartWith[C any, H Handler](cfg C, newH func(hookrun.Options[C]) (H, error)) func(registry.Run, *profile.Profile) (Handler, error) {
	return func(run registry.Run, prof *profile.Profile) (Handler, error) {
		return newH(hookrun.Options[C]{Config: cfg, Scenario: run.Scenario, Profile: prof})
	}
}

// Typed is d for a hook of type typ: a command hook starts its Detail, a
// hook of another type is shown as other.
func Typed(d Decl, typ, other string) Decl {
	if typ == "command" {
		d.Command = d.Detail
	} else {
		d.Detail = other
	}
	return d
}
