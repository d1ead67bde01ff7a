package claudehook

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"

	"go.yaml.in/yaml/v3"

	"hookstudio/app/format/diag"
	"hookstudio/app/format/jsondoc"
	"hookstudio/app/format/yamlpos"
)

// Diagnostic codes (tests check codes, never wording).
const (
	CodeUnreadable     = "claude-unreadable"
	CodeSyntax         = "claude-syntax"
	CodeShape          = "claude-shape"
	CodeUnknownEvent   = "claude-unknown-event"
	CodeNotSimulated   = "claude-not-simulated"
	CodeUnknownType    = "claude-unknown-type"
	CodeNotRun         = "claude-not-run"
	CodeUnknownField   = "claude-unknown-field"
	CodeMatcherIgnored = "claude-matcher-ignored"
	CodeBadMatcher     = "claude-bad-matcher"
	CodeIfNeverRuns    = "claude-if-never-runs"
	CodeBadIf          = "claude-bad-if"
	CodeMissingScript  = "claude-missing-script"
	CodeNotExecutable  = "claude-not-executable"
	CodeExit1Guard     = "claude-exit1-guard"
	CodeShellSyntax    = "claude-shell-syntax"
	CodeOnceIgnored    = "claude-once-ignored"
)

// source is what a file's handlers share.
type source struct {
	plugin, skill, usedSkill string
}

var handlerFields = []string{"type", "command", "args", "timeout", "if", "once", "prompt", "url", "model", "headers",
	"statusMessage", "async", "shell", "allowedEnvVars", "server", "tool", "input"}

// parseSettings reads a settings.json or a plugin's hooks.json: only its
// "hooks" key is Claude Code's hooks; every problem is reported at once.
func parseSettings(rel string, data []byte, src source) ([]Hook, []diag.Diagnostic) {
	return parseWith(rel, data, src, jsondoc.NewLines(data).Position)
}

// parseWith parses settings JSON whose offsets pos turns into the
// positions the user sees (the JSON's own, or a SKILL.md's YAML ones).
func parseWith(rel string, data []byte, src source, pos func(off int) (line, col int)) ([]Hook, []diag.Diagnostic) {
	p := &parser{Sink: diag.Sink{File: rel}, pos: pos, src: src}
	doc, err := jsondoc.Parse(data)
	if err != nil {
		off := 0
		if se, ok := err.(*jsondoc.SyntaxError); ok {
			off = se.Offset
		}
		p.errorf(off, CodeSyntax, "%s is not valid JSON (%v); Claude Code would not load it, so none of its hooks run", rel, err)
		return nil, p.Diags
	}
	if doc.Root.Kind != jsondoc.Object {
		p.errorf(doc.Root.Offset, CodeShape, "a settings file is a JSON object with a \"hooks\" key")
		return nil, p.Diags
	}
	hooks := doc.Root.Get("hooks")
	if hooks == nil {
		return nil, nil
	}
	p.events(hooks)
	return p.out, p.Diags
}

type parser struct {
	diag.Sink
	pos func(off int) (line, col int)
	src source
	out []Hook
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

func keyOff(n *jsondoc.Node) int {
	if n.KeyOffset >= 0 {
		return n.KeyOffset
	}
	return n.Offset
}

func (p *parser) events(hooks *jsondoc.Node) {
	if hooks.Kind != jsondoc.Object {
		p.errorf(hooks.Offset, CodeShape, "\"hooks\" must be an object of event names (PreToolUse, Stop, …), not %s", hooks.Kind)
		return
	}
	for _, ev := range hooks.Children {
		event := Event(ev.Key)
		if !event.Known() {
			hint := diag.DidYouMean(ev.Key, KnownEvents())
			p.warnf(ev.KeyOffset, CodeUnknownEvent, "%q is not a Claude Code hook event, so Claude Code skips this entry with a warning.%s", ev.Key, hint)
			continue
		}
		if ev.Kind != jsondoc.Array {
			p.errorf(ev.Offset, CodeShape, "%s must be a list of {\"matcher\", \"hooks\"} groups", ev.Key)
			continue
		}
		for _, group := range ev.Children {
			p.group(event, group)
		}
	}
}

func (p *parser) group(event Event, g *jsondoc.Node) {
	if g.Kind != jsondoc.Object {
		p.errorf(g.Offset, CodeShape, "each entry of %s is an object with \"hooks\" (and a \"matcher\")", event)
		return
	}
	matcher := ""
	match, _ := compileMatcher("")
	if m := g.Get("matcher"); m != nil {
		if m.Kind != jsondoc.String {
			p.errorf(m.Offset, CodeShape, "\"matcher\" must be a string such as \"Bash\" or \"Edit|Write\"")
		} else {
			matcher = m.Str
			if matcher != "" && matcher != "*" && !event.HasMatcher() {
				p.warnf(m.Offset, CodeMatcherIgnored, "%s has no matcher: Claude Code ignores %q and runs these hooks for every %s", event, matcher, event)
			} else if c, err := compileMatcher(matcher); err != nil {
				p.errorf(m.Offset, CodeBadMatcher, "matcher %q is neither tool names nor a valid regular expression (%v)", matcher, err)
				match = func(string) bool { return false } // Claude Code cannot match with it either
			} else {
				match = c
			}
		}
	}
	for _, k := range g.Children {
		if k.Key != "matcher" && k.Key != "hooks" {
			p.warnf(k.KeyOffset, CodeUnknownField, "unknown field %q in a %s group: only \"matcher\" and \"hooks\" are read", k.Key, event)
		}
	}
	hs := g.Get("hooks")
	if hs == nil || hs.Kind != jsondoc.Array {
		off := g.Offset
		if hs != nil {
			off = hs.Offset
		}
		p.errorf(off, CodeShape, "a %s group needs \"hooks\": a list of handlers such as {\"type\": \"command\", \"command\": \"…\"}", event)
		return
	}
	for _, h := range hs.Children {
		p.handler(event, matcher, match, h)
	}
}

func (p *parser) handler(event Event, matcher string, match matcher, n *jsondoc.Node) {
	if n.Kind != jsondoc.Object {
		p.errorf(n.Offset, CodeShape, "a handler is an object such as {\"type\": \"command\", \"command\": \"…\"}")
		return
	}
	line, col := p.pos(n.Offset)
	h := Hook{Event: event, Matcher: matcher, match: match, File: p.File, Line: line, Column: col, Plugin: p.src.plugin,
		Skill: p.src.skill, UsedSkill: p.src.usedSkill, Runs: true}
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
	h.Type, _ = str("type")
	tn := n.Get("type")
	switch {
	case tn == nil:
		p.errorf(n.Offset, CodeShape, "a handler needs \"type\": command, prompt, http, agent or mcp_tool")
		ok = false
	case !contains(types, h.Type) && tn.Kind == jsondoc.String:
		p.errorf(tn.Offset, CodeUnknownType, "unknown handler type %q: use command, prompt, http, agent or mcp_tool.%s", h.Type, diag.DidYouMean(h.Type, types))
		ok = false
	}
	var cmdNode *jsondoc.Node
	h.Command, cmdNode = str("command")
	h.Prompt, _ = str("prompt")
	h.URL, _ = str("url")
	h.Model, _ = str("model")
	var ifNode *jsondoc.Node
	h.If, ifNode = str("if")
	if a := n.Get("args"); a != nil {
		if a.Kind != jsondoc.Array {
			p.errorf(a.Offset, CodeShape, "\"args\" must be a list of strings")
		}
		for _, x := range a.Children {
			if x.Kind != jsondoc.String {
				p.errorf(x.Offset, CodeShape, "\"args\" must be a list of strings")
				continue
			}
			h.Args = append(h.Args, x.Str)
		}
	}
	if t := n.Get("timeout"); t != nil {
		var v float64
		if t.Kind != jsondoc.Number || json.Unmarshal(t.Raw, &v) != nil || v <= 0 {
			p.errorf(t.Offset, CodeShape, "\"timeout\" is a number of seconds greater than 0")
		} else {
			h.Timeout = int(v)
		}
	}
	if o := n.Get("once"); o != nil {
		if o.Kind != jsondoc.Bool {
			p.errorf(o.Offset, CodeShape, "\"once\" is true or false")
		}
		h.Once = o.Bool
		if h.Once && p.src.usedSkill == "" {
			p.warnf(o.Offset, CodeOnceIgnored, "\"once\" is honoured only in a skill's SKILL.md frontmatter; here the handler runs every time")
			h.Once = false
		}
	}
	for _, k := range n.Children {
		if !contains(handlerFields, k.Key) {
			p.warnf(k.KeyOffset, CodeUnknownField, "unknown handler field %q: Claude Code does not read it.%s", k.Key, diag.DidYouMean(k.Key, handlerFields))
		}
	}
	switch h.Type {
	case TypeCommand:
		if h.Command == "" {
			p.errorf(n.Offset, CodeShape, "a command handler needs \"command\"")
			ok = false
		}
		if cmdNode != nil {
			h.cmdLine, h.cmdCol = p.pos(cmdNode.Offset)
		}
	case TypePrompt:
		if h.Prompt == "" {
			p.errorf(n.Offset, CodeShape, "a prompt handler needs \"prompt\"")
			ok = false
		}
	case TypeHTTP:
		if h.URL == "" {
			p.errorf(n.Offset, CodeShape, "an http handler needs \"url\"")
			ok = false
		}
	case TypeAgent, TypeMCPTool:
		h.Runs, h.Why = false, fmt.Sprintf("a %s handler needs Claude Code's own %s, which the simulated agent does not have", h.Type,
			map[string]string{TypeAgent: "subagents", TypeMCPTool: "MCP servers"}[h.Type])
		p.warnf(tn.Offset, CodeNotRun, "%s: shown in the trace as not run", h.Why)
	}
	if !event.Fires() {
		h.Runs, h.Why = false, fmt.Sprintf("%s never fires in the simulated agent (it has no %s)", event, elsewhereWhat(event))
		p.warnf(n.Offset, CodeNotSimulated, "%s", h.Why)
	}
	if h.If != "" {
		if !event.HasIf() {
			p.warnf(ifNode.Offset, CodeIfNeverRuns, "\"if\" is evaluated only on PreToolUse, PostToolUse, PostToolUseFailure and PermissionRequest: on %s a handler with \"if\" never runs; remove it or use the group's matcher", event)
		} else if r, err := parseRule(h.If); err != nil {
			p.errorf(ifNode.Offset, CodeBadIf, "if %q: %v", h.If, err)
		} else {
			h.rule = &r
		}
	}
	if ok {
		p.out = append(p.out, h)
	}
}

func elsewhereWhat(e Event) string {
	switch {
	case strings.HasPrefix(string(e), "Subagent"), e == "TeammateIdle":
		return "subagents"
	case strings.HasPrefix(string(e), "Worktree"):
		return "worktrees"
	case strings.HasPrefix(string(e), "Task"):
		return "task list"
	case strings.HasPrefix(string(e), "Elicitation"):
		return "MCP servers"
	}
	return "such moment"
}

var frontmatterRe = regexp.MustCompile(`(?s)\A---\r?\n(.*?\r?\n)?---\r?\n?`)

// parseSkill reads a SKILL.md's frontmatter "hooks:" (YAML, the settings
// shape): registered when the model uses the skill.
func parseSkill(rel string, data []byte, src source) ([]Hook, []diag.Diagnostic) {
	m := frontmatterRe.FindSubmatchIndex(data)
	if m == nil || m[2] < 0 {
		return nil, nil
	}
	front := data[m[2]:m[3]]
	var doc yaml.Node
	if err := yaml.Unmarshal(front, &doc); err != nil {
		return nil, []diag.Diagnostic{{File: rel, Line: 2, Column: 1, Severity: diag.Error, Code: CodeSyntax,
			Message: fmt.Sprintf("the frontmatter of %s is not valid YAML (%v); Claude Code would not load the skill's hooks", rel, err)}}
	}
	if len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return nil, nil
	}
	var hooksNode *yaml.Node
	for i := 0; i+1 < len(doc.Content[0].Content); i += 2 {
		if doc.Content[0].Content[i].Value == "hooks" {
			hooksNode = doc.Content[0].Content[i+1]
		}
	}
	if hooksNode == nil {
		return nil, nil
	}
	// The hooks are read as JSON written from the YAML nodes, each JSON
	// offset mapped back to its node's line and column in the file (the
	// frontmatter starts on line 2).
	var js bytes.Buffer
	pm := &yamlpos.PosMap{}
	pm.Add(0, hooksNode.Line, hooksNode.Column)
	js.WriteString(`{"hooks":`)
	if err := yamlpos.ToJSON(&js, hooksNode, pm); err != nil {
		return nil, []diag.Diagnostic{{File: rel, Line: hooksNode.Line + 1, Column: hooksNode.Column, Severity: diag.Error, Code: CodeShape, Message: err.Error()}}
	}
	js.WriteByte('}')
	return parseWith(rel, js.Bytes(), src, func(off int) (int, int) {
		line, col := pm.At(off)
		return line + 1, col
	})
}

func jsonUnmarshal(data []byte, v any) error {
	return json.NewDecoder(bytes.NewReader(data)).Decode(v)
}
