package cmdhook

import (
	"bytes"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"hookstudio/app/format/diag"
	"hookstudio/app/format/yamlpos"
)

// Type is how a hook runs.
type Type string

const (
	TypeBash Type = "bash" // the default: sh -c COMMAND
	TypeLLM  Type = "llm"  // the prompt template, answered by a model
)

// OnError is what a failing hook does to its chain.
type OnError string

const (
	OnErrorSkip  OnError = "skip"  // record the failure, run the next hook (the default)
	OnErrorAbort OnError = "abort" // record the failure, end the chain
	// OnErrorStop is jcli's current name (HOOK.yaml): the failure stops
	// the operation, as abort ends the chain.
	OnErrorStop OnError = "stop"
)

// Default timeouts (seed 001).
const (
	DefaultBashTimeout  = 10 * time.Second
	DefaultLLMTimeout   = 30 * time.Second
	DefaultChainTimeout = 30 * time.Second
)

// Filter selects the invocations a hook runs for; set fields are AND-ed.
type Filter struct {
	ToolName    string `json:"tool_name,omitempty"`    // exact tool name (tool events only)
	ToolMatcher string `json:"tool_matcher,omitempty"` // "A|B": exact names; ignored when ToolName is set
	ModelPrefix string `json:"model_prefix,omitempty"` // the model name starts with it
}

// Level is where a hook is declared; chains run user → project → skill → session.
type Level string

const (
	LevelUser    Level = "user"
	LevelProject Level = "project"
	LevelSkill   Level = "skill"
	LevelSession Level = "session"
)

// Hook is one validated hook of a hooks.yaml (or one register_hook call).
type Hook struct {
	Event   Event         `json:"event"`
	Index   int           `json:"index"` // position in the event's list
	Name    string        `json:"name"`  // the `name:` extension, else "event[index]"
	Type    Type          `json:"type"`
	Command string        `json:"command,omitempty"`
	Prompt  string        `json:"prompt,omitempty"`
	Model   string        `json:"model,omitempty"`
	Timeout time.Duration `json:"timeout,omitempty"` // 0: the type's default
	Retry   int           `json:"retry,omitempty"`   // extra attempts after a failure (HOOK.yaml)
	// ZeroTimeout: a HOOK.yaml's timeout: 0, which jcli's code takes
	// literally (it waits 0 s) and Hook Studio's seed behaviour as the default.
	ZeroTimeout bool    `json:"zero_timeout,omitempty"`
	OnError     OnError `json:"on_error"`
	Filter      Filter  `json:"filter"`

	Level Level  `json:"level"`
	Skill string `json:"skill,omitempty"`
	File  string `json:"file"` // the hooks.yaml: relative to the root (forward slashes), or as given for the user file
	Dir   string `json:"dir"`  // absolute folder holding the file: JCLI_HOOK_DIR
	Line  int    `json:"line"`

	cmdAt *yaml.Node // where command is written, for the command checks
}

// Source is "file:line", where the hook is declared.
func (h *Hook) Source() string { return fmt.Sprintf("%s:%d", h.File, h.Line) }

// timeout is the hook's own limit.
func (h *Hook) timeout() time.Duration {
	switch {
	case h.Timeout > 0:
		return h.Timeout
	case h.Type == TypeLLM:
		return DefaultLLMTimeout
	}
	return DefaultBashTimeout
}

// matches applies the filter to an invocation.
func (h *Hook) matches(tool, model string) bool {
	f := &h.Filter
	if h.Event.HasTool() {
		switch {
		case f.ToolName != "":
			if tool != f.ToolName {
				return false
			}
		case f.ToolMatcher != "":
			found := false
			for alt := range strings.SplitSeq(f.ToolMatcher, "|") {
				if strings.TrimSpace(alt) == tool {
					found = true
					break
				}
			}
			if !found {
				return false
			}
		}
	}
	return f.ModelPrefix == "" || strings.HasPrefix(model, f.ModelPrefix)
}

// HookFields lists the fields of one hook, jcli's and (name) Hook
// Studio's; the JSON Schema is tested against it.
func HookFields() []string {
	return []string{"name", "type", "command", "prompt", "model", "timeout", "on_error", "filter"}
}

// FilterFields lists the fields of a filter.
func FilterFields() []string { return []string{"tool_name", "tool_matcher", "model_prefix"} }

// ExtensionPrefix starts keys the parser ignores at every level (YAML
// anchors, notes), as in scenario files.
const ExtensionPrefix = "x-"

// MaxFileSize bounds a hooks.yaml.
const MaxFileSize = 1 << 20

// Parse decodes a hooks.yaml. file names it in diagnostics (relative to the
// skills root, forward slashes). It returns every hook that is usable and
// every problem at once, sorted; a hook with an error is left out. The
// hooks' Level, Skill and Dir are the caller's to fill.
func Parse(file string, data []byte) ([]Hook, []diag.Diagnostic) {
	p := &parser{Sink: diag.Sink{File: file}}
	root := p.load(data)
	var hooks []Hook
	if root != nil {
		hooks = p.document(root)
	}
	diag.Sort(p.Diags)
	return hooks, p.Diags
}

type parser struct {
	diag.Sink
	// hookDir: the file is jcli's current one-hook HOOK.yaml, whose fields
	// are events, retry and on_error skip|stop besides the hook's.
	hookDir bool
}

// HookDirFile and HookDirAltFile are jcli's current format: one folder
// per hook, .jcli/hooks/<name>/HOOK.yaml (HOOK.yml when there is no
// HOOK.yaml) in the project and hooks/<name>/HOOK.yaml in the user's data
// folder. A folder named example is a template jcli never loads.
const (
	HookDirFile    = "HOOK.yaml"
	HookDirAltFile = "HOOK.yml"
	HookDirExample = "example"
)

// HookDirFields lists the fields of a HOOK.yaml.
func HookDirFields() []string {
	return []string{"events", "type", "command", "prompt", "model", "timeout", "retry", "on_error", "filter"}
}

// ParseHookDir decodes one HOOK.yaml of the hook folder name: one hook for
// each of its events, named after the folder. As in jcli, any error fails
// the whole file (no hook of it is used); every problem is reported at
// once with its position.
func ParseHookDir(file, name string, data []byte) ([]Hook, []diag.Diagnostic) {
	p := &parser{Sink: diag.Sink{File: file}, hookDir: true}
	root := p.load(data)
	var hooks []Hook
	if root != nil {
		hooks = p.hookDirDoc(name, root)
	} else if len(p.Diags) == 0 {
		p.errorf(nil, CodeMissingEvents, "%s is empty; a HOOK.yaml needs events: [...] and the hook's fields", file)
	}
	if p.errorCount() > 0 {
		hooks = nil
	}
	diag.Sort(p.Diags)
	return hooks, p.Diags
}

func (p *parser) hookDirDoc(name string, root *yaml.Node) []Hook {
	r := yamlpos.Deref(root)
	if r.Kind != yaml.MappingNode {
		p.errorf(root, CodeWrongType, "HOOK.yaml must be a mapping (events: [...], command: ...), not %s", yamlpos.Describe(r))
		return nil
	}
	var events []Event
	var at *yaml.Node
	for _, e := range p.pairs(r) {
		if e.Name != "events" {
			continue
		}
		at = e.Key
		list := yamlpos.Deref(e.Val)
		if list == nil || list.Kind != yaml.SequenceNode {
			p.errorf(e.Val, CodeWrongType, "events must be a list of event names (events: [pre_tool_execution]), not %s", yamlpos.Describe(list))
			return nil
		}
		for _, item := range list.Content {
			s, ok := p.str(item, "events[]")
			if !ok {
				continue
			}
			if ev := Event(s); !ev.Valid() {
				p.errorf(item, CodeUnknownEvent, "unknown event %q; events are jcli's events.%s", s, diag.DidYouMean(s, Events))
			} else {
				events = append(events, ev)
			}
		}
	}
	switch {
	case at == nil:
		p.errorf(root, CodeMissingEvents, "HOOK.yaml has no events; add events: [pre_tool_execution] (the events the hook runs at)")
	case len(events) == 0 && p.errorCount() == 0:
		p.errorf(at, CodeMissingEvents, "events is empty, so jcli skips the hook; list the events it runs at")
	}
	// The fields are checked once (against the first event, or a tool
	// event when none is valid, so every problem shows at once); each
	// event gets its copy of the hook.
	first := PreToolExecution
	if len(events) > 0 {
		first = events[0]
	}
	h, ok := p.hook(first, 0, root)
	if !ok || len(events) == 0 {
		return nil
	}
	h.Name = name
	hooks := make([]Hook, 0, len(events))
	for _, ev := range events {
		h.Event = ev
		hooks = append(hooks, h)
	}
	return hooks
}

func (p *parser) add(n *yaml.Node, sev diag.Severity, code, format string, args ...any) {
	line, col := 0, 0
	if n != nil {
		line, col = n.Line, n.Column
	}
	p.Add(line, col, sev, code, format, args...)
}

func (p *parser) errorf(n *yaml.Node, code, format string, args ...any) {
	p.add(n, diag.Error, code, format, args...)
}

func (p *parser) warnf(n *yaml.Node, code, format string, args ...any) {
	p.add(n, diag.Warning, code, format, args...)
}

func (p *parser) load(data []byte) *yaml.Node {
	if len(bytes.TrimSpace(bytes.TrimPrefix(data, []byte("\ufeff")))) == 0 {
		return nil // an empty hooks.yaml declares no hooks
	}
	doc, err := yamlpos.Decode(data)
	if err != nil {
		p.syntax(err)
		return nil
	}
	switch {
	case doc.Second != nil:
		p.errorf(doc.Second, CodeMultipleDocs, "a second YAML document starts here; hooks.yaml holds one mapping of events, so remove the ---")
	case doc.SecondErr != nil:
		p.syntax(doc.SecondErr)
	}
	return doc.Root()
}

func (p *parser) syntax(err error) {
	line, msg := yamlpos.Line(err)
	p.Errorf(line, min(line, 1), CodeYAMLSyntax, "not valid YAML: %s", strings.TrimPrefix(msg, "yaml: "))
}

// pairs lists a mapping's entries (yamlpos.Pairs): a repeated key and a
// key that is not a string are errors.
func (p *parser) pairs(m *yaml.Node) []yamlpos.Pair {
	return yamlpos.Pairs(m, func(pr yamlpos.Problem) {
		code := CodeWrongType
		if pr.Duplicate {
			code = CodeDuplicateKey
		}
		p.errorf(pr.At, code, "%s", pr.Message)
	})
}

func (p *parser) str(n *yaml.Node, path string) (string, bool) {
	v := yamlpos.Deref(n)
	if v != nil && v.Kind == yaml.ScalarNode && (v.ShortTag() == "!!str" || v.ShortTag() == "!!timestamp") {
		return v.Value, true
	}
	what := "an alias"
	if v != nil {
		what = yamlpos.Describe(v)
	}
	p.errorf(n, CodeWrongType, "%s must be a string, not %s", path, what)
	return "", false
}

func (p *parser) document(root *yaml.Node) []Hook {
	r := yamlpos.Deref(root)
	if r.Kind != yaml.MappingNode {
		p.errorf(root, CodeWrongType, "hooks.yaml must be a mapping of event names to lists of hooks (e.g. pre_tool_execution: [...]), not %s", yamlpos.Describe(r))
		return nil
	}
	var hooks []Hook
	names := map[string]int{}
	for _, e := range p.pairs(r) {
		if strings.HasPrefix(e.Name, ExtensionPrefix) || e.Name == "$schema" { // $schema: for editors
			continue
		}
		ev := Event(e.Name)
		if !ev.Valid() {
			p.errorf(e.Key, CodeUnknownEvent, "unknown event %q; hooks.yaml's keys are jcli's events.%s", e.Name, diag.DidYouMean(e.Name, Events))
			continue
		}
		list := yamlpos.Deref(e.Val)
		if list == nil {
			continue
		}
		if list.Kind == yaml.ScalarNode && list.ShortTag() == "!!null" {
			continue // "stop:" with nothing under it: no hooks
		}
		if list.Kind != yaml.SequenceNode {
			p.errorf(e.Val, CodeWrongType, "%s must be a list of hooks (each starting with - ), not %s", e.Name, yamlpos.Describe(list))
			continue
		}
		for i, item := range list.Content {
			h, ok := p.hook(ev, i, item)
			if !ok {
				continue
			}
			if prev, dup := names[h.Name]; dup {
				p.warnf(item, CodeDuplicateName, "another hook is named %q (line %d); breakpoints and hook_answers cannot tell them apart", h.Name, prev)
			} else {
				names[h.Name] = h.Line
			}
			hooks = append(hooks, h)
		}
	}
	return hooks
}

// hook decodes one list entry of event ev.
func (p *parser) hook(ev Event, i int, n *yaml.Node) (Hook, bool) {
	path := fmt.Sprintf("%s[%d]", ev, i)
	h := Hook{Event: ev, Index: i, Name: path, Type: TypeBash, OnError: OnErrorSkip, File: p.File, Line: n.Line}
	m := yamlpos.Deref(n)
	if m == nil || m.Kind != yaml.MappingNode {
		what := "an alias"
		if m != nil {
			what = yamlpos.Describe(m)
		}
		p.errorf(n, CodeWrongType, "%s must be a mapping (command: ... or type: llm with prompt: ...), not %s", path, what)
		return h, false
	}
	errsBefore := p.errorCount()
	ok := true
	fail := func() { ok = false }
	present := map[string]*yaml.Node{}
	for _, f := range p.pairs(m) {
		present[f.Name] = f.Key
		sub := path + "." + f.Name
		if p.hookDir {
			sub = f.Name
		}
		switch f.Name {
		case "events":
			if !p.hookDir {
				p.warnf(f.Key, CodeUnknownField, "%s has no field %q, so it is ignored; events: belongs to a HOOK.yaml, hooks.yaml lists hooks under their event", path, f.Name)
			}
		case "retry":
			if !p.hookDir {
				p.warnf(f.Key, CodeUnknownField, "%s has no field %q in seed 001's hooks.yaml, so it is ignored; jcli's HOOK.yaml has it", path, f.Name)
			} else if n, good := p.count(f.Val, sub); good {
				h.Retry = n
			} else {
				fail()
			}
		case "name":
			if p.hookDir {
				p.warnf(f.Key, CodeUnknownField, "a HOOK.yaml has no field name, so it is ignored: the hook is named after its folder")
				continue
			}
			if s, good := p.str(f.Val, sub); good {
				if strings.TrimSpace(s) == "" {
					p.errorf(f.Val, CodeEmptyName, "%s is empty; give the hook a name or remove the field", sub)
					fail()
				} else {
					h.Name = s
				}
			} else {
				fail()
			}
		case "type":
			if s, good := p.str(f.Val, sub); good {
				switch Type(s) {
				case TypeBash, TypeLLM:
					h.Type = Type(s)
				default:
					p.errorf(f.Val, CodeUnknownType, "%s is %q; it must be bash (the default) or llm.%s", sub, s, diag.DidYouMean(s, []Type{TypeBash, TypeLLM}))
					fail()
				}
			} else {
				fail()
			}
		case "command":
			if s, good := p.str(f.Val, sub); good {
				h.Command, h.cmdAt = s, f.Val
			} else {
				fail()
			}
		case "prompt":
			if s, good := p.str(f.Val, sub); good {
				h.Prompt = s
			} else {
				fail()
			}
		case "model":
			if s, good := p.str(f.Val, sub); good {
				h.Model = s
			} else {
				fail()
			}
		case "timeout":
			if d, good := p.seconds(f.Val, sub); good {
				h.Timeout, h.ZeroTimeout = d, d == 0
			} else {
				fail()
			}
		case "on_error":
			allowed := []OnError{OnErrorSkip, OnErrorAbort}
			if p.hookDir {
				allowed = []OnError{OnErrorSkip, OnErrorStop}
			}
			if s, good := p.str(f.Val, sub); good {
				if slices.Contains(allowed, OnError(s)) {
					h.OnError = OnError(s)
				} else {
					p.errorf(f.Val, CodeInvalidOnError, "%s is %q; it must be skip (log and go on) or %s (end the chain).%s", sub, s, allowed[1], diag.DidYouMean(s, allowed))
					fail()
				}
			} else {
				fail()
			}
		case "filter":
			if !p.filter(ev, f.Val, sub, &h.Filter) {
				fail()
			}
		default:
			switch {
			case strings.HasPrefix(f.Name, ExtensionPrefix):
			case p.hookDir:
				p.warnf(f.Key, CodeUnknownField, "HOOK.yaml has no field %q, so jcli ignores it.%s", f.Name, diag.DidYouMean(f.Name, HookDirFields()))
			default:
				p.warnf(f.Key, CodeUnknownField, "%s has no field %q, so it is ignored.%s", path, f.Name, diag.DidYouMean(f.Name, HookFields()))
			}
		}
	}
	if p.hookDir {
		path = "the hook"
	}
	switch h.Type {
	case TypeBash:
		if _, set := present["command"]; !set {
			p.errorf(n, CodeMissingCommand, "%s has no command; add command: \"sh script.sh\" (or type: llm with a prompt)", path)
			fail()
		} else if strings.TrimSpace(h.Command) == "" && ok {
			p.errorf(present["command"], CodeMissingCommand, "%s has an empty command; write the command sh -c runs", path)
			fail()
		}
		for _, f := range []string{"prompt", "model"} {
			if k, set := present[f]; set {
				p.warnf(k, CodeFieldIgnored, "%s is a bash hook, so %s is ignored; add type: llm to make it an LLM hook", path, f)
			}
		}
	case TypeLLM:
		if _, set := present["prompt"]; !set || (strings.TrimSpace(h.Prompt) == "" && ok) {
			at := n
			if k, set := present["prompt"]; set {
				at = k
			}
			p.errorf(at, CodeMissingPrompt, "%s is an llm hook without a prompt; add prompt: with the template ({{tool_name}}, {{user_input}}, ...)", path)
			fail()
		}
		if k, set := present["command"]; set {
			p.warnf(k, CodeFieldIgnored, "%s is an llm hook, so command is ignored", path)
		}
	}
	// Any error inside the entry (a repeated key too) leaves it out.
	return h, ok && p.errorCount() == errsBefore
}

func (p *parser) errorCount() int {
	n := 0
	for _, d := range p.Diags {
		if d.Severity == diag.Error {
			n++
		}
	}
	return n
}

// count decodes retry: a whole number of extra attempts, 0 to 10.
func (p *parser) count(n *yaml.Node, path string) (int, bool) {
	v := yamlpos.Deref(n)
	if v != nil && v.Kind == yaml.ScalarNode && v.ShortTag() == "!!int" {
		if k, err := strconv.Atoi(v.Value); err == nil && k >= 0 && k <= 10 {
			return k, true
		}
	}
	p.errorf(n, CodeInvalidRetry, "%s must be a whole number of extra attempts from 0 to 10 (jcli reads it as an unsigned integer; a bad value fails the whole HOOK.yaml)", path)
	return 0, false
}

// seconds decodes a timeout: a positive number of seconds (in a HOOK.yaml
// 0 too, which jcli accepts: the type's default applies).
func (p *parser) seconds(n *yaml.Node, path string) (time.Duration, bool) {
	v := yamlpos.Deref(n)
	if v != nil && v.Kind == yaml.ScalarNode && (v.ShortTag() == "!!int" || v.ShortTag() == "!!float") {
		f, err := strconv.ParseFloat(strings.ReplaceAll(v.Value, "_", ""), 64)
		if err == nil && (f > 0 || (f == 0 && p.hookDir)) && !math.IsInf(f, 0) && f <= 24*3600 {
			return time.Duration(f * float64(time.Second)), true
		}
		p.errorf(n, CodeInvalidTimeout, "%s is %s; it must be a positive number of seconds (at most a day), e.g. timeout: 5", path, v.Value)
		return 0, false
	}
	what := "an alias"
	if v != nil {
		what = yamlpos.Describe(v)
	}
	p.errorf(n, CodeWrongType, "%s must be a number of seconds, not %s", path, what)
	return 0, false
}

func (p *parser) filter(ev Event, n *yaml.Node, path string, f *Filter) bool {
	m := yamlpos.Deref(n)
	if m == nil || m.Kind != yaml.MappingNode {
		what := "an alias"
		if m != nil {
			what = yamlpos.Describe(m)
		}
		p.errorf(n, CodeWrongType, "%s must be a mapping (tool_name, tool_matcher, model_prefix), not %s", path, what)
		return false
	}
	ok := true
	for _, e := range p.pairs(m) {
		sub := path + "." + e.Name
		var dst *string
		switch e.Name {
		case "tool_name":
			dst = &f.ToolName
		case "tool_matcher":
			dst = &f.ToolMatcher
		case "model_prefix":
			dst = &f.ModelPrefix
		default:
			if !strings.HasPrefix(e.Name, ExtensionPrefix) {
				p.warnf(e.Key, CodeUnknownField, "%s has no field %q, so it is ignored.%s", path, e.Name, diag.DidYouMean(e.Name, FilterFields()))
			}
			continue
		}
		s, good := p.str(e.Val, sub)
		if !good {
			ok = false
			continue
		}
		*dst = s
		if (e.Name == "tool_name" || e.Name == "tool_matcher") && !ev.HasTool() {
			p.warnf(e.Key, CodeFilterNoTool, "%s has no effect: %s is not about a tool call (only pre_tool_execution, post_tool_execution and post_tool_execution_failure are)", sub, ev)
		}
		if e.Name == "tool_matcher" {
			for alt := range strings.SplitSeq(s, "|") {
				if strings.TrimSpace(alt) == "" {
					p.warnf(e.Val, CodeEmptyMatcher, "%s %q has an empty alternative, which matches no tool; remove the extra |", sub, s)
					break
				}
			}
			if f.ToolName != "" || hasKey(m, "tool_name") {
				p.warnf(e.Key, CodeFieldIgnored, "%s is ignored because tool_name is set (tool_name wins)", sub)
			}
		}
	}
	return ok
}

func hasKey(m *yaml.Node, name string) bool {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if k := yamlpos.Deref(m.Content[i]); k != nil && k.Value == name {
			return true
		}
	}
	return false
}
