package skills

import (
	"bytes"
	"errors"
	"fmt"
	"path"
	"slices"
	"strings"

	"hookstudio/app/format/diag"
	"hookstudio/app/format/jsondoc"
)

// Entry is one element of the "hooks" array as written, with the position
// of the entry and of every field, for editors that need to point at it.
type Entry struct {
	Index      int      `json:"index"` // position in the hooks array
	Name       string   `json:"name"`
	File       string   `json:"file"`
	Timing     Timing   `json:"timing"`
	Role       Role     `json:"role"`
	Persistent bool     `json:"persistent"`
	ToolFilter []string `json:"tool_filter,omitempty"` // nil when absent or null
	// Pos is where the entry starts (its '{').
	Pos Pos `json:"pos"`
	// Fields holds the position of each field's value, by key, for every
	// field present (unknown ones too).
	Fields map[string]Pos `json:"fields"`
	// OK is true when no error points into this entry: the hook can load.
	OK bool `json:"ok"`
	// Node is the entry's syntax tree, for rewriting the file in place.
	Node *jsondoc.Node `json:"-"`
}

// Pos is a position in hooks.json: a byte offset and its 1-based line and
// column (in code points).
type Pos struct {
	Offset int `json:"offset"`
	Line   int `json:"line"`
	Column int `json:"column"`
}

// RequiredFields returns the fields every entry must have, in schema order.
func RequiredFields() []string {
	r := requiredFields()
	return r[:]
}

// requiredFields is RequiredFields as an array value, which the per-entry
// loop can range over without allocating.
func requiredFields() [5]string {
	return [5]string{"name", "file", "timing", "role", "persistent"}
}

func isKnownField(key string) bool {
	switch key {
	case "name", "file", "timing", "role", "persistent", "tool_filter":
		return true
	}
	return false
}

// KnownFields returns every field an entry may have, in schema order.
func KnownFields() []string { return append(RequiredFields(), "tool_filter") }

// TopLevelFields returns the fields hooks.json may have at its top level;
// "$schema" lets editors find hooks.schema.json.
func TopLevelFields() []string { return []string{"$schema", "hooks"} }

// Roles returns the valid roles.
func Roles() []Role { return []Role{System, User} }

// ParseHooks validates a hooks.json without touching the disk: every rule
// except the existence and content of the .md files, which Load checks. file
// is the name to put in diagnostics (relative to the skills root). All
// problems are reported, never just the first. Entries are returned for
// every array element, valid or not, in file order.
func ParseHooks(file string, data []byte) (entries []Entry, diags []diag.Diagnostic) {
	v := &validator{Sink: diag.Sink{File: file}, data: data, lines: jsondoc.NewLines(data)}
	v.document()
	return v.entries, v.Diags
}

type validator struct {
	diag.Sink
	data    []byte
	lines   *jsondoc.Lines
	entries []Entry
}

func (v *validator) pos(off int) Pos {
	line, col := v.lines.Position(off)
	return Pos{Offset: off, Line: line, Column: col}
}

func (v *validator) report(off int, sev diag.Severity, code, format string, args ...any) {
	p := v.pos(off)
	v.Add(p.Line, p.Column, sev, code, format, args...)
}

func (v *validator) errorf(off int, code, format string, args ...any) {
	v.report(off, diag.Error, code, format, args...)
}

func (v *validator) warnf(off int, code, format string, args ...any) {
	v.report(off, diag.Warning, code, format, args...)
}

const skeleton = `{"hooks": [{"name": "...", "file": "....md", "timing": "after_user_input", "role": "system", "persistent": false}]}`

func (v *validator) document() {
	body := bytes.TrimPrefix(v.data, []byte("\xEF\xBB\xBF"))
	if len(body) == 0 {
		v.errorf(0, CodeEmptyFile, "hooks.json is empty; write %s, or delete the file if the skill has no hooks", skeleton)
		return
	}
	if len(bytes.TrimLeft(body, " \t\r\n")) == 0 {
		v.errorf(0, CodeEmptyFile, "hooks.json contains only whitespace; write %s, or delete the file if the skill has no hooks", skeleton)
		return
	}
	doc, err := jsondoc.Parse(v.data)
	if err != nil {
		v.syntax(err)
		return
	}
	for _, d := range doc.Duplicates {
		first := v.pos(d.FirstOffset)
		v.warnf(d.Offset, CodeDuplicateKey, "key %q is repeated (first at line %d, column %d); the last value wins, remove the other one", d.Key, first.Line, first.Column)
	}
	v.top(doc.Root)
}

func (v *validator) syntax(err error) {
	var se *jsondoc.SyntaxError
	if !errors.As(err, &se) {
		v.errorf(0, CodeSyntax, "hooks.json cannot be parsed: %v", err)
		return
	}
	if errors.Is(err, jsondoc.ErrTooDeep) {
		v.errorf(se.Offset, CodeTooDeep, "hooks.json is nested too deeply (%s); hooks.json needs only 3 levels: {\"hooks\": [{...}]}", se.Msg)
		return
	}
	v.errorf(se.Offset, CodeSyntax, "invalid JSON: %s", se.Msg)
}

func (v *validator) top(root *jsondoc.Node) {
	switch root.Kind {
	case jsondoc.Object:
	case jsondoc.Null:
		v.errorf(root.Offset, CodeNull, "hooks.json is null; it must be an object like %s", skeleton)
		return
	default:
		v.errorf(root.Offset, CodeType, "hooks.json is a %s; it must be an object like %s", root.Kind, skeleton)
		return
	}
	for _, m := range root.Children {
		if !slices.Contains(TopLevelFields(), m.Key) {
			v.unknownField(m, TopLevelFields(), "at the top level of hooks.json")
		}
	}
	hooks := root.Get("hooks")
	switch {
	case hooks == nil:
		v.errorf(root.Offset, CodeMissingField, `hooks.json has no "hooks" field; add "hooks": [ ... ] with one object per hook`)
		return
	case hooks.Kind == jsondoc.Null:
		v.errorf(hooks.Offset, CodeNull, `"hooks" is null; make it an array of hook objects, or [] for none`)
		return
	case hooks.Kind != jsondoc.Array:
		v.errorf(hooks.Offset, CodeType, `"hooks" is a %s; it must be an array of hook objects`, hooks.Kind)
		return
	}
	v.entries = make([]Entry, 0, len(hooks.Children))
	names := map[string]Pos{}
	for i, el := range hooks.Children {
		e := v.entry(i, el)
		v.uniqueName(&e, names)
		v.entries = append(v.entries, e)
	}
}

func (v *validator) unknownField(m *jsondoc.Node, known []string, where string) {
	if s := diag.Suggest(m.Key, known); s != "" {
		v.warnf(m.KeyOffset, CodeUnknownField, "unknown field %q %s is ignored; did you mean %q?", m.Key, where, s)
		return
	}
	v.warnf(m.KeyOffset, CodeUnknownField, "unknown field %q %s is ignored; known fields: %s", m.Key, where, strings.Join(known, ", "))
}

// uniqueName reports a name already used by an earlier entry; the earlier
// one keeps loading, the later one does not.
func (v *validator) uniqueName(e *Entry, names map[string]Pos) {
	if !v.nameValid(e) {
		return
	}
	p := e.Fields["name"]
	if first, dup := names[e.Name]; dup {
		v.errorf(p.Offset, CodeDuplicateName, "hook name %q is already used at line %d of this file; give each hook a unique name", e.Name, first.Line)
		e.OK = false
		return
	}
	names[e.Name] = p
}

// nameValid reports whether the entry's name itself was accepted, so that a
// broken entry with a good name still claims it.
func (v *validator) nameValid(e *Entry) bool {
	n := e.Node.Get("name")
	return n != nil && n.Kind == jsondoc.String && strings.TrimSpace(n.Str) != ""
}

func (v *validator) entry(i int, el *jsondoc.Node) Entry {
	e := Entry{Index: i, Pos: v.pos(el.Offset), Node: el}
	errs := len(v.Diags)
	if el.Kind != jsondoc.Object {
		if el.Kind == jsondoc.Null {
			v.errorf(el.Offset, CodeNull, "hook #%d is null; it must be an object like %s", i+1, skeletonEntry)
		} else {
			v.errorf(el.Offset, CodeType, "hook #%d is a %s; it must be an object like %s", i+1, el.Kind, skeletonEntry)
		}
		return e
	}
	e.Fields = make(map[string]Pos, len(el.Children))
	for _, m := range el.Children {
		e.Fields[m.Key] = v.pos(m.Offset)
		if !isKnownField(m.Key) {
			v.unknownField(m, KnownFields(), "in a hook")
		}
	}
	for _, f := range requiredFields() {
		if el.Get(f) == nil {
			v.errorf(el.Offset, CodeMissingField, "hook #%d has no %q field; add %s", i+1, f, fieldHint(f))
		}
	}
	v.checkName(&e, el.Get("name"))
	v.checkFile(&e, el.Get("file"))
	v.checkTiming(&e, el.Get("timing"))
	v.checkRole(&e, el.Get("role"))
	v.checkPersistent(&e, el.Get("persistent"))
	v.checkToolFilter(&e, el.Get("tool_filter"))
	e.OK = !hasErrorSince(v.Diags, errs)
	return e
}

const skeletonEntry = `{"name": "...", "file": "....md", "timing": "after_user_input", "role": "system", "persistent": false}`

func fieldHint(f string) string {
	switch f {
	case "name":
		return `"name": "a-unique-name"`
	case "file":
		return `"file": "prompt.md" (relative to hooks/)`
	case "timing":
		return `"timing": one of ` + quoted(Timings)
	case "role":
		return `"role": "system" or "user"`
	case "persistent":
		return `"persistent": false (or true to keep the message in the conversation history)`
	}
	return ""
}

func hasErrorSince(ds []diag.Diagnostic, from int) bool { return diag.HasErrors(ds[from:]) }

// str checks a required string field; ok is false when absent or reported.
// want is only called to build an error message: the valid path must not
// pay for formatting the list of valid values.
func (v *validator) str(n *jsondoc.Node, field string, want func() string) (string, bool) {
	switch {
	case n == nil:
		return "", false
	case n.Kind == jsondoc.Null:
		v.errorf(n.Offset, CodeNull, "%q is null; it must be %s", field, want())
		return "", false
	case n.Kind != jsondoc.String:
		v.errorf(n.Offset, CodeType, "%q is a %s; it must be %s (in double quotes)", field, n.Kind, want())
		return "", false
	}
	return n.Str, true
}

func (v *validator) checkName(e *Entry, n *jsondoc.Node) {
	s, ok := v.str(n, "name", func() string { return "a non-empty string" })
	if !ok {
		return
	}
	e.Name = s
	if strings.TrimSpace(s) == "" {
		v.errorf(n.Offset, CodeEmptyName, `"name" is empty; give the hook a name that is unique in this skill`)
	}
}

func (v *validator) checkFile(e *Entry, n *jsondoc.Node) {
	s, ok := v.str(n, "file", func() string { return "the path of a .md file relative to hooks/" })
	if !ok {
		return
	}
	e.File = s
	if problem, code := checkPath(s); code != "" {
		v.errorf(n.Offset, code, "%s", problem)
	}
}

// checkPath refuses paths that cannot name a file inside hooks/. Symlinks
// are left to os.Root when the file is opened.
func checkPath(s string) (problem, code string) {
	switch {
	case strings.TrimSpace(s) == "":
		return `"file" is empty; give the .md file's path relative to hooks/, e.g. "prompt.md"`, CodeEmptyPath
	case isAbs(s):
		return fmt.Sprintf("%q is an absolute path; hook files must live inside hooks/, so give a path relative to it, e.g. %q", s, path.Base(strings.ReplaceAll(s, `\`, "/"))), CodeAbsolutePath
	}
	clean := path.Clean(strings.ReplaceAll(s, `\`, "/"))
	if clean == ".." || strings.HasPrefix(clean, "../") {
		return fmt.Sprintf("%q points outside hooks/; move the file into the skill's hooks/ folder and give a path relative to it", s), CodeEscapingPath
	}
	if clean == "." {
		return fmt.Sprintf("%q names the hooks/ folder itself; give the path of a .md file inside it", s), CodeFileIsDir
	}
	return "", ""
}

// isAbs recognises absolute paths of every platform, so a hooks.json written
// on Windows is judged the same on Linux.
func isAbs(s string) bool {
	if strings.HasPrefix(s, "/") || strings.HasPrefix(s, `\`) {
		return true
	}
	return len(s) >= 2 && s[1] == ':' && (s[0]|0x20 >= 'a' && s[0]|0x20 <= 'z')
}

func (v *validator) checkTiming(e *Entry, n *jsondoc.Node) {
	s, ok := v.str(n, "timing", func() string { return "one of " + quoted(Timings) })
	if !ok {
		return
	}
	e.Timing = Timing(s)
	if !e.Timing.Valid() {
		v.errorf(n.Offset, CodeUnknownTiming, "unknown timing %q;%s valid timings: %s", s, diag.DidYouMean(s, Timings), quoted(Timings))
	}
}

func (v *validator) checkRole(e *Entry, n *jsondoc.Node) {
	s, ok := v.str(n, "role", func() string { return `"system" or "user"` })
	if !ok {
		return
	}
	e.Role = Role(s)
	if !e.Role.Valid() {
		v.errorf(n.Offset, CodeUnknownRole, "unknown role %q;%s valid roles: %s", s, diag.DidYouMean(s, Roles()), quoted(Roles()))
	}
}

func (v *validator) checkPersistent(e *Entry, n *jsondoc.Node) {
	switch {
	case n == nil:
		return
	case n.Kind == jsondoc.Null:
		v.errorf(n.Offset, CodeNull, `"persistent" is null; write true or false`)
		return
	case n.Kind == jsondoc.String && (n.Str == "true" || n.Str == "false"):
		v.errorf(n.Offset, CodeType, `"persistent" is the string %q; write %s without quotes`, n.Str, n.Str)
		return
	case n.Kind != jsondoc.Bool:
		v.errorf(n.Offset, CodeType, `"persistent" is a %s; write true or false`, n.Kind)
		return
	}
	e.Persistent = n.Bool
	if n.Bool && (e.Timing == BeforeEachAgent || e.Timing == AfterToolCall) {
		when := "every agent round"
		if e.Timing == AfterToolCall {
			when = "after every tool call"
		}
		v.warnf(n.Offset, CodePersistentPileUp, "a persistent %s hook is injected again %s and never removed, so one more copy piles up in the conversation history each time; use \"persistent\": false, or the after_user_input timing to inject it once per request", e.Timing, when)
	}
}

func (v *validator) checkToolFilter(e *Entry, n *jsondoc.Node) {
	switch {
	case n == nil:
		return
	case n.Kind == jsondoc.Null:
		v.warnf(n.Offset, CodeNullToolFilter, `"tool_filter" is null and treated as absent (every tool matches); remove it or list tool names`)
		return
	case n.Kind != jsondoc.Array:
		v.errorf(n.Offset, CodeType, `"tool_filter" is a %s; it must be an array of tool names, e.g. ["read_file"]`, n.Kind)
		return
	}
	filter := make([]string, 0, len(n.Children))
	for _, item := range n.Children {
		switch {
		case item.Kind != jsondoc.String:
			v.errorf(item.Offset, CodeType, `a "tool_filter" item is a %s; every item must be a tool name in double quotes`, item.Kind)
		case strings.TrimSpace(item.Str) == "":
			v.warnf(item.Offset, CodeEmptyToolName, `empty tool name in "tool_filter" matches no tool; remove it`)
		}
		filter = append(filter, item.Str)
	}
	e.ToolFilter = filter
	if len(n.Children) == 0 {
		v.warnf(n.Offset, CodeEmptyToolFilter, `"tool_filter" is empty, so the hook matches no tool call and never fires; list tool names, or remove the field to match every call`)
	}
	if e.Timing.Valid() && e.Timing != AfterToolCall {
		v.warnf(n.Offset, CodeToolFilterIgnored, `"tool_filter" has no effect on a %s hook (only after_tool_call hooks are filtered by tool); remove it or change the timing`, e.Timing)
	}
}
