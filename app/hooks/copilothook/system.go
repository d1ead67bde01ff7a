package copilothook

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

// KindHooks is a Copilot CLI hook file: the repository's
// .github/hooks/*.json, a plugin's hooks.json.
const KindHooks = "copilot-hooks"

// Registration is Copilot CLI's hooks as the registry knows them: the
// repository's .github/hooks/*.json, plugins' hooks.json (the opened
// folder or a skill folder holding plugin.json), the scripts beside them
// and the project's scenarios; the user's ~/.copilot/hooks as a setting.
func Registration() registry.System {
	return registry.System{
		Name:  System,
		Title: "Copilot CLI's hooks",
		Label: "Copilot CLI",
		Agent: System,
		Files: []registry.File{
			{Kind: KindHooks, Role: registry.Config, Level: registry.Root, Patterns: []string{ProjectHooks + "/*.json"},
				In: pluginFile, List: listPlugin, Schema: schema.CopilotHooks, Trust: true},
			{Kind: registry.KindText, Role: registry.Script, Level: registry.Root, In: script},
			{Kind: registry.KindScenario, Role: registry.Scenario, Level: registry.Root, Patterns: []string{ScenarioDir + "/*"}},
		},
		Dirs: []string{".github", ".hookstudio"},
		User: &registry.UserFile{Setting: "copilot_user_hooks", Name: "hooks folder", Flag: "copilot-user-hooks",
			Usage: "Copilot CLI's user-level hooks folder (~/.copilot/hooks), whose *.json hooks run before the repository's", Folder: true},
		SkillFolders: func(root, skill string) []string {
			if IsPlugin(filepath.Join(root, skill)) {
				return []string{"scripts"}
			}
			return nil
		},
		Starter: &registry.Starter{Path: ProjectHooks + "/hooks.json", Text: "{\n  \"version\": 1,\n  \"hooks\": {}\n}\n"},
		Load: func(_ context.Context, req registry.LoadRequest) (registry.Loaded, error) {
			cfg, err := Load(req.Root, LoadOptions{UserHooks: req.User, Drafts: req.Drafts})
			if err != nil {
				return nil, err
			}
			return loaded{cfg}, nil
		},
	}
}

// pluginFile says whether file is the hooks.json of a plugin in root: the
// root itself or a skill folder with plugin.json.
func pluginFile(root, file string) bool {
	if root == "" {
		return false
	}
	if file == PluginHooks {
		return IsPlugin(root)
	}
	dir, rest, ok := strings.Cut(file, "/")
	return ok && rest == PluginHooks && !strings.HasPrefix(dir, ".") && IsPlugin(filepath.Join(root, dir))
}

// listPlugin lists a plugin's hooks file that exists: the root's (skill
// "") or a skill folder's.
func listPlugin(root, skill string) []string {
	rel := path.Join(skill, PluginHooks)
	if skill == "" {
		rel = PluginHooks
	}
	if pluginFile(root, rel) && exists(filepath.Join(root, filepath.FromSlash(rel))) {
		return []string{rel}
	}
	return nil
}

// script says whether file is a hook script: under .github/hooks/ (not a
// hook file) or a plugin's scripts/ or hooks/.
func script(root, file string) bool {
	parts := strings.Split(file, "/")
	switch {
	case len(parts) >= 3 && parts[0] == ".github" && parts[1] == "hooks":
		return len(parts) > 3 || !strings.HasSuffix(file, ".json")
	case root == "":
		return false
	case len(parts) >= 2 && (parts[0] == "hooks" || parts[0] == "scripts") && IsPlugin(root):
		return true
	case len(parts) >= 3 && (parts[1] == "scripts" || parts[1] == "hooks") && !strings.HasPrefix(parts[0], ".") && IsPlugin(filepath.Join(root, parts[0])):
		return true
	}
	return false
}

// loaded is a folder's Copilot CLI hooks for the registry.
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
			Skill: h.Skill, Command: h.Bash, Dir: h.dir(l.cfg.Root)})
	}
	return out
}

func (l loaded) Attach(cfg *engine.Config, run registry.Run) (registry.Attached, error) {
	if len(l.cfg.Running(run.Scenario.SkillsAnyRequestEnables())) == 0 {
		return nil, nil
	}
	h, err := New(Options{Config: l.cfg, Scenario: run.Scenario, Profile: runProfile(run)})
	if err != nil {
		return nil, err
	}
	cfg.Handlers = append(cfg.Handlers, h)
	if p := h.render.Profile(); p != nil { // the trace says which version renders the run
		cfg.Agent = &engine.Agent{Agent: p.Agent, Version: p.Version, By: cmp.Or(p.By, profile.ByNewest)}
	}
	return h, nil
}

// runProfile is the copilot-cli profile the run chose, else the newest
// bundled one.
func runProfile(run registry.Run) *profile.Profile {
	if run.Profiles != nil {
		if p, ok := run.Profiles(System).(*profile.Profile); ok && p != nil {
			return p
		}
	}
	p, _, err := (*profile.Picker)(nil).Choose(System, "")
	if err != nil {
		return nil
	}
	return p
}

// HookInfos describes every handler for the skills panel and breakpoints.
func (c *Config) HookInfos() []engine.HookInfo {
	out := []engine.HookInfo{}
	for i := range c.Hooks {
		h := &c.Hooks[i]
		detail := h.Bash
		if h.Type == TypePrompt {
			detail = h.Prompt
		}
		if h.Matcher != "" {
			detail = h.Matcher + " · " + detail
		}
		if !h.Runs {
			detail += " (not run: " + h.Why + ")"
		}
		out = append(out, engine.HookInfo{System: System, Event: string(h.Event), Hook: h.Title(), Skill: h.Skill, Source: h.Source(), Detail: detail})
	}
	return out
}
