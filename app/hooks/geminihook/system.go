package geminihook

import (
	"cmp"
	"context"
	"path"
	"path/filepath"
	"strings"

	"hookstudio/app/agent/engine"
	"hookstudio/app/agent/scenario"
	"hookstudio/app/agentdata/profile"
	"hookstudio/app/format/diag"
	"hookstudio/app/hooks/registry"
	"hookstudio/schema"
)

// Kinds of Gemini CLI's files for the editor.
const (
	// KindSettings is a .gemini/settings.json: "hooks" and "hooksConfig"
	// beside Gemini CLI's other settings.
	KindSettings = "gemini-settings"
	// KindExtensionHooks is an extension's hooks/hooks.json.
	KindExtensionHooks = "gemini-extension-hooks"
)

// Registration is Gemini CLI's hooks as the registry knows them: the
// project's .gemini/settings.json, extensions' hooks/hooks.json (the
// opened folder or a skill folder holding gemini-extension.json), the
// scripts under .gemini/hooks and the project's scenarios; the user's
// ~/.gemini/settings.json as a setting.
func Registration() registry.System {
	return registry.System{
		Name:  System,
		Title: "Gemini CLI's hooks",
		Label: "Gemini CLI",
		Agent: System,
		Files: []registry.File{
			{Kind: KindSettings, Role: registry.Config, Level: registry.Root, Patterns: []string{ProjectSettings},
				Schema: schema.GeminiSettings, Trust: true},
			{Kind: KindExtensionHooks, Role: registry.Config, Level: registry.Root, In: extensionFile, List: listExtension,
				Schema: schema.GeminiExtensionHooks, Trust: true},
			{Kind: registry.KindText, Role: registry.Script, Level: registry.Root, In: script},
			{Kind: registry.KindScenario, Role: registry.Scenario, Level: registry.Root, Patterns: []string{ScenarioDir + "/*"}},
		},
		Dirs: []string{".gemini", ".hookstudio"},
		User: &registry.UserFile{Setting: "gemini_user_settings", Name: "settings.json", Flag: "gemini-user-settings",
			Usage: "Gemini CLI's user-level settings.json (~/.gemini/settings.json), whose hooks run before the project's"},
		SkillFolders: func(root, skill string) []string {
			if IsExtension(filepath.Join(root, skill)) {
				return []string{"scripts"}
			}
			return nil
		},
		Starter: &registry.Starter{Path: ProjectSettings, Text: "{\n  \"hooks\": {}\n}\n"},
		Load: func(_ context.Context, req registry.LoadRequest) (registry.Loaded, error) {
			cfg, err := Load(req.Root, LoadOptions{UserSettings: req.User, Drafts: req.Drafts})
			if err != nil {
				return nil, err
			}
			return loaded{cfg}, nil
		},
	}
}

// extensionFile says whether file is the hooks/hooks.json of an extension
// in root: the root itself or a skill folder with gemini-extension.json.
func extensionFile(root, file string) bool {
	if root == "" {
		return false
	}
	dir, ok := strings.CutSuffix(file, "/"+ExtensionHooks)
	switch {
	case file == ExtensionHooks:
		return IsExtension(root)
	case ok && dir != "" && !strings.Contains(dir, "/") && !strings.HasPrefix(dir, "."):
		return IsExtension(filepath.Join(root, dir))
	}
	return false
}

// listExtension lists an extension's hooks file that exists: the root's
// (skill "") or a skill folder's.
func listExtension(root, skill string) []string {
	rel := path.Join(skill, ExtensionHooks)
	if skill == "" {
		rel = ExtensionHooks
	}
	if extensionFile(root, rel) && exists(filepath.Join(root, filepath.FromSlash(rel))) {
		return []string{rel}
	}
	return nil
}

// script says whether file is a hook script of the project
// (.gemini/hooks/…) or of an extension (its hooks/ or scripts/).
func script(root, file string) bool {
	parts := strings.Split(file, "/")
	switch {
	case len(parts) >= 3 && parts[0] == ".gemini" && parts[1] == "hooks":
		return true
	case root == "":
		return false
	case len(parts) >= 2 && (parts[0] == "hooks" || parts[0] == "scripts") && IsExtension(root):
		return file != ExtensionHooks
	case len(parts) >= 3 && (parts[1] == "scripts" || parts[1] == "hooks") && !strings.HasPrefix(parts[0], ".") && IsExtension(filepath.Join(root, parts[0])):
		return !extensionFile(root, file)
	}
	return false
}

// loaded is a folder's Gemini CLI hooks for the registry.
type loaded struct{ cfg *Config }

func (l loaded) Diagnostics() []diag.Diagnostic { return l.cfg.Diagnostics }
func (l loaded) Hooks() []engine.HookInfo       { return l.cfg.HookInfos() }
func (l loaded) Skills(*scenario.SkillNames)    {}
func (l loaded) Active(sc *scenario.Scenario) bool {
	return len(l.cfg.Running(sc.SkillsAnyRequestEnables())) > 0
}

// Commands lists what a run of sc would start (every command with folder).
func (l loaded) Commands(sc *scenario.Scenario, folder bool) []registry.Command {
	var enabled []string
	if !folder {
		enabled = sc.SkillsAnyRequestEnables()
	}
	var out []registry.Command
	for _, h := range l.cfg.Running(enabled) {
		out = append(out, registry.Command{Source: h.Source(), Event: System + ": " + string(h.Event), Hook: h.Title(),
			Skill: h.Skill, Command: h.Command, Dir: l.cfg.Root})
	}
	return out
}

func (l loaded) Attach(cfg *engine.Config, run registry.Run) (registry.Attached, error) {
	if len(l.cfg.Running(run.Scenario.SkillsAnyRequestEnables())) == 0 {
		return nil, nil
	}
	h, err := New(Options{Config: l.cfg, Profile: runProfile(run)})
	if err != nil {
		return nil, err
	}
	cfg.Handlers = append(cfg.Handlers, h)
	if p := h.render.Profile(); p != nil { // the trace says which version renders the run
		cfg.Agent = &engine.Agent{Agent: p.Agent, Version: p.Version, By: cmp.Or(p.By, profile.ByNewest)}
	}
	return h, nil
}

// runProfile is the gemini-cli profile the run chose, else the newest
// bundled one.
func runProfile(run registry.Run) *profile.Profile {
	if run.Profiles != nil {
		if p, ok := run.Profiles(System).(*profile.Profile); ok && p != nil {
			return p
		}
	}
	p, _, err := (*profile.Picker)(nil).Choose(System, "")
	if err != nil {
		return nil // the system's own renderings
	}
	return p
}

// HookInfos describes every handler for the skills panel and breakpoints.
func (c *Config) HookInfos() []engine.HookInfo {
	out := []engine.HookInfo{}
	for i := range c.Hooks {
		h := &c.Hooks[i]
		detail := h.Command
		if h.Matcher != "" && h.Matcher != "*" {
			detail = h.Matcher + " · " + detail
		}
		if !h.Runs {
			detail += " (not run: " + h.Why + ")"
		}
		out = append(out, engine.HookInfo{System: System, Event: string(h.Event), Hook: h.Title(), Skill: h.Skill, Source: h.Source(), Detail: detail})
	}
	return out
}
