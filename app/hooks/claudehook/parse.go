package claudehook

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"

	"hookstudio/app/format/diag"
	"hookstudio/app/format/jsondoc"
	"hookstudio/app/format/yamlpos"
	"hookstudio/app/hooks/ccshape"
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
	CodeLenientYAML    = "claude-lenient-yaml"
)

// source is what a file's handlers share.
type source struct {
	plugin, skill, usedSkill string
}

var handlerFields = []string{"type", "command", "args", "timeout", "if", "once", "prompt", "url", "model", "headers",
	"statusMessage", "async", "asyncRewake", "rewakeMessage", "rewakeSummary", "continueOnBlock", "shell", "allowedEnvVars",
	"server", "tool", "input"}

// dialect is Claude Code's reading of the shape (app/hooks/ccshape).
var dialect = ccshape.Dialect{
	Agent: "Claude Code", Code: "claude",
	Fires: eventNames(Simulated), Elsewhere: eventNames(elsewhere), Why: func(e string) string { return elsewhereWhat(Event(e)) },
	HasMatcher: func(e string) bool { return Event(e).HasMatcher() }, Compile: ccshape.ClaudeMatcher,
	GroupFields: []string{"matcher", "hooks"}, HandlerFields: handlerFields,
	Types: types,
	Runs: func(typ string) (bool, string) {
		switch typ {
		case TypeAgent:
			return false, "a agent handler needs Claude Code's own subagents, which the simulated agent does not have"
		case TypeMCPTool:
			return false, "a mcp_tool handler needs Claude Code's own MCP servers, which the simulated agent does not have"
		}
		return true, ""
	},
	Unknown:     "Claude Code skips this entry with a warning",
	Exit:        "Claude Code treats that as a non-blocking error",
	ProjectVars: []string{"CLAUDE_PROJECT_DIR"}, PluginVar: "CLAUDE_PLUGIN_ROOT",
	Guards: []string{string(PreToolUse), string(UserPromptSubmit), string(Stop)},
	Blocks: "only exit 2 does, or JSON such as permissionDecision: deny",
}

func eventNames(es []Event) []string {
	out := make([]string, len(es))
	for i, e := range es {
		out[i] = string(e)
	}
	return out
}

// parseSettings reads a settings.json or a plugin's hooks.json: only its
// "hooks" key is Claude Code's hooks; every problem is reported at once.
func parseSettings(rel string, data []byte, src source) ([]Hook, []diag.Diagnostic) {
	return parseWith(rel, data, src, jsondoc.NewLines(data).Position)
}

// parseWith parses settings JSON whose offsets pos turns into the
// positions the user sees (the JSON's own, or a SKILL.md's YAML ones).
func parseWith(rel string, data []byte, src source, pos func(off int) (line, col int)) ([]Hook, []diag.Diagnostic) {
	r := &ccshape.Reader{Sink: diag.Sink{File: rel}, Pos: pos, D: &dialect}
	var out []Hook
	for _, ch := range r.Document(data, "a settings file") {
		out = append(out, hook(r, src, ch))
	}
	return out, r.Diags
}

// hook is a handler of the shape with Claude Code's own fields: `once`
// (honoured in a SKILL.md only) and `if` (a permission rule, evaluated on
// the tool events only).
func hook(r *ccshape.Reader, src source, ch ccshape.Handler) Hook {
	event := Event(ch.Event)
	h := Hook{Event: event, Matcher: ch.Matcher, match: ch.Match, Type: ch.Type, Command: ch.Command, Args: ch.Args,
		Prompt: ch.Prompt, URL: ch.URL, Model: ch.Model, Timeout: int(ch.Timeout), If: ch.If,
		File: r.File, Line: ch.Line, Column: ch.Column, Plugin: src.plugin, Skill: src.skill, UsedSkill: src.usedSkill,
		Runs: ch.Runs, Why: ch.Why, cmdLine: ch.CmdLine, cmdCol: ch.CmdCol}
	n := ch.Node
	if sm := n.Get("statusMessage"); sm != nil && sm.Kind == jsondoc.String {
		h.StatusMessage = sm.Str
	}
	if o := n.Get("once"); o != nil {
		if o.Kind != jsondoc.Bool {
			r.Report(o.Offset, diag.Error, ccshape.Shape, "\"once\" is true or false")
		}
		h.Once = o.Bool
		if h.Once && src.usedSkill == "" {
			r.Report(o.Offset, diag.Warning, "once-ignored", "\"once\" is honoured only in a skill's SKILL.md frontmatter; here the handler runs every time")
			h.Once = false
		}
	}
	for _, key := range []string{"async", "asyncRewake"} {
		if a := n.Get(key); a != nil {
			if a.Kind != jsondoc.Bool {
				r.Report(a.Offset, diag.Error, ccshape.Shape, "%q is true or false", key)
			}
			if key == "async" {
				h.Async = a.Bool
			} else {
				h.rewake = a.Bool
			}
		}
	}
	if h.If != "" {
		ifNode := n.Get("if")
		if !event.HasIf() {
			r.Report(ifNode.Offset, diag.Warning, "if-never-runs", "\"if\" is evaluated only on PreToolUse, PostToolUse, PostToolUseFailure and PermissionRequest: on %s a handler with \"if\" never runs; remove it or use the group's matcher", event)
		} else if rl, err := parseRule(h.If); err != nil {
			r.Report(ifNode.Offset, diag.Error, "bad-if", "if %q: %v", h.If, err)
		} else {
			h.rule = &rl
		}
	}
	return h
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

// parseSkill reads a SKILL.md's frontmatter "hooks:" (YAML, the settings
// shape), as Claude Code reads the frontmatter (frontmatter.go):
// registered when the model uses the skill.
func parseSkill(rel string, data []byte, src source) ([]Hook, []diag.Diagnostic) {
	fm := readFrontmatter(data)
	var ds []diag.Diagnostic
	switch {
	case fm.err != nil && fm.doc == nil:
		// Claude Code loads the skill as if it had no frontmatter
		sev, lost := diag.Warning, "its name and description"
		if fm.hooks {
			sev, lost = diag.Error, "its hooks, name and description"
		}
		return nil, []diag.Diagnostic{{File: rel, Line: fm.errLine, Column: fm.errCol, Severity: sev, Code: CodeSyntax,
			Message: fmt.Sprintf("the frontmatter is not YAML (%s), even with its top-level values quoted as Claude Code retries it: Claude Code loads the skill without %s", fm.problem, lost)}}
	case fm.err != nil:
		for _, q := range fm.quoted {
			ds = append(ds, diag.Diagnostic{File: rel, Line: q.line, Column: len(q.key) + 3, Severity: diag.Warning, Code: CodeLenientYAML,
				Message: fmt.Sprintf("strict YAML rejects this value; Claude Code quotes it and reads %s as %q: quote it yourself, so that every YAML reader agrees", q.key, q.value)})
		}
	}
	if fm.doc == nil || len(fm.doc.Content) == 0 || fm.doc.Content[0].Kind != yaml.MappingNode {
		return nil, ds
	}
	doc := fm.doc
	var hooksNode *yaml.Node
	for i := 0; i+1 < len(doc.Content[0].Content); i += 2 {
		if doc.Content[0].Content[i].Value == "hooks" {
			hooksNode = doc.Content[0].Content[i+1]
		}
	}
	if hooksNode == nil {
		return nil, ds
	}
	// The hooks are read as JSON written from the YAML nodes, each JSON
	// offset mapped back to its node's line and column in the file (the
	// frontmatter starts on line fm.line).
	var js bytes.Buffer
	pm := &yamlpos.PosMap{}
	pm.Add(0, hooksNode.Line, hooksNode.Column)
	js.WriteString(`{"hooks":`)
	at := fm.line - 1 // node lines count from the frontmatter's first
	if err := yamlpos.ToJSON(&js, hooksNode, pm); err != nil {
		return nil, append(ds, diag.Diagnostic{File: rel, Line: hooksNode.Line + at, Column: hooksNode.Column, Severity: diag.Error, Code: CodeShape, Message: err.Error()})
	}
	js.WriteByte('}')
	hs, more := parseWith(rel, js.Bytes(), src, func(off int) (int, int) {
		line, col := pm.At(off)
		return line + at, col
	})
	return hs, append(ds, more...)
}

func jsonUnmarshal(data []byte, v any) error {
	return json.NewDecoder(bytes.NewReader(data)).Decode(v)
}
