package qwenhook

import (
	"cmp"
	"context"
	"slices"
	"strings"

	"hookstudio/app/agent/engine"
	"hookstudio/app/agent/scenario"
	"hookstudio/app/agentdata/profile"
	"hookstudio/app/format/diag"
	"hookstudio/app/hooks/registry"
	"hookstudio/schema"
)

// KindSettings is a .qwen/settings.json, whose "hooks" are Qwen Code's.
const KindSettings = "qwen-settings"

// Registration is Qwen Code's hooks as the registry knows them.
func Registration() registry.System {
	return registry.System{
		Name:  System,
		Title: "Qwen Code's hooks",
		Label: "Qwen Code",
		Agent: System,
		Files: []registry.File{
			{Kind: KindSettings, Role: registry.Config, Level: registry.Root, Patterns: []string{SettingsFile}, Schema: schema.QwenSettings, Trust: true},
			{Kind: KindSettings, Role: registry.Config, Level: registry.Skill, Patterns: []string{"*/" + SettingsFile}, Schema: schema.QwenSettings, Trust: true},
			{Kind: registry.KindText, Role: registry.Script, Level: registry.Root, In: script},
		},
		Dirs: []string{".qwen"},
		User: &registry.UserFile{Setting: "qwen_user_settings", Name: "settings.json", Flag: "qwen-user-settings",
			Usage: "Qwen Code's user settings.json (~/.qwen/settings.json), whose hooks run after the project's"},
		Starter: &registry.Starter{Path: SettingsFile, Text: "{\n  \"hooks\": {}\n}\n"},
		Load: func(_ context.Context, req registry.LoadRequest) (registry.Loaded, error) {
			cfg, err := Load(req.Root, LoadOptions{UserSettings: req.User, Drafts: req.Drafts})
			if err != nil {
				return nil, err
			}
			return loaded{cfg}, nil
		},
	}
}

// script says whether file is in a Qwen Code project's .qwen/hooks/.
func script(_, file string) bool {
	parts := strings.Split(file, "/")
	if len(parts) > 0 && !strings.HasPrefix(parts[0], ".") {
		parts = parts[1:]
	}
	return len(parts) >= 3 && parts[0] == ".qwen" && parts[1] == "hooks"
}

type loaded struct{ cfg *Config }

func (l loaded) Diagnostics() []diag.Diagnostic { return l.cfg.Diagnostics }
func (l loaded) Active(sc *scenario.Scenario) bool {
	return len(l.cfg.active(sc.SkillsAnyRequestEnables())) > 0
}
func (l loaded) Skills(*scenario.SkillNames) {}
func (l loaded) Hooks() []engine.HookInfo    { return l.cfg.HookInfos() }

func (l loaded) Commands(sc *scenario.Scenario, folder bool) []registry.Command {
	if folder {
		return l.cfg.Commands(nil)
	}
	return l.cfg.Commands(sc.SkillsAnyRequestEnables())
}

func (l loaded) Attach(cfg *engine.Config, run registry.Run) (registry.Attached, error) {
	if len(l.cfg.Hooks) == 0 {
		return nil, nil
	}
	var prof *profile.Profile // nil: the newest bundled
	if run.Profiles != nil {
		prof, _ = run.Profiles(System).(*profile.Profile)
	}
	h, err := New(Options{Config: l.cfg, Scenario: run.Scenario, Profile: prof})
	if err != nil {
		return nil, err
	}
	cfg.Handlers = append(cfg.Handlers, h)
	// the trace says which version renders a run that reaches a hook of
	// ours (the scenario's agent first, when another system's said too)
	if len(l.cfg.active(run.Scenario.SkillsAnyRequestEnables())) > 0 {
		ref, _ := profile.ParseRef(scenarioAgent(run.Scenario))
		if p := h.Profile(); cfg.Agent == nil || ref.Agent == p.Agent {
			cfg.Agent = &engine.Agent{Agent: p.Agent, Version: p.Version, By: cmp.Or(p.By, profile.ByNewest)}
		}
	}
	return h, nil
}

func scenarioAgent(sc *scenario.Scenario) string {
	if sc == nil {
		return ""
	}
	return sc.Agent
}

func (c *Config) active(enabled []string) []*Hook {
	var out []*Hook
	for i := range c.Hooks {
		if h := &c.Hooks[i]; h.Skill == "" || enabled == nil || slices.Contains(enabled, h.Skill) {
			out = append(out, h)
		}
	}
	return out
}

// HookInfos describes every hook for the skills panel and breakpoints.
func (c *Config) HookInfos() []engine.HookInfo {
	out := []engine.HookInfo{}
	for i := range c.Hooks {
		h := &c.Hooks[i]
		detail := h.Command
		if h.Type != "command" {
			detail = h.Type + " hook"
		}
		if h.Matcher != "" && h.Matcher != "*" {
			detail = h.Matcher + " · " + detail
		}
		out = append(out, engine.HookInfo{System: System, Event: h.Event, Hook: h.Label(), Skill: h.Skill, Source: h.Source(), Detail: detail})
	}
	return out
}

// Commands lists the commands a run enabling these skills may start (nil:
// every skill), for the trust prompt.
func (c *Config) Commands(enabled []string) []registry.Command {
	var out []registry.Command
	for _, h := range c.active(enabled) {
		if h.Type != "command" || !h.Runs {
			continue
		}
		out = append(out, registry.Command{Source: h.Source(), Event: System + ": " + h.Event, Hook: h.Label(), Skill: h.Skill, Command: h.Command, Dir: h.Dir})
	}
	return out
}
