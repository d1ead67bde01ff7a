package copilothook

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"hookstudio/app/format/diag"
	"hookstudio/app/format/jsondoc"
)

// Diagnostic codes (tests check codes, never wording).
const (
	CodeUnreadable     = "copilot-unreadable"
	CodeSyntax         = "copilot-syntax"
	CodeShape          = "copilot-shape"
	CodeVersion        = "copilot-version"
	CodeUnknownEvent   = "copilot-unknown-event"
	CodeOtherAgent     = "copilot-other-agent-event"
	CodeNotSimulated   = "copilot-not-simulated"
	CodeUnknownType    = "copilot-unknown-type"
	CodePromptHook     = "copilot-prompt-hook"
	CodeNoBash         = "copilot-no-bash"
	CodeClaudeShape    = "copilot-claude-shape"
	CodeUnknownField   = "copilot-unknown-field"
	CodeMatcherIgnored = "copilot-matcher-ignored"
	CodeBadMatcher     = "copilot-bad-matcher"
	CodeMatcherNever   = "copilot-matcher-never"
	CodeNeedsTrust     = "copilot-needs-trust"
	CodeMissingScript  = "copilot-missing-script"
	CodeNotExecutable  = "copilot-not-executable"
	CodeMadeExecutable = "copilot-made-executable"
	CodeShellSyntax    = "copilot-shell-syntax"
	CodePlainStdout    = "copilot-plain-stdout"
	CodeNestedOutput   = "copilot-nested-output"
	CodeExit1Guard     = "copilot-exit1-guard"
)

// Fields Copilot CLI reads.
var (
	// TopFields are a hook file's.
	TopFields = []string{"version", "hooks"}
	// HandlerFields are a hook's.
	HandlerFields = []string{"type", "bash", "powershell", "cwd", "env", "timeoutSec", "matcher", "prompt"}
	// Types are the handler types Copilot CLI 1.0.102 knows.
	Types = []string{TypeCommand, TypePrompt}
	// Tools are the names of Copilot CLI 1.0.102's own tools (seen in
	// what it offers its model), which a camelCase event's matcher meets.
	Tools = []string{"bash", "view", "edit", "create", "grep", "glob", "task", "read_bash", "stop_bash", "list_bash",
		"skill", "sql", "session_store_sql", "read_agent", "list_agents", "write_agent", "fetch_copilot_cli_documentation"}
)

// source is what a file's handlers share.
type source struct {
	plugin, skill string
	repo          bool
}

type parser struct {
	diag.Sink
	pos func(off int) (line, col int)
	src source
	out []Hook
}

// parseFile reads one hook file; every problem is reported at once.
func parseFile(rel string, data []byte, src source) ([]Hook, []diag.Diagnostic) {
	p := &parser{Sink: diag.Sink{File: rel}, pos: jsondoc.NewLines(data).Position, src: src}
	doc, err := jsondoc.Parse(data)
	if err != nil {
		off := 0
		if se, ok := err.(*jsondoc.SyntaxError); ok {
			off = se.Offset
		}
		p.errorf(off, CodeSyntax, "%s is not valid JSON (%v): Copilot CLI skips the file without a word (seen), so none of its hooks run", rel, err)
		return nil, p.Diags
	}
	if doc.Root.Kind != jsondoc.Object {
		p.errorf(doc.Root.Offset, CodeShape, "a hook file is a JSON object: {\"version\": 1, \"hooks\": {…}}")
		return nil, p.Diags
	}
	for _, k := range doc.Root.Children {
		if !slices.Contains(TopFields, k.Key) {
			p.warnf(k.KeyOffset, CodeUnknownField, "unknown field %q: a hook file has \"version\" and \"hooks\".%s", k.Key, diag.DidYouMean(k.Key, TopFields))
		}
	}
	if v := doc.Root.Get("version"); v != nil {
		if v.Kind != jsondoc.Number || string(v.Raw) != "1" {
			p.warnf(v.Offset, CodeVersion, "\"version\" is 1: Copilot CLI documents no other")
		}
	}
	hooks := doc.Root.Get("hooks")
	switch {
	case hooks == nil:
		p.errorf(doc.Root.Offset, CodeShape, "a hook file needs \"hooks\": {\"preToolUse\": [{\"type\": \"command\", \"bash\": \"…\"}]}")
	case hooks.Kind != jsondoc.Object:
		p.errorf(hooks.Offset, CodeShape, "\"hooks\" must be an object of event names (preToolUse, sessionStart, …), not %s", hooks.Kind)
	default:
		p.events(hooks)
	}
	return p.out, p.Diags
}

func (p *parser) report(off int, sev diag.Severity, code, format string, args ...any) {
	line, col := p.pos(off)
	p.Add(line, col, sev, code, format, args...)
}

func (p *parser) errorf(off int, code, format string, args ...any) {
	p.report(off, diag.Error, code, format, args...)
}

func (p *parser) warnf(off int, code, format string, args ...any) {
	p.report(off, diag.Warning, code, format, args...)
}

func (p *parser) events(hooks *jsondoc.Node) {
	for _, ev := range hooks.Children {
		event := Event(ev.Key)
		if !event.Known() {
			if own, ok := otherAgents[ev.Key]; ok {
				if own != "" {
					p.warnf(ev.KeyOffset, CodeOtherAgent, "%q is another agent's event name: Copilot CLI ignores it without a word (seen), so these hooks never run; Copilot CLI calls it %s", ev.Key, own)
				} else {
					p.warnf(ev.KeyOffset, CodeOtherAgent, "%q is another agent's event name, and Copilot CLI has no such event: it ignores it without a word, so these hooks never run", ev.Key)
				}
				continue
			}
			p.warnf(ev.KeyOffset, CodeUnknownEvent, "%q is not a Copilot CLI hook event: Copilot CLI ignores it without a word (seen), so these hooks never run.%s", ev.Key, diag.DidYouMean(ev.Key, KnownEvents()))
			continue
		}
		if ev.Kind != jsondoc.Array {
			p.errorf(ev.Offset, CodeShape, "%s must be a list of hooks such as [{\"type\": \"command\", \"bash\": \"…\"}]", ev.Key)
			continue
		}
		for _, h := range ev.Children {
			p.handler(event, h)
		}
	}
}

func (p *parser) handler(event Event, n *jsondoc.Node) {
	if n.Kind != jsondoc.Object {
		p.errorf(n.Offset, CodeShape, "a hook is an object such as {\"type\": \"command\", \"bash\": \"…\"}")
		return
	}
	if n.Get("hooks") != nil && n.Get("type") == nil {
		p.errorf(n.Offset, CodeClaudeShape, "this is a Claude Code style group ({\"matcher\", \"hooks\": […]}): Copilot CLI lists hooks directly under the event, so these never run; write {\"type\": \"command\", \"bash\": \"…\", \"matcher\": \"…\"} entries")
		return
	}
	line, col := p.pos(n.Offset)
	h := Hook{Event: event, File: p.File, Line: line, Column: col, Plugin: p.src.plugin, Skill: p.src.skill, Repo: p.src.repo, Runs: true,
		match: func(string) bool { return true }}
	str := func(key string) (string, *jsondoc.Node) {
		v := n.Get(key)
		if v == nil {
			return "", nil
		}
		if v.Kind != jsondoc.String {
			p.errorf(v.Offset, CodeShape, "%q must be a string", key)
			return "", nil
		}
		return v.Str, v
	}
	ok := true
	var tn, bashNode *jsondoc.Node
	h.Type, tn = str("type")
	h.Bash, bashNode = str("bash")
	h.PowerShell, _ = str("powershell")
	h.Prompt, _ = str("prompt")
	h.Cwd, _ = str("cwd")
	switch {
	case n.Get("type") == nil:
		p.errorf(n.Offset, CodeShape, "a hook needs \"type\": \"command\"")
		ok = false
	case tn != nil && !slices.Contains(Types, h.Type):
		p.errorf(tn.Offset, CodeUnknownType, "Copilot CLI 1.0.102 runs command hooks (and prompt hooks at an interactive session's start): this %q hook never runs", h.Type)
		ok = false
	}
	if c := n.Get("command"); c != nil {
		p.errorf(c.KeyOffset, CodeClaudeShape, "Copilot CLI reads \"bash\" (and \"powershell\"), not \"command\": this hook never runs; rename the key to \"bash\"")
		ok = false
	}
	switch h.Type {
	case TypeCommand:
		switch {
		case h.Bash == "" && h.PowerShell != "":
			h.Runs, h.Why = false, "it has only a powershell command, which Copilot CLI runs on Windows alone"
			p.warnf(n.Offset, CodeNoBash, "this hook has no \"bash\": Copilot CLI on Linux and macOS skips it (it runs \"powershell\" on Windows only)")
		case h.Bash == "" && n.Get("command") == nil && ok:
			p.errorf(n.Offset, CodeShape, "a command hook needs \"bash\" (and \"powershell\" for Windows)")
			ok = false
		}
		if bashNode != nil {
			h.cmdLine, h.cmdCol = p.pos(bashNode.Offset)
		}
	case TypePrompt:
		h.Runs, h.Why = false, "prompt hooks run only at sessionStart of a new interactive session, never in copilot -p"
		if event.Base() != SessionStart {
			p.warnf(tn.Offset, CodePromptHook, "prompt hooks are only supported on sessionStart: Copilot CLI never runs this one")
		} else {
			p.warnf(tn.Offset, CodePromptHook, "a prompt hook auto-submits its text at the start of a new interactive session only: it never runs in copilot -p nor in the simulated agent")
		}
	}
	if t := n.Get("timeoutSec"); t != nil {
		var v float64
		if t.Kind != jsondoc.Number || json.Unmarshal(t.Raw, &v) != nil || v <= 0 {
			p.errorf(t.Offset, CodeShape, "\"timeoutSec\" is a number of seconds greater than 0")
		} else {
			h.TimeoutSec = int(v)
		}
	}
	if e := n.Get("env"); e != nil {
		if e.Kind != jsondoc.Object {
			p.errorf(e.Offset, CodeShape, "\"env\" is an object of variable names and string values")
		} else {
			h.Env = map[string]string{}
			for _, kv := range e.Children {
				if kv.Kind != jsondoc.String {
					p.errorf(kv.Offset, CodeShape, "env %s must be a string", kv.Key)
					continue
				}
				h.Env[kv.Key] = kv.Str
			}
		}
	}
	if m := n.Get("matcher"); m != nil {
		switch {
		case m.Kind != jsondoc.String:
			p.errorf(m.Offset, CodeShape, "\"matcher\" must be a string: a regular expression matching the whole tool name, such as \"bash|edit\"")
		case !event.hasMatcher():
			p.warnf(m.Offset, CodeMatcherIgnored, "%s has no matcher: Copilot CLI runs this hook every time", event)
		case event.Compat() && m.Str == "*":
			h.Matcher = m.Str // every tool (seen)
		default:
			h.Matcher = m.Str
			if re, err := regexp.Compile(`^(?:` + m.Str + `)$`); err != nil {
				p.errorf(m.Offset, CodeBadMatcher, "matcher %q is not a regular expression (%v)", m.Str, err)
				h.match = func(string) bool { return false }
			} else {
				h.match = re.MatchString
				p.neverMatches(event, m, re)
			}
		}
	}
	for _, k := range n.Children {
		if !slices.Contains(HandlerFields, k.Key) && k.Key != "command" {
			p.warnf(k.KeyOffset, CodeUnknownField, "unknown hook field %q: Copilot CLI does not read it.%s", k.Key, diag.DidYouMean(k.Key, HandlerFields))
		}
	}
	if !event.Fires() && h.Runs {
		h.Runs, h.Why = false, fmt.Sprintf("%s never fires in the simulated agent (it has no subagents, errors, notifications or permission service)", event)
		p.warnf(n.Offset, CodeNotSimulated, "%s", h.Why)
	}
	if ok {
		p.out = append(p.out, h)
	}
}

// claudeTools are Claude Code's tool names, which a camelCase event's
// matcher never meets: Copilot CLI compares it with its own names.
var claudeTools = []string{"Bash", "Read", "Edit", "MultiEdit", "Write", "Grep", "Glob", "LS", "Task", "Agent", "WebFetch", "WebSearch", "TodoWrite", "NotebookEdit"}

// neverMatches warns of a tool matcher that no tool call meets: an empty
// one (the whole name must match it), or one a camelCase event compares
// with Copilot CLI's lowercase names that matches Claude Code's only
// ("Bash": seen never firing on bash, where PascalCase PreToolUse fires).
func (p *parser) neverMatches(event Event, m *jsondoc.Node, re *regexp.Regexp) {
	if !event.isTool() {
		return
	}
	if m.Str == "" {
		p.warnf(m.Offset, CodeMatcherNever, "an empty matcher never matches: Copilot CLI compares it with the whole tool name, so this hook never runs; leave \"matcher\" out to run it for every tool")
		return
	}
	if event.Compat() || slices.ContainsFunc(Tools, re.MatchString) {
		return
	}
	var claude []string
	for _, t := range claudeTools {
		if re.MatchString(t) {
			claude = append(claude, t)
		}
	}
	if len(claude) == 0 {
		return
	}
	var own []string
	for _, t := range claude {
		for k, v := range vscodeTools {
			if v == t {
				own = append(own, k)
			}
		}
	}
	slices.Sort(own)
	fix := ""
	if len(own) > 0 {
		fix = fmt.Sprintf("write %q, or ", strings.Join(own, "|"))
	}
	p.warnf(m.Offset, CodeMatcherNever, "matcher %q matches Claude Code's tool names (%s), which %s never sees: Copilot CLI compares a camelCase event's matcher with its own tool names (%s), so this hook never runs; %suse the PascalCase event %s, whose matcher Copilot CLI compares with Claude Code's names too (seen)",
		m.Str, strings.Join(claude, ", "), event, strings.Join(Tools[:7], ", ")+", …", fix, pascal(event))
}

// pascal is the PascalCase name of a camelCase event.
func pascal(e Event) Event {
	for k, v := range compat {
		if v == e {
			return k
		}
	}
	return e
}
