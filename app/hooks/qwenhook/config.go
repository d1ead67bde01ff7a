// Package qwenhook hosts Qwen Code's hooks in the simulated agent: hooks
// in .qwen/settings.json of the opened folder (and the user's
// ~/.qwen/settings.json) read as Qwen Code 0.24.4 reads them — Claude
// Code's names and shape — each event fired at its place in the flow with
// Qwen Code's stdin, the hooks of an event run together and their outputs
// merged as its hook aggregator merges them, and what the model gets from
// the merged output placed and worded by Qwen Code's rendering profile
// (app/agentdata/profile). See docs/qwen-code-hooks.md.
package qwenhook

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"hookstudio/app/agent/engine"
	"hookstudio/app/format/diag"
	"hookstudio/app/format/jsondoc"
	"hookstudio/app/hooks/ccshape"
	"hookstudio/app/hooks/hookdecl"
	"hookstudio/app/hooks/hookout"
)

// System is the trace's name for this hook system and the agent whose
// rendering profiles apply.
const System = "qwen-code"

// SettingsFile is where a project's hooks are.
const SettingsFile = ".qwen/settings.json"

// Qwen Code 0.24.4's events (packages/core/src/hooks/types.ts).
const (
	SessionStart       = "SessionStart"
	UserPromptSubmit   = "UserPromptSubmit"
	PreToolUse         = "PreToolUse"
	PermissionRequest  = "PermissionRequest"
	PostToolUse        = "PostToolUse"
	PostToolUseFailure = "PostToolUseFailure"
	PostToolBatch      = "PostToolBatch"
	Stop               = "Stop"
	PreCompact         = "PreCompact"
	PostCompact        = "PostCompact"
	SessionEnd         = "SessionEnd"
)

var (
	fires = []string{SessionStart, UserPromptSubmit, PreToolUse, PermissionRequest, PostToolUse, PostToolUseFailure,
		PostToolBatch, Stop, PreCompact, PostCompact, SessionEnd}
	elsewhere = []string{"Notification", "UserPromptExpansion", "MessageDisplay", "SubagentStart", "SubagentStop",
		"SessionDelete", "PermissionDenied", "StopFailure", "TodoCreated", "TodoCompleted", "InstructionsLoaded"}
	// configFields are keys of the hooks object that are settings, not events.
	configFields = []string{"enabled", "disabled", "notifications"}
	// contextEvents hand a plain stdout to the model (PLAIN_TEXT_CONTEXT_EVENTS).
	contextEvents = []string{SessionStart, UserPromptSubmit}
)

// Diagnostic codes of Qwen Code's own.
const (
	CodeUnreadable     = "qwen-unreadable"
	CodeTimeoutMS      = "qwen-timeout-ms"
	CodePlainStdout    = "qwen-plain-stdout"
	CodeContextDropped = "qwen-context-dropped"
)

var dialect = ccshape.Dialect{
	Agent: "Qwen Code", Code: "qwen",
	Fires: fires, Elsewhere: elsewhere,
	Why: func(e string) string {
		switch {
		case strings.HasPrefix(e, "Subagent"):
			return "subagents"
		case strings.HasPrefix(e, "Todo"):
			return "todo list"
		case e == "Notification", e == "MessageDisplay":
			return "terminal UI"
		}
		return ""
	},
	Foreign: map[string]string{
		"BeforeTool": "Gemini CLI", "AfterTool": "Gemini CLI", "BeforeAgent": "Gemini CLI", "AfterAgent": "Gemini CLI",
		"BeforeModel": "Gemini CLI", "AfterModel": "Gemini CLI", "BeforeToolSelection": "Gemini CLI", "PreCompress": "Gemini CLI",
		"preToolUse": "Copilot CLI", "postToolUse": "Copilot CLI", "userPromptSubmitted": "Copilot CLI", "sessionStart": "Copilot CLI",
		"agentStop": "Copilot CLI", "PreModelRequest": "Codex", "PostModelRequest": "Codex", "Interrupt": "Codex",
	},
	HasMatcher: func(e string) bool {
		switch e {
		case UserPromptSubmit, Stop, "MessageDisplay", PostToolBatch, "SessionDelete", "TodoCreated", "TodoCompleted":
			return false
		}
		return true
	},
	Compile:     ccshape.QwenMatcher,
	GroupFields: []string{"matcher", "sequential", "hooks"},
	HandlerFields: []string{"type", "command", "url", "prompt", "model", "headers", "allowedEnvVars", "name", "description",
		"timeout", "env", "async", "once", "statusMessage", "shell"},
	Types: []string{"command", "http", "prompt"},
	Runs: func(typ string) (bool, string) {
		if typ == "command" {
			return true, ""
		}
		return false, "Hook Studio runs Qwen Code's command hooks only; Qwen Code itself runs this " + typ + " hook"
	},
	Unknown:     "Qwen Code skips it with a warning (\"Invalid hook event name\")",
	Unreadable:  "Qwen Code discards such an entry (a line in its debug log)",
	Exit:        "Qwen Code reports a non-blocking error and goes on",
	ProjectVars: []string{"QWEN_PROJECT_DIR", "CLAUDE_PROJECT_DIR", "GEMINI_PROJECT_DIR"},
	Guards:      []string{PreToolUse, UserPromptSubmit, Stop, PermissionRequest},
	Blocks:      "only exit 2 does, or JSON such as permissionDecision: deny",
}

// Hook is one handler as Qwen Code registers it.
type Hook struct {
	Event      string            `json:"event"`
	Matcher    string            `json:"matcher,omitempty"`
	Sequential bool              `json:"sequential,omitempty"`
	Type       string            `json:"type"`
	Command    string            `json:"command,omitempty"`
	Name       string            `json:"name,omitempty"`
	Timeout    float64           `json:"timeout"` // seconds (Qwen Code reads 1000 or more as milliseconds)
	Shell      string            `json:"shell,omitempty"`
	Env        map[string]string `json:"env,omitempty"`
	File       string            `json:"file"`
	Line       int               `json:"line"`
	Column     int               `json:"column"`
	Skill      string            `json:"skill,omitempty"`
	Dir        string            `json:"dir"`
	Runs       bool              `json:"runs"`
	Why        string            `json:"why,omitempty"`
	user       bool
	match      ccshape.Match
}

// Source is file:line.
func (h *Hook) Source() string { return hookdecl.Source(h.File, h.Line) }

// Label is how traces and panels name the hook: its name, a script by its
// file name, else the command cut short (another type by its type).
func (h *Hook) Label() string {
	if h.Name == "" && h.Type != "command" {
		return h.Type
	}
	return hookdecl.Title(h.Name, h.Command)
}

// timeoutMS is the hook's timeout as Qwen Code reads it (hook-timeout.ts):
// default 60 s, 1000 or more already milliseconds.
func (h *Hook) timeoutMS() int {
	switch {
	case h.Timeout <= 0:
		return 60_000
	case h.Timeout >= 1000:
		return int(h.Timeout)
	}
	return int(h.Timeout * 1000)
}

// Config is every Qwen Code hook of a folder and every problem found.
type Config struct {
	Root        string            `json:"root"`
	Hooks       []Hook            `json:"hooks"`
	Diagnostics []diag.Diagnostic `json:"diagnostics"`
	Files       []string          `json:"files"`
}

// LoadOptions say where hooks are besides the opened folder.
type LoadOptions = hookdecl.Options

// Load reads the project's settings (the opened folder's, and each skill
// folder's that is a Qwen Code project of its own) and the user's, in the
// order Qwen Code runs them: project before user.
func Load(root string, opts LoadOptions) (*Config, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, fmt.Errorf("qwen code hooks: root %s: %w", root, err)
	}
	entries, err := os.ReadDir(abs)
	if err != nil {
		return nil, fmt.Errorf("qwen code hooks: read root: %w", err)
	}
	c := &Config{Root: abs, Hooks: []Hook{}, Diagnostics: []diag.Diagnostic{}}
	files := hookdecl.NewFiles(opts.Drafts, CodeUnreadable)
	load := func(file, rel, skill, dir string, user bool) {
		data, ok := files.Open(file, rel)
		if !ok {
			return
		}
		r := ccshape.NewReader(rel, data, &dialect)
		hs := settings(r, data)
		c.Diagnostics = append(c.Diagnostics, r.Diags...)
		for _, ch := range hs {
			h := Hook{Event: ch.Event, Matcher: ch.Matcher, Type: ch.Type, Command: ch.Command, Timeout: ch.Timeout, File: rel,
				Line: ch.Line, Column: ch.Column, Skill: skill, Dir: dir, Runs: ch.Runs, Why: ch.Why, user: user, match: ch.Match}
			if s := ch.GroupNode.Get("sequential"); s != nil && s.Kind == jsondoc.Bool {
				h.Sequential = s.Bool
			}
			if n := ch.Node.Get("name"); n != nil && n.Kind == jsondoc.String {
				h.Name = n.Str
			}
			if n := ch.Node.Get("shell"); n != nil && n.Kind == jsondoc.String {
				h.Shell = n.Str
			}
			h.Env = r.Env(ch.Node)
			if t := ch.Node.Get("timeout"); t != nil && ch.Timeout >= 1000 {
				line, col := r.Pos(t.Offset)
				c.Diagnostics = append(c.Diagnostics, diag.Diagnostic{File: rel, Line: line, Column: col, Severity: diag.Warning, Code: CodeTimeoutMS,
					Message: fmt.Sprintf("Qwen Code reads a timeout of 1000 or more as milliseconds (its older form): %g is %gs, not %g s; write %g for %gs", ch.Timeout, ch.Timeout/1000, ch.Timeout, ch.Timeout/1000, ch.Timeout/1000)})
			}
			c.Hooks = append(c.Hooks, h)
		}
	}
	load(filepath.Join(abs, filepath.FromSlash(SettingsFile)), SettingsFile, "", abs, false)
	for _, e := range entries {
		dir := filepath.Join(abs, e.Name())
		rel := e.Name() + "/" + SettingsFile
		if _, draft := opts.Drafts[rel]; !e.IsDir() || strings.HasPrefix(e.Name(), ".") || (!hookdecl.Regular(filepath.Join(dir, filepath.FromSlash(SettingsFile))) && !draft) {
			continue
		}
		load(filepath.Join(dir, filepath.FromSlash(SettingsFile)), rel, e.Name(), dir, false)
	}
	if opts.User != "" {
		if uf, err := filepath.Abs(opts.User); err == nil {
			load(uf, filepath.ToSlash(opts.User), "", abs, true)
		}
	}
	c.Files = files.Read
	c.Diagnostics = append(c.Diagnostics, files.Diags...)
	for i := range c.Hooks {
		h := &c.Hooks[i]
		ch := ccshape.Handler{Event: h.Event, Type: h.Type, Command: h.Command, CmdLine: h.Line, CmdCol: h.Column}
		ds, scripts := ccshape.Checked(&dialect, h.File, &ch, h.Dir, "")
		c.Diagnostics = append(append(c.Diagnostics, ds...), checkOutput(h, scripts)...)
	}
	diag.Sort(c.Diagnostics)
	return c, nil
}

// settings reads a settings.json: its "hooks" object, whose settings keys
// (enabled, disabled, notifications) are no events.
func settings(r *ccshape.Reader, data []byte) []ccshape.Handler {
	doc, err := jsondoc.Parse(data)
	if err != nil || doc.Root.Kind != jsondoc.Object {
		return r.Document(data, "a settings file") // reports it
	}
	hooks := doc.Root.Get("hooks")
	if hooks == nil {
		return nil
	}
	return r.Events(hooks, configFields)
}

// checkOutput warns where a hook's words will not reach the model as its
// author meant, reading its line and the script it runs (shell, Python or
// Node): plain stdout on an event whose plain stdout Qwen Code shows the
// user only, and PreToolUse additionalContext, which it drops.
func checkOutput(h *Hook, scripts []string) []diag.Diagnostic {
	if h.Type != "command" {
		return nil
	}
	text := hookout.Read(h.Command, scripts)
	at := hookdecl.At{File: h.File, Line: h.Line, Column: h.Column}
	add := at.Warn
	switch {
	case h.Event == PreToolUse && hookout.Field(text, "additionalContext"):
		add(CodeContextDropped, "Qwen Code drops a PreToolUse hook's additionalContext: the model never reads it (seen on 0.24.4). Give the context from PostToolUse, whose additionalContext is appended to the tool's result")
	case !slices.Contains(contextEvents, h.Event) && hookout.Plain(text) && !hookout.JSON(text):
		add(CodePlainStdout, "this %s hook prints plain text: Qwen Code shows a plain stdout to the user only (as a system message); the model never reads it (only SessionStart and UserPromptSubmit hand plain stdout to the model). Print JSON: {\"hookSpecificOutput\": {\"hookEventName\": %q, \"additionalContext\": \"…\"}}", h.Event, h.Event)
	}
	return at.Diags
}

// eventAt is the event each point of the flow fires.
var eventAt = map[engine.Point]string{
	engine.PointSessionStart:  SessionStart,
	engine.PointBeforeSend:    UserPromptSubmit,
	engine.PointBeforeTool:    PreToolUse,
	engine.PointApproveTool:   PermissionRequest,
	engine.PointAfterTool:     PostToolUse,
	engine.PointAfterTools:    PostToolBatch,
	engine.PointStop:          Stop,
	engine.PointBeforeCompact: PreCompact,
	engine.PointAfterCompact:  PostCompact,
	engine.PointSessionEnd:    SessionEnd,
}
