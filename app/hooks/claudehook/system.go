package claudehook

import (
	"cmp"
	"context"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"hookstudio/app/agent/engine"
	"hookstudio/app/agent/scenario"
	"hookstudio/app/agentdata/profile"
	"hookstudio/app/format/diag"
	"hookstudio/app/hooks/registry"
)

// Kinds of Claude Code's files for the editor.
const (
	// KindSettings is a settings.json, settings.local.json or a plugin's
	// hooks/hooks.json: Claude Code's shape, a "hooks" object of events,
	// beside other settings.
	KindSettings = "claude-settings"
	// KindSkill is a Claude Code skill's SKILL.md, whose frontmatter may
	// declare hooks.
	KindSkill = "claude-skill"
)

// Registration is Claude Code's hooks as the registry knows them: the project's settings
// files, its skills' SKILL.md frontmatter and plugins' hooks.json, the
// scripts they run and the project's scenarios; the user's settings.json
// as a setting.
func Registration() registry.System {
	return registry.System{
		Name:  System,
		Title: "Claude Code's hooks",
		Label: "Claude Code",
		Agent: profile.ClaudeCode,
		Files: []registry.File{
			{Kind: KindSettings, Role: registry.Config, Level: registry.Root, Patterns: []string{ProjectSettings, LocalSettings},
				In: func(root, file string) bool { return pluginFile(root, file) == KindSettings }, List: listFiles},
			{Kind: KindSkill, Role: registry.Config, Level: registry.Root, Patterns: []string{ProjectSkills + "/*/SKILL.md"},
				In: func(root, file string) bool { return pluginFile(root, file) == KindSkill }},
			{Kind: registry.KindText, Role: registry.Script, Level: registry.Root, In: script},
			{Kind: registry.KindScenario, Role: registry.Scenario, Level: registry.Root, Patterns: []string{ScenarioDir + "/*"}},
		},
		Dirs: []string{".claude", ".claude-plugin", ".hookstudio"},
		User: &registry.UserFile{Setting: "claude_user_settings", Flag: "claude-user-settings",
			Usage: "Claude Code's user-level settings.json (~/.claude/settings.json), whose hooks run before the project's"},
		SkillFolders: func(root, skill string) []string {
			if IsPlugin(filepath.Join(root, skill)) {
				return []string{"scripts"} // ${CLAUDE_PLUGIN_ROOT}/scripts/…
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

// pluginFile is the kind of a file of a plugin in root — the root itself
// or a skill folder holding .claude-plugin/plugin.json — ("" none): its
// hooks/hooks.json and its skills' SKILL.md.
func pluginFile(root, file string) string {
	if root == "" {
		return ""
	}
	parts := strings.Split(file, "/")
	plugin, rest := "", parts
	if len(parts) > 0 && parts[0] != "hooks" && parts[0] != "skills" {
		plugin, rest = parts[0], parts[1:]
	}
	if !IsPlugin(filepath.Join(root, filepath.FromSlash(plugin))) {
		return ""
	}
	switch {
	case len(rest) == 2 && rest[0]+"/"+rest[1] == PluginHooks:
		return KindSettings
	case len(rest) == 3 && rest[0] == "skills" && skillName(rest[1]) && rest[2] == "SKILL.md":
		return KindSkill
	}
	return ""
}

// script says whether file is in the project's .claude/hooks/, where
// Claude Code projects keep their hook scripts
// ("$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.sh), or in a plugin's hooks/
// or scripts/ (${CLAUDE_PLUGIN_ROOT}/scripts/…), at the root or in a skill
// folder (a skill's hooks/ is editable anyway).
func script(root, file string) bool {
	parts := strings.Split(file, "/")
	switch {
	case len(parts) >= 3 && parts[0] == ".claude" && parts[1] == "hooks":
		return true
	case root == "":
		return false
	case len(parts) >= 2 && (parts[0] == "hooks" || parts[0] == "scripts") && IsPlugin(root):
		return true
	case len(parts) >= 3 && parts[1] == "scripts" && skillName(parts[0]) && IsPlugin(filepath.Join(root, parts[0])):
		return true
	}
	return false
}

func skillName(s string) bool { return s != "" && !strings.HasPrefix(s, ".") }

// listFiles lists the Claude Code hook files a plugin's manifest makes
// Claude Code's, and the project's skills, that exist in root: the
// project's skills and the root plugin's (skill ""), or a plugin skill's.
// The project's settings files are found by their patterns.
func listFiles(root, skill string) []string {
	var out []string
	exists := func(rel string) bool {
		fi, err := os.Stat(filepath.Join(root, filepath.FromSlash(rel)))
		return err == nil && fi.Mode().IsRegular()
	}
	skillsIn := func(dir string) {
		entries, err := os.ReadDir(filepath.Join(root, filepath.FromSlash(dir)))
		if err != nil {
			return
		}
		names := []string{}
		for _, e := range entries {
			if e.IsDir() && skillName(e.Name()) && exists(path.Join(dir, e.Name(), "SKILL.md")) {
				names = append(names, path.Join(dir, e.Name(), "SKILL.md"))
			}
		}
		sort.Strings(names)
		out = append(out, names...)
	}
	plugin := func(dir string) {
		if !IsPlugin(filepath.Join(root, filepath.FromSlash(dir))) {
			return
		}
		if f := path.Join(dir, PluginHooks); exists(f) {
			out = append(out, f)
		}
		skillsIn(path.Join(dir, "skills"))
	}
	if skill != "" {
		plugin(skill)
		return out
	}
	skillsIn(ProjectSkills)
	plugin(".")
	return out
}

// loaded is a folder's Claude Code hooks for the registry.
type loaded struct{ cfg *Config }

func (l loaded) Diagnostics() []diag.Diagnostic { return l.cfg.Diagnostics }
func (l loaded) Hooks() []engine.HookInfo       { return l.cfg.HookInfos() }
func (l loaded) Active(*scenario.Scenario) bool { return len(l.cfg.Hooks) > 0 }

// Skills: enabled_skills may name Claude Code's skills too.
func (l loaded) Skills(names *scenario.SkillNames) { *names = l.cfg.SkillNames(names.Folders) }

// Commands lists the command and http handlers a run enabling sc's skills
// reaches (every one with folder).
func (l loaded) Commands(sc *scenario.Scenario, folder bool) []registry.Command {
	var enabled []string
	if !folder {
		enabled = sc.SkillsAnyRequestEnables()
	}
	var out []registry.Command
	for _, c := range l.cfg.Commands(enabled) {
		out = append(out, registry.Command{Source: c.Source, Event: System + ": " + c.Event, Hook: c.Command,
			Skill: c.Skill, Command: c.Command, Dir: c.Dir})
	}
	return out
}

func (l loaded) Attach(cfg *engine.Config, run registry.Run) (registry.Attached, error) {
	if len(l.cfg.Hooks) == 0 {
		return nil, nil
	}
	var prof *profile.Profile // nil: the newest bundled
	if run.Profiles != nil {
		prof, _ = run.Profiles(profile.ClaudeCode).(*profile.Profile)
	}
	h, err := New(Options{Config: l.cfg, Scenario: run.Scenario, Completer: run.Completer, Profile: prof})
	if err != nil {
		return nil, err
	}
	cfg.Handlers = append(cfg.Handlers, h)
	// the trace says which version renders a run that reaches a hook of ours
	if len(l.cfg.Active(run.Scenario.SkillsAnyRequestEnables())) > 0 {
		p := h.Profile()
		cfg.Agent = &engine.Agent{Agent: p.Agent, Version: p.Version, By: cmp.Or(p.By, profile.ByNewest)}
		cfg.AgentEntries = l.cfg.Entries() // the skills the agent lists and reads
	}
	return h, nil
}
