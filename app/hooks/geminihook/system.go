package geminihook

import (
	"strings"

	"hookstudio/app/hooks/hookdecl"
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

// extension is a Gemini CLI extension folder: gemini-extension.json, its
// hooks in hooks/hooks.json.
var extension = hookdecl.Bundle{Manifest: ExtensionManifest, Hooks: ExtensionHooks}

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
			{Kind: KindExtensionHooks, Role: registry.Config, Level: registry.Root, In: extension.File, List: extension.List,
				Schema: schema.GeminiExtensionHooks, Trust: true},
			{Kind: registry.KindText, Role: registry.Script, Level: registry.Root, In: script},
			{Kind: registry.KindScenario, Role: registry.Scenario, Level: registry.Root, Patterns: []string{ScenarioDir + "/*"}},
		},
		Dirs: []string{".gemini", ".hookstudio"},
		User: &registry.UserFile{Setting: "gemini_user_settings", Name: "settings.json", Flag: "gemini-user-settings",
			Usage: "Gemini CLI's user-level settings.json (~/.gemini/settings.json), whose hooks run before the project's"},
		SkillFolders: extension.Folders,
		Starter:      &registry.Starter{Path: ProjectSettings, Text: "{\n  \"hooks\": {}\n}\n"},
		Load:         hookdecl.Loader(Load),
	}
}

// script says whether file is a hook script of the project
// (.gemini/hooks/…) or of an extension (its hooks/ or scripts/).
func script(root, file string) bool {
	if parts := strings.Split(file, "/"); len(parts) >= 3 && parts[0] == ".gemini" && parts[1] == "hooks" {
		return true
	}
	return extension.Script(root, file)
}

// Loaded is the folder's Gemini CLI hooks for the registry.
func (c *Config) Loaded() hookdecl.Loaded {
	decl := func(h *Hook) hookdecl.Decl {
		return hookdecl.Decl{Event: string(h.Event), Name: h.Title(), Source: h.Source(), Skill: h.Skill, Detail: h.Command, Matcher: h.Matcher,
			Command: h.Command, Dir: c.Root, Runs: h.Runs, Why: h.Why}
	}
	return hookdecl.Declared(System, c.Diagnostics, c.Hooks, decl, hookdecl.StartWith(c, New))
}
