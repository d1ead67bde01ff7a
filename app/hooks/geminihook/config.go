package geminihook

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"hookstudio/app/agent/scenario"
	"hookstudio/app/format/diag"
	"hookstudio/app/hooks/hookdecl"
)

// Where Gemini CLI reads hooks, relative to a project (the opened folder).
const (
	ProjectSettings = ".gemini/settings.json"
	// ExtensionManifest marks a folder as a Gemini CLI extension, whose
	// hooks are in ExtensionHooks beside it.
	ExtensionManifest = "gemini-extension.json"
	ExtensionHooks    = "hooks/hooks.json"
	// ScenarioDir is where a Gemini CLI project keeps Hook Studio's
	// scenarios.
	ScenarioDir = scenario.ProjectScenarioDir
)

// DefaultTimeout is Gemini CLI's hook timeout (a handler's "timeout" is in
// milliseconds).
const DefaultTimeoutMS = 60000

// Hook is one handler as declared: its group's event, matcher and
// sequential flag, its own fields, and where it comes from.
type Hook struct {
	Event       Event             `json:"event"`
	Matcher     string            `json:"matcher,omitempty"`
	Sequential  bool              `json:"sequential,omitempty"`
	Type        string            `json:"type"`
	Command     string            `json:"command,omitempty"`
	Name        string            `json:"name,omitempty"`
	Description string            `json:"description,omitempty"`
	TimeoutMS   int               `json:"timeout,omitempty"` // 0: DefaultTimeoutMS
	Env         map[string]string `json:"env,omitempty"`

	// Extension is the extension folder (absolute) whose hooks/hooks.json
	// declares the handler ("" the settings); Skill the Hook Studio skill
	// folder that holds that extension: active while the skill is enabled.
	Extension string `json:"extension,omitempty"`
	Skill     string `json:"skill,omitempty"`

	File   string `json:"file"` // relative to the root (the user file as given)
	Line   int    `json:"line"`
	Column int    `json:"column"`
	// Runs is false for a handler Gemini CLI would not run here (an event
	// that never fires in the simulated agent, hooks disabled); Why says why.
	Runs bool   `json:"runs"`
	Why  string `json:"why,omitempty"`

	cmdLine, cmdCol int
	match           func(string) bool // the group's matcher, compiled once
}

// Source is where the handler is declared, file:line.
func (h *Hook) Source() string { return hookdecl.Source(h.File, h.Line) }

// Label is how Gemini CLI names the handler (its name, else its command):
// in its warnings, and in hooksConfig.disabled.
func (h *Hook) Label() string {
	if h.Name != "" {
		return h.Name
	}
	return h.Command
}

// Title is how the trace and the panels name the handler: its name, else
// a script it runs by path by its file name, else the command cut short.
func (h *Hook) Title() string { return hookdecl.Title(h.Name, h.Command) }

// key is what makes two handlers one for Gemini CLI's planner: the same
// name and command run once per event.
func (h *Hook) key() string { return h.Name + ":" + h.Command }

// Config is every Gemini CLI hook under a root and every problem found.
type Config struct {
	Root        string            `json:"root"`
	Hooks       []Hook            `json:"hooks"`
	Diagnostics []diag.Diagnostic `json:"diagnostics"`
	Files       []string          `json:"files"`
	// Enabled is hooksConfig.enabled (true unless a file says false; the
	// project's word wins over the user's).
	Enabled bool `json:"enabled"`

	fingerprint string
}

// LoadOptions say where hooks are besides the opened folder.
type LoadOptions = hookdecl.Options

// IsExtension says whether dir is a Gemini CLI extension folder.
func IsExtension(dir string) bool { return extension.Is(dir) }

// IsProject says whether root is a Gemini CLI project (it has .gemini/).
func IsProject(root string) bool {
	fi, err := os.Stat(filepath.Join(root, ".gemini"))
	return err == nil && fi.IsDir()
}

// Load reads the user's settings, then the project's, as Gemini CLI merges
// them: each event's groups concatenated (user first), hooksConfig.enabled
// the later file's, hooksConfig.disabled the union. Only an unreadable
// root is an error.
func Load(root string, opts LoadOptions) (*Config, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, fmt.Errorf("skills root %s: %w", root, err)
	}
	if _, err := os.ReadDir(abs); err != nil {
		return nil, fmt.Errorf("read skills root: %w", err)
	}
	c := &Config{Root: abs, Hooks: []Hook{}, Diagnostics: []diag.Diagnostic{}, Enabled: true}
	files := hookdecl.NewFiles(opts.Drafts, CodeUnreadable)
	var disabled []disabledName
	var enabledAt *setting
	read := func(rel, file string, user bool) {
		data, ok := files.Open(file, rel)
		if !ok {
			return
		}
		f := parseSettings(rel, data, user)
		c.Hooks = append(c.Hooks, f.hooks...)
		c.Diagnostics = append(c.Diagnostics, f.diags...)
		disabled = append(disabled, f.disabled...)
		if f.enabled != nil {
			enabledAt = f.enabled
		}
	}
	if opts.User != "" {
		if uf, err := filepath.Abs(opts.User); err == nil {
			read(filepath.ToSlash(opts.User), uf, true)
		}
	}
	read(ProjectSettings, filepath.Join(abs, filepath.FromSlash(ProjectSettings)), false)
	// extensions load after the settings (Gemini CLI ranks their hooks
	// last): the opened folder itself, then its skill folders by name
	readExtension := func(relDir, dir, skill string) {
		rel := path.Join(relDir, ExtensionHooks)
		data, ok := files.Open(filepath.Join(dir, filepath.FromSlash(ExtensionHooks)), rel)
		if !ok {
			return
		}
		f := parseExtension(rel, data, dir, abs, skill)
		c.Hooks = append(c.Hooks, f.hooks...)
		c.Diagnostics = append(c.Diagnostics, f.diags...)
	}
	if IsExtension(abs) {
		readExtension(".", abs, "")
	}
	if entries, err := os.ReadDir(abs); err == nil {
		for _, e := range entries { // sorted by name
			dir := filepath.Join(abs, e.Name())
			if strings.HasPrefix(e.Name(), ".") || !e.IsDir() || !IsExtension(dir) {
				continue
			}
			readExtension(e.Name(), dir, e.Name())
		}
	}
	if enabledAt != nil && !enabledAt.value {
		c.Enabled = false
		c.Diagnostics = append(c.Diagnostics, diag.Diagnostic{File: enabledAt.file, Line: enabledAt.line, Column: enabledAt.col,
			Severity: diag.Warning, Code: CodeHooksDisabled,
			Message: "hooksConfig.enabled is false: Gemini CLI runs none of its hooks (the user's and the project's alike)"})
		for i := range c.Hooks {
			if c.Hooks[i].Runs {
				c.Hooks[i].Runs, c.Hooks[i].Why = false, "hooksConfig.enabled is false ("+enabledAt.file+")"
			}
		}
	}
	c.Files = files.Read
	c.Diagnostics = append(c.Diagnostics, files.Diags...)
	c.applyDisabled(disabled)
	for i := range c.Hooks {
		c.Diagnostics = append(c.Diagnostics, checkHandler(&c.Hooks[i], abs)...)
	}
	diag.Sort(c.Diagnostics)
	c.fingerprint = files.Fingerprint()
	return c, nil
}

// setting is a value and where a file sets it.
type setting struct {
	value     bool
	file      string
	line, col int
}

// disabledName is an entry of hooksConfig.disabled.
type disabledName struct {
	name      string
	file      string
	line, col int
}

// applyDisabled turns off the handlers hooksConfig.disabled names (by
// name, else by command, as Gemini CLI matches them); an entry naming none
// is a warning.
func (c *Config) applyDisabled(names []disabledName) {
	for _, d := range names {
		found := false
		for i := range c.Hooks {
			h := &c.Hooks[i]
			if h.Label() != d.name {
				continue
			}
			found = true
			if h.Runs {
				h.Runs, h.Why = false, fmt.Sprintf("hooksConfig.disabled lists %q (%s:%d)", d.name, d.file, d.line)
			}
		}
		if !found {
			c.Diagnostics = append(c.Diagnostics, diag.Diagnostic{File: d.file, Line: d.line, Column: d.col, Severity: diag.Warning,
				Code: CodeDisabledUnknown, Message: fmt.Sprintf("hooksConfig.disabled lists %q, which is no hook's name or command: it disables nothing", d.name)})
		}
	}
}

// Fingerprint hashes every file read: trust is remembered by it.
func (c *Config) Fingerprint() string { return c.fingerprint }

// Running are the handlers a run enabling these skills may start (nil:
// every skill): the settings' always, an extension in a skill folder's
// while that skill is enabled.
func (c *Config) Running(enabled []string) []*Hook {
	var out []*Hook
	for i := range c.Hooks {
		h := &c.Hooks[i]
		if h.Runs && (h.Skill == "" || enabled == nil || slices.Contains(enabled, h.Skill)) {
			out = append(out, h)
		}
	}
	return out
}

// HasEvent says whether any handler is declared for e.
func (c *Config) HasEvent(e Event) bool {
	return slices.ContainsFunc(c.Hooks, func(h Hook) bool { return h.Event == e })
}
