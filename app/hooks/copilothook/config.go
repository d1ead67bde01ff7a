package copilothook

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

// Where Copilot CLI reads hooks.
const (
	// ProjectHooks is the repository's folder of hook files (*.json).
	ProjectHooks = ".github/hooks"
	// PluginManifest marks a folder as a Copilot CLI plugin; its hooks are
	// in PluginHooks beside it (Copilot CLI also reads hooks/hooks.json,
	// which in a skills folder is seed 000's hooks file).
	PluginManifest = "plugin.json"
	PluginHooks    = "hooks.json"
	// ScenarioDir is where a Copilot CLI project keeps Hook Studio's scenarios.
	ScenarioDir = scenario.ProjectScenarioDir
)

// DefaultTimeout is Copilot CLI's hook timeout in seconds.
const DefaultTimeout = 30

// Hook is one handler as declared.
type Hook struct {
	Event      Event             `json:"event"` // as written (camelCase or PascalCase)
	Type       string            `json:"type"`
	Bash       string            `json:"bash,omitempty"`
	PowerShell string            `json:"powershell,omitempty"`
	Prompt     string            `json:"prompt,omitempty"`
	Cwd        string            `json:"cwd,omitempty"`
	Env        map[string]string `json:"env,omitempty"`
	TimeoutSec int               `json:"timeoutSec,omitempty"` // 0: DefaultTimeout
	Matcher    string            `json:"matcher,omitempty"`

	// Plugin is the plugin folder (absolute) whose hooks file declares the
	// handler ("" the repository's or the user's); Skill the Hook Studio
	// skill folder holding it: active while that skill is enabled.
	Plugin string `json:"plugin,omitempty"`
	Skill  string `json:"skill,omitempty"`
	// Repo says the handler comes from the repository's .github/hooks,
	// which copilot -p loads only with --trust-folder.
	Repo bool `json:"repo,omitempty"`

	File   string `json:"file"`
	Line   int    `json:"line"`
	Column int    `json:"column"`
	// Runs is false for a handler Copilot CLI would not run here; Why says why.
	Runs bool   `json:"runs"`
	Why  string `json:"why,omitempty"`

	cmdLine, cmdCol int
	match           func(string) bool
}

// Source is where the handler is declared, file:line.
func (h *Hook) Source() string { return hookdecl.Source(h.File, h.Line) }

// Title is how the trace and the panels name the handler: a script it runs
// by path by its file name, else its command cut short (a prompt hook by
// its prompt).
func (h *Hook) Title() string {
	if h.Type == TypePrompt {
		return hookdecl.Cut("prompt: "+h.Prompt, 48)
	}
	return hookdecl.Title("", h.Bash)
}

// Config is every Copilot CLI hook under a root and every problem found.
type Config struct {
	Root        string            `json:"root"`
	Hooks       []Hook            `json:"hooks"`
	Diagnostics []diag.Diagnostic `json:"diagnostics"`
	Files       []string          `json:"files"`

	fingerprint string
}

// LoadOptions say where hooks are besides the opened folder.
type LoadOptions = hookdecl.Options

// IsPlugin says whether dir is a Copilot CLI plugin folder.
func IsPlugin(dir string) bool { return plugin.Is(dir) }

// Load reads the user's hook files, the repository's, then plugins', in
// that order (Copilot CLI combines them; each folder's files by name).
// Only an unreadable root is an error.
func Load(root string, opts LoadOptions) (*Config, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, fmt.Errorf("skills root %s: %w", root, err)
	}
	entries, err := os.ReadDir(abs)
	if err != nil {
		return nil, fmt.Errorf("read skills root: %w", err)
	}
	c := &Config{Root: abs, Hooks: []Hook{}, Diagnostics: []diag.Diagnostic{}}
	files := hookdecl.NewFiles(opts.Drafts, CodeUnreadable)
	read := func(rel, file string, src source) {
		data, ok := files.Open(file, rel)
		if !ok {
			return
		}
		hs, ds := parseFile(rel, data, src)
		c.Hooks = append(c.Hooks, hs...)
		c.Diagnostics = append(c.Diagnostics, ds...)
	}
	folder := func(relDir, dir string, src source) {
		names := map[string]bool{}
		if es, err := os.ReadDir(dir); err == nil {
			for _, e := range es {
				if !e.IsDir() && strings.HasSuffix(e.Name(), ".json") && !strings.HasPrefix(e.Name(), ".") {
					names[e.Name()] = true
				}
			}
		}
		for rel := range opts.Drafts { // a new file not yet saved
			if d, name := path.Split(rel); strings.TrimSuffix(d, "/") == relDir && strings.HasSuffix(name, ".json") {
				names[name] = true
			}
		}
		for _, n := range slices.Sorted(func(yield func(string) bool) {
			for k := range names {
				if !yield(k) {
					return
				}
			}
		}) {
			read(path.Join(relDir, n), filepath.Join(dir, n), src)
		}
	}
	if opts.User != "" {
		if ud, err := filepath.Abs(opts.User); err == nil {
			folder(filepath.ToSlash(opts.User), ud, source{})
		}
	}
	folder(ProjectHooks, filepath.Join(abs, filepath.FromSlash(ProjectHooks)), source{repo: true})
	plugin := func(relDir, dir, skill string) {
		read(path.Join(relDir, PluginHooks), filepath.Join(dir, PluginHooks), source{plugin: dir, skill: skill})
	}
	if IsPlugin(abs) {
		plugin(".", abs, "")
	}
	for _, e := range entries {
		dir := filepath.Join(abs, e.Name())
		if strings.HasPrefix(e.Name(), ".") || !e.IsDir() || !IsPlugin(dir) {
			continue
		}
		plugin(e.Name(), dir, e.Name())
	}
	c.Files = files.Read
	c.Diagnostics = append(c.Diagnostics, files.Diags...)
	trustNoted := false
	for i := range c.Hooks {
		h := &c.Hooks[i]
		c.Diagnostics = append(c.Diagnostics, checkHandler(h, abs)...)
		if h.Repo && h.Runs && !trustNoted {
			trustNoted = true
			c.Diagnostics = append(c.Diagnostics, diag.Diagnostic{File: h.File, Line: h.Line, Column: h.Column, Severity: diag.Warning,
				Code: CodeNeedsTrust, Message: "copilot -p loads the repository's .github/hooks only with --trust-folder (or once the folder was trusted in the interactive CLI): without it these hooks silently never run; the user's ~/.copilot/hooks and plugins' hooks do not need it"})
		}
	}
	diag.Sort(c.Diagnostics)
	c.fingerprint = files.Fingerprint()
	return c, nil
}

// Fingerprint hashes every file read: trust is remembered by it.
func (c *Config) Fingerprint() string { return c.fingerprint }

// Running are the handlers a run enabling these skills may start (nil:
// every skill).
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
