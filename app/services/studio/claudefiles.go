package studio

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"hookstudio/app/format/diag"
	"hookstudio/app/format/jsondoc"
	"hookstudio/app/hooks/claudehook"
	"hookstudio/app/services/edit"
)

// Kinds of Claude Code's hook files for the editor (ConfigKind).
const (
	// KindClaudeSettings is a settings.json, settings.local.json or a
	// plugin's hooks/hooks.json: Claude Code's shape, a "hooks" object of
	// events, beside other settings.
	KindClaudeSettings = "claude-settings"
	// KindClaudeSkill is a Claude Code skill's SKILL.md, whose frontmatter
	// may declare hooks.
	KindClaudeSkill = "claude-skill"
)

// claudeKind is the kind of a file Claude Code reads hooks from, looked
// up in root ("" when it is none): the project's settings files, the
// project's skills' SKILL.md, and — when the folder holding them is a
// plugin (.claude-plugin/plugin.json) — a plugin's hooks/hooks.json and
// its skills' SKILL.md, at the root or in a skill folder. Without a root
// (nothing open) a plugin cannot be told from a seed 000 skill: only the
// project's files are named.
func claudeKind(root, file string) string {
	if !localSlash(file) {
		return ""
	}
	parts := strings.Split(file, "/")
	switch {
	case file == claudehook.ProjectSettings || file == claudehook.LocalSettings:
		return KindClaudeSettings
	case len(parts) == 4 && strings.HasPrefix(file, claudehook.ProjectSkills+"/") && skillName(parts[2]) && parts[3] == "SKILL.md":
		return KindClaudeSkill
	}
	plugin, rest := "", parts
	if len(parts) > 0 && parts[0] != "hooks" && parts[0] != "skills" {
		plugin, rest = parts[0], parts[1:]
	}
	if root == "" || !claudehook.IsPlugin(filepath.Join(root, filepath.FromSlash(plugin))) {
		return ""
	}
	switch {
	case len(rest) == 2 && rest[0]+"/"+rest[1] == claudehook.PluginHooks:
		return KindClaudeSettings
	case len(rest) == 3 && rest[0] == "skills" && skillName(rest[1]) && rest[2] == "SKILL.md":
		return KindClaudeSkill
	}
	return ""
}

// claudeScript says whether file is in the project's .claude/hooks/, where
// Claude Code projects keep their hook scripts
// ("$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.sh), or in a plugin's hooks/
// or scripts/ (${CLAUDE_PLUGIN_ROOT}/scripts/…), at the root or in a skill
// folder (a skill's hooks/ is editable anyway).
func claudeScript(root, file string) bool {
	if !localSlash(file) {
		return false
	}
	parts := strings.Split(file, "/")
	switch {
	case len(parts) >= 3 && parts[0] == ".claude" && parts[1] == "hooks":
		return true
	case root == "":
		return false
	case len(parts) >= 2 && (parts[0] == "hooks" || parts[0] == "scripts") && claudehook.IsPlugin(root):
		return true
	case len(parts) >= 3 && parts[1] == "scripts" && skillName(parts[0]) && claudehook.IsPlugin(filepath.Join(root, parts[0])):
		return true
	}
	return false
}

func localSlash(file string) bool {
	return file != "" && filepath.IsLocal(filepath.FromSlash(file)) && !strings.Contains(file, `\`) && path.Clean(file) == file
}

func skillName(s string) bool { return s != "" && !strings.HasPrefix(s, ".") }

// claudeFiles lists the Claude Code hook files that exist in root, for the
// editor's file list (the settings files are RootConfigs): the project's
// skills and the root plugin's (skill ""), or a plugin skill's.
func claudeFiles(root, skill string) []string {
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
		if !claudehook.IsPlugin(filepath.Join(root, filepath.FromSlash(dir))) {
			return
		}
		if f := path.Join(dir, claudehook.PluginHooks); exists(f) {
			out = append(out, f)
		}
		skillsIn(path.Join(dir, "skills"))
	}
	if skill != "" {
		plugin(skill)
		return out
	}
	skillsIn(claudehook.ProjectSkills)
	plugin(".")
	return out
}

// claudeEditable says whether the editor opens and saves file as one of
// Claude Code's: its hook files, its hook scripts, and the project's own
// scenarios (.hookstudio/scenarios/, a project has no skill to hold them).
func claudeEditable(root, file string) bool {
	if claudeKind(root, file) != "" || claudeScript(root, file) {
		return true
	}
	dir, base := path.Split(file)
	return localSlash(file) && dir == claudehook.ScenarioDir+"/" && skillName(base)
}

// claudeDraftable says whether a draft of file is read by a run: Claude
// Code's hook files and scripts (scenarios are not drafted anywhere).
func claudeDraftable(root, file string) bool {
	return claudeKind(root, file) != "" || claudeScript(root, file)
}

// ClaudeEventInfo is what the form knows of an event: whether it fires in
// the simulated agent, has a matcher, reads handlers' "if".
type ClaudeEventInfo struct {
	Name    string `json:"name"`
	Fires   bool   `json:"fires"`
	Matcher bool   `json:"matcher"`
	If      bool   `json:"if"`
}

// ClaudeHooksEdit is a Claude Code settings text for the form: its hooks
// (JSON, key order as written), where each event, group and handler is,
// the events Claude Code knows and the file's diagnostics. Editable is
// false (Error says why) for a text the form cannot edit: raw only.
type ClaudeHooksEdit struct {
	Text        string            `json:"text"`
	Editable    bool              `json:"editable"`
	Error       string            `json:"error,omitempty"`
	Hooks       json.RawMessage   `json:"hooks"`
	Lines       map[string]int    `json:"lines"`
	Events      []ClaudeEventInfo `json:"events"`
	Diagnostics []diag.Diagnostic `json:"diagnostics"`
}

func claudeEvents() []ClaudeEventInfo {
	var out []ClaudeEventInfo
	for _, e := range claudehook.KnownEvents() {
		out = append(out, ClaudeEventInfo{Name: string(e), Fires: e.Fires(), Matcher: e.HasMatcher(), If: e.HasIf()})
	}
	return out
}

// InspectClaudeHooks parses a Claude Code settings.json, plugin
// hooks.json or SKILL.md text for the form.
func (s *Service) InspectClaudeHooks(ctx context.Context, file, text string) ClaudeHooksEdit {
	r := ClaudeHooksEdit{Text: text, Hooks: json.RawMessage("{}"), Lines: map[string]int{}, Events: claudeEvents(),
		Diagnostics: s.LintFile(ctx, file, text)}
	h, err := edit.InspectClaudeHooks(file, []byte(text))
	if err != nil {
		r.Error = err.Error()
		return r
	}
	r.Editable, r.Hooks, r.Lines = true, h.Hooks, h.Lines
	return r
}

// EditClaudeHooks writes the form's hooks into a Claude Code text, the
// rest of it as written.
func (s *Service) EditClaudeHooks(ctx context.Context, file, text string, hooks json.RawMessage) (ClaudeHooksEdit, error) {
	out, err := edit.EditClaudeHooks(file, []byte(text), hooks)
	if err != nil {
		return ClaudeHooksEdit{}, fmt.Errorf("%s: %w", file, err)
	}
	return s.InspectClaudeHooks(ctx, file, string(out)), nil
}

// ErrClaudeHooksJSON refuses to import a Claude Code hooks.json or
// settings.json as a seed 000 skill's hooks.json: its shape differs.
var ErrClaudeHooksJSON = errors.New(`this is Claude Code's hooks file ("hooks" is an object of events): import its plugin folder as a .zip, or open the project's folder`)

// claudeShaped says whether data is a JSON object whose "hooks" is an
// object (Claude Code's shape; seed 000's is a list).
func claudeShaped(data []byte) bool {
	doc, err := jsondoc.Parse(data)
	if err != nil || doc.Root.Kind != jsondoc.Object {
		return false
	}
	h := doc.Root.Get("hooks")
	return h != nil && h.Kind == jsondoc.Object
}
