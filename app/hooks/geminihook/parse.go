package geminihook

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"hookstudio/app/format/diag"
	"hookstudio/app/format/jsondoc"
	"hookstudio/app/hooks/ccshape"
	"hookstudio/app/hooks/hookdecl"
)

// Diagnostic codes (tests check codes, never wording).
const (
	CodeUnreadable      = "gemini-unreadable"
	CodeSyntax          = "gemini-syntax"
	CodeShape           = "gemini-shape"
	CodeUnknownEvent    = "gemini-unknown-event"
	CodeOtherAgent      = "gemini-other-agent-event"
	CodeNotSimulated    = "gemini-not-simulated"
	CodeUnknownType     = "gemini-unknown-type"
	CodeUnknownField    = "gemini-unknown-field"
	CodeMatcherIgnored  = "gemini-matcher-ignored"
	CodeBadMatcher      = "gemini-bad-matcher"
	CodeTimeoutMS       = "gemini-timeout-ms"
	CodeConfigField     = "gemini-config-field"
	CodeHooksDisabled   = "gemini-hooks-disabled"
	CodeDisabledUnknown = "gemini-disabled-unknown"
	CodeMissingScript   = "gemini-missing-script"
	CodeNotExecutable   = "gemini-not-executable"
	CodeShellSyntax     = "gemini-shell-syntax"
	CodePlainStdout     = "gemini-plain-stdout"
	CodeExit1Guard      = "gemini-exit1-guard"
	CodeClaudeOutput    = "gemini-claude-output"
	CodeContextTopLevel = "gemini-context-top-level"
	CodeContextIgnored  = "gemini-context-ignored"
)

// Fields Gemini CLI reads.
var (
	// GroupFields are a hook definition's (one entry of an event's list).
	GroupFields = []string{"matcher", "sequential", "hooks"}
	// HandlerFields are a command hook's.
	HandlerFields = []string{"type", "command", "name", "description", "timeout", "env"}
	// ConfigFields are hooksConfig's.
	ConfigFields = []string{"enabled", "disabled", "notifications"}
	// Types are the handler types Gemini CLI knows; only command hooks come
	// from settings (runtime hooks are registered by extensions' code).
	Types = []string{TypeCommand}
)

// settingsFile is what one settings file contributes.
type settingsFile struct {
	hooks    []Hook
	diags    []diag.Diagnostic
	disabled []disabledName
	enabled  *setting
}

// dialect is Gemini CLI's reading of Claude Code's hook shape: its events
// and other agents' names for them, the group's "sequential", a matcher
// read per event, timeouts in milliseconds, command hooks only.
var dialect = ccshape.Dialect{
	Agent: "Gemini CLI", Code: "gemini",
	Fires: hookdecl.Names(Simulated), Elsewhere: []string{string(Notification)},
	Why: func(string) string { return "interactive tool-permission prompt" },
	Own: hookdecl.NameMap(otherAgents), OtherCode: own(CodeOtherAgent),
	Aside: func(r *ccshape.Reader, n *jsondoc.Node) bool {
		if !slices.Contains(ConfigFields, n.Key) {
			return false
		}
		r.Report(ccshape.KeyOff(n), diag.Warning, own(CodeConfigField), "%q belongs in \"hooksConfig\": Gemini CLI skips it under \"hooks\"", n.Key)
		return true
	},
	HasMatcher:    func(e string) bool { return Event(e).matchOn() != matchNone },
	Matcher:       matcherAt,
	GroupFields:   GroupFields,
	HandlerFields: HandlerFields,
	Types:         Types,
	Runs:          func(string) (bool, string) { return true, "" },
	TimeoutUnit:   "milliseconds",
	Unknown:       "Gemini CLI skips it (\"Invalid hook event name\") and these hooks never run",
	Unreadable:    "Gemini CLI discards it",
}

// own is a code of Gemini CLI's own as the shape's reader takes it,
// without the dialect's prefix.
func own(code string) string { return strings.TrimPrefix(code, "gemini-") }

// matcherAt reads a group's matcher as Gemini CLI's planner does: on tool
// events a regular expression tested anywhere in the tool's name (one that
// does not compile is compared exactly, a warning); on SessionStart,
// SessionEnd and PreCompress compared exactly with the source, reason or
// trigger.
func matcherAt(event, m string) (ccshape.Match, string) {
	text := strings.TrimSpace(m)
	if text == "" || text == "*" {
		return func(string, ...string) bool { return true }, ""
	}
	exact := func(s string, _ ...string) bool { return s == text }
	if Event(event).matchOn() != matchTool {
		return exact, ""
	}
	re, err := regexp.Compile(text)
	if err != nil {
		return exact, fmt.Sprintf("matcher %q is not a regular expression (%v): Gemini CLI then compares it with the tool's name exactly", m, err)
	}
	return func(s string, _ ...string) bool { return re.MatchString(s) }, ""
}

type parser struct {
	*ccshape.Reader
	user bool
	out  settingsFile
}

// parseSettings reads a settings.json: its "hooks" and "hooksConfig";
// every problem is reported at once.
func parseSettings(rel string, data []byte, user bool) settingsFile {
	p := &parser{Reader: ccshape.NewReader(rel, data, &dialect), user: user}
	doc, ok := p.parse(stripComments(data), "Gemini CLI stops with an error reading its settings, and none of these hooks run")
	if !ok {
		return p.done()
	}
	if doc.Root.Kind != jsondoc.Object {
		p.Report(doc.Root.Offset, diag.Error, ccshape.Shape, "a settings file is a JSON object with a \"hooks\" key")
		return p.done()
	}
	if hc := doc.Root.Get("hooksConfig"); hc != nil {
		p.hooksConfig(hc)
	}
	if hooks := doc.Root.Get("hooks"); hooks != nil {
		p.add(p.Events(hooks, nil))
	}
	return p.done()
}

// parseExtension reads an extension's hooks/hooks.json ({"hooks": …}),
// its ${extensionPath}, ${workspacePath} and ${/} filled in as Gemini CLI
// fills them.
func parseExtension(rel string, data []byte, dir, workspace, skill string) settingsFile {
	p := &parser{Reader: ccshape.NewReader(rel, data, &dialect)}
	doc, ok := p.parse(data, "Gemini CLI skips the extension's hooks with a debug-log line only, so none of them run")
	if !ok {
		return p.done()
	}
	hooks := doc.Root.Get("hooks")
	if doc.Root.Kind != jsondoc.Object || hooks == nil || hooks.Kind != jsondoc.Object {
		p.Report(doc.Root.Offset, diag.Error, ccshape.Shape, "an extension's hooks file is {\"hooks\": {EVENT: […]}}: Gemini CLI skips it otherwise (\"hooks\" property must be an object)")
		return p.done()
	}
	p.add(p.Events(hooks, nil))
	fill := strings.NewReplacer("${extensionPath}", dir, "${workspacePath}", workspace, "${/}", "/", "${pathSeparator}", "/")
	for i := range p.out.hooks {
		h := &p.out.hooks[i]
		h.Command, h.Extension, h.Skill = fill.Replace(h.Command), dir, skill
		for k, v := range h.Env {
			h.Env[k] = fill.Replace(v)
		}
	}
	return p.done()
}

// done is what the file contributes, its problems with it.
func (p *parser) done() settingsFile {
	p.out.diags = p.Diags
	return p.out
}

// parse reads text (the file's, its comments blanked where Gemini CLI
// allows them) as JSON; then says what Gemini CLI does with a file that is
// not.
func (p *parser) parse(text []byte, then string) (*jsondoc.Doc, bool) {
	doc, err := jsondoc.Parse(text)
	if err != nil {
		off := 0
		if se, ok := err.(*jsondoc.SyntaxError); ok {
			off = se.Offset
		}
		p.Report(off, diag.Error, ccshape.Syntax, "%s is not valid JSON (%v): %s", p.File, err, then)
		return nil, false
	}
	return doc, true
}

// add keeps the handlers read, with what Gemini CLI reads of them besides
// the shape's: the group's "sequential", a hook's name, description and
// env, its timeout in milliseconds.
func (p *parser) add(hs []ccshape.Handler) {
	badSequential := map[*jsondoc.Node]bool{}
	for _, ch := range hs {
		match := ch.Match
		h := Hook{Event: Event(ch.Event), Matcher: ch.Matcher, Type: ch.Type, Command: ch.Command, File: p.File, Line: ch.Line, Column: ch.Column,
			Runs: ch.Runs, Why: ch.Why, cmdLine: ch.CmdLine, cmdCol: ch.CmdCol, match: func(s string) bool { return match(s) }}
		if s := ch.GroupNode.Get("sequential"); s != nil {
			if s.Kind != jsondoc.Bool && !badSequential[s] {
				badSequential[s] = true
				p.Report(s.Offset, diag.Error, ccshape.Shape, "\"sequential\" is true or false")
			}
			h.Sequential = s.Bool
		}
		for key, to := range map[string]*string{"name": &h.Name, "description": &h.Description} {
			if v := ch.Node.Get(key); v != nil && v.Kind == jsondoc.String {
				*to = v.Str
			} else if v != nil {
				p.Report(v.Offset, diag.Error, ccshape.Shape, "%q must be a string", key)
			}
		}
		if ch.Timeout > 0 {
			h.TimeoutMS = int(ch.Timeout)
			if ch.Timeout < 1000 {
				t := ch.Node.Get("timeout")
				p.Report(t.Offset, diag.Warning, own(CodeTimeoutMS), "\"timeout\" is in milliseconds: %v gives the hook %v ms before Gemini CLI kills it (write %v for %v seconds)", ch.Timeout, ch.Timeout, ch.Timeout*1000, ch.Timeout)
			}
		}
		h.Env = p.Env(ch.Node)
		p.out.hooks = append(p.out.hooks, h)
	}
}

func (p *parser) hooksConfig(hc *jsondoc.Node) {
	if hc.Kind != jsondoc.Object {
		p.Report(hc.Offset, diag.Error, ccshape.Shape, "\"hooksConfig\" is an object: {\"enabled\": true, \"disabled\": [\"hook name or command\"]}")
		return
	}
	for _, k := range hc.Children {
		switch k.Key {
		case "enabled":
			if k.Kind != jsondoc.Bool {
				p.Report(k.Offset, diag.Error, ccshape.Shape, "hooksConfig.enabled is true or false")
				continue
			}
			line, col := p.Pos(k.Offset)
			p.out.enabled = &setting{value: k.Bool, file: p.File, line: line, col: col}
		case "disabled":
			if k.Kind != jsondoc.Array {
				p.Report(k.Offset, diag.Error, ccshape.Shape, "hooksConfig.disabled is a list of hook names (or commands, for hooks without a name)")
				continue
			}
			for _, n := range k.Children {
				if n.Kind != jsondoc.String {
					p.Report(n.Offset, diag.Error, ccshape.Shape, "hooksConfig.disabled lists hook names as strings")
					continue
				}
				line, col := p.Pos(n.Offset)
				p.out.disabled = append(p.out.disabled, disabledName{name: n.Str, file: p.File, line: line, col: col})
			}
		case "notifications":
			if k.Kind != jsondoc.Bool {
				p.Report(k.Offset, diag.Error, ccshape.Shape, "hooksConfig.notifications is true or false")
			}
		default:
			p.Report(k.KeyOffset, diag.Warning, ccshape.UnknownField, "unknown field %q in hooksConfig: Gemini CLI reads enabled, disabled and notifications.%s", k.Key, diag.DidYouMean(k.Key, ConfigFields))
		}
	}
}
