package claudehook

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"net"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"hookstudio/app/agent/scenario"
	"hookstudio/app/format/diag"
	"hookstudio/app/hooks/ccshape"
)

// Where Claude Code reads hooks, relative to a project (the skills root).
const (
	ProjectSettings = ".claude/settings.json"
	LocalSettings   = ".claude/settings.local.json"
	ProjectSkills   = ".claude/skills"
	PluginManifest  = ".claude-plugin/plugin.json"
	PluginHooks     = "hooks/hooks.json"
	// ScenarioDir is where a Claude Code project keeps Hook Studio's
	// scenarios (its own folders are the project's, not skills).
	ScenarioDir = scenario.ProjectScenarioDir
)

// Hook is one hook handler as declared: the event and matcher of its
// group, its own fields, and where it comes from.
type Hook struct {
	Event   Event    `json:"event"`
	Matcher string   `json:"matcher,omitempty"`
	Type    string   `json:"type"`
	Command string   `json:"command,omitempty"`
	Args    []string `json:"args,omitempty"`
	Prompt  string   `json:"prompt,omitempty"`
	URL     string   `json:"url,omitempty"`
	Model   string   `json:"model,omitempty"`
	Timeout int      `json:"timeout,omitempty"` // seconds; 0: the type's default
	If      string   `json:"if,omitempty"`
	Once    bool     `json:"once,omitempty"`
	// Async: declared "async": Claude Code runs it in the background and
	// does not wait for its answer.
	Async bool `json:"async,omitempty"`
	// StatusMessage is what the CLI shows while the hook runs; some
	// versions name the hook by it (request.HookNames).
	StatusMessage string `json:"status_message,omitempty"`

	File   string `json:"file"` // relative to the root (the user file as given)
	Line   int    `json:"line"`
	Column int    `json:"column"`
	// Plugin is the plugin folder (absolute) for ${CLAUDE_PLUGIN_ROOT}; "" none.
	Plugin string `json:"plugin,omitempty"`
	// Skill is the Hook Studio skill folder that holds the handler (a plugin
	// in the skills folder): active while that skill is enabled.
	Skill string `json:"skill,omitempty"`
	// UsedSkill is the Claude Code skill whose SKILL.md declares the
	// handler: registered when the model uses that skill.
	UsedSkill string `json:"used_skill,omitempty"`
	// Runs is false for a handler the simulated agent cannot run (agent,
	// mcp_tool, an event that never fires); Why says why.
	Runs bool   `json:"runs"`
	Why  string `json:"why,omitempty"`

	cmdLine, cmdCol int           // where "command" is, for its diagnostics
	rewake          bool          // asyncRewake: run in the background, its answer taken when it ends; an exit 2 wakes the model
	match           ccshape.Match // the group's matcher, compiled once
	rule            *rule         // the if rule, read once (nil: none, or unreadable)
}

// Source is where the handler is declared, file:line.
func (h *Hook) Source() string { return fmt.Sprintf("%s:%d", h.File, h.Line) }

// Name is how the trace and the panels name the handler (Claude Code's
// handlers have none): a script it runs by path, by its file name; else
// the command, prompt or URL, cut to a readable length.
func (h *Hook) Name() string {
	switch h.Type {
	case TypeCommand:
		if first := strings.Fields(h.Command); len(h.Args) == 0 && len(first) > 0 && strings.Contains(first[0], "/") &&
			(len(first) == 1 || strings.HasPrefix(first[1], "-") || !strings.ContainsAny(h.Command, "|;&><")) {
			return path.Base(strings.Trim(first[0], `"'`))
		}
		return cut(h.CommandLine(), 48)
	case TypePrompt:
		first, _, _ := strings.Cut(h.Prompt, "\n")
		return cut("prompt: "+first, 48)
	case TypeHTTP:
		return cut("POST "+h.URL, 48)
	}
	return h.Type
}

// NeedsTrust says whether running the handler needs the folder's trust:
// a command runs code, an http handler posts the session's data. An http
// handler to this machine (localhost, 127.0.0.0/8, ::1) does not, as a
// prompt handler does not; it is held to loopback when it runs.
func (h *Hook) NeedsTrust() bool {
	switch h.Type {
	case TypeCommand:
		return true
	case TypeHTTP:
		return !loopbackURL(h.URL)
	}
	return false
}

func loopbackURL(raw string) bool {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") {
		return false
	}
	if strings.EqualFold(u.Hostname(), "localhost") {
		return true
	}
	ip := net.ParseIP(u.Hostname())
	return ip != nil && ip.IsLoopback()
}

// CommandLine is the command as written (with its args), as the real CLI
// quotes it in the model's text ("[<command>]: …").
func (h *Hook) CommandLine() string {
	if len(h.Args) > 0 {
		return h.Command + " " + strings.Join(h.Args, " ")
	}
	return h.Command
}

func cut(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}

// identity is what makes two handlers the same one: Claude Code runs
// identical handlers from several settings files once.
func (h *Hook) identity() string {
	return strings.Join(append([]string{string(h.Event), h.Matcher, h.Type, h.Command, h.Prompt, h.URL, h.If, h.Plugin}, h.Args...), "\x00")
}

// Config is every Claude Code hook under a root and every problem found.
type Config struct {
	Root        string            `json:"root"`
	Hooks       []Hook            `json:"hooks"`
	Diagnostics []diag.Diagnostic `json:"diagnostics"`
	Files       []string          `json:"files"`
	// Project says the root is a Claude Code project (it has .claude/).
	Project bool `json:"project"`
	// Skills maps a Claude Code skill's name to the file that declares it.
	Skills map[string]string `json:"skills"`

	fingerprint string
	// skillFolder maps a plugin skill's name to the Hook Studio skill
	// folder of its plugin (absent: a project skill, the root plugin's).
	skillFolder map[string]string
}

// LoadOptions says where hooks are besides the root.
type LoadOptions struct {
	// UserSettings is the user-level settings.json (~/.claude/settings.json;
	// an app setting, hookctl --claude-user-settings); "" none.
	UserSettings string
	// Drafts are unsaved editor texts by path relative to the root.
	Drafts map[string][]byte
}

// IsProject says whether root is a Claude Code project.
func IsProject(root string) bool {
	fi, err := os.Stat(filepath.Join(root, ".claude"))
	return err == nil && fi.IsDir()
}

// IsPlugin says whether dir is a Claude Code plugin folder.
func IsPlugin(dir string) bool {
	_, err := os.Stat(filepath.Join(dir, filepath.FromSlash(PluginManifest)))
	return err == nil
}

// Load reads every settings file, plugin hooks.json and SKILL.md
// frontmatter under root, in Claude Code's order: user, project, local,
// then plugins and skills. Only an unreadable root is an error.
func Load(root string, opts LoadOptions) (*Config, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, fmt.Errorf("skills root %s: %w", root, err)
	}
	entries, err := os.ReadDir(abs)
	if err != nil {
		return nil, fmt.Errorf("read skills root: %w", err)
	}
	c := &Config{Root: abs, Hooks: []Hook{}, Diagnostics: []diag.Diagnostic{}, Files: []string{},
		Project: IsProject(abs), Skills: map[string]string{}, skillFolder: map[string]string{}}
	sum := sha256.New()
	read := func(rel, file string) ([]byte, bool) {
		data, ok := opts.Drafts[rel]
		if !ok {
			var err error
			data, err = os.ReadFile(file)
			if errors.Is(err, fs.ErrNotExist) {
				return nil, false
			}
			if err != nil {
				c.Diagnostics = append(c.Diagnostics, diag.Diagnostic{File: rel, Severity: diag.Error, Code: CodeUnreadable,
					Message: fmt.Sprintf("cannot read %s: %v; check its permissions", rel, errors.Unwrap(err))})
				return nil, false
			}
		}
		fmt.Fprintf(sum, "%s\x00%d\x00", rel, len(data))
		sum.Write(data)
		c.Files = append(c.Files, rel)
		return data, true
	}
	add := func(hs []Hook, ds []diag.Diagnostic) {
		c.Diagnostics = append(c.Diagnostics, ds...)
		c.Hooks = append(c.Hooks, hs...)
	}
	settings := func(rel, file string, plugin, skill string) {
		if data, ok := read(rel, file); ok {
			add(parseSettings(rel, data, source{plugin: plugin, skill: skill}))
		}
	}
	if opts.UserSettings != "" {
		if uf, err := filepath.Abs(opts.UserSettings); err == nil {
			settings(filepath.ToSlash(opts.UserSettings), uf, "", "")
		}
	}
	settings(ProjectSettings, filepath.Join(abs, filepath.FromSlash(ProjectSettings)), "", "")
	settings(LocalSettings, filepath.Join(abs, filepath.FromSlash(LocalSettings)), "", "")
	skillDir := func(relDir, dir, plugin, skill, prefix string) {
		subs, err := os.ReadDir(dir)
		if err != nil {
			return
		}
		for _, e := range subs {
			if !e.IsDir() || strings.HasPrefix(e.Name(), ".") {
				continue
			}
			rel := path.Join(relDir, e.Name(), "SKILL.md")
			data, ok := read(rel, filepath.Join(dir, e.Name(), "SKILL.md"))
			if !ok {
				continue
			}
			name := prefix + e.Name()
			c.Skills[name] = rel
			if skill != "" {
				c.skillFolder[name] = skill
			}
			add(parseSkill(rel, data, source{plugin: plugin, skill: skill, usedSkill: name}))
		}
	}
	skillDir(ProjectSkills, filepath.Join(abs, filepath.FromSlash(ProjectSkills)), "", "", "")
	plugin := func(relDir, dir, skill string) {
		name := pluginName(dir)
		settings(path.Join(relDir, PluginHooks), filepath.Join(dir, filepath.FromSlash(PluginHooks)), dir, skill)
		skillDir(path.Join(relDir, "skills"), filepath.Join(dir, "skills"), dir, skill, name+":")
	}
	if IsPlugin(abs) {
		plugin(".", abs, "")
	}
	for _, e := range entries { // sorted by name, as skills.Load
		dir := filepath.Join(abs, e.Name())
		if strings.HasPrefix(e.Name(), ".") || !e.IsDir() || !IsPlugin(dir) {
			continue
		}
		plugin(e.Name(), dir, e.Name())
	}
	for i := range c.Hooks {
		h := &c.Hooks[i]
		ch := ccshape.Handler{Event: string(h.Event), Type: h.Type, Command: h.Command, Args: h.Args, CmdLine: h.cmdLine, CmdCol: h.cmdCol}
		c.Diagnostics = append(c.Diagnostics, ccshape.CheckCommand(&dialect, h.File, &ch, abs, h.Plugin)...)
	}
	diag.Sort(c.Diagnostics)
	c.fingerprint = hex.EncodeToString(sum.Sum(nil))
	return c, nil
}

// Fingerprint hashes every file read: trust is remembered by it.
func (c *Config) Fingerprint() string { return c.fingerprint }

// pluginName is the plugin's name from its manifest, else its folder's.
func pluginName(dir string) string {
	var m struct {
		Name string `json:"name"`
	}
	if data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(PluginManifest))); err == nil {
		if jsonUnmarshal(data, &m) == nil && m.Name != "" {
			return m.Name
		}
	}
	return filepath.Base(dir)
}

// Active lists the handlers that may run in a run enabling these skills
// (nil: every skill): the settings files' and the root plugin's always,
// a skill plugin's while it is enabled, a SKILL.md's while its Claude Code
// skill is (SkillOn).
func (c *Config) Active(enabled []string) []*Hook {
	var out []*Hook
	for i := range c.Hooks {
		h := &c.Hooks[i]
		switch {
		case h.UsedSkill != "":
			if !c.SkillOn(h.UsedSkill, enabled) {
				continue
			}
		case h.Skill != "" && enabled != nil && !contains(enabled, h.Skill):
			continue
		}
		out = append(out, h)
	}
	return out
}

// SkillOn says whether Claude Code skill name is enabled in a request
// enabling these skills (nil: every skill): listed by its name, or its
// plugin's skill folder is. An enabled skill is one the model may use; its
// frontmatter hooks run from its first use on, while it stays enabled.
func (c *Config) SkillOn(name string, enabled []string) bool {
	if enabled == nil || contains(enabled, name) {
		return true
	}
	folder, ok := c.skillFolder[name]
	return ok && contains(enabled, folder)
}

// usedAs says whether a Skill tool call naming name uses skill: by its
// whole name, or a plugin's skill by its own part.
func usedAs(skill, name string) bool {
	return skill == name || strings.HasSuffix(skill, ":"+name)
}

// SkillNames is what a scenario's enabled_skills may name in this root:
// the root's skill folders (given: skills.Load finds them) and Claude
// Code's skills, with the reason a name the root holds something of cannot
// be listed.
func (c *Config) SkillNames(folders []string) scenario.SkillNames {
	claude := slices.Sorted(maps.Keys(c.Skills))
	return scenario.SkillNames{Folders: folders, Claude: claude, Why: func(name string) string {
		for _, s := range claude {
			if usedAs(s, name) {
				return fmt.Sprintf("Claude Code names that plugin skill %q; write its whole name", s)
			}
		}
		if IsPlugin(c.Root) && pluginName(c.Root) == name {
			return "it is the opened folder's own Claude Code plugin, whose hooks are always on; list skill folders or Claude Code skills"
		}
		if strings.HasPrefix(name, ".") || strings.ContainsAny(name, `/\`) {
			return ""
		}
		if dir := filepath.Join(c.Root, filepath.FromSlash(ProjectSkills), name); isDir(dir) {
			if _, err := os.Stat(filepath.Join(dir, "SKILL.md")); err == nil {
				return fmt.Sprintf("%s/%s/SKILL.md cannot be read (see its diagnostic), so Claude Code has no skill of that name", ProjectSkills, name)
			}
			return fmt.Sprintf("%s/%s has no SKILL.md, so Claude Code has no skill of that name; add %s/%s/SKILL.md", ProjectSkills, name, ProjectSkills, name)
		}
		if c.Project && isDir(filepath.Join(c.Root, name)) {
			return fmt.Sprintf("%s/ is a folder of this Claude Code project; a folder of a project is a skill only when it holds hooks/, scenarios/ or .claude-plugin/", name)
		}
		return ""
	}}
}

func isDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}
