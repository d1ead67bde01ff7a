package droidhook

import (
	"context"

	"hookstudio/app/agent/engine"
	"hookstudio/app/agent/scenario"
	"hookstudio/app/format/diag"
	"hookstudio/app/hooks/registry"
	"hookstudio/schema"
)

// KindHooks is a .factory/hooks.json.
const KindHooks = "droid-hooks"

// Registration is Factory Droid's hooks as the registry knows them: files
// claimed, linted, completed and trusted; no rendering profile (Agent ""),
// since Droid is not simulated.
func Registration() registry.System {
	return registry.System{
		Name:  System,
		Title: "Factory Droid's hooks (checked and listed, not simulated)",
		Label: "Factory Droid",
		// no rendering profile: Droid is proprietary and not pinned here
		CheckOnly: true,
		Files: []registry.File{
			{Kind: KindHooks, Role: registry.Config, Level: registry.Root, Patterns: []string{HooksFile}, Schema: schema.DroidHooks, Trust: true},
		},
		Dirs: []string{".factory"},
		// Droid reads the events at the top level: no {"hooks": …} wrapper
		Starter: &registry.Starter{Path: HooksFile, Text: "{}\n"},
		Load: func(_ context.Context, req registry.LoadRequest) (registry.Loaded, error) {
			cfg, err := Load(req.Root, req.Drafts)
			if err != nil {
				return nil, err
			}
			return loaded{cfg}, nil
		},
	}
}

type loaded struct{ cfg *Config }

func (l loaded) Diagnostics() []diag.Diagnostic { return l.cfg.Diagnostics }
func (l loaded) Skills(*scenario.SkillNames)    {}

// Active: a simulated run starts nothing of Droid's.
func (l loaded) Active(*scenario.Scenario) bool { return false }

// Attach adds nothing: Hook Studio does not simulate Droid.
func (l loaded) Attach(*engine.Config, registry.Run) (registry.Attached, error) { return nil, nil }

func (l loaded) Hooks() []engine.HookInfo {
	out := []engine.HookInfo{}
	for i := range l.cfg.Hooks {
		h := &l.cfg.Hooks[i]
		detail := h.Command
		if h.Matcher != "" && h.Matcher != "*" {
			detail = h.Matcher + " · " + detail
		}
		out = append(out, engine.HookInfo{System: System, Event: h.Event, Hook: h.Label(), Source: h.Source(), Detail: detail})
	}
	return out
}

// Commands: a run of a scenario starts none; trusting the folder allows
// every command Droid would run from it.
func (l loaded) Commands(_ *scenario.Scenario, folder bool) []registry.Command {
	if !folder {
		return nil
	}
	var out []registry.Command
	for i := range l.cfg.Hooks {
		h := &l.cfg.Hooks[i]
		out = append(out, registry.Command{Source: h.Source(), Event: System + ": " + h.Event, Hook: h.Label(), Command: h.Command, Dir: l.cfg.Root})
	}
	return out
}
