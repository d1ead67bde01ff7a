// Package droidhook reads Factory Droid's hooks — .factory/hooks.json of
// the opened folder, whose top level is the events in Claude Code's names
// and shape — as Factory Droid 0.225.2 reads them, and reports, before any
// run, why one of them would not run in Droid: a Claude-style {"hooks": …}
// wrapper (Droid ignores it without a word), another agent's event name, a
// missing or non-executable script, UserPromptSubmit in `droid exec`.
// Hook Studio does not simulate Droid (it is proprietary and has no
// rendering profile here): its hooks are checked, listed and covered by
// trust, never run in a simulation. See docs/factory-droid-hooks.md.
package droidhook

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"hookstudio/app/format/diag"
	"hookstudio/app/format/jsondoc"
	"hookstudio/app/hooks/ccshape"
)

// System is the trace's name for this hook system.
const System = "factory-droid"

// HooksFile is where a project's hooks are.
const HooksFile = ".factory/hooks.json"

// wrapper is Claude Code's settings key Droid does not read in hooks.json.
const wrapper = "hooks"

// Diagnostic codes of Droid's own (the shape's are "droid-" + ccshape's).
const (
	CodeUnreadable   = "droid-unreadable"
	CodeWrapper      = "droid-hooks-wrapper"
	CodePromptInExec = "droid-prompt-submit-exec"
	CodeNotSimulated = "droid-not-simulated"
)

// Factory Droid's events (its hooks reference: Claude Code's names).
var events = []string{"SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "Notification", "Stop",
	"SubagentStop", "PreCompact", "SessionEnd"}

var dialect = ccshape.Dialect{
	Agent: "Factory Droid", Code: "droid",
	// every event counts as firing: Droid is not simulated at all, which
	// one diagnostic per file says, not one per hook
	Fires: events,
	Foreign: map[string]string{
		"BeforeTool": "Gemini CLI", "AfterTool": "Gemini CLI", "BeforeAgent": "Gemini CLI", "AfterAgent": "Gemini CLI",
		"BeforeModel": "Gemini CLI", "AfterModel": "Gemini CLI", "BeforeToolSelection": "Gemini CLI", "PreCompress": "Gemini CLI",
		"preToolUse": "Copilot CLI", "postToolUse": "Copilot CLI", "userPromptSubmitted": "Copilot CLI", "sessionStart": "Copilot CLI",
		"agentStop": "Copilot CLI", "PreModelRequest": "Codex", "PostModelRequest": "Codex",
	},
	// Droid's reference names PreToolUse and PostToolUse; Claude Code's
	// other matcher events are not claimed to ignore one
	HasMatcher: func(e string) bool {
		switch e {
		case "UserPromptSubmit", "Stop", "SubagentStop", "SessionEnd":
			return false
		}
		return true
	},
	Compile:       ccshape.ClaudeMatcher,
	GroupFields:   []string{"matcher", "hooks"},
	HandlerFields: []string{"type", "command", "timeout"},
	Types:         []string{"command"},
	Runs:          func(string) (bool, string) { return true, "" },
	Unknown:       "Factory Droid ignores it; the only trace is a WARN line \"Ignoring unknown hook event keys\" in ~/.factory/logs/droid-log-single.log",
	Exit:          "Factory Droid records a failed hook and goes on",
	ProjectVars:   []string{"FACTORY_PROJECT_DIR"},
	Guards:        []string{"PreToolUse", "UserPromptSubmit", "Stop"},
	Blocks:        "only exit 2 does, or JSON such as permissionDecision: deny",
}

// Hook is one handler of the top level, as Droid registers it.
type Hook struct {
	Event   string
	Matcher string
	Command string
	File    string
	Line    int
	Column  int
}

// Source is file:line.
func (h *Hook) Source() string { return fmt.Sprintf("%s:%d", h.File, h.Line) }

// Label is how panels name the hook: its command, cut short.
func (h *Hook) Label() string {
	s := strings.Join(strings.Fields(h.Command), " ")
	if r := []rune(s); len(r) > 48 {
		return string(r[:47]) + "…"
	}
	return s
}

// Config is a folder's Droid hooks and every problem found.
type Config struct {
	Root        string
	Hooks       []Hook
	Diagnostics []diag.Diagnostic
}

// Load reads root's .factory/hooks.json (a draft instead of the file when
// drafts holds one).
func Load(root string, drafts map[string][]byte) (*Config, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, fmt.Errorf("factory droid hooks: root %s: %w", root, err)
	}
	c := &Config{Root: abs, Hooks: []Hook{}, Diagnostics: []diag.Diagnostic{}}
	data, ok := drafts[HooksFile]
	if !ok {
		data, err = os.ReadFile(filepath.Join(abs, filepath.FromSlash(HooksFile)))
		if errors.Is(err, fs.ErrNotExist) {
			return c, nil
		}
		if err != nil {
			c.Diagnostics = append(c.Diagnostics, diag.Diagnostic{File: HooksFile, Severity: diag.Error, Code: CodeUnreadable,
				Message: fmt.Sprintf("cannot read %s: %v; check its permissions", HooksFile, errors.Unwrap(err))})
			return c, nil
		}
	}
	r := ccshape.NewReader(HooksFile, data, &dialect)
	var listed, wrapped []ccshape.Handler
	if doc, err := jsondoc.Parse(data); err != nil || doc.Root.Kind != jsondoc.Object {
		r.Document(data, HooksFile) // reports it
	} else {
		listed, wrapped = readEvents(r, doc.Root)
	}
	c.Diagnostics = append(c.Diagnostics, r.Diags...)
	for _, ch := range slices.Concat(listed, wrapped) {
		c.Diagnostics = append(c.Diagnostics, ccshape.CheckCommand(&dialect, HooksFile, &ch, abs, "")...)
	}
	for _, ch := range listed {
		c.Hooks = append(c.Hooks, Hook{Event: ch.Event, Matcher: ch.Matcher, Command: ch.Command, File: HooksFile, Line: ch.Line, Column: ch.Column})
	}
	if len(listed)+len(wrapped) > 0 {
		c.Diagnostics = append(c.Diagnostics, diag.Diagnostic{File: HooksFile, Line: 1, Column: 1, Severity: diag.Warning, Code: CodeNotSimulated,
			Message: "Hook Studio does not simulate Factory Droid (proprietary, no rendering profile): these hooks are checked, listed and covered by trust as Droid would run them, but no simulated run starts them"})
	}
	diag.Sort(c.Diagnostics)
	return c, nil
}

// readEvents reads the top level as Droid does — the events themselves —
// and reports a Claude-style "hooks" wrapper at its key. What the wrapper
// holds is checked too (moving it out then brings no new surprise) but
// returned apart: Droid runs none of it.
func readEvents(r *ccshape.Reader, top *jsondoc.Node) (listed, wrapped []ccshape.Handler) {
	if w := top.Get(wrapper); w != nil {
		if w.Kind == jsondoc.Object {
			wrapped = r.Events(w, nil)
		}
		r.Report(ccshape.KeyOff(w), diag.Error, suffix(CodeWrapper),
			"a Claude Code style {\"hooks\": …} wrapper: Factory Droid reads the events at the top level of %s and ignores the \"hooks\" key without a word (only a WARN line in ~/.factory/logs/droid-log-single.log), so nothing in it runs; move the events to the top level", HooksFile)
	}
	listed = r.Events(top, []string{wrapper})
	for _, ev := range top.Children {
		if ev.Key == "UserPromptSubmit" {
			r.Report(ccshape.KeyOff(ev), diag.Warning, suffix(CodePromptInExec),
				"UserPromptSubmit does not fire in `droid exec` (seen on Factory Droid 0.225.2): these hooks run in an interactive droid session only; for a headless run give the context from SessionStart")
		}
	}
	return listed, wrapped
}

// suffix is a code of ours without the dialect's prefix, which Report adds.
func suffix(code string) string { return strings.TrimPrefix(code, dialect.Code+"-") }
