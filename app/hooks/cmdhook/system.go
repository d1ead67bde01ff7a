package cmdhook

import (
	"context"

	"hookstudio/app/agent/engine"
	"hookstudio/app/agent/scenario"
	"hookstudio/app/format/diag"
	"hookstudio/app/hooks/hostmode"
	"hookstudio/app/hooks/registry"
	"hookstudio/schema"
)

// Kinds of jcli's files for the editor.
const (
	// KindHooksYAML is seed 001's hooks.yaml: hooks by event.
	KindHooksYAML = "hooks-yaml"
	// KindHookYAML is jcli's current one-hook HOOK.yaml.
	KindHookYAML = "hook-yaml"
)

// Registration is command hooks (jcli, seed 001) as the registry knows
// them: the project's .jcli/hooks.yaml and hook folders, each skill's
// hooks/hooks.yaml, the user's hooks.yaml as a setting. cache keeps
// results between runs (nil: none); a run asking for Fresh ones gets none.
func Registration(cache *Cache) registry.System {
	return registry.System{
		Name:  System,
		Title: "command hooks (jcli's hooks.yaml, seed 001)",
		Label: "cmd",
		Files: []registry.File{
			{Kind: KindHooksYAML, Role: registry.Config, Level: registry.Root, Patterns: []string{ProjectFile}, Schema: schema.HooksYAML, Trust: true},
			{Kind: KindHookYAML, Role: registry.Config, Level: registry.Root,
				Patterns: []string{ProjectHookDirs + "/*/" + HookDirFile, ProjectHookDirs + "/*/" + HookDirAltFile}, Trust: true},
			{Kind: KindHooksYAML, Role: registry.Config, Level: registry.Skill, Patterns: []string{"*/hooks/hooks.yaml"}, Schema: schema.HooksYAML, Trust: true},
		},
		Dirs: []string{".jcli"},
		User: &registry.UserFile{Setting: "file", Flag: "user-hooks",
			Usage: "the user-level command hooks file (hooks.yaml), run before the folder's"},
		Starter: &registry.Starter{Path: ProjectFile, Text: `# jcli's command hooks of this folder (seed 001): events at the top level,
# each a list of hooks; a command reads the HookContext JSON on stdin and
# prints a HookResult JSON (or nothing: no change). For example:
#
# session_start:
#   - name: announce
#     command: "echo '{\"system_message\": \"hooks are on\"}'"
{}
`},
		Load: func(_ context.Context, req registry.LoadRequest) (registry.Loaded, error) {
			cfg, err := Load(req.Root, LoadOptions{UserFile: req.User, Drafts: req.Drafts})
			if err != nil {
				return nil, err
			}
			return &loaded{cfg: cfg, cache: cache, mode: req.Mode}, nil
		},
	}
}

// loaded is a folder's command hooks for the registry.
type loaded struct {
	cfg   *Config
	cache *Cache
	mode  hostmode.Mode
}

func (l *loaded) Diagnostics() []diag.Diagnostic { return l.cfg.Diagnostics }
func (l *loaded) Skills(*scenario.SkillNames)    {} // its skills are the folders
func (l *loaded) Hooks() []engine.HookInfo       { return l.cfg.HookInfos() }

// Commands: only what a run of sc can reach (a skill it never enables
// needs no trust), plus what its register_hook calls add; with folder,
// every command of the files.
func (l *loaded) Commands(sc *scenario.Scenario, folder bool) []registry.Command {
	cs := l.cfg.CommandsFor(sc)
	if folder {
		cs = l.cfg.Commands()
	}
	var out []registry.Command
	for _, c := range append(cs, ScenarioCommands(sc)...) {
		out = append(out, registry.Command{Source: c.Source, Event: string(c.Event), Hook: c.Hook, Skill: c.Skill, Command: c.Command, Dir: c.Dir})
	}
	return out
}

func (l *loaded) Active(sc *scenario.Scenario) bool {
	return len(l.cfg.HooksFor(sc)) > 0 || hasRegister(sc)
}

func (l *loaded) Attach(cfg *engine.Config, run registry.Run) (registry.Attached, error) {
	if !l.Active(run.Scenario) {
		return nil, nil
	}
	cache := l.cache
	if run.Fresh {
		cache = nil
	}
	h, err := New(Options{Root: l.cfg.Root, Config: l.cfg, Scenario: run.Scenario, Completer: run.Completer,
		Cache: cache, Trusted: true, Mode: l.mode})
	if err != nil {
		return nil, err
	}
	cfg.Handlers = append(cfg.Handlers, h)
	return h, nil
}

// hasRegister says whether sc scripts a register_hook call (which adds
// hooks at run time).
func hasRegister(sc *scenario.Scenario) bool {
	if sc == nil {
		return false
	}
	for _, r := range sc.Requests {
		for _, rd := range r.Rounds {
			for _, tc := range rd.ToolCalls {
				if IsRegister(tc.Name) {
					return true
				}
			}
		}
	}
	return false
}
