package convert

import (
	"path"
	"strings"
)

// Layouts of a written hook set.
const (
	// LayoutProject writes the hooks into a project's settings: Claude
	// Code's .claude/settings.json, Codex's .codex/hooks.json, Gemini CLI's
	// .gemini/settings.json, Copilot CLI's .github/hooks/<name>.json, Qwen
	// Code's .qwen/settings.json.
	LayoutProject = "project"
	// LayoutPackage writes a package of hooks where the agent has one — a
	// Claude Code plugin (hooks/hooks.json), a Gemini CLI extension
	// (gemini-extension.json, hooks/hooks.json) — and the project layout
	// elsewhere.
	LayoutPackage = "package"
)

// layout is where a target's files go.
type layout struct {
	// Hooks is the file that holds the hooks; Member the key of a settings
	// object they are ("hooks"), "" a file of the hooks alone.
	Hooks  string
	Member string
	// Scripts is the folder scripts are copied into.
	Scripts string
	// Ref is how a command names a script copied to rel.
	Ref func(rel string) string
	// Manifest is a package's manifest, written when missing: only a
	// package layout has one.
	Manifest string
}

// layoutOf is the layout of agent's files for a set named name.
func layoutOf(agent, kind, name string) layout {
	switch agent {
	case ClaudeCode:
		if kind == LayoutPackage {
			return layout{Hooks: "hooks/hooks.json", Member: "hooks", Scripts: "hooks",
				Ref: func(rel string) string { return "${CLAUDE_PLUGIN_ROOT}/" + rel }, Manifest: ".claude-plugin/plugin.json"}
		}
		return layout{Hooks: ".claude/settings.json", Member: "hooks", Scripts: ".claude/hooks",
			Ref: func(rel string) string { return `"$CLAUDE_PROJECT_DIR"/` + rel }}
	case Codex: // hooks run in the project folder (codex-rs/hooks engine: the session's cwd)
		return layout{Hooks: ".codex/hooks.json", Member: "hooks", Scripts: ".codex/hooks", Ref: func(rel string) string { return rel }}
	case GeminiCLI:
		if kind == LayoutPackage {
			return layout{Hooks: "hooks/hooks.json", Member: "hooks", Scripts: "hooks",
				Ref: func(rel string) string { return "${extensionPath}/" + rel }, Manifest: "gemini-extension.json"}
		}
		return layout{Hooks: ".gemini/settings.json", Member: "hooks", Scripts: ".gemini/hooks",
			Ref: func(rel string) string { return `"$GEMINI_PROJECT_DIR"/` + rel }}
	case CopilotCLI: // hooks run in the repository's root
		return layout{Hooks: ".github/hooks/" + fileName(name) + ".json", Scripts: ".github/hooks/" + fileName(name),
			Ref: func(rel string) string { return rel }}
	case QwenCode: // hooks run in the project folder
		return layout{Hooks: ".qwen/settings.json", Member: "hooks", Scripts: ".qwen/hooks", Ref: func(rel string) string { return rel }}
	}
	return layout{}
}

// fileName is name made safe as a file name.
func fileName(name string) string {
	name = strings.Map(func(r rune) rune {
		if r == '/' || r == '\\' || r == ':' || r < ' ' {
			return '-'
		}
		return r
	}, strings.TrimSpace(name))
	if name == "" || name == "." || name == ".." || strings.HasPrefix(name, ".") {
		return "hooks"
	}
	return name
}

// scriptPlaces gives each source script its place in the target's script
// folder: its file name, or its path with dashes when two share a name.
func scriptPlaces(dir string, rels []string) map[string]string {
	out := map[string]string{}
	byName := map[string]int{}
	for _, r := range rels {
		byName[path.Base(r)]++
	}
	for _, r := range rels {
		name := path.Base(r)
		if byName[name] > 1 {
			name = strings.ReplaceAll(strings.TrimPrefix(r, "."), "/", "-")
		}
		out[r] = path.Join(dir, name)
	}
	return out
}
