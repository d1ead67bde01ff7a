package convert

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"hookstudio/app/format/diag"
)

// Diagnostic codes of a conversion (tests check codes, never wording).
const (
	CodeNoEvent      = "convert-no-event"      // the target has no event for the moment: left out
	CodeEventDiffers = "convert-event-differs" // the target's event fires at other times: written
	CodeType         = "convert-handler-type"  // a handler type the target does not run: left out
	CodeIf           = "convert-if"            // an if rule the target does not read
	CodeSkillScoped  = "convert-skill-scoped"  // a hook a skill's use registers: left out
	CodeNoTool       = "convert-no-tool"       // none of the matcher's tools exist in the target: left out
	CodeMatcher      = "convert-matcher"       // the matcher reads otherwise there: written
	CodeField        = "convert-field"         // a handler field the target does not read: dropped
	CodeTimeout      = "convert-timeout"       // the timeout rounded to the target's unit
	CodeOutputField  = "convert-output-field"  // a script's JSON answer the target reads otherwise
	CodeStdinKey     = "convert-stdin-key"     // a script reads an input key the target names otherwise
	CodeToolName     = "convert-tool-name"     // a script compares a tool name the target names otherwise
	CodeEnv          = "convert-env"           // a variable the target does not set
	CodeExists       = "convert-exists"        // an output file would be replaced
)

// Options say how to write a set.
type Options struct {
	// Layout is LayoutProject or LayoutPackage; "" the source's kind (a
	// package is written as a package where the target has one).
	Layout string
	// Name names the set where the target's files are named for it
	// (Copilot CLI's .github/hooks/<name>.json); "" the source's name.
	Name string
}

// File is one file a conversion writes.
type File struct {
	// Path is relative to the output folder, with slashes.
	Path string `json:"path"`
	// Role is "hooks", "script" or "manifest".
	Role string `json:"role"`
	// Member: the file is a settings object whose Member is Data; the
	// file's other keys are kept when it exists ("" Data is the file).
	Member string      `json:"member,omitempty"`
	Data   []byte      `json:"-"`
	Mode   fs.FileMode `json:"mode"`
	// From is the source file a script is copied from (root-relative).
	From string `json:"from,omitempty"`
}

// Result is a hook set written for another agent.
type Result struct {
	From   string `json:"from"`
	To     string `json:"to"`
	Layout string `json:"layout"`
	Files  []File `json:"files"`
	// Written and Left count the hooks carried over and left out.
	Written int `json:"written"`
	Left    int `json:"left"`
	// Diagnostics say what could not carry over, at the source's positions.
	Diagnostics []diag.Diagnostic `json:"diagnostics"`
	// Renamed maps the source's tool names to the target's, for a
	// scenario played under the target.
	Renamed map[string]string `json:"renamed,omitempty"`
}

// Convert writes set in agent to's format. Nothing is written to disk:
// the files are in the result (see Plan and Write).
func Convert(set *Set, to string, opts Options) (*Result, error) {
	d := dialectOf(to)
	if d == nil {
		return nil, fmt.Errorf("convert to %s: %w (targets: %s)", to, ErrUnknownAgent, strings.Join(Targets(), ", "))
	}
	kind := opts.Layout
	if kind == "" {
		kind = LayoutProject
		if set.Package {
			kind = LayoutPackage
		}
	}
	name := opts.Name
	if name == "" {
		name = set.Name
	}
	c := &converter{set: set, d: d, lay: layoutOf(to, kind, name), ad: adapterFor(set.From, to),
		res: &Result{From: set.From, To: to, Layout: kind, Files: []File{}, Diagnostics: []diag.Diagnostic{}, Renamed: renames(set.From, to)}}
	var rels []string
	for _, h := range set.Hooks {
		for _, s := range h.Scripts {
			if !slices.Contains(rels, s.Rel) {
				rels = append(rels, s.Rel)
			}
		}
	}
	c.places = scriptPlaces(c.lay.Scripts, rels)
	for i := range set.Hooks {
		c.hook(&set.Hooks[i])
	}
	if c.err != nil {
		return nil, fmt.Errorf("convert to %s: %w", to, c.err)
	}
	data, err := c.hooksFile()
	if err != nil {
		return nil, err
	}
	c.res.Files = append([]File{{Path: c.lay.Hooks, Role: "hooks", Member: c.lay.Member, Data: data, Mode: 0o644}}, c.res.Files...)
	if c.lay.Manifest != "" {
		c.res.Files = append(c.res.Files, File{Path: c.lay.Manifest, Role: "manifest", Data: manifest(name), Mode: 0o644})
	}
	c.res.Diagnostics = dedupe(c.res.Diagnostics)
	diag.Sort(c.res.Diagnostics)
	return c.res, nil
}

type converter struct {
	set    *Set
	d      *dialect
	lay    layout
	res    *Result
	places map[string]string // source script → its path in the output
	// ad runs the source's command hooks under the target (nil: as they
	// are), from adapterPath in the output
	ad          *adapterSpec
	adapterPath string
	err         error
	// the hooks file's contents: events in first-seen order, each's groups
	events []string
	groups map[string][]*group
}

type group struct {
	matcher    string
	sequential bool
	handlers   []obj
}

func (c *converter) warn(p Pos, code, format string, args ...any) {
	c.res.Diagnostics = append(c.res.Diagnostics, diag.Diagnostic{File: p.File, Line: p.Line, Column: p.Column,
		Severity: diag.Warning, Code: code, Message: fmt.Sprintf(format, args...)})
}

// fail reports what makes a written hook not do what it does in the
// source: the conversion is not written.
func (c *converter) fail(p Pos, code, format string, args ...any) {
	c.res.Diagnostics = append(c.res.Diagnostics, diag.Diagnostic{File: p.File, Line: p.Line, Column: p.Column,
		Severity: diag.Error, Code: code, Message: fmt.Sprintf(format, args...)})
}

// leave reports a hook that is not written, and why.
func (c *converter) leave(h *Hook, code, format string, args ...any) {
	c.res.Left++
	c.warn(h.Pos, code, "not carried over to %s: %s", c.d.Title, fmt.Sprintf(format, args...))
}

func (c *converter) hook(h *Hook) {
	to, title := c.d.Agent, c.d.Title
	src := Title(c.set.From)
	native := c.ad.eventFor(to, h.Event)
	switch {
	case native == "":
		c.leave(h, CodeNoEvent, "%s has no event for %s's %s%s", title, src, h.Native, alsoIn(h.Event, to))
		return
	case h.Skill != "" && to == ClaudeCode:
		c.leave(h, CodeSkillScoped, "it is declared in the skill %s's SKILL.md, which a conversion does not write: copy the skill with it", h.Skill)
		return
	case h.Skill != "":
		c.leave(h, CodeSkillScoped, "%s runs this hook only once the model uses the skill %s, and %s has no hooks scoped to a skill (as an always-on hook it would run in every session)", src, h.Skill, title)
		return
	case !c.d.runs(h.Type):
		c.leave(h, CodeType, "a %s handler; %s", h.Type, c.d.RunsWhy)
		return
	case h.If != "" && c.set.From == ClaudeCode && to != ClaudeCode && !slices.Contains(ifEvents, h.Event):
		c.leave(h, CodeIf, "%s never runs a handler with \"if\" on %s", src, h.Native)
		return
	}
	matcher, values, ok := c.matcher(h, native)
	if !ok {
		return
	}
	if n, ok := noteFor(to, h.Event); ok && c.set.From != to {
		c.warn(h.Pos, CodeEventDiffers, "written as %s's %s, but %s (%s)", title, native, n.Text, n.Source)
	}
	if h.If != "" && !c.d.reads(fieldIf) {
		c.warn(h.Pos, CodeIf, "%s has no \"if\" rules: %q is left out, so this hook runs for every %s call its matcher lets through; check the call in the script instead", title, h.If, h.Native)
	}
	line := c.line(h)
	cmd := line
	if c.ad != nil && h.Type == TypeCommand {
		cmd = c.wrap(h, line)
	}
	handler := c.handler(h, cmd)
	for _, v := range values {
		c.add(native, v, h.Sequential && c.d.reads(fieldSequential), handler)
	}
	if len(values) == 0 {
		c.add(native, matcher, h.Sequential && c.d.reads(fieldSequential), handler)
	}
	c.res.Written++
	c.scan(h, native, line)
}

// ifEvents are where Claude Code evaluates a handler's "if" rule.
var ifEvents = []Event{PreTool, PostTool, PostToolFailure, PermissionRequest}

// alsoIn names the agents that do have an event for e.
func alsoIn(e Event, except string) string {
	var names []string
	for _, a := range agentsWith(e) {
		if a != except {
			names = append(names, Title(a))
		}
	}
	if len(names) == 0 {
		return ""
	}
	return " (only " + strings.Join(names, ", ") + " have one)"
}

// matcher is the target's matcher for h at its event native: one string,
// or one value per group (OneValue); false: the hook is left out.
func (c *converter) matcher(h *Hook, native string) (string, []string, bool) {
	m, title := h.Matcher, c.d.Title
	on := c.d.matcherOn(h.Event)
	if m.All {
		return "", nil, true
	}
	if on == "" {
		c.warn(h.Pos, CodeMatcher, "%s reads no matcher on %s: the matcher %q is left out and the hook runs for every %s", title, native, m.Written, native)
		return "", nil, true
	}
	if len(m.Values) > 0 {
		if c.d.OneValue && len(m.Values) > 1 {
			return "", m.Values, true
		}
		return strings.Join(m.Values, "|"), nil, true
	}
	names, missing := m.names(c.d.Agent)
	if len(names) == 0 {
		c.leave(h, CodeNoTool, "%s has no %s tool its hooks see%s, so this hook would never run", title, strings.Join(missing, " or "), toolSourceNote(c.d.Agent))
		return "", nil, false
	}
	if len(missing) > 0 {
		c.warn(h.Pos, CodeMatcher, "%s has no %s tool: the matcher keeps %s", title, strings.Join(missing, " or "), strings.Join(names, ", "))
	}
	if m.Regex && len(m.Unknown) == 0 {
		c.warn(h.Pos, CodeMatcher, "the regular expression %q is written as the tools it matches among those every agent knows (%s): a tool of another name it would match (an MCP tool) is not", m.Written, strings.Join(m.Tools, ", "))
	}
	if len(m.Unknown) > 0 && c.set.From != c.d.Agent {
		c.warn(h.Pos, CodeMatcher, "%s is no tool the tables know: kept as written, but %s may name it otherwise", strings.Join(m.Unknown, ", "), title)
	}
	if c.d.Agent == Codex && slices.Contains(names, "apply_patch") && (slices.Contains(m.Tools, "Edit") != slices.Contains(m.Tools, "Write")) {
		c.warn(h.Pos, CodeMatcher, "Codex edits and writes files with one tool, apply_patch: this hook runs for both")
	}
	return c.d.toolMatcher(names), nil, true
}

func toolSourceNote(agent string) string {
	if agent == Codex {
		return " (it reads and searches through its shell)"
	}
	return ""
}

// handler is h's handler object in the target's format.
func (c *converter) handler(h *Hook, cmd string) obj {
	d := c.d
	o := obj{{"type", h.Type}} // Copilot CLI's matcher goes in after it (add)
	if h.Name == "" && c.ad != nil && h.Type == TypeCommand && d.reads(fieldName) {
		// every line through the adapter starts alike: the name says
		// which hook it is, where the agent shows one
		o = append(o, kv{"name", h.label()})
	}
	if h.Name != "" {
		if d.reads(fieldName) {
			o = append(o, kv{"name", h.Name})
		} else {
			c.warn(h.Pos, CodeField, "%s has no \"name\" for a hook: %q is left out", d.Title, h.Name)
		}
	}
	switch {
	case h.Type == TypeCommand && d.Agent == CopilotCLI:
		o = append(o, kv{"bash", cmd})
	case h.Type == TypeCommand:
		o = append(o, kv{"command", cmd})
		if len(h.Args) > 0 && d.reads(fieldArgs) {
			o = append(o, kv{"args", h.Args})
		}
	case h.Type == TypePrompt:
		o = append(o, kv{"prompt", h.Prompt})
	case h.Type == TypeHTTP:
		o = append(o, kv{"url", h.URL})
	}
	if h.PowerShell != "" {
		if d.reads(fieldPowerShell) {
			o = append(o, kv{"powershell", h.PowerShell})
		} else {
			c.warn(h.Pos, CodeField, "%s has no Windows command of its own: the powershell line is left out", d.Title)
		}
	}
	if h.Model != "" {
		if d.reads(fieldModel) {
			o = append(o, kv{"model", h.Model})
		} else {
			c.warn(h.Pos, CodeField, "%s reads no \"model\": %q is left out", d.Title, h.Model)
		}
	}
	if h.Description != "" {
		if d.reads(fieldDescription) {
			o = append(o, kv{"description", h.Description})
		} else {
			c.warn(h.Pos, CodeField, "%s reads no \"description\": it is left out", d.Title)
		}
	}
	if h.Cwd != "" {
		if d.reads(fieldCwd) {
			o = append(o, kv{"cwd", h.Cwd})
		} else {
			c.warn(h.Pos, CodeField, "%s has no \"cwd\" for a hook: it runs in the project folder, not %s", d.Title, h.Cwd)
		}
	}
	if len(h.Env) > 0 {
		if d.reads(fieldEnv) {
			o = append(o, kv{"env", h.Env})
		} else {
			c.warn(h.Pos, CodeField, "%s has no \"env\" for a hook: %s are not set", d.Title, strings.Join(sortedKeys(h.Env), ", "))
		}
	}
	if h.Sequential && !d.reads(fieldSequential) {
		c.warn(h.Pos, CodeField, "%s runs an event's hooks together: \"sequential\" is left out", d.Title)
	}
	if h.If != "" && d.reads(fieldIf) {
		o = append(o, kv{"if", h.If})
	}
	if h.Explicit || h.Timeout != d.Timeout(h.Type) {
		v, rounded := d.timeoutValue(h.Timeout)
		if rounded {
			c.warn(h.Pos, CodeTimeout, "%s counts a hook's timeout in whole seconds: %s is written as %gs", d.Title, fmtSeconds(h.Timeout), v)
		}
		o = append(o, kv{d.timeoutKey(), v})
	}
	return o
}

// line is h's own command line for the target: its scripts named where
// they are copied, Claude Code's args quoted into it. Through the adapter
// it runs as Claude Code runs it, its scripts named under Claude Code's
// variables.
func (c *converter) line(h *Hook) string {
	cmd := h.Command
	for _, s := range h.Scripts {
		dest := c.places[s.Rel]
		ref := c.lay.Ref(dest)
		if c.ad != nil {
			ref = claudeRef(c.lay.Manifest != "", dest)
		}
		cmd = replaceRef(cmd, s.Ref, ref)
		c.copyScript(s.Rel, dest)
	}
	if len(h.Args) > 0 && (c.ad != nil || !c.d.reads(fieldArgs)) {
		parts := []string{quoteArg(cmd)}
		for _, a := range h.Args {
			parts = append(parts, quoteArg(a))
		}
		cmd = strings.Join(parts, " ")
	}
	return cmd
}

func (c *converter) copyScript(rel, dest string) {
	if slices.ContainsFunc(c.res.Files, func(f File) bool { return f.Path == dest }) {
		return
	}
	data, mode, err := readScript(c.set.Root, rel)
	if err != nil {
		c.err = errors.Join(c.err, fmt.Errorf("copy script %s: %w", rel, err))
		return
	}
	c.res.Files = append(c.res.Files, File{Path: dest, Role: "script", From: rel, Data: data, Mode: mode})
}

// add puts a handler in its event's group for matcher.
func (c *converter) add(event, matcher string, sequential bool, h obj) {
	if c.groups == nil {
		c.groups = map[string][]*group{}
	}
	if !slices.Contains(c.events, event) {
		c.events = append(c.events, event)
	}
	if c.d.Agent == CopilotCLI { // no groups: the matcher is the handler's
		if matcher != "" {
			h = append(obj{h[0], {"matcher", matcher}}, h[1:]...)
		}
		c.groups[event] = append(c.groups[event], &group{handlers: []obj{h}})
		return
	}
	for _, g := range c.groups[event] {
		if g.matcher == matcher && g.sequential == sequential {
			g.handlers = append(g.handlers, h)
			return
		}
	}
	c.groups[event] = append(c.groups[event], &group{matcher: matcher, sequential: sequential, handlers: []obj{h}})
}

// hooksFile is the hooks' JSON: the value of the settings' "hooks" member,
// or Copilot CLI's whole file.
func (c *converter) hooksFile() ([]byte, error) {
	events := obj{}
	for _, e := range c.events {
		var list []any
		for _, g := range c.groups[e] {
			if c.d.Agent == CopilotCLI {
				list = append(list, g.handlers[0])
				continue
			}
			o := obj{}
			if g.matcher != "" {
				o = append(o, kv{"matcher", g.matcher})
			}
			if g.sequential {
				o = append(o, kv{"sequential", true})
			}
			hs := make([]any, len(g.handlers))
			for i, h := range g.handlers {
				hs[i] = h
			}
			list = append(list, append(o, kv{"hooks", hs}))
		}
		events = append(events, kv{e, list})
	}
	var v any = events
	if c.d.Agent == CopilotCLI {
		v = obj{{"version", 1}, {"hooks", events}}
	}
	return encode(v)
}

// manifest is a package's manifest for a package named name.
func manifest(name string) []byte {
	data, _ := encode(obj{{"name", fileName(name)}, {"version", "1.0.0"}})
	return data
}

// renames maps each tool name of agent from to agent to's, where they differ.
func renames(from, to string) map[string]string {
	out := map[string]string{}
	f, t := column(from), column(to)
	if f < 0 || t < 0 {
		return out
	}
	for _, r := range toolTable {
		if r[f] != "" && r[t] != "" && r[f] != r[t] {
			if _, ok := out[r[f]]; !ok {
				out[r[f]] = r[t]
			}
		}
	}
	return out
}

// obj is a JSON object whose keys keep their order.
type obj []kv

type kv struct {
	k string
	v any
}

func (o obj) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, p := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := marshal(p.k)
		v, err := marshal(p.v)
		if err != nil {
			return nil, err
		}
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// marshal is json.Marshal without HTML escapes (a command's && stays &&).
func marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// encode is v as the files are written: two-space indents, a final newline.
func encode(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

func sortedKeys(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

func dedupe(ds []diag.Diagnostic) []diag.Diagnostic {
	seen := map[diag.Diagnostic]bool{}
	out := ds[:0]
	for _, d := range ds {
		if !seen[d] {
			seen[d] = true
			out = append(out, d)
		}
	}
	return out
}

// readScript is a source script's bytes and mode.
func readScript(root, rel string) ([]byte, fs.FileMode, error) {
	file := filepath.Join(root, filepath.FromSlash(rel))
	fi, err := os.Stat(file)
	if err != nil {
		return nil, 0, err
	}
	data, err := os.ReadFile(file)
	return data, fi.Mode().Perm(), err
}
