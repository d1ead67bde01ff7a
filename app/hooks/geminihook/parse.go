package geminihook

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"hookstudio/app/format/diag"
	"hookstudio/app/format/jsondoc"
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

type parser struct {
	*hookdecl.Reader
	user bool
	out  settingsFile
}

// events is how Gemini CLI reads the event names under "hooks".
var events = hookdecl.Events{Agent: "Gemini CLI", Skips: "Gemini CLI skips it (\"Invalid hook event name\")",
	Known: func(name string) bool { return Event(name).Known() }, Names: eventNames(), Other: otherNames(),
	UnknownCode: CodeUnknownEvent, OtherCode: CodeOtherAgent, ShapeCode: CodeShape,
	ListOf: "{\"matcher\", \"hooks\"} definitions: Gemini CLI skips it otherwise",
	Aside: func(r *hookdecl.Reader, n *jsondoc.Node) bool {
		if !slices.Contains(ConfigFields, n.Key) {
			return false
		}
		r.Warnf(n.KeyOffset, CodeConfigField, "%q belongs in \"hooksConfig\": Gemini CLI skips it under \"hooks\"", n.Key)
		return true
	}}

func eventNames() []string {
	var out []string
	for _, e := range KnownEvents() {
		out = append(out, string(e))
	}
	return out
}

func otherNames() map[string]string {
	out := map[string]string{}
	for k, v := range otherAgents {
		out[k] = string(v)
	}
	return out
}

// parseSettings reads a settings.json: its "hooks" and "hooksConfig";
// every problem is reported at once.
func parseSettings(rel string, data []byte, user bool) settingsFile {
	p := &parser{Reader: hookdecl.NewReader(rel, data), user: user}
	doc, ok := p.Parse(stripComments(data), CodeSyntax, "Gemini CLI stops with an error reading its settings, and none of these hooks run")
	if !ok {
		p.out.diags = p.Diags
		return p.out
	}
	if doc.Root.Kind != jsondoc.Object {
		p.Errorf(doc.Root.Offset, CodeShape, "a settings file is a JSON object with a \"hooks\" key")
		p.out.diags = p.Diags
		return p.out
	}
	if hc := doc.Root.Get("hooksConfig"); hc != nil {
		p.hooksConfig(hc)
	}
	if hooks := doc.Root.Get("hooks"); hooks != nil {
		p.events(hooks)
	}
	p.out.diags = p.Diags
	return p.out
}

// parseExtension reads an extension's hooks/hooks.json ({"hooks": …}),
// its ${extensionPath}, ${workspacePath} and ${/} filled in as Gemini CLI
// fills them.
func parseExtension(rel string, data []byte, dir, workspace, skill string) settingsFile {
	p := &parser{Reader: hookdecl.NewReader(rel, data)}
	doc, ok := p.Parse(data, CodeSyntax, "Gemini CLI skips the extension's hooks with a debug-log line only, so none of them run")
	if !ok {
		p.out.diags = p.Diags
		return p.out
	}
	hooks := doc.Root.Get("hooks")
	if doc.Root.Kind != jsondoc.Object || hooks == nil || hooks.Kind != jsondoc.Object {
		p.Errorf(doc.Root.Offset, CodeShape, "an extension's hooks file is {\"hooks\": {EVENT: […]}}: Gemini CLI skips it otherwise (\"hooks\" property must be an object)")
		p.out.diags = p.Diags
		return p.out
	}
	p.events(hooks)
	fill := strings.NewReplacer("${extensionPath}", dir, "${workspacePath}", workspace, "${/}", "/", "${pathSeparator}", "/")
	for i := range p.out.hooks {
		h := &p.out.hooks[i]
		h.Command, h.Extension, h.Skill = fill.Replace(h.Command), dir, skill
		for k, v := range h.Env {
			h.Env[k] = fill.Replace(v)
		}
	}
	p.out.diags = p.Diags
	return p.out
}

func (p *parser) hooksConfig(hc *jsondoc.Node) {
	if hc.Kind != jsondoc.Object {
		p.Errorf(hc.Offset, CodeShape, "\"hooksConfig\" is an object: {\"enabled\": true, \"disabled\": [\"hook name or command\"]}")
		return
	}
	for _, k := range hc.Children {
		switch k.Key {
		case "enabled":
			if k.Kind != jsondoc.Bool {
				p.Errorf(k.Offset, CodeShape, "hooksConfig.enabled is true or false")
				continue
			}
			line, col := p.Position(k.Offset)
			p.out.enabled = &setting{value: k.Bool, file: p.File, line: line, col: col}
		case "disabled":
			if k.Kind != jsondoc.Array {
				p.Errorf(k.Offset, CodeShape, "hooksConfig.disabled is a list of hook names (or commands, for hooks without a name)")
				continue
			}
			for _, n := range k.Children {
				if n.Kind != jsondoc.String {
					p.Errorf(n.Offset, CodeShape, "hooksConfig.disabled lists hook names as strings")
					continue
				}
				line, col := p.Position(n.Offset)
				p.out.disabled = append(p.out.disabled, disabledName{name: n.Str, file: p.File, line: line, col: col})
			}
		case "notifications":
			if k.Kind != jsondoc.Bool {
				p.Errorf(k.Offset, CodeShape, "hooksConfig.notifications is true or false")
			}
		default:
			p.Warnf(k.KeyOffset, CodeUnknownField, "unknown field %q in hooksConfig: Gemini CLI reads enabled, disabled and notifications.%s", k.Key, diag.DidYouMean(k.Key, ConfigFields))
		}
	}
}

func (p *parser) events(hooks *jsondoc.Node) {
	if hooks.Kind != jsondoc.Object {
		p.Errorf(hooks.Offset, CodeShape, "\"hooks\" must be an object of event names (BeforeTool, AfterAgent, …), not %s", hooks.Kind)
		return
	}
	p.Each(hooks, events, func(event string, list *jsondoc.Node) {
		for _, group := range list.Children {
			p.group(Event(event), group)
		}
	})
}

func (p *parser) group(event Event, g *jsondoc.Node) {
	if g.Kind != jsondoc.Object {
		p.Errorf(g.Offset, CodeShape, "each entry of %s is an object with \"hooks\" (and a \"matcher\"): Gemini CLI discards it otherwise", event)
		return
	}
	matcher, sequential := "", false
	match := func(string) bool { return true }
	if m := g.Get("matcher"); m != nil {
		if m.Kind != jsondoc.String {
			p.Errorf(m.Offset, CodeShape, "\"matcher\" must be a string such as \"run_shell_command\" or \"write_.*\"")
		} else {
			matcher = m.Str
			match = p.matcher(event, m)
		}
	}
	if s := g.Get("sequential"); s != nil {
		if s.Kind != jsondoc.Bool {
			p.Errorf(s.Offset, CodeShape, "\"sequential\" is true or false")
		}
		sequential = s.Bool
	}
	p.Unknown(g, GroupFields, CodeUnknownField, "field of a "+string(event)+" definition", "Gemini CLI")
	hs := g.Get("hooks")
	if hs == nil || hs.Kind != jsondoc.Array {
		off := g.Offset
		if hs != nil {
			off = hs.Offset
		}
		p.Errorf(off, CodeShape, "a %s definition needs \"hooks\": a list such as [{\"type\": \"command\", \"command\": \"…\"}]; Gemini CLI discards it otherwise", event)
		return
	}
	for _, h := range hs.Children {
		p.handler(event, matcher, sequential, match, h)
	}
}

// matcher compiles a group's matcher as Gemini CLI's planner reads it: on
// tool events a regular expression tested anywhere in the tool's name
// (one that does not compile is compared exactly); on SessionStart,
// SessionEnd and PreCompress compared exactly with the source, reason or
// trigger; elsewhere ignored.
func (p *parser) matcher(event Event, m *jsondoc.Node) func(string) bool {
	text := strings.TrimSpace(m.Str)
	if text == "" || text == "*" {
		return func(string) bool { return true }
	}
	switch event.matchOn() {
	case matchTool:
		re, err := regexp.Compile(text)
		if err != nil {
			p.Warnf(m.Offset, CodeBadMatcher, "matcher %q is not a regular expression (%v): Gemini CLI then compares it with the tool's name exactly", m.Str, err)
			return func(s string) bool { return s == text }
		}
		return re.MatchString
	case matchTrigger:
		return func(s string) bool { return s == text }
	}
	p.Warnf(m.Offset, CodeMatcherIgnored, "%s has no matcher: Gemini CLI ignores %q and runs these hooks every time", event, m.Str)
	return func(string) bool { return true }
}

func (p *parser) handler(event Event, matcher string, sequential bool, match func(string) bool, n *jsondoc.Node) {
	if n.Kind != jsondoc.Object {
		p.Errorf(n.Offset, CodeShape, "a hook is an object such as {\"type\": \"command\", \"command\": \"…\"}: Gemini CLI discards it otherwise")
		return
	}
	line, col := p.Position(n.Offset)
	h := Hook{Event: event, Matcher: matcher, Sequential: sequential, match: match, File: p.File, Line: line, Column: col, Runs: true}
	str := func(key string) (string, *jsondoc.Node) { return p.Str(n, key, CodeShape) }
	ok := true
	var tn, cmdNode *jsondoc.Node
	h.Type, tn = str("type")
	h.Command, cmdNode = str("command")
	h.Name, _ = str("name")
	h.Description, _ = str("description")
	switch {
	case n.Get("type") == nil:
		p.Errorf(n.Offset, CodeShape, "a hook needs \"type\": \"command\": Gemini CLI discards one without a type, so it never runs")
		ok = false
	case tn != nil && h.Type != TypeCommand:
		p.Errorf(tn.Offset, CodeUnknownType, "Gemini CLI runs only command hooks: this %q hook never runs (Gemini CLI discards it with a debug-log line only)", h.Type)
		ok = false
	}
	if ok && h.Command == "" {
		p.Errorf(n.Offset, CodeShape, "a command hook needs \"command\": Gemini CLI discards it otherwise, so it never runs")
		ok = false
	}
	if cmdNode != nil {
		h.cmdLine, h.cmdCol = p.Position(cmdNode.Offset)
	}
	if v, t, ok := p.Positive(n, "timeout", CodeShape, "milliseconds"); ok {
		h.TimeoutMS = int(v)
		if v < 1000 {
			p.Warnf(t.Offset, CodeTimeoutMS, "\"timeout\" is in milliseconds: %v gives the hook %v ms before Gemini CLI kills it (write %v for %v seconds)", v, v, v*1000, v)
		}
	}
	h.Env = p.Env(n, CodeShape)
	if h.Type == TypeCommand {
		p.Unknown(n, HandlerFields, CodeUnknownField, "hook field", "Gemini CLI")
	}
	if !event.Fires() {
		h.Runs, h.Why = false, fmt.Sprintf("%s never fires in the simulated agent (it needs the interactive CLI's tool-permission prompt)", event)
		p.Warnf(n.Offset, CodeNotSimulated, "%s", h.Why)
	}
	if ok {
		p.out.hooks = append(p.out.hooks, h)
	}
}
