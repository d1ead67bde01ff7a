// Package ccshape reads Claude Code's hook settings shape — an object of
// event names, each a list of {"matcher", "hooks": [handler…]} groups —
// which Codex and Qwen Code took in dialects of their own: which events
// they know and fire, which handler types they run, how a matcher matches,
// what a group and a handler may hold, and what each agent does with a
// file it cannot read. The hook systems of those agents (claudehook,
// codexhook, qwenhook) parse with it, each with its Dialect; no hook system
// imports another.
package ccshape

import (
	"slices"

	"hookstudio/app/format/jsondoc"
)

// Dialect is one agent's reading of the shape.
type Dialect struct {
	// Agent names the agent in messages ("Codex").
	Agent string
	// Code prefixes every diagnostic code ("codex" → "codex-unknown-event").
	Code string
	// Fires are the events that fire in the simulated agent; Elsewhere the
	// agent's other events (valid, never fired here); Why says why one of
	// Elsewhere never fires ("" a generic reason).
	Fires, Elsewhere []string
	Why              func(event string) string
	// Foreign are other agents' event names with the agent whose they are
	// (BeforeTool: Gemini CLI), for the unknown-event message.
	Foreign map[string]string
	// Own are other agents' event names with the agent's own name for the
	// event ("" it has none): reported with OtherCode (Gemini CLI's
	// PreToolUse is BeforeTool).
	Own       map[string]string
	OtherCode string
	// Aside reads a member of the events object that is no event (Gemini
	// CLI's "enabled" written under "hooks"); true when it was one.
	Aside func(r *Reader, member *jsondoc.Node) bool
	// HasMatcher says whether an event's groups filter by a matcher.
	HasMatcher func(event string) bool
	// Compile reads a matcher as the agent does.
	Compile func(matcher string) (Match, error)
	// Matcher, when set, reads a matcher as the agent does at event instead,
	// with a warning ("" none) for one the agent reads otherwise than meant.
	Matcher func(event, matcher string) (Match, string)
	// GroupFields and HandlerFields are the keys the agent reads.
	GroupFields, HandlerFields []string
	// Types are the handler types the agent knows; Runs says whether the
	// simulated agent runs one, and if not why (the agent's own consequence).
	Types []string
	Runs  func(typ string) (bool, string)
	// IntTimeout: the timeout must be a whole number of seconds;
	// TimeoutUnit is what it counts ("" seconds; Gemini CLI's milliseconds).
	IntTimeout  bool
	TimeoutUnit string
	// Unknown says what the agent does with an entry of an unknown event
	// ("Codex ignores it without a word"); Unreadable with a file whose
	// shape it cannot read ("Codex drops the whole file with a warning").
	Unknown, Unreadable string
	// Exit says what the agent does when the shell cannot find (127) or
	// run (126) a hook's program.
	Exit string
	// ProjectVars are environment variables the agent sets to the project
	// folder ("$CLAUDE_PROJECT_DIR"); PluginVar the one for a plugin's folder.
	ProjectVars []string
	PluginVar   string
	// Guards are the events whose hooks read as guards (PreToolUse …), and
	// Blocks says how a guard blocks ("only exit 2 does, or JSON such as
	// permissionDecision: deny").
	Guards []string
	Blocks string
}

// Known says whether the agent knows event.
func (d *Dialect) Known(event string) bool {
	return slices.Contains(d.Fires, event) || slices.Contains(d.Elsewhere, event)
}

// Fire says whether event fires in the simulated agent.
func (d *Dialect) Fire(event string) bool { return slices.Contains(d.Fires, event) }

// Events lists every event the agent knows, fired ones first.
func (d *Dialect) Events() []string { return slices.Concat(d.Fires, d.Elsewhere) }

// code is a diagnostic code of the dialect.
func (d *Dialect) code(suffix string) string { return d.Code + "-" + suffix }

// Diagnostic codes, without the dialect's prefix (Dialect.Code + "-" + …):
// tests check codes, never wording.
const (
	Syntax         = "syntax"
	Shape          = "shape"
	UnknownEvent   = "unknown-event"
	NotSimulated   = "not-simulated"
	UnknownType    = "unknown-type"
	NotRun         = "not-run"
	UnknownField   = "unknown-field"
	MatcherIgnored = "matcher-ignored"
	BadMatcher     = "bad-matcher"
	MissingScript  = "missing-script"
	NotExecutable  = "not-executable"
	Exit1Guard     = "exit1-guard"
	ShellSyntax    = "shell-syntax"
)
