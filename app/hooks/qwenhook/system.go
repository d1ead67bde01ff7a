package qwenhook

import (
	"hookstudio/app/hooks/hookdecl"
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
			{Kind: registry.KindText, Role: registry.Script, Level: registry.Root, In: hookdecl.Scripts(".qwen")},
		},
		Dirs: []string{".qwen"},
		User: &registry.UserFile{Setting: "qwen_user_settings", Name: "settings.json", Flag: "qwen-user-settings",
			Usage: "Qwen Code's user settings.json (~/.qwen/settings.json), whose hooks run after the project's"},
		Starter: &registry.Starter{Path: SettingsFile, Text: "{\n  \"hooks\": {}\n}\n"},
		Load:    hookdecl.Loader(Load),
	}
}

// Loaded is the folder's hooks for the registry.
func (c *Config) Loaded() hookdecl.Loaded {
	return hookdecl.Declared(System, c.Diagnostics, c.Hooks, (*Hook).decl, hookdecl.StartWith(c, New))
}

// decl is the hook as the registry and the panels see it.
func (h *Hook) decl() hookdecl.Decl {
	return hookdecl.Typed(hookdecl.Decl{Event: h.Event, Name: h.Label(), Source: h.Source(), Skill: h.Skill, Detail: h.Command, Matcher: h.Matcher,
		Dir: h.Dir, Runs: h.Runs, Why: h.Why}, h.Type, h.Type+" hook")
}
