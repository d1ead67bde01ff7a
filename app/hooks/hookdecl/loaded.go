package hookdecl

import (
	"cmp"
	"slices"

	"hookstudio/app/agent/engine"
	"hookstudio/app/agent/scenario"
	"hookstudio/app/agentdata/profile"
	"hookstudio/app/format/diag"
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
	// Detail is what the panels show of it: its command, its matcher.
	Detail string
	// Command is the line it starts, in Dir ("" none).
	Command, Dir string
	// Runs is false for a hook the simulated agent does not run.
	Runs bool
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

// Hooks describes every hook for the skills panel and breakpoints.
func (l Loaded) Hooks() []engine.HookInfo {
	out := []engine.HookInfo{}
	for _, d := range l.Decls {
		out = append(out, engine.HookInfo{System: l.System, Event: d.Event, Hook: d.Name, Skill: d.Skill, Source: d.Source, Detail: d.Detail})
	}
	return out
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
