package convert

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"

	"hookstudio/app/format/diag"
	"hookstudio/app/hooks/claudehook"
)

// claudeReader reads Claude Code's hooks of a folder — its settings files,
// plugin hooks.json and SKILL.md frontmatter — through claudehook's parsed
// configuration.
var claudeReader = reader{
	Agent: ClaudeCode,
	Has: func(root string) bool {
		cfg, err := claudehook.Load(root, claudehook.LoadOptions{})
		return err == nil && len(cfg.Files) > 0
	},
	Read: func(_ context.Context, root string, opts ReadOptions) (*Set, []diag.Diagnostic, error) {
		cfg, err := claudehook.Load(root, claudehook.LoadOptions{Drafts: opts.Drafts})
		if err != nil {
			return nil, nil, err
		}
		set := &Set{From: ClaudeCode, Root: cfg.Root, Package: claudehook.IsPlugin(cfg.Root), Name: packageName(cfg.Root)}
		d := dialectOf(ClaudeCode)
		for _, h := range cfg.Hooks {
			e := eventOf(ClaudeCode, string(h.Event))
			n := Hook{Event: e, Native: string(h.Event), Type: h.Type, Command: h.Command, Args: h.Args, Prompt: h.Prompt,
				URL: h.URL, Model: h.Model, If: h.If, Once: h.Once, Skill: h.UsedSkill,
				Matcher: readMatcher(ClaudeCode, d.matcherOn(e), h.Matcher, claudeSyntax),
				Timeout: float64(h.Timeout), Explicit: h.Timeout > 0,
				Pos: Pos{File: h.File, Line: h.Line, Column: h.Column}}
			if !n.Explicit {
				n.Timeout = d.Timeout(h.Type)
			}
			if h.Type == TypeCommand {
				vars := map[string]string{"CLAUDE_PROJECT_DIR": cfg.Root}
				if h.Plugin != "" {
					vars["CLAUDE_PLUGIN_ROOT"] = h.Plugin
				}
				n.Scripts = scriptsOf(h.Command, h.Args, cfg.Root, cfg.Root, vars)
			}
			set.Hooks = append(set.Hooks, n)
		}
		return set, cfg.Diagnostics, nil
	},
}

// claudeSyntax reads a matcher as Claude Code does: "", "*": all; only
// letters, digits, "_ - space , |": names split on | or ,; anything else an
// unanchored regular expression.
var claudeSyntax = matcherSyntax{
	all: []string{"", "*"},
	plain: func(m string) []string {
		if !plainNames.MatchString(m) {
			return nil
		}
		var out []string
		for _, p := range strings.FieldsFunc(m, func(r rune) bool { return r == '|' || r == ',' }) {
			if p = strings.TrimSpace(p); p != "" {
				out = append(out, p)
			}
		}
		return out
	},
	regex: func(m string) (string, bool) { return m, true },
}

// packageName is a plugin's or extension's name from its manifest, else
// the folder's.
func packageName(root string) string {
	for _, manifest := range []string{claudehook.PluginManifest, "gemini-extension.json", "plugin.json"} {
		data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(manifest)))
		if err != nil {
			continue
		}
		var m struct {
			Name string `json:"name"`
		}
		if json.Unmarshal(data, &m) == nil && m.Name != "" {
			return m.Name
		}
	}
	return filepath.Base(root)
}
