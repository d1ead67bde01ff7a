package cmdhook

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"hookstudio/app/format/diag"
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
	p := &parser{file: file}
	root := p.load(data)
	var hooks []Hook
	if root != nil {
		hooks = p.document(root)
	}
	diag.Sort(p.diags)
	return hooks, p.diags
}

type parser struct {
	file  string
	diags []diag.Diagnostic
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
	p := &parser{file: file, hookDir: true}
	root := p.load(data)
	var hooks []Hook
	if root != nil {
		hooks = p.hookDirDoc(name, root)
	} else if len(p.diags) == 0 {
		p.errorf(nil, CodeMissingEvents, "%s is empty; a HOOK.yaml needs events: [...] and the hook's fields", file)
	}
	if p.errorCount() > 0 {
		hooks = nil
	}
	diag.Sort(p.diags)
	return hooks, p.diags
}

func (p *parser) hookDirDoc(name string, root *yaml.Node) []Hook {
	r := deref(root)
	if r.Kind != yaml.MappingNode {
		p.errorf(root, CodeWrongType, "HOOK.yaml must be a mapping (events: [...], command: ...), not %s", describe(r))
		return nil
	}
	var events []Event
	var at *yaml.Node
	for _, e := range p.pairs(r) {
		if e.name != "events" {
			continue
		}
		at = e.key
		list := deref(e.val)
		if list == nil || list.Kind != yaml.SequenceNode {
			p.errorf(e.val, CodeWrongType, "events must be a list of event names (events: [pre_tool_execution]), not %s", describe(list))
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
	d := diag.Diagnostic{File: p.file, Severity: sev, Code: code, Message: fmt.Sprintf(format, args...)}
	if n != nil {
		d.Line, d.Column = n.Line, n.Column
	}
	p.diags = append(p.diags, d)
}

func (p *parser) errorf(n *yaml.Node, code, format string, args ...any) {
	p.add(n, diag.Error, code, format, args...)
}

func (p *parser) warnf(n *yaml.Node, code, format string, args ...any) {
	p.add(n, diag.Warning, code, format, args...)
}

var yamlLine = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)

func (p *parser) load(data []byte) *yaml.Node {
	data = bytes.TrimPrefix(data, []byte("\ufeff"))
	if len(bytes.TrimSpace(data)) == 0 {
		return nil // an empty hooks.yaml declares no hooks
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := safeDecode(dec, &doc); err != nil {
		if !errors.Is(err, io.EOF) {
			p.syntax(err)
		}
		return nil
	}
	var next yaml.Node
	switch err := safeDecode(dec, &next); {
	case err == nil:
		p.errorf(&next, CodeMultipleDocs, "a second YAML document starts here; hooks.yaml holds one mapping of events, so remove the ---")
	case !errors.Is(err, io.EOF):
		p.syntax(err)
	}
	if len(doc.Content) == 0 {
		return nil
	}
	root := doc.Content[0]
	if root.Kind == yaml.ScalarNode && root.ShortTag() == "!!null" {
		return nil
	}
	return root
}

func (p *parser) syntax(err error) {
	msg := err.Error()
	line := 0
	if m := yamlLine.FindStringSubmatch(msg); m != nil {
		line, _ = strconv.Atoi(m[1])
		msg = m[2]
	}
	p.diags = append(p.diags, diag.Diagnostic{File: p.file, Line: line, Column: min(line, 1), Severity: diag.Error,
		Code: CodeYAMLSyntax, Message: "not valid YAML: " + strings.TrimPrefix(msg, "yaml: ")})
}

func safeDecode(dec *yaml.Decoder, n *yaml.Node) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("yaml: internal parser failure: %v", r)
		}
	}()
	return dec.Decode(n)
}

// deref follows aliases; hooks.yaml's structure is four levels deep and
// never recursive, so aliases cannot make decoding expand without bound.
func deref(n *yaml.Node) *yaml.Node {
	for hops := 0; n != nil && n.Kind == yaml.AliasNode && hops < 16; hops++ {
		n = n.Alias
	}
	return n
}

func describe(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.ScalarNode:
		switch n.ShortTag() {
		case "!!null":
			return "null"
		case "!!bool":
			return "a boolean"
		case "!!int", "!!float":
			return "a number"
		case "!!str", "!!timestamp":
			return "a string"
		}
		return "a value tagged " + n.ShortTag()
	}
	return "an alias"
}

type kv struct {
	name     string
	key, val *yaml.Node
}

// pairs lists a mapping's entries (merge keys applied, written keys first);
// a repeated key is an error and only its first value counts.
func (p *parser) pairs(m *yaml.Node) []kv {
	var out []kv
	seen := map[string]*yaml.Node{}
	var merges []*yaml.Node
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := deref(m.Content[i]), m.Content[i+1]
		if k == nil {
			continue
		}
		if k.Kind == yaml.ScalarNode && k.ShortTag() == "!!merge" {
			merges = append(merges, v)
			continue
		}
		if k.Kind != yaml.ScalarNode {
			p.errorf(m.Content[i], CodeWrongType, "a key must be a plain string, not %s", describe(k))
			continue
		}
		if prev, dup := seen[k.Value]; dup {
			p.errorf(m.Content[i], CodeDuplicateKey, "key %q is repeated (first at line %d); keep only one", k.Value, prev.Line)
			continue
		}
		seen[k.Value] = m.Content[i]
		out = append(out, kv{k.Value, m.Content[i], v})
	}
	for _, src := range merges {
		s := deref(src)
		if s == nil {
			continue
		}
		var maps []*yaml.Node
		switch s.Kind {
		case yaml.MappingNode:
			maps = []*yaml.Node{s}
		case yaml.SequenceNode:
			for _, c := range s.Content {
				maps = append(maps, deref(c))
			}
		}
		for _, sm := range maps {
			if sm == nil || sm.Kind != yaml.MappingNode || sm == m {
				p.errorf(src, CodeWrongType, "a merge (<<) takes a mapping or a list of mappings")
				continue
			}
			for i := 0; i+1 < len(sm.Content); i += 2 {
				k := deref(sm.Content[i])
				if k == nil || k.Kind != yaml.ScalarNode {
					continue
				}
				if _, dup := seen[k.Value]; !dup {
					seen[k.Value] = sm.Content[i]
					out = append(out, kv{k.Value, sm.Content[i], sm.Content[i+1]})
				}
			}
		}
	}
	return out
}

func (p *parser) str(n *yaml.Node, path string) (string, bool) {
	v := deref(n)
	if v != nil && v.Kind == yaml.ScalarNode && (v.ShortTag() == "!!str" || v.ShortTag() == "!!timestamp") {
		return v.Value, true
	}
	what := "an alias"
	if v != nil {
		what = describe(v)
	}
	p.errorf(n, CodeWrongType, "%s must be a string, not %s", path, what)
	return "", false
}

func (p *parser) document(root *yaml.Node) []Hook {
	r := deref(root)
	if r.Kind != yaml.MappingNode {
		p.errorf(root, CodeWrongType, "hooks.yaml must be a mapping of event names to lists of hooks (e.g. pre_tool_execution: [...]), not %s", describe(r))
		return nil
	}
	var hooks []Hook
	names := map[string]int{}
	for _, e := range p.pairs(r) {
		if strings.HasPrefix(e.name, ExtensionPrefix) || e.name == "$schema" { // $schema: for editors
			continue
		}
		ev := Event(e.name)
		if !ev.Valid() {
			p.errorf(e.key, CodeUnknownEvent, "unknown event %q; hooks.yaml's keys are jcli's events.%s", e.name, diag.DidYouMean(e.name, Events))
			continue
		}
		list := deref(e.val)
		if list == nil {
			continue
		}
		if list.Kind == yaml.ScalarNode && list.ShortTag() == "!!null" {
			continue // "stop:" with nothing under it: no hooks
		}
		if list.Kind != yaml.SequenceNode {
			p.errorf(e.val, CodeWrongType, "%s must be a list of hooks (each starting with - ), not %s", e.name, describe(list))
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
	h := Hook{Event: ev, Index: i, Name: path, Type: TypeBash, OnError: OnErrorSkip, File: p.file, Line: n.Line}
	m := deref(n)
	if m == nil || m.Kind != yaml.MappingNode {
		what := "an alias"
		if m != nil {
			what = describe(m)
		}
		p.errorf(n, CodeWrongType, "%s must be a mapping (command: ... or type: llm with prompt: ...), not %s", path, what)
		return h, false
	}
	errsBefore := p.errorCount()
	ok := true
	fail := func() { ok = false }
	present := map[string]*yaml.Node{}
	for _, f := range p.pairs(m) {
		present[f.name] = f.key
		sub := path + "." + f.name
		if p.hookDir {
			sub = f.name
		}
		switch f.name {
		case "events":
			if !p.hookDir {
				p.warnf(f.key, CodeUnknownField, "%s has no field %q, so it is ignored; events: belongs to a HOOK.yaml, hooks.yaml lists hooks under their event", path, f.name)
			}
		case "retry":
			if !p.hookDir {
				p.warnf(f.key, CodeUnknownField, "%s has no field %q in seed 001's hooks.yaml, so it is ignored; jcli's HOOK.yaml has it", path, f.name)
			} else if n, good := p.count(f.val, sub); good {
				h.Retry = n
			} else {
				fail()
			}
		case "name":
			if p.hookDir {
				p.warnf(f.key, CodeUnknownField, "a HOOK.yaml has no field name, so it is ignored: the hook is named after its folder")
				continue
			}
			if s, good := p.str(f.val, sub); good {
				if strings.TrimSpace(s) == "" {
					p.errorf(f.val, CodeEmptyName, "%s is empty; give the hook a name or remove the field", sub)
					fail()
				} else {
					h.Name = s
				}
			} else {
				fail()
			}
		case "type":
			if s, good := p.str(f.val, sub); good {
				switch Type(s) {
				case TypeBash, TypeLLM:
					h.Type = Type(s)
				default:
					p.errorf(f.val, CodeUnknownType, "%s is %q; it must be bash (the default) or llm.%s", sub, s, diag.DidYouMean(s, []Type{TypeBash, TypeLLM}))
					fail()
				}
			} else {
				fail()
			}
		case "command":
			if s, good := p.str(f.val, sub); good {
				h.Command, h.cmdAt = s, f.val
			} else {
				fail()
			}
		case "prompt":
			if s, good := p.str(f.val, sub); good {
				h.Prompt = s
			} else {
				fail()
			}
		case "model":
			if s, good := p.str(f.val, sub); good {
				h.Model = s
			} else {
				fail()
			}
		case "timeout":
			if d, good := p.seconds(f.val, sub); good {
				h.Timeout, h.ZeroTimeout = d, d == 0
			} else {
				fail()
			}
		case "on_error":
			allowed := []OnError{OnErrorSkip, OnErrorAbort}
			if p.hookDir {
				allowed = []OnError{OnErrorSkip, OnErrorStop}
			}
			if s, good := p.str(f.val, sub); good {
				if slices.Contains(allowed, OnError(s)) {
					h.OnError = OnError(s)
				} else {
					p.errorf(f.val, CodeInvalidOnError, "%s is %q; it must be skip (log and go on) or %s (end the chain).%s", sub, s, allowed[1], diag.DidYouMean(s, allowed))
					fail()
				}
			} else {
				fail()
			}
		case "filter":
			if !p.filter(ev, f.val, sub, &h.Filter) {
				fail()
			}
		default:
			switch {
			case strings.HasPrefix(f.name, ExtensionPrefix):
			case p.hookDir:
				p.warnf(f.key, CodeUnknownField, "HOOK.yaml has no field %q, so jcli ignores it.%s", f.name, diag.DidYouMean(f.name, HookDirFields()))
			default:
				p.warnf(f.key, CodeUnknownField, "%s has no field %q, so it is ignored.%s", path, f.name, diag.DidYouMean(f.name, HookFields()))
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
	for _, d := range p.diags {
		if d.Severity == diag.Error {
			n++
		}
	}
	return n
}

// count decodes retry: a whole number of extra attempts, 0 to 10.
func (p *parser) count(n *yaml.Node, path string) (int, bool) {
	v := deref(n)
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
	v := deref(n)
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
		what = describe(v)
	}
	p.errorf(n, CodeWrongType, "%s must be a number of seconds, not %s", path, what)
	return 0, false
}

func (p *parser) filter(ev Event, n *yaml.Node, path string, f *Filter) bool {
	m := deref(n)
	if m == nil || m.Kind != yaml.MappingNode {
		what := "an alias"
		if m != nil {
			what = describe(m)
		}
		p.errorf(n, CodeWrongType, "%s must be a mapping (tool_name, tool_matcher, model_prefix), not %s", path, what)
		return false
	}
	ok := true
	for _, e := range p.pairs(m) {
		sub := path + "." + e.name
		var dst *string
		switch e.name {
		case "tool_name":
			dst = &f.ToolName
		case "tool_matcher":
			dst = &f.ToolMatcher
		case "model_prefix":
			dst = &f.ModelPrefix
		default:
			if !strings.HasPrefix(e.name, ExtensionPrefix) {
				p.warnf(e.key, CodeUnknownField, "%s has no field %q, so it is ignored.%s", path, e.name, diag.DidYouMean(e.name, FilterFields()))
			}
			continue
		}
		s, good := p.str(e.val, sub)
		if !good {
			ok = false
			continue
		}
		*dst = s
		if (e.name == "tool_name" || e.name == "tool_matcher") && !ev.HasTool() {
			p.warnf(e.key, CodeFilterNoTool, "%s has no effect: %s is not about a tool call (only pre_tool_execution, post_tool_execution and post_tool_execution_failure are)", sub, ev)
		}
		if e.name == "tool_matcher" {
			for alt := range strings.SplitSeq(s, "|") {
				if strings.TrimSpace(alt) == "" {
					p.warnf(e.val, CodeEmptyMatcher, "%s %q has an empty alternative, which matches no tool; remove the extra |", sub, s)
					break
				}
			}
			if f.ToolName != "" || hasKey(m, "tool_name") {
				p.warnf(e.key, CodeFieldIgnored, "%s is ignored because tool_name is set (tool_name wins)", sub)
			}
		}
	}
	return ok
}

func hasKey(m *yaml.Node, name string) bool {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if k := deref(m.Content[i]); k != nil && k.Value == name {
			return true
		}
	}
	return false
}
