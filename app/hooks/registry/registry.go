// Package registry is what the rest of Hook Studio knows of each hook
// system it hosts: one registration per system — its name, the files it
// reads (where, their kind, schema, whether trust covers them), the hidden
// folders the watcher must see, the user-level file the settings may name,
// how its configuration is loaded (and so linted), what the trust prompt
// lists, the handler a run gets and the agent whose rendering profiles
// apply. Studio, hookctl, trust, the watcher and the editor ask the
// registry; nothing else switches over systems.
//
// A system registers by a constructor in its own package (cmdhook.System,
// claudehook.System, …); app/hooks/hooksets.Registry builds the registry
// from them, and it is passed to whoever needs it. There is no global one.
package registry

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"path"
	"regexp"
	"slices"
	"strings"

	"hookstudio/app/agent/engine"
	"hookstudio/app/agent/scenario"
	"hookstudio/app/format/diag"
	"hookstudio/app/hooks/answers"
	"hookstudio/app/hooks/hostmode"
)

// Level is where a file lives.
type Level string

const (
	// Root files sit in the opened folder itself (.jcli/hooks.yaml).
	Root Level = "root"
	// Skill files sit in a skill's folder ("*/hooks/hooks.yaml").
	Skill Level = "skill"
)

// Role is what a system does with a file.
type Role string

const (
	// Config is a configuration the system parses: Load reads it (drafts
	// laid over it) and reports its problems.
	Config Role = "config"
	// Script is a program a system's hooks run: editable, and a draft of it
	// is what a run executes, but nothing parses it.
	Script Role = "script"
	// Scenario is a scenario kept where the system's projects keep them
	// (a Claude Code project has no skill folder to hold one).
	Scenario Role = "scenario"
)

// Kinds the host gives files no system claims.
const (
	KindScenario = "scenario" // <skill>/scenarios/…
	KindPrompt   = "prompt"   // a .md prompt
	KindText     = "text"     // anything else (a script)
)

// File is one kind of file a system reads.
type File struct {
	// Kind names the file for the editor ("hooks-yaml"): which form, raw
	// view, schema and lint it gets. Files of several systems never share
	// a kind.
	Kind  string
	Role  Role
	Level Level
	// Patterns are root-relative slash paths; "*" stands for one path
	// element that is not hidden (a skill, a hook's folder).
	Patterns []string
	// In claims files Patterns cannot describe, looking at the folder (a
	// plugin's hooks/hooks.json is Claude Code's only when a plugin
	// manifest sits beside it). It is asked before any pattern.
	In func(root, file string) bool
	// List lists the files In claims that exist in root (skill "") or in a
	// skill's folder, root-relative, for the editor's file list.
	List func(root, skill string) []string
	// Schema is the JSON Schema of the file's text, for completion in the
	// raw view ("" none).
	Schema string
	// Trust says the file is part of what trusting a folder covers: a
	// change to it asks again.
	Trust bool
}

// UserFile is a user-level file of a system, named in the app's settings
// and by a hookctl flag: its hooks run in every folder, before the
// folder's, and are trusted with it.
type UserFile struct {
	// Setting is its key in the app's user-hooks.json.
	Setting string
	// Flag is hookctl's flag that names it ("user-hooks").
	Flag string
	// Usage is the flag's help.
	Usage string
	// Folder says the user-level location is a folder of files (Copilot
	// CLI's ~/.copilot/hooks), not one file.
	Folder bool
	// Name is how the setting names what it asks for ("config.toml",
	// "settings.json", "hooks folder").
	Name string
}

// Command is one command a run would start, as the trust prompt lists it.
type Command struct {
	Source  string `json:"source"` // file:line
	Event   string `json:"event"`
	Hook    string `json:"hook"`
	Skill   string `json:"skill,omitempty"`
	Command string `json:"command"`
	Dir     string `json:"dir"` // where it runs
}

// LoadRequest is what loading a system's configuration needs.
type LoadRequest struct {
	Root string
	// Drafts are unsaved editor texts by root-relative path, read instead
	// of the files they name.
	Drafts map[string][]byte
	// User is the system's user-level file ("" none).
	User string
	// Mode is where a hosted program's document and code disagree, which
	// the folder follows (read once for every system).
	Mode hostmode.Mode
}

// Loaded is a system's configuration of one folder, parsed once: any
// number of runs of any scenario use it. Nothing runs until Attach.
type Loaded interface {
	// Diagnostics are the configuration's problems, with positions.
	Diagnostics() []diag.Diagnostic
	// Hooks describes every hook, for the skills panel and breakpoints.
	Hooks() []engine.HookInfo
	// Commands lists what a run of sc would start; with folder, every
	// command the folder's files (and sc) may start, whichever scenario
	// runs: what trusting the folder allows.
	Commands(sc *scenario.Scenario, folder bool) []Command
	// Active says whether a run of sc has anything of this system to run.
	Active(sc *scenario.Scenario) bool
	// Skills adds to names what a scenario's enabled_skills may name of
	// the system besides skill folders (Claude Code's skills), and why a
	// name it does not know cannot be listed.
	Skills(names *scenario.SkillNames)
	// Attach adds the system's handler for a run to cfg (appending to
	// cfg.Handlers, wrapping cfg.Model). It returns nil when the run
	// reaches nothing of the system. The caller has checked trust.
	Attach(cfg *engine.Config, run Run) (Attached, error)
}

// Attached is a system's part of one run.
type Attached interface {
	// Metrics are its hooks' counters so far.
	Metrics() []engine.HookMetric
	// Close kills whatever it still runs; the run has ended.
	Close() error
}

// TokenCounter counts what a chat message costs (usage for models that
// report none); tokens.Counter is one.
type TokenCounter interface {
	CountMessage(role, content string) int
}

// Profile is a rendering profile of an agent CLI (issue 27's
// app/agentdata/profile.Profile): how one version of the agent puts a hook's
// words before its model. A system whose Agent has profiles renders its
// hooks' output through the one a run chose (Run.Profiles).
type Profile interface {
	Ref() string // "<agent>@<version>"
}

// Run is how one run goes, for the systems' handlers.
type Run struct {
	Scenario *scenario.Scenario
	// Trusted: the user trusted the folder's commands. A run without trust
	// gets no system attached when one of them would start a command.
	Trusted bool
	// Completer answers hooks that ask a model in a real run; nil: the
	// scenario's hook_answers.
	Completer answers.Completer
	// Fresh runs every hook: no result of an earlier run is reused.
	Fresh bool
	// Backend is "mock" or "PROVIDER:PROFILE"; Email the profile's account
	// (shown masked, "" none); RunID names the run.
	Backend, Email, RunID string
	// Tokens counts usage for models that report none.
	Tokens TokenCounter
	// Profiles gives the rendering profile the run chose for an agent
	// (System.Agent; the scenario's agent:, hookctl --agent, the installed
	// CLI's version); nil, or nil returned: the system's own renderings.
	Profiles func(agent string) Profile
}

// System is one hook system's registration.
type System struct {
	// Name is the system as traces name it (engine.HookCall.System).
	Name string
	// Title says what it is, for docs and messages.
	Title string
	// Label is how the app's badges name it ("Gemini CLI", "cmd"); ""
	// its Name.
	Label string
	// Agent is the agent CLI whose rendering profiles apply to its hooks
	// ("claude-code"); "" for the seeds' systems.
	Agent string
	// CheckOnly says its hooks are checked and listed but never run in a
	// simulation (an agent Hook Studio does not simulate): no run has a
	// hook call of it, so no loop draws it.
	CheckOnly bool
	Files     []File
	// Dirs are hidden folders of a root that hold its files: the watcher
	// watches them although it skips hidden folders.
	Dirs []string
	// User is its user-level file, if it has one.
	User *UserFile
	// SkillFolders are a skill's folders besides hooks/ that hold the
	// system's files, for the editor's file list (a plugin's scripts/).
	SkillFolders func(root, skill string) []string
	// Load parses the system's configuration of a folder; nil for seed
	// 000's prompt hooks, which the host loads itself (they are the
	// simulated agent's own).
	Load func(ctx context.Context, req LoadRequest) (Loaded, error)
	// Lint checks a file's text alone, for a system without Load.
	Lint func(file string, text []byte) []diag.Diagnostic
	// Starter is the root-level config the editor offers to create in a
	// folder that lacks it; nil: none.
	Starter *Starter
}

// Starter is a new root-level config file of a system: where it goes and
// what it starts with.
type Starter struct {
	// Path is root-relative and fixed (no "*"); one of the system's
	// root-level config files claims it.
	Path string
	// Text is a small configuration the system's own validator accepts
	// without a problem.
	Text string
}

// NewFile is a starter as the editor offers it.
type NewFile struct {
	File   string `json:"file"`
	Kind   string `json:"kind"`
	System string `json:"system"`
	Label  string `json:"label"`
}

// Registry is the hook systems, in the order their handlers run
// (outermost first).
type Registry struct {
	systems []System
	match   []matcher
}

type matcher struct {
	sys  int
	file int
	res  []*regexp.Regexp
}

// ErrInvalid is wrapped by New's error for a registration that clashes
// with another or lacks what it needs.
var ErrInvalid = errors.New("invalid hook system registration")

// New checks the registrations and returns the registry. Every problem
// is reported at once.
func New(systems ...System) (*Registry, error) {
	r := &Registry{systems: systems}
	var errs []error
	names, kinds := map[string]bool{}, map[string]string{}
	for i, s := range systems {
		if s.Name == "" {
			errs = append(errs, fmt.Errorf("%w: system %d has no name", ErrInvalid, i))
		}
		if names[s.Name] {
			errs = append(errs, fmt.Errorf("%w: system %q is registered twice", ErrInvalid, s.Name))
		}
		names[s.Name] = true
		for j, f := range s.Files {
			if f.Kind == "" || (len(f.Patterns) == 0 && f.In == nil) {
				errs = append(errs, fmt.Errorf("%w: %s file %d needs a kind and patterns", ErrInvalid, s.Name, j))
			}
			if owner, ok := kinds[f.Kind]; ok && owner != s.Name && f.Role == Config {
				errs = append(errs, fmt.Errorf("%w: kind %q of %s is %s's", ErrInvalid, f.Kind, s.Name, owner))
			}
			if f.Role == Config {
				kinds[f.Kind] = s.Name
			}
			m := matcher{sys: i, file: j}
			for _, p := range f.Patterns {
				re, err := regexp.Compile(patternRegexp(p))
				if err != nil {
					errs = append(errs, fmt.Errorf("%w: %s pattern %q: %w", ErrInvalid, s.Name, p, err))
					continue
				}
				m.res = append(m.res, re)
			}
			r.match = append(r.match, m)
		}
		if st := s.Starter; st != nil {
			if err := r.checkStarter(i, st.Path); err != nil {
				errs = append(errs, err)
			}
		}
		if s.Load == nil && s.Lint == nil && hasConfig(s) {
			errs = append(errs, fmt.Errorf("%w: %s reads config files but has neither Load nor Lint", ErrInvalid, s.Name))
		}
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return r, nil
}

// checkStarter says why system i's starter path is not a fixed root-level
// config file of its own (nil: it is one). The matchers of systems after
// i are not built yet: only its own and earlier ones can claim the path.
func (r *Registry) checkStarter(i int, p string) error {
	name := r.systems[i].Name
	if strings.Contains(p, "*") || !localSlash(p) {
		return fmt.Errorf("%w: %s starter %q is not a fixed root-relative path", ErrInvalid, name, p)
	}
	for _, m := range r.match {
		if !slices.ContainsFunc(m.res, func(re *regexp.Regexp) bool { return re.MatchString(p) }) {
			continue
		}
		f := r.systems[m.sys].Files[m.file]
		if m.sys != i || f.Role != Config || f.Level != Root {
			return fmt.Errorf("%w: %s starter %q is claimed by %s's %s file", ErrInvalid, name, p, r.systems[m.sys].Name, f.Kind)
		}
		return nil
	}
	return fmt.Errorf("%w: %s starter %q matches none of its files", ErrInvalid, name, p)
}

// Starters are the systems' starter files, in registration order.
func (r *Registry) Starters() []NewFile {
	out := []NewFile{}
	for _, s := range r.systems {
		if s.Starter == nil {
			continue
		}
		_, f, _ := r.Find("", s.Starter.Path)
		out = append(out, NewFile{File: s.Starter.Path, Kind: f.Kind, System: s.Name, Label: cmp.Or(s.Label, s.Name)})
	}
	return out
}

// Starter is the starter text of the file a system's Starter names.
func (r *Registry) Starter(file string) (string, bool) {
	for _, s := range r.systems {
		if s.Starter != nil && s.Starter.Path == file {
			return s.Starter.Text, true
		}
	}
	return "", false
}

func hasConfig(s System) bool {
	return slices.ContainsFunc(s.Files, func(f File) bool { return f.Role == Config })
}

// patternRegexp is a pattern as a regular expression (RE2 and JavaScript
// alike): "*" is one path element that is not hidden.
func patternRegexp(p string) string {
	parts := strings.Split(p, "*")
	for i := range parts {
		parts[i] = regexp.QuoteMeta(parts[i])
	}
	return "^" + strings.Join(parts, `[^/.][^/]*`) + "$"
}

// Systems lists the registrations in order.
func (r *Registry) Systems() []System { return slices.Clone(r.systems) }

// System is the registration named name.
func (r *Registry) System(name string) (System, bool) {
	i := slices.IndexFunc(r.systems, func(s System) bool { return s.Name == name })
	if i < 0 {
		return System{}, false
	}
	return r.systems[i], true
}

// Find is the system and file kind that claim file (root-relative, slashes)
// in root: a folder-aware claim (File.In) first, then the patterns, each
// in registration order.
func (r *Registry) Find(root, file string) (System, File, bool) {
	if !localSlash(file) {
		return System{}, File{}, false
	}
	for _, m := range r.match {
		f := r.systems[m.sys].Files[m.file]
		if f.In != nil && f.In(root, file) {
			return r.systems[m.sys], f, true
		}
	}
	for _, m := range r.match {
		for _, re := range m.res {
			if re.MatchString(file) {
				return r.systems[m.sys], r.systems[m.sys].Files[m.file], true
			}
		}
	}
	return System{}, File{}, false
}

// Kind names what file is for the editor: a system's kind, else the
// host's (KindScenario, KindPrompt, KindText). Without a root (nothing
// open) only the patterns can tell.
func (r *Registry) Kind(root, file string) string {
	if _, f, ok := r.Find(root, file); ok {
		return f.Kind
	}
	switch {
	case strings.Contains(file, "/scenarios/"):
		return KindScenario
	case path.Ext(file) == ".md":
		return KindPrompt
	}
	return KindText
}

// Schema is the JSON Schema of a kind, for the raw view's completion.
func (r *Registry) Schema(kind string) (string, bool) {
	for _, s := range r.systems {
		for _, f := range s.Files {
			if f.Kind == kind && f.Schema != "" {
				return f.Schema, true
			}
		}
	}
	return "", false
}

// Patterns lists the patterns of the files for which keep says yes, in
// registration order.
func (r *Registry) Patterns(keep func(System, File) bool) []string {
	var out []string
	for _, s := range r.systems {
		for _, f := range s.Files {
			if keep(s, f) {
				out = append(out, f.Patterns...)
			}
		}
	}
	return out
}

// TrustPatterns are the files trusting a folder covers (trust.Configs).
func (r *Registry) TrustPatterns() []string {
	return r.Patterns(func(_ System, f File) bool { return f.Trust })
}

// Dirs are the hidden folders of a root the watcher must see.
func (r *Registry) Dirs() []string {
	var out []string
	for _, s := range r.systems {
		for _, d := range s.Dirs {
			if !slices.Contains(out, d) {
				out = append(out, d)
			}
		}
	}
	return out
}

// FileKind is a kind of file as the frontend matches it.
type FileKind struct {
	Kind   string `json:"kind"`
	System string `json:"system"`
	Role   Role   `json:"role"`
	Level  Level  `json:"level"`
	// Patterns are regular expressions over root-relative paths, in the
	// order they are tried; a kind only the folder can tell (a plugin's
	// files) has none: the backend's HookFile.kind says it.
	Patterns []string `json:"patterns"`
	Schema   bool     `json:"schema"`
}

// FileKinds lists every file kind with its patterns as regular
// expressions, in the order Kind tries them (after the folder-aware
// claims, which only the backend can make).
func (r *Registry) FileKinds() []FileKind {
	out := []FileKind{}
	for _, s := range r.systems {
		for _, f := range s.Files {
			k := FileKind{Kind: f.Kind, System: s.Name, Role: f.Role, Level: f.Level, Patterns: []string{}, Schema: f.Schema != ""}
			for _, p := range f.Patterns {
				k.Patterns = append(k.Patterns, patternRegexp(p))
			}
			out = append(out, k)
		}
	}
	return out
}

// SystemInfo is a system as the frontend names it: its trace name, its
// badge and the agent whose CLI it is ("" none).
type SystemInfo struct {
	Name  string `json:"name"`
	Label string `json:"label"`
	Title string `json:"title"`
	Agent string `json:"agent"`
}

// Infos lists every system, in registration order.
func (r *Registry) Infos() []SystemInfo {
	out := []SystemInfo{}
	for _, s := range r.systems {
		out = append(out, SystemInfo{Name: s.Name, Label: cmp.Or(s.Label, s.Name), Title: s.Title, Agent: s.Agent})
	}
	return out
}

// localSlash says whether file is a clean root-relative slash path.
func localSlash(file string) bool {
	return file != "" && !strings.HasPrefix(file, "/") && !strings.Contains(file, `\`) && path.Clean(file) == file &&
		file != ".." && !strings.HasPrefix(file, "../")
}
