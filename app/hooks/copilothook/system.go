package copilothook

import (
	"strings"

	"hookstudio/app/hooks/hookdecl"
	"hookstudio/app/hooks/registry"
	"hookstudio/schema"
)

// KindHooks is a Copilot CLI hook file: the repository's
// .github/hooks/*.json, a plugin's hooks.json.
const KindHooks = "copilot-hooks"

// plugin is a Copilot CLI plugin folder: plugin.json, its hooks.json
// beside it (Copilot CLI also reads hooks/hooks.json, which in a skills
// folder is seed 000's hooks file).
var plugin = hookdecl.Bundle{Manifest: PluginManifest, Hooks: PluginHooks}

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
				In: plugin.File, List: plugin.List, Schema: schema.CopilotHooks, Trust: true},
			{Kind: registry.KindText, Role: registry.Script, Level: registry.Root, In: script},
			{Kind: registry.KindScenario, Role: registry.Scenario, Level: registry.Root, Patterns: []string{ScenarioDir + "/*"}},
		},
		Dirs: []string{".github", ".hookstudio"},
		User: &registry.UserFile{Setting: "copilot_user_hooks", Name: "hooks folder", Flag: "copilot-user-hooks",
			Usage: "Copilot CLI's user-level hooks folder (~/.copilot/hooks), whose *.json hooks run before the repository's", Folder: true},
		SkillFolders: plugin.Folders,
		Starter:      &registry.Starter{Path: ProjectHooks + "/hooks.json", Text: "{\n  \"version\": 1,\n  \"hooks\": {}\n}\n"},
		Load:         hookdecl.Loader(Load),
	}
}

// script says whether file is a hook script: under .github/hooks/ (not a
// hook file) or a plugin's scripts/ or hooks/.
func script(root, file string) bool {
	if parts := strings.Split(file, "/"); len(parts) >= 3 && parts[0] == ".github" && parts[1] == "hooks" {
		return len(parts) > 3 || !strings.HasSuffix(file, ".json")
	}
	return plugin.Script(root, file)
}

// Loaded is the folder's Copilot CLI hooks for the registry.
func (c *Config) Loaded() hookdecl.Loaded {
	decl := func(h *Hook) hookdecl.Decl {
		d := hookdecl.Decl{Event: string(h.Event), Name: h.Title(), Source: h.Source(), Skill: h.Skill, Detail: h.Bash, Matcher: h.Matcher,
			Command: h.Bash, Dir: h.dir(c.Root), Runs: h.Runs, Why: h.Why}
		if h.Type == TypePrompt {
			d.Detail = h.Prompt
		}
		return d
	}
	return hookdecl.Declared(System, c.Diagnostics, c.Hooks, decl, hookdecl.StartWith(c, New))
}
