package codexhook

import (
	"hookstudio/app/hooks/hookdecl"
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
			{Kind: registry.KindText, Role: registry.Script, Level: registry.Root, In: hookdecl.Scripts(".codex")},
		},
		Dirs: []string{".codex"},
		User: &registry.UserFile{Setting: "codex_user_config", Name: "config.toml", Flag: "codex-user-config",
			Usage: "Codex's user config.toml (~/.codex/config.toml): its [hooks] and the hooks.json beside it run before the project's, and its [hooks.state] says which hooks Codex trusts"},
		Starter: &registry.Starter{Path: HooksFile, Text: "{\n  \"hooks\": {}\n}\n"},
		Load:    hookdecl.Loader(Load),
	}
}

// Loaded is the folder's hooks for the registry.
func (c *Config) Loaded() hookdecl.Loaded {
	return hookdecl.Declared(System, c.Diagnostics, c.Hooks, (*Hook).decl, hookdecl.StartWith(c, New))
}

// decl is the hook as the registry and the panels see it.
func (h *Hook) decl() hookdecl.Decl {
	return hookdecl.Typed(hookdecl.Decl{Event: h.Event, Name: h.Name(), Source: h.Source(), Skill: h.Skill, Detail: h.Command, Matcher: h.Matcher,
		Dir: h.Dir, Runs: h.Runs, Why: h.Why}, h.Type, h.Type+" hook (Codex does not run it)")
}
