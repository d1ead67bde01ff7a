package codexhook

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"hookstudio/app/agent/scenario"
	"hookstudio/app/format/diag"
	"hookstudio/app/format/jsondoc"
	"hookstudio/app/format/tomlpos"
	"hookstudio/app/hooks/ccshape"
	"hookstudio/app/hooks/hookdecl"
	"hookstudio/app/hooks/hookout"
)

// Where Codex reads hooks, relative to a project (and to the user's
// CODEX_HOME, ~/.codex).
const (
	HooksFile  = ".codex/hooks.json"
	ConfigFile = ".codex/config.toml"
	// ScenarioDir is where a Codex project keeps Hook Studio's scenarios.
	ScenarioDir = scenario.ProjectScenarioDir
)

// Diagnostic codes of Codex's own (the shape's are ccshape's with the
// "codex-" prefix).
const (
	CodeUnreadable       = "codex-unreadable"
	CodeTOML             = "codex-toml"
	CodeUntrusted        = "codex-untrusted"
	CodeModified         = "codex-modified"
	CodeDisabled         = "codex-disabled"
	CodeProjectUntrusted = "codex-project-untrusted"
	CodeNoProjectDir     = "codex-no-project-dir"
	CodeBothFiles        = "codex-both-files"
	CodeDecision         = "codex-decision"
	CodeStopNotJSON      = "codex-stop-not-json"
)

// Hook is one command handler as Codex discovers it.
type Hook struct {
	Event         string  `json:"event"`
	Matcher       string  `json:"matcher,omitempty"`
	Type          string  `json:"type"`
	Command       string  `json:"command,omitempty"`
	Timeout       int     `json:"timeout"` // seconds: Codex's default 600, at least 1
	Async         bool    `json:"async,omitempty"`
	StatusMessage *string `json:"status_message,omitempty"`

	File   string `json:"file"` // root-relative, or the user file as given
	Line   int    `json:"line"`
	Column int    `json:"column"`
	// Key and Hash are Codex's names for the hook's trust: where it is
	// (file:event:group:index) and what it is (sha256 of its definition).
	Key  string `json:"key"`
	Hash string `json:"hash"`
	// Order is Codex's number of the hook among every command hook it
	// found (a Stop hook's run id, "stop:<order>:<file>").
	Order int    `json:"order"`
	Abs   string `json:"-"` // the file, absolute
	// Skill is the skill folder of a Codex project inside the opened
	// folder (skills/codex-guard/.codex/): its hooks run while the skill is
	// enabled, in that folder. "" the opened folder's own (or the user's).
	Skill string `json:"skill,omitempty"`
	// Dir is where the hook runs: its project's folder.
	Dir  string `json:"dir"`
	Runs bool   `json:"runs"`
	Why  string `json:"why,omitempty"`

	match ccshape.Match
}

// Source is file:line.
func (h *Hook) Source() string { return hookdecl.Source(h.File, h.Line) }

// Name is how traces and panels name the hook: a script it runs by its
// file name, else the command cut short (another type by its type).
func (h *Hook) Name() string {
	if h.Type != "command" {
		return h.Type
	}
	return hookdecl.Title("", h.Command)
}

// Config is every Codex hook of a folder and every problem found.
type Config struct {
	Root        string            `json:"root"`
	Hooks       []Hook            `json:"hooks"`
	Diagnostics []diag.Diagnostic `json:"diagnostics"`
	// Files are the files read (root-relative; the user's as given).
	Files []string `json:"files"`
}

// LoadOptions say where hooks are besides the opened folder.
type LoadOptions = hookdecl.Options

// Load reads the user's files and the project's .codex/ in Codex's order
// (its user layer, then the project's; in each hooks.json, then
// config.toml). Only an unreadable root is an error.
func Load(root string, opts LoadOptions) (*Config, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, fmt.Errorf("codex hooks: root %s: %w", root, err)
	}
	if _, err := os.ReadDir(abs); err != nil {
		return nil, fmt.Errorf("codex hooks: read root: %w", err)
	}
	l := &loader{c: &Config{Root: abs, Hooks: []Hook{}, Diagnostics: []diag.Diagnostic{}}, files: hookdecl.NewFiles(opts.Drafts, CodeUnreadable)}
	var state *trustState
	if opts.User != "" {
		uc, err := filepath.Abs(opts.User)
		if err == nil {
			state = l.layer(filepath.Join(filepath.Dir(uc), "hooks.json"), uc, filepath.ToSlash(filepath.Join(filepath.Dir(opts.User), "hooks.json")), filepath.ToSlash(opts.User))
		}
	}
	for i := range l.c.Hooks {
		l.c.Hooks[i].Dir = abs // the user's hooks run in the session's folder
	}
	l.trust(state, 0, len(l.c.Hooks), "")
	// the opened folder's .codex/, then each skill folder that is a Codex
	// project of its own (skills/codex-guard/.codex/), by name
	projects := []string{""}
	if entries, err := os.ReadDir(abs); err == nil {
		for _, e := range entries {
			if e.IsDir() && !strings.HasPrefix(e.Name(), ".") && isProject(filepath.Join(abs, e.Name()), e.Name(), opts.Drafts) {
				projects = append(projects, e.Name())
			}
		}
	}
	for _, skill := range projects {
		dir, rel := abs, ""
		if skill != "" {
			dir, rel = filepath.Join(abs, skill), skill+"/"
		}
		first := len(l.c.Hooks)
		l.layer(filepath.Join(dir, filepath.FromSlash(HooksFile)), filepath.Join(dir, filepath.FromSlash(ConfigFile)), rel+HooksFile, rel+ConfigFile)
		for i := first; i < len(l.c.Hooks); i++ {
			l.c.Hooks[i].Skill, l.c.Hooks[i].Dir = skill, dir
		}
		l.trust(state, first, len(l.c.Hooks), dir)
	}
	for i := range l.c.Hooks {
		h := &l.c.Hooks[i]
		ch := ccshape.Handler{Event: h.Event, Type: h.Type, Command: h.Command, CmdLine: h.Line, CmdCol: h.Column}
		ds, scripts := ccshape.Checked(&dialect, h.File, &ch, h.Dir, "")
		l.c.Diagnostics = append(append(l.c.Diagnostics, ds...), checkOutput(h, scripts)...)
		if h.Type == "command" && projectDirRe.MatchString(h.Command) {
			l.c.Diagnostics = append(l.c.Diagnostics, diag.Diagnostic{File: h.File, Line: h.Line, Column: h.Column, Severity: diag.Warning, Code: CodeNoProjectDir,
				Message: "Codex does not set $CLAUDE_PROJECT_DIR (nor $CODEX_PROJECT_DIR) for a project's hooks: the variable is empty and the path starts at /. Codex runs a hook in the project folder, so write the path relative to it (.codex/hooks/guard.sh)"})
		}
	}
	l.c.Files = l.files.Read
	l.c.Diagnostics = append(l.c.Diagnostics, l.files.Diags...)
	diag.Sort(l.c.Diagnostics)
	return l.c, nil
}

// isProject says whether a skill folder holds Codex's files (or drafts).
func isProject(dir, skill string, drafts map[string][]byte) bool {
	for _, f := range []string{HooksFile, ConfigFile} {
		if _, ok := drafts[skill+"/"+f]; ok {
			return true
		}
		if hookdecl.Regular(filepath.Join(dir, filepath.FromSlash(f))) {
			return true
		}
	}
	return false
}

var projectDirRe = regexp.MustCompile(`\$\{?(CLAUDE|CODEX)_PROJECT_DIR\b`)

type loader struct {
	c     *Config
	files *hookdecl.Files
	order int
}

// layer reads one config layer: its hooks.json, then [hooks] of its
// config.toml; it returns what the config.toml says Codex trusts.
func (l *loader) layer(hooksAbs, configAbs, hooksRel, configRel string) *trustState {
	var fromJSON, fromTOML []ccshape.Handler
	var jsonReader, tomlReader *ccshape.Reader
	if data, ok := l.files.Open(hooksAbs, hooksRel); ok {
		jsonReader = ccshape.NewReader(hooksRel, data, &dialect)
		fromJSON = jsonReader.Document(data, "hooks.json")
		l.c.Diagnostics = append(l.c.Diagnostics, jsonReader.Diags...)
	}
	state := &trustState{file: configRel, abs: configAbs, hooks: map[string]hookState{}, projects: map[string]string{}}
	if data, ok := l.files.Open(configAbs, configRel); ok {
		doc, err := tomlpos.Parse(data)
		var se *tomlpos.SyntaxError
		switch {
		case errors.As(err, &se):
			l.c.Diagnostics = append(l.c.Diagnostics, diag.Diagnostic{File: configRel, Line: se.Line, Column: se.Column, Severity: diag.Error, Code: CodeTOML,
				Message: fmt.Sprintf("%s is not valid TOML (%s): Codex refuses to start with it", configRel, se.Msg)})
		case err == nil:
			state.read(doc)
			if js, pos, ok := doc.JSON("hooks"); ok {
				tomlReader = &ccshape.Reader{Sink: diag.Sink{File: configRel}, Pos: pos, D: &dialect}
				if root, err := jsondoc.Parse(js); err == nil {
					fromTOML = tomlReader.Events(root.Root.Get("hooks"), []string{"state"})
				}
				l.c.Diagnostics = append(l.c.Diagnostics, tomlReader.Diags...)
			}
		}
	}
	if len(fromJSON) > 0 && len(fromTOML) > 0 {
		l.c.Diagnostics = append(l.c.Diagnostics, diag.Diagnostic{File: configRel, Line: fromTOML[0].Line, Column: fromTOML[0].Column, Severity: diag.Warning, Code: CodeBothFiles,
			Message: fmt.Sprintf("hooks in both %s and %s: Codex loads both (and warns \"prefer a single representation for this layer\")", hooksRel, configRel)})
	}
	l.add(fromJSON, jsonReader, hooksAbs)
	l.add(fromTOML, tomlReader, configAbs)
	return state
}

// add keeps a file's handlers in Codex's discovery order (by event, then
// as written), numbering its command hooks as Codex does. A file with a
// shape error is dropped whole by Codex: its hooks are kept (to show) but
// do not run.
func (l *loader) add(hs []ccshape.Handler, r *ccshape.Reader, abs string) {
	if r == nil {
		return
	}
	fatal := diag.HasErrors(r.Diags) && hasShapeError(r.Diags)
	for _, event := range order {
		for _, ch := range hs {
			if ch.Event != event {
				continue
			}
			h := Hook{Event: ch.Event, Matcher: ch.Matcher, Type: ch.Type, Command: ch.Command, File: r.File, Line: ch.Line, Column: ch.Column,
				Abs: abs, Runs: ch.Runs, Why: ch.Why, match: ch.Match, Timeout: 600}
			if ch.Timeout > 0 {
				h.Timeout = max(1, int(ch.Timeout))
			}
			if a := ch.Node.Get("async"); a != nil && a.Kind == jsondoc.Bool {
				h.Async = a.Bool
			}
			if s := ch.Node.Get("statusMessage"); s != nil && s.Kind == jsondoc.String {
				h.StatusMessage = &s.Str
			}
			if fatal && h.Runs {
				h.Runs, h.Why = false, "Codex cannot parse "+r.File+" (see its errors) and drops every hook in it"
			}
			matcher := ch.Matcher
			if !hasMatcher(ch.Event) {
				matcher = ""
			}
			h.Key = fmt.Sprintf("%s:%s:%d:%d", abs, label(ch.Event), ch.Group, ch.Index)
			if h.Type == "command" {
				h.Hash = hash(ch.Event, matcher, hasMatcher(ch.Event) && ch.GroupNode.Get("matcher") != nil, h)
				h.Order = l.order
				l.order++
			}
			l.c.Hooks = append(l.c.Hooks, h)
		}
	}
}

func hasShapeError(ds []diag.Diagnostic) bool {
	for _, d := range ds {
		if d.Severity == diag.Error && (d.Code == "codex-shape" || d.Code == "codex-unknown-type") {
			return true
		}
	}
	return false
}

// hash is Codex's trust hash of a command hook (codex-rs/hooks
// discovery.rs command_hook_hash, config fingerprint.rs version_for_toml):
// sha256 of the canonical JSON (keys sorted, no spaces) of
// {event_name, matcher, hooks: [the normalized handler]}, fields Codex
// leaves unset left out.
func hash(event, matcher string, hasMatch bool, h Hook) string {
	handler := map[string]any{"type": "command", "command": h.Command, "timeout": h.Timeout, "async": h.Async}
	if h.StatusMessage != nil {
		handler["statusMessage"] = *h.StatusMessage
	}
	identity := map[string]any{"event_name": label(event), "hooks": []any{handler}}
	if hasMatch {
		identity["matcher"] = matcher
	}
	sum := sha256.Sum256(canonicalJSON(identity))
	return "sha256:" + hex.EncodeToString(sum[:])
}

// checkOutput reads what a command hook prints (its line and the script it
// runs) for the answers Codex refuses whole — a decision it does not take
// at the event, plain text where it reads JSON only — which make the hook
// fail ("Stop Failed") with nothing of it shown, systemMessage included.
func checkOutput(h *Hook, scripts []string) []diag.Diagnostic {
	if h.Type != "command" {
		return nil
	}
	text := hookout.Read(h.Command, scripts)
	at := hookdecl.At{File: h.File, Line: h.Line, Column: h.Column}
	add := at.Warn
	fields, schema := wire[h.Event]
	_, takes := fields["decision"]
	for _, v := range hookout.Values(text, "decision") {
		if !schema || takes && v == "block" {
			continue
		}
		if takes {
			add(CodeDecision, "Codex takes only \"block\" as a %s decision: \"decision\": %q fails the hook (%s Failed) and shows nothing of its answer, systemMessage included; leave \"decision\" out to let it go on", h.Event, v, h.Event)
		} else {
			add(CodeDecision, "this %s hook answers with \"decision\": %q, a field Codex does not read at %s: it fails the hook (%s Failed) and shows nothing of its answer, systemMessage included", h.Event, v, h.Event, h.Event)
		}
		break
	}
	if h.Event == Stop && hookout.Plain(text) {
		add(CodeStopNotJSON, "this Stop hook prints plain text: Codex reads a Stop hook's stdout as JSON only, so it fails the hook (Stop Failed) and the text goes nowhere; print nothing to let the agent stop, or {\"decision\": \"block\", \"reason\": \"…\"} to make it go on (a note for the user is {\"systemMessage\": \"…\"})")
	}
	return at.Diags
}
