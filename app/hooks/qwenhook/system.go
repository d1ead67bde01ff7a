package qwenhook

import (
	"context"

	"hookstudio/app/agentdata/profile"
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
		Load: func(_ context.Context, req registry.LoadRequest) (registry.Loaded, error) {
			cfg, err := Load(req.Root, LoadOptions{UserSettings: req.User, Drafts: req.Drafts})
			if err != nil {
				return nil, err
			}
			return cfg.loaded(), nil
		},
	}
}

// loaded is the folder's Qwen Code hooks for the registry.
func (c *Config) loaded() hookdecl.Loaded {
	decls := make([]hookdecl.Decl, len(c.Hooks))
	for i := range c.Hooks {
		h := &c.Hooks[i]
		d := hookdecl.Decl{Event: h.Event, Name: h.Label(), Source: h.Source(), Skill: h.Skill, Detail: h.Command, Dir: h.Dir, Runs: h.Runs}
		if h.Type == "command" {
			d.Command = h.Command
		} else {
			d.Detail = h.Type + " hook"
		}
		if h.Matcher != "" && h.Matcher != "*" {
			d.Detail = h.Matcher + " · " + d.Detail
		}
		decls[i] = d
	}
	return hookdecl.Loaded{System: System, Diags: c.Diagnostics, Decls: decls,
		New: func(run registry.Run, prof *profile.Profile) (hookdecl.Handler, error) {
			return New(Options{Config: c, Scenario: run.Scenario, Profile: prof})
		}}
}
