package copilothook

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
	*hookdecl.Reader
	src source
	out []Hook
}

// events is how Copilot CLI reads a file's event names.
var events = hookdecl.Events{Agent: "Copilot CLI", Skips: "Copilot CLI ignores it without a word (seen)",
	Known: func(name string) bool { return Event(name).Known() }, Names: hookdecl.Names(KnownEvents()), Other: hookdecl.NameMap(otherAgents),
	UnknownCode: CodeUnknownEvent, OtherCode: CodeOtherAgent, ShapeCode: CodeShape, ListOf: "hooks such as [{\"type\": \"command\", \"bash\": \"…\"}]"}

// parseFile reads one hook file; every problem is reported at once.
func parseFile(rel string, data []byte, src source) ([]Hook, []diag.Diagnostic) {
	p := &parser{Reader: hookdecl.NewReader(rel, data), src: src}
	doc, ok := p.Parse(data, CodeSyntax, "Copilot CLI skips the file without a word (seen), so none of its hooks run")
	if !ok {
		return nil, p.Diags
	}
	if doc.Root.Kind != jsondoc.Object {
		p.Errorf(doc.Root.Offset, CodeShape, "a hook file is a JSON object: {\"version\": 1, \"hooks\": {…}}")
		return nil, p.Diags
	}
	p.Unknown(doc.Root, TopFields, CodeUnknownField, "field", "Copilot CLI")
	if v := doc.Root.Get("version"); v != nil {
		if v.Kind != jsondoc.Number || string(v.Raw) != "1" {
			p.Warnf(v.Offset, CodeVersion, "\"version\" is 1: Copilot CLI documents no other")
		}
	}
	hooks := doc.Root.Get("hooks")
	switch {
	case hooks == nil:
		p.Errorf(doc.Root.Offset, CodeShape, "a hook file needs \"hooks\": {\"preToolUse\": [{\"type\": \"command\", \"bash\": \"…\"}]}")
	case hooks.Kind != jsondoc.Object:
		p.Errorf(hooks.Offset, CodeShape, "\"hooks\" must be an object of event names (preToolUse, sessionStart, …), not %s", hooks.Kind)
	default:
		p.Each(hooks, events, func(event string, list *jsondoc.Node) {
			for _, h := range list.Children {
				p.handler(Event(event), h)
			}
		})
	}
	return p.out, p.Diags
}

func (p *parser) handler(event Event, n *jsondoc.Node) {
	if n.Kind != jsondoc.Object {
		p.Errorf(n.Offset, CodeShape, "a hook is an object such as {\"type\": \"command\", \"bash\": \"…\"}")
		return
	}
	if n.Get("hooks") != nil && n.Get("type") == nil {
		p.Errorf(n.Offset, CodeClaudeShape, "this is a Claude Code style group ({\"matcher\", \"hooks\": […]}): Copilot CLI lists hooks directly under the event, so these never run; write {\"type\": \"command\", \"bash\": \"…\", \"matcher\": \"…\"} entries")
		return
	}
	line, col := p.Position(n.Offset)
	h := Hook{Event: event, File: p.File, Line: line, Column: col, Plugin: p.src.plugin, Skill: p.src.skill, Repo: p.src.repo, Runs: true,
		match: func(string) bool { return true }}
	ok := true
	var tn, bashNode *jsondoc.Node
	h.Type, tn = p.Str(n, "type", CodeShape)
	h.Bash, bashNode = p.Str(n, "bash", CodeShape)
	h.PowerShell, _ = p.Str(n, "powershell", CodeShape)
	h.Prompt, _ = p.Str(n, "prompt", CodeShape)
	h.Cwd, _ = p.Str(n, "cwd", CodeShape)
	switch {
	case n.Get("type") == nil:
		p.Errorf(n.Offset, CodeShape, "a hook needs \"type\": \"command\"")
		ok = false
	case tn != nil && !slices.Contains(Types, h.Type):
		p.Errorf(tn.Offset, CodeUnknownType, "Copilot CLI 1.0.102 runs command hooks (and prompt hooks at an interactive session's start): this %q hook never runs", h.Type)
		ok = false
	}
	if c := n.Get("command"); c != nil {
		p.Errorf(c.KeyOffset, CodeClaudeShape, "Copilot CLI reads \"bash\" (and \"powershell\"), not \"command\": this hook never runs; rename the key to \"bash\"")
		ok = false
	}
	switch h.Type {
	case TypeCommand:
		switch {
		case h.Bash == "" && h.PowerShell != "":
			h.Runs, h.Why = false, "it has only a powershell command, which Copilot CLI runs on Windows alone"
			p.Warnf(n.Offset, CodeNoBash, "this hook has no \"bash\": Copilot CLI on Linux and macOS skips it (it runs \"powershell\" on Windows only)")
		case h.Bash == "" && n.Get("command") == nil && ok:
			p.Errorf(n.Offset, CodeShape, "a command hook needs \"bash\" (and \"powershell\" for Windows)")
			ok = false
		}
		if bashNode != nil {
			h.cmdLine, h.cmdCol = p.Position(bashNode.Offset)
		}
	case TypePrompt:
		h.Runs, h.Why = false, "prompt hooks run only at sessionStart of a new interactive session, never in copilot -p"
		if event.Base() != SessionStart {
			p.Warnf(tn.Offset, CodePromptHook, "prompt hooks are only supported on sessionStart: Copilot CLI never runs this one")
		} else {
			p.Warnf(tn.Offset, CodePromptHook, "a prompt hook auto-submits its text at the start of a new interactive session only: it never runs in copilot -p nor in the simulated agent")
		}
	}
	if v, _, ok := p.Positive(n, "timeoutSec", CodeShape, "seconds"); ok {
		h.TimeoutSec = int(v)
	}
	h.Env = p.Env(n, CodeShape)
	if m := n.Get("matcher"); m != nil {
		switch {
		case m.Kind != jsondoc.String:
			p.Errorf(m.Offset, CodeShape, "\"matcher\" must be a string: a regular expression matching the whole tool name, such as \"bash|edit\"")
		case !event.hasMatcher():
			p.Warnf(m.Offset, CodeMatcherIgnored, "%s has no matcher: Copilot CLI runs this hook every time", event)
		case event.Compat() && m.Str == "*":
			h.Matcher = m.Str // every tool (seen)
		default:
			h.Matcher = m.Str
			if re, err := regexp.Compile(`^(?:` + m.Str + `)$`); err != nil {
				p.Errorf(m.Offset, CodeBadMatcher, "matcher %q is not a regular expression (%v)", m.Str, err)
				h.match = func(string) bool { return false }
			} else {
				h.match = re.MatchString
				p.neverMatches(event, m, re)
			}
		}
	}
	p.Unknown(n, HandlerFields, CodeUnknownField, "hook field", "Copilot CLI", "command")
	if !event.Fires() && h.Runs {
		h.Runs, h.Why = false, fmt.Sprintf("%s never fires in the simulated agent (it has no subagents, errors, notifications or permission service)", event)
		p.Warnf(n.Offset, CodeNotSimulated, "%s", h.Why)
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
		p.Warnf(m.Offset, CodeMatcherNever, "an empty matcher never matches: Copilot CLI compares it with the whole tool name, so this hook never runs; leave \"matcher\" out to run it for every tool")
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
	p.Warnf(m.Offset, CodeMatcherNever, "matcher %q matches Claude Code's tool names (%s), which %s never sees: Copilot CLI compares a camelCase event's matcher with its own tool names (%s), so this hook never runs; %suse the PascalCase event %s, whose matcher Copilot CLI compares with Claude Code's names too (seen)",
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
