package codexhook

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

// Kinds of Codex's files for the editor.
const (
	// KindHooks is a .codex/hooks.json: {"hooks": {event: [groups]}}.
	KindHooks = "codex-hooks"
	// KindConfig is a .codex/config.toml, whose [hooks] table holds hooks
	// in the same shape (and [hooks.state] Codex's trust of each).
	KindConfig = "codex-config"
)

// Registration is Codex's hooks as the registry knows them.
func Registration() registry.System {
	return registry.System{
		Name:  System,
		Title: "Codex CLI's hooks",
		Label: "Codex",
		Agent: System,
		Files: []registry.File{
			{Kind: KindHooks, Role: registry.Config, Level: registry.Root, Patterns: []string{HooksFile}, Schema: schema.CodexHooks, Trust: true},
			{Kind: KindConfig, Role: registry.Config, Level: registry.Root, Patterns: []string{ConfigFile}, Trust: true},
			// a skill folder that is a Codex project of its own
			{Kind: KindHooks, Role: registry.Config, Level: registry.Skill, Patterns: []string{"*/" + HooksFile}, Schema: schema.CodexHooks, Trust: true},
			{Kind: KindConfig, Role: registry.Config, Level: registry.Skill, Patterns: []string{"*/" + ConfigFile}, Trust: true},
			{Kind: registry.KindText, Role: registry.Script, Level: registry.Root, In: script},
		},
		Dirs: []string{".codex"},
		User: &registry.UserFile{Setting: "codex_user_config", Name: "config.toml", Flag: "codex-user-config",
			Usage: "Codex's user config.toml (~/.codex/config.toml): its [hooks] and the hooks.json beside it run before the project's, and its [hooks.state] says which hooks Codex trusts"},
		Starter: &registry.Starter{Path: HooksFile, Text: "{\n  \"hooks\": {}\n}\n"},
		Load: func(_ context.Context, req registry.LoadRequest) (registry.Loaded, error) {
			cfg, err := Load(req.Root, LoadOptions{UserConfig: req.User, Drafts: req.Drafts})
			if err != nil {
				return nil, err
			}
			return loaded{cfg}, nil
		},
	}
}

// script says whether file is in a Codex project's .codex/hooks/, where
// its hook scripts live (the opened folder's or a skill folder's).
func script(_, file string) bool {
	parts := strings.Split(file, "/")
	if len(parts) > 0 && !strings.HasPrefix(parts[0], ".") {
		parts = parts[1:]
	}
	return len(parts) >= 3 && parts[0] == ".codex" && parts[1] == "hooks"
}

// loaded is a folder's Codex hooks for the registry.
type loaded struct{ cfg *Config }

func (l loaded) Diagnostics() []diag.Diagnostic    { return l.cfg.Diagnostics }
func (l loaded) Active(*scenario.Scenario) bool    { return len(l.cfg.Hooks) > 0 }
func (l loaded) Skills(names *scenario.SkillNames) {}
func (l loaded) Hooks() []engine.HookInfo          { return l.cfg.HookInfos() }

// Commands lists the commands a run enabling sc's skills reaches (every
// one with folder).
func (l loaded) Commands(sc *scenario.Scenario, folder bool) []registry.Command {
	if folder {
		return l.cfg.Commands(nil)
	}
	return l.cfg.Commands(sc.SkillsAnyRequestEnables())
}

// active are the hooks a run enabling these skills reaches (nil: all).
func (c *Config) active(enabled []string) []*Hook {
	var out []*Hook
	for i := range c.Hooks {
		if h := &c.Hooks[i]; h.Skill == "" || enabled == nil || slices.Contains(enabled, h.Skill) {
			out = append(out, h)
		}
	}
	return out
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
	if active := l.cfg.active(run.Scenario.SkillsAnyRequestEnables()); len(active) > 0 {
		ref, _ := profile.ParseRef(scenarioAgent(run.Scenario))
		if p := h.Profile(); cfg.Agent == nil || ref.Agent == p.Agent {
			cfg.Agent = &engine.Agent{Agent: p.Agent, Version: p.Version, By: cmp.Or(p.By, profile.ByNewest)}
			cfg.AgentDir = active[0].Dir // Codex runs in the session's folder, where its hooks run
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

// HookInfos describes every hook for the skills panel and breakpoints.
func (c *Config) HookInfos() []engine.HookInfo {
	out := []engine.HookInfo{}
	for i := range c.Hooks {
		h := &c.Hooks[i]
		detail := h.Command
		if h.Type != "command" {
			detail = h.Type + " hook (Codex does not run it)"
		}
		if h.Matcher != "" && h.Matcher != "*" {
			detail = h.Matcher + " · " + detail
		}
		out = append(out, engine.HookInfo{System: System, Event: h.Event, Hook: h.Name(), Skill: h.Skill, Source: h.Source(), Detail: detail})
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
		out = append(out, registry.Command{Source: h.Source(), Event: System + ": " + h.Event, Hook: h.Name(), Skill: h.Skill, Command: h.Command, Dir: h.Dir})
	}
	return out
}
