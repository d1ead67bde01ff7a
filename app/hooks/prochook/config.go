// Package prochook hosts PicoClaw's process hooks (seed 003): long-lived
// programs that speak JSON-RPC 2.0, one message per line over stdio. It
// reads their configuration with positioned diagnostics, starts each
// process per run, sends it the hook.* requests and hook.runtime_event
// notifications it subscribed to, and reports every message exchange to
// the engine as a hook_call step.
package prochook

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"hookstudio/app/format/diag"
	"hookstudio/app/format/jsondoc"
	"hookstudio/app/hooks/hostmode"
)

// Defaults PicoClaw uses when hooks.defaults leaves a timeout out (or 0):
// pkg/agent/hooks.go, defaultHook{Observer,Interceptor,Approval}Timeout.
const (
	DefaultObserverTimeout    = 500 * time.Millisecond
	DefaultInterceptorTimeout = 5 * time.Second
	DefaultApprovalTimeout    = 60 * time.Second
)

// Diagnostic codes of picoclaw.json / .picoclaw/hooks.json. Tests and the
// CLI's JSON output match on them, never on message text.
const (
	CodeSyntax           = "json-syntax"
	CodeType             = "wrong-type"
	CodeMissingField     = "missing-field"
	CodeUnknownField     = "unknown-field"
	CodeDuplicateKey     = "duplicate-key"
	CodeUnknownIntercept = "unknown-intercept"
	CodeUnknownObserve   = "unknown-observe"
	CodeNoModes          = "no-hook-modes"
	CodeTransport        = "unsupported-transport"
	CodeEmptyCommand     = "empty-command"
	CodeEscapingDir      = "escaping-dir"
	CodeMissingDir       = "missing-dir"
	CodeMissingExec      = "missing-executable"
	CodeNotExecutable    = "not-executable"
	CodeMissingScript    = "missing-script"
	CodeNegativeTimeout  = "negative-timeout"
	CodeNotInteger       = "not-integer"
	CodeDisabled         = "disabled"
	CodeEnabledDefault   = "enabled-default" // hooks.enabled is absent: true in PicoClaw's code, false in seed 003
	CodeEmptyName        = "empty-name"
	CodeBuiltins         = "builtins-ignored"
	CodeUnreadable       = "unreadable-file"
)

// Interceptable methods, in PicoClaw's order.
var Intercepts = []string{"before_llm", "after_llm", "before_tool", "after_tool", "approve_tool"}

// Kinds are PicoClaw's runtime event kinds (pkg/events/kind.go) an
// observe list may name. The simulator emits only some of them (see
// Emitted); naming another is valid, it just never arrives.
var Kinds = []string{
	"agent.turn.start", "agent.turn.end",
	"agent.llm.request", "agent.llm.delta", "agent.llm.response", "agent.llm.retry",
	"agent.context.compress", "agent.session.summarize",
	"agent.tool.exec_start", "agent.tool.exec_end", "agent.tool.exec_skipped",
	"agent.steering.injected", "agent.follow_up.queued", "agent.interrupt.received",
	"agent.subturn.spawn", "agent.subturn.end", "agent.subturn.result_delivered", "agent.subturn.orphan",
	"agent.error",
	"agent.message.sent", "agent.message.delivered", "agent.message.received", "agent.message.reply",
	"agent.message.blocked", "agent.thread.closed",
	"channel.lifecycle.started", "channel.lifecycle.initialized", "channel.lifecycle.start_failed",
	"channel.lifecycle.stopped", "channel.webhook.registered", "channel.webhook.unregistered",
	"channel.message.outbound_queued", "channel.message.outbound_sent", "channel.message.outbound_failed",
	"channel.rate_limited",
	"bus.publish.failed", "bus.close.started", "bus.close.completed", "bus.close.drained",
	"gateway.start", "gateway.ready", "gateway.shutdown",
	"gateway.reload.started", "gateway.reload.completed", "gateway.reload.failed",
	"mcp.server.connected", "mcp.server.connecting", "mcp.server.failed", "mcp.tool.discovered",
	"mcp.tool.call.start", "mcp.tool.call.end",
}

// Emitted are the kinds the simulated agent raises.
var Emitted = []string{
	"agent.turn.start", "agent.turn.end", "agent.llm.request", "agent.llm.response",
	"agent.context.compress", "agent.tool.exec_start", "agent.tool.exec_end", "agent.tool.exec_skipped", "agent.error",
}

// LegacyKinds maps the old observe names PicoClaw still accepts to kinds.
var LegacyKinds = map[string]string{
	"turn_start": "agent.turn.start", "turn_end": "agent.turn.end",
	"llm_request": "agent.llm.request", "llm_delta": "agent.llm.delta", "llm_response": "agent.llm.response",
	"llm_retry": "agent.llm.retry", "context_compress": "agent.context.compress",
	"session_summarize": "agent.session.summarize", "tool_exec_start": "agent.tool.exec_start",
	"tool_exec_end": "agent.tool.exec_end", "tool_exec_skipped": "agent.tool.exec_skipped",
	"steering_injected": "agent.steering.injected", "follow_up_queued": "agent.follow_up.queued",
	"interrupt_received": "agent.interrupt.received", "subturn_spawn": "agent.subturn.spawn",
	"subturn_end": "agent.subturn.end", "subturn_result_delivered": "agent.subturn.result_delivered",
	"subturn_orphan": "agent.subturn.orphan", "message_sent": "agent.message.sent",
	"message_delivered": "agent.message.delivered", "message_received": "agent.message.received",
	"message_reply": "agent.message.reply", "message_blocked": "agent.message.blocked",
	"thread_closed": "agent.thread.closed", "error": "agent.error",
}

// ObserveAll are the observe entries that subscribe to every kind.
var ObserveAll = []string{"*", "all"}

// ObserveNames is every name an observe list may hold, sorted.
func ObserveNames() []string {
	out := append(slices.Clone(Kinds), ObserveAll...)
	for k := range LegacyKinds {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// Field lists, kept equal to schema/picoclaw-hooks.schema.json by a test.
var (
	TopFields      = []string{"$schema", "hooks"}
	HooksFields    = []string{"enabled", "defaults", "processes", "builtins"}
	DefaultsFields = []string{"observer_timeout_ms", "interceptor_timeout_ms", "approval_timeout_ms"}
	ProcessFields  = []string{"enabled", "priority", "transport", "command", "dir", "env", "observe", "intercept"}
)

// Defaults are the timeouts of one config file.
type Defaults struct {
	Observer    time.Duration `json:"observer"`
	Interceptor time.Duration `json:"interceptor"`
	Approval    time.Duration `json:"approval"`
}

// Hook is one configured process, validated.
type Hook struct {
	Name     string   `json:"name"`
	Skill    string   `json:"skill,omitempty"` // "" for <root>/.picoclaw/hooks.json
	File     string   `json:"file"`            // the config, relative to the skills root
	Line     int      `json:"line"`            // where the process entry starts
	Enabled  bool     `json:"enabled"`
	Priority int      `json:"priority"`
	Command  []string `json:"command"`
	Dir      string   `json:"dir"` // absolute working directory, as the host behaviour resolves it
	// DirSpec is the config's "dir" as written ("" when it has none).
	DirSpec    string            `json:"dir_spec,omitempty"`
	Env        map[string]string `json:"env,omitempty"`
	Observe    []string          `json:"observe,omitempty"` // normalised kinds; nil with ObserveAll
	ObserveAll bool              `json:"observe_all,omitempty"`
	Intercept  []string          `json:"intercept,omitempty"`
	Defaults   Defaults          `json:"defaults"`
	// OK is false when an error points into the entry: it is not run.
	OK bool `json:"ok"`
	// DefaultEnabled: hooks.enabled is absent, which PicoClaw's code takes
	// for true and seed 003 for false (Runnable).
	DefaultEnabled bool `json:"default_enabled,omitempty"`

	// Where each host behaviour starts the process (Parse fills them; a
	// Hook built by hand has neither and runs in Dir under both).
	codeDir, documentDir place
	// dirProblem is why the process cannot start in Dir under the
	// behaviour Runnable chose ("" it can).
	dirProblem string
}

// place is a hook's working directory under one host behaviour: a relative
// dir is resolved against PicoClaw's working directory (taken to be the
// skills root, where its user runs it) by PicoClaw's code, against the
// config's folder as Hook Studio reads seed 003. An empty dir is the
// config's folder under both, so a skill's hook runs next to its script
// wherever the folder is opened.
type place struct {
	dir     string // absolute
	rel     string // relative to the skills root, for notes
	problem string // why the process cannot start there ("" it can)
}

// placeFor is the hook's place under mode (ok false for a Hook built by
// hand, which has none).
func (h *Hook) placeFor(mode hostmode.Mode) (place, bool) {
	pl := h.codeDir
	if mode == hostmode.Document {
		pl = h.documentDir
	}
	return pl, pl.dir != ""
}

// dirNote is the other behaviour's note on a process.start: where it
// would start the process, when that is another folder ("" the same).
func (h *Hook) dirNote(mode hostmode.Mode) string {
	cur, ok1 := h.placeFor(mode)
	other, ok2 := h.placeFor(mode.Other())
	if !ok1 || !ok2 || cur.dir == other.dir {
		return ""
	}
	note := fmt.Sprintf("PicoClaw's code resolves dir %q against its working directory (the skills root): the process would start in %s", h.DirSpec, other.rel)
	if mode != hostmode.Document {
		note = fmt.Sprintf("as seed 003 describes, dir %q is resolved against the config's folder: the process would start in %s", h.DirSpec, other.rel)
	}
	if other.problem != "" {
		note += ", where it could not start (" + other.problem + ")"
	}
	return note
}

// Runnable keeps the hooks the host behaviour starts: under seed 003's
// behaviour not those whose config leaves hooks.enabled out.
// Each keeps the working directory that behaviour resolves its dir to.
func Runnable(hooks []Hook, mode hostmode.Mode) []Hook {
	out := slices.Clone(hooks)
	if mode == hostmode.Document {
		out = slices.DeleteFunc(out, func(h Hook) bool { return h.DefaultEnabled })
	}
	for i := range out {
		if pl, ok := out[i].placeFor(mode); ok {
			out[i].Dir, out[i].dirProblem = pl.dir, pl.problem
		}
	}
	return out
}

// Intercepts reports whether the hook is sent method ("before_llm", ...).
func (h *Hook) Intercepts(method string) bool { return slices.Contains(h.Intercept, method) }

// Observes reports whether the hook is sent runtime events of kind.
func (h *Hook) Observes(kind string) bool {
	return h.ObserveAll || slices.Contains(h.Observe, kind)
}

// Modes are the hello modes PicoClaw derives from observe and intercept:
// observe, llm (before_llm or after_llm), tool (before_tool or after_tool),
// approve (approve_tool).
func (h *Hook) Modes() []string {
	modes := []string{}
	if h.ObserveAll || len(h.Observe) > 0 {
		modes = append(modes, "observe")
	}
	if h.Intercepts("before_llm") || h.Intercepts("after_llm") {
		modes = append(modes, "llm")
	}
	if h.Intercepts("before_tool") || h.Intercepts("after_tool") {
		modes = append(modes, "tool")
	}
	if h.Intercepts("approve_tool") {
		modes = append(modes, "approve")
	}
	return modes
}

// CommandLine is the command as a shell would show it, for the trust prompt.
func (h *Hook) CommandLine() string {
	parts := make([]string, len(h.Command))
	for i, a := range h.Command {
		if a == "" || strings.ContainsAny(a, " \t\n'\"\\$`*?;&|<>()") {
			a = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
		parts[i] = a
	}
	return strings.Join(parts, " ")
}

// parser validates one config file.
type parser struct {
	diag.Sink        // File: relative to root
	root      string // skills root (absolute)
	dir       string // absolute folder of the file
	skill     string
	data      []byte
	lines     *jsondoc.Lines
	hooks     []Hook
	stat      func(string) (os.FileInfo, error)
	// mode is the folder's host behaviour: a dir or path that only its
	// resolution breaks is an error, one only the other's breaks a warning.
	mode hostmode.Mode
}

// Parse validates a PicoClaw hooks config. root is the skills root, file
// the config's path relative to it (forward slashes), skill the skill that
// declares it ("" for the root's .picoclaw/hooks.json). Paths (dir, the
// executable, the script) are checked on disk. Every problem is reported.
func Parse(root, file, skill string, data []byte) ([]Hook, []diag.Diagnostic) {
	// The folder setting's problems are reported by whoever loads the
	// folder (app/hooks/hooksets); here an unreadable one is the default.
	mode, _, _ := hostmode.Load(root)
	return parse(root, file, skill, data, mode)
}

// parse is Parse in a folder that follows mode.
func parse(root, file, skill string, data []byte, mode hostmode.Mode) ([]Hook, []diag.Diagnostic) {
	absRoot, err := filepath.Abs(root)
	if err != nil {
		absRoot = root
	}
	p := &parser{Sink: diag.Sink{File: file}, root: absRoot, skill: skill, data: data, lines: jsondoc.NewLines(data),
		dir: filepath.Dir(filepath.Join(absRoot, filepath.FromSlash(file))), stat: os.Stat}
	p.mode = mode
	p.document()
	sort.SliceStable(p.hooks, func(i, j int) bool {
		if p.hooks[i].Priority != p.hooks[j].Priority {
			return p.hooks[i].Priority < p.hooks[j].Priority
		}
		return p.hooks[i].Name < p.hooks[j].Name
	})
	return p.hooks, p.Diags
}

func (p *parser) report(off int, sev diag.Severity, code, format string, args ...any) {
	line, col := 0, 0
	if off >= 0 {
		line, col = p.lines.Position(off)
	}
	p.Add(line, col, sev, code, format, args...)
}

func (p *parser) errorf(off int, code, format string, args ...any) {
	p.report(off, diag.Error, code, format, args...)
}

func (p *parser) warnf(off int, code, format string, args ...any) {
	p.report(off, diag.Warning, code, format, args...)
}

const skeleton = `{"hooks": {"enabled": true, "processes": {"my_hook": {"enabled": true, "command": ["python3", "hook.py"], "intercept": ["before_tool"]}}}}`

func (p *parser) document() {
	if len(bytes.TrimSpace(bytes.TrimPrefix(p.data, []byte("\xEF\xBB\xBF")))) == 0 {
		p.errorf(0, CodeSyntax, "the file is empty; write %s, or delete it", skeleton)
		return
	}
	doc, err := jsondoc.Parse(p.data)
	if err != nil {
		var se *jsondoc.SyntaxError
		if errors.As(err, &se) {
			p.errorf(se.Offset, CodeSyntax, "invalid JSON: %s", se.Msg)
		} else {
			p.errorf(0, CodeSyntax, "invalid JSON: %v", err)
		}
		return
	}
	for _, d := range doc.Duplicates {
		fl, fc := p.lines.Position(d.FirstOffset)
		p.warnf(d.Offset, CodeDuplicateKey, "key %q is repeated (first at line %d, column %d); the last value wins, remove the other one", d.Key, fl, fc)
	}
	root := doc.Root
	if root.Kind != jsondoc.Object {
		p.errorf(root.Offset, CodeType, "the file holds a %s; it must be an object like %s", root.Kind, skeleton)
		return
	}
	p.unknown(root, TopFields, "at the top level")
	hooks := root.Get("hooks")
	if hooks == nil {
		p.errorf(root.Offset, CodeMissingField, `there is no "hooks" object; write %s`, skeleton)
		return
	}
	if !p.kind(hooks, `"hooks"`, jsondoc.Object) {
		return
	}
	p.unknown(hooks, HooksFields, `in "hooks"`)
	enabled := p.boolean(hooks.Get("enabled"), `"hooks.enabled"`)
	if b := hooks.Get("builtins"); b != nil {
		p.warnf(b.KeyOffset, CodeBuiltins, `"builtins" are PicoClaw's in-process Go hooks; Hook Studio cannot run them and ignores them`)
	}
	defs := p.defaults(hooks.Get("defaults"))
	procs := hooks.Get("processes")
	if procs == nil {
		p.warnf(hooks.Offset, CodeMissingField, `"hooks" has no "processes"; add "processes": {"NAME": {...}} or delete the file`)
		return
	}
	if !p.kind(procs, `"hooks.processes"`, jsondoc.Object) {
		return
	}
	// An absent hooks.enabled is true in PicoClaw's code (its default
	// config); seed 003 starts nothing then. The hooks are kept, marked, and
	// the host behaviour decides (Runnable).
	implicit := hooks.Get("enabled") == nil
	switch {
	case implicit && len(procs.Children) > 0:
		p.warnf(hooks.Offset, CodeEnabledDefault, `"hooks" has no "enabled": PicoClaw's code starts these processes (its default is true), seed 003 starts none; Hook Studio follows the folder's host behaviour. Write "enabled": true to be sure`)
	case !implicit && (enabled == nil || !*enabled) && len(procs.Children) > 0:
		p.warnf(hooks.Get("enabled").Offset, CodeDisabled, `"hooks.enabled" is not true, so PicoClaw starts none of these processes; set "enabled": true`)
	}
	for _, m := range procs.Children {
		h, ok := p.process(m, defs)
		if ok && h.Enabled && (implicit || (enabled != nil && *enabled)) {
			h.DefaultEnabled = implicit
			p.hooks = append(p.hooks, h)
		}
	}
}

// unknown warns about members of obj not in known.
func (p *parser) unknown(obj *jsondoc.Node, known []string, where string) {
	for _, m := range obj.Children {
		if slices.Contains(known, m.Key) {
			continue
		}
		if s := diag.Suggest(m.Key, known); s != "" {
			p.warnf(m.KeyOffset, CodeUnknownField, "unknown field %q %s is ignored; did you mean %q?", m.Key, where, s)
		} else {
			p.warnf(m.KeyOffset, CodeUnknownField, "unknown field %q %s is ignored; known fields: %s", m.Key, where, strings.Join(known, ", "))
		}
	}
}

func (p *parser) kind(n *jsondoc.Node, what string, want jsondoc.Kind) bool {
	if n.Kind == want {
		return true
	}
	p.errorf(n.Offset, CodeType, "%s is a %s; it must be a %s", what, n.Kind, want)
	return false
}

func (p *parser) boolean(n *jsondoc.Node, what string) *bool {
	if n == nil {
		return nil
	}
	if !p.kind(n, what, jsondoc.Bool) {
		return nil
	}
	b := n.Bool
	return &b
}

func (p *parser) integer(n *jsondoc.Node, what string) (int, bool) {
	if !p.kind(n, what, jsondoc.Number) {
		return 0, false
	}
	var f float64
	if _, err := fmt.Sscan(string(n.Raw), &f); err != nil || f != math.Trunc(f) || math.Abs(f) > 1<<31 {
		p.errorf(n.Offset, CodeNotInteger, "%s is %s; it must be a whole number", what, n.Raw)
		return 0, false
	}
	return int(f), true
}

func (p *parser) defaults(n *jsondoc.Node) Defaults {
	d := Defaults{Observer: DefaultObserverTimeout, Interceptor: DefaultInterceptorTimeout, Approval: DefaultApprovalTimeout}
	if n == nil || !p.kind(n, `"hooks.defaults"`, jsondoc.Object) {
		return d
	}
	p.unknown(n, DefaultsFields, `in "hooks.defaults"`)
	for _, f := range []struct {
		key string
		dst *time.Duration
	}{{"observer_timeout_ms", &d.Observer}, {"interceptor_timeout_ms", &d.Interceptor}, {"approval_timeout_ms", &d.Approval}} {
		v := n.Get(f.key)
		if v == nil {
			continue
		}
		ms, ok := p.integer(v, fmt.Sprintf("%q", f.key))
		switch {
		case !ok:
		case ms < 0:
			p.errorf(v.Offset, CodeNegativeTimeout, "%q is negative; give milliseconds, or 0 for PicoClaw's default", f.key)
		case ms > 0:
			*f.dst = time.Duration(ms) * time.Millisecond
		}
	}
	return d
}

func (p *parser) process(m *jsondoc.Node, defs Defaults) (Hook, bool) {
	h := Hook{Name: m.Key, Skill: p.skill, File: p.File, Defaults: defs, Dir: p.dir}
	h.Line, _ = p.lines.Position(m.KeyOffset)
	errs := len(p.Diags)
	what := fmt.Sprintf("process %q", m.Key)
	if strings.TrimSpace(m.Key) == "" {
		p.errorf(m.KeyOffset, CodeEmptyName, "a process has an empty name; give it a name, it is sent in hook.hello")
	}
	if !p.kind(m, what, jsondoc.Object) {
		return h, false
	}
	p.unknown(m, ProcessFields, "in "+what)
	if b := p.boolean(m.Get("enabled"), what+` "enabled"`); b != nil {
		h.Enabled = *b
	}
	if m.Get("enabled") == nil {
		p.warnf(m.KeyOffset, CodeDisabled, `%s has no "enabled": true, so PicoClaw does not start it; add "enabled": true`, what)
	}
	if n := m.Get("priority"); n != nil {
		h.Priority, _ = p.integer(n, what+` "priority"`)
	}
	if n := m.Get("transport"); n != nil && p.kind(n, what+` "transport"`, jsondoc.String) && n.Str != "stdio" && n.Str != "" {
		p.errorf(n.Offset, CodeTransport, `%s has transport %q; PicoClaw process hooks speak only "stdio"`, what, n.Str)
	}
	var dirNode *jsondoc.Node
	if n := m.Get("dir"); n != nil && p.kind(n, what+` "dir"`, jsondoc.String) && n.Str != "" {
		dirNode, h.DirSpec = n, n.Str
	}
	if n := m.Get("env"); n != nil && p.kind(n, what+` "env"`, jsondoc.Object) {
		h.Env = map[string]string{}
		for _, e := range n.Children {
			if p.kind(e, fmt.Sprintf("%s env %q", what, e.Key), jsondoc.String) {
				h.Env[e.Key] = e.Str
			}
		}
	}
	if n := m.Get("intercept"); n != nil {
		for _, s := range p.strings(n, what+` "intercept"`) {
			switch {
			case s.Str == "":
			case slices.Contains(Intercepts, s.Str):
				if !slices.Contains(h.Intercept, s.Str) {
					h.Intercept = append(h.Intercept, s.Str)
				}
			default:
				p.errorf(s.Offset, CodeUnknownIntercept, "unknown intercept %q;%s valid: %s", s.Str, diag.DidYouMean(s.Str, Intercepts), strings.Join(Intercepts, ", "))
			}
		}
	}
	if n := m.Get("observe"); n != nil {
		names := ObserveNames()
		for _, s := range p.strings(n, what+` "observe"`) {
			switch {
			case s.Str == "" || slices.Contains(ObserveAll, s.Str):
				h.ObserveAll = true
			case slices.Contains(Kinds, s.Str):
				h.Observe = append(h.Observe, s.Str)
			case LegacyKinds[s.Str] != "":
				h.Observe = append(h.Observe, LegacyKinds[s.Str])
			default:
				p.errorf(s.Offset, CodeUnknownObserve, "unknown observe event %q;%s use a runtime event kind such as agent.tool.exec_start, or \"*\" for all", s.Str, diag.DidYouMean(s.Str, names))
			}
		}
		if h.ObserveAll {
			h.Observe = nil
		}
	}
	p.places(&h, dirNode, p.command(&h, m))
	if len(p.Diags) == errs || !diag.HasErrors(p.Diags[errs:]) {
		if len(h.Modes()) == 0 {
			p.errorf(m.Offset, CodeNoModes, `%s neither observes nor intercepts anything, so PicoClaw refuses it ("no hook modes enabled"); add "intercept": [...] or "observe": [...]`, what)
		}
	}
	h.OK = !diag.HasErrors(p.Diags[errs:])
	return h, h.OK
}

func (p *parser) strings(n *jsondoc.Node, what string) []*jsondoc.Node {
	if !p.kind(n, what, jsondoc.Array) {
		return nil
	}
	var out []*jsondoc.Node
	for _, c := range n.Children {
		if p.kind(c, "an item of "+what, jsondoc.String) {
			out = append(out, c)
		}
	}
	return out
}

// problem is a diagnostic not yet reported: whether it is an error or a
// warning depends on which host behaviour it belongs to (places).
type problem struct {
	off        int
	code, text string
}

// places resolves the hook's working directory as each host behaviour does
// and checks the directory and the command's paths there. What breaks
// under the folder's behaviour is an error (the hook does not run); what
// breaks only under the other is a warning, and a run under the other
// (hookctl --host-behaviour) fails that start with the reason.
func (p *parser) places(h *Hook, dirNode *jsondoc.Node, items []*jsondoc.Node) {
	resolve := func(base string) string {
		if dirNode == nil {
			return p.dir
		}
		if filepath.IsAbs(dirNode.Str) {
			return filepath.Clean(dirNode.Str)
		}
		return filepath.Join(base, filepath.FromSlash(dirNode.Str))
	}
	check := func(mode hostmode.Mode, dir string) (place, []problem) {
		probs := p.dirProblems(mode, dirNode, dir)
		if len(probs) == 0 {
			probs = p.commandProblems(h, items, dir)
		}
		pl := place{dir: dir, rel: filepath.ToSlash(rel(p.root, dir))}
		if len(probs) > 0 {
			pl.problem = probs[0].text
		}
		return pl, probs
	}
	code, codeProbs := check(hostmode.Code, resolve(p.root))
	doc, docProbs := check(hostmode.Document, resolve(p.dir))
	h.codeDir, h.documentDir = code, doc
	cur, curProbs, other, otherProbs := code, codeProbs, doc, docProbs
	if p.mode == hostmode.Document {
		cur, curProbs, other, otherProbs = doc, docProbs, code, codeProbs
	}
	h.Dir = cur.dir
	for i, pr := range curProbs {
		if i == 0 && cur.dir != other.dir && len(otherProbs) == 0 {
			pr.text += fmt.Sprintf(". %s: %s, which works", behaviourName(p.mode.Other()), other.rel)
		}
		p.errorf(pr.off, pr.code, "%s", pr.text)
	}
	if len(curProbs) == 0 && len(otherProbs) > 0 && cur.dir != other.dir {
		pr := otherProbs[0]
		p.warnf(pr.off, pr.code, "%s: %s — %q could not start under that behaviour (under the folder's it starts in %s)",
			behaviourName(p.mode.Other()), pr.text, h.Name, cur.rel)
	}
}

// behaviourName says how a behaviour resolves a dir, for diagnostics.
func behaviourName(m hostmode.Mode) string {
	if m == hostmode.Document {
		return "As seed 003 describes (host_behaviour: document), dir is relative to the config's folder"
	}
	return "Under PicoClaw's code (host_behaviour: code), dir is relative to PicoClaw's working directory, the skills root"
}

// dirProblems checks that dir, the mode's resolution of the config's dir,
// is a folder inside the skills root (symlinks resolved).
func (p *parser) dirProblems(mode hostmode.Mode, n *jsondoc.Node, dir string) []problem {
	if n == nil {
		return nil
	}
	base := "the skills root"
	if mode == hostmode.Document {
		base = filepath.ToSlash(filepath.Dir(p.File))
	}
	if !inside(p.root, dir) {
		return []problem{{n.Offset, CodeEscapingDir, fmt.Sprintf("dir %q leaves the skills root; a process hook runs inside the skills folder, give a folder relative to %s", n.Str, base)}}
	}
	fi, err := p.stat(dir)
	if err != nil || !fi.IsDir() {
		return []problem{{n.Offset, CodeMissingDir, fmt.Sprintf("dir %q is not a folder (%s, relative to %s); create it or fix the path", n.Str, filepath.ToSlash(rel(p.root, dir)), base)}}
	}
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		rr, _ := filepath.EvalSymlinks(p.root)
		if rr != "" && !inside(rr, real) {
			return []problem{{n.Offset, CodeEscapingDir, fmt.Sprintf("dir %q is a link that leaves the skills root; process hooks run inside the skills folder", n.Str)}}
		}
	}
	return nil
}

// command reads the argv; it returns its items, or nil when it is not one
// (reported).
func (p *parser) command(h *Hook, m *jsondoc.Node) []*jsondoc.Node {
	n := m.Get("command")
	what := fmt.Sprintf("process %q", h.Name)
	if n == nil {
		p.errorf(m.Offset, CodeMissingField, `%s has no "command"; add "command": ["python3", "hook.py"]`, what)
		return nil
	}
	if n.Kind == jsondoc.String {
		p.errorf(n.Offset, CodeType, `%s "command" is a string; PicoClaw wants the argv as an array, e.g. ["python3", "hook.py"]`, what)
		return nil
	}
	items := p.strings(n, what+` "command"`)
	if len(items) != len(n.Children) {
		return nil
	}
	if len(items) == 0 || strings.TrimSpace(items[0].Str) == "" {
		p.errorf(n.Offset, CodeEmptyCommand, `%s has an empty "command"; give the program and its arguments, e.g. ["python3", "hook.py"]`, what)
		return nil
	}
	for _, it := range items {
		h.Command = append(h.Command, it.Str)
	}
	return items
}

// commandProblems checks the program and an interpreter's script as they
// are found from dir, the process's working directory.
func (p *parser) commandProblems(h *Hook, items []*jsondoc.Node, dir string) []problem {
	if len(items) == 0 {
		return nil
	}
	what := fmt.Sprintf("process %q", h.Name)
	exe := items[0].Str
	if strings.ContainsRune(exe, '/') || strings.ContainsRune(exe, filepath.Separator) {
		path := exe
		if !filepath.IsAbs(path) {
			path = filepath.Join(dir, filepath.FromSlash(path))
		}
		fi, err := p.stat(path)
		switch {
		case err != nil:
			return []problem{{items[0].Offset, CodeMissingExec, fmt.Sprintf("%s: %q does not exist (looked in %s); fix the path", what, exe, filepath.ToSlash(rel(p.root, dir)))}}
		case fi.IsDir() || fi.Mode()&0o111 == 0:
			return []problem{{items[0].Offset, CodeNotExecutable, fmt.Sprintf("%s: %q is not an executable file; run it through its interpreter, e.g. [\"python3\", %q]", what, exe, exe)}}
		}
	} else if _, err := lookPath(exe, h.Env); err != nil {
		return []problem{{items[0].Offset, CodeMissingExec, fmt.Sprintf("%s: %q is not found on PATH; install it or give its path", what, exe)}}
	}
	// An interpreter's script: missing is a problem.
	for _, it := range items[1:] {
		a := it.Str
		if strings.HasPrefix(a, "-") {
			continue
		}
		if ext := filepath.Ext(a); ext == ".py" || ext == ".js" || ext == ".sh" || ext == ".rb" || ext == ".mjs" || ext == ".ts" {
			path := a
			if !filepath.IsAbs(path) {
				path = filepath.Join(dir, filepath.FromSlash(a))
			}
			if _, err := p.stat(path); err != nil {
				return []problem{{it.Offset, CodeMissingScript, fmt.Sprintf("%s: the script %q does not exist in %s", what, a, filepath.ToSlash(rel(p.root, dir)))}}
			}
		}
		break
	}
	return nil
}

// lookPath finds a program on the PATH the process will get.
func lookPath(exe string, env map[string]string) (string, error) {
	path, ok := env["PATH"]
	if !ok {
		path = os.Getenv("PATH")
	}
	for _, d := range filepath.SplitList(path) {
		if d == "" {
			d = "."
		}
		f := filepath.Join(d, exe)
		if fi, err := os.Stat(f); err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0 {
			return f, nil
		}
	}
	return "", fmt.Errorf("%s: %w", exe, os.ErrNotExist)
}

func inside(root, path string) bool {
	r, err := filepath.Rel(root, path)
	return err == nil && (r == "." || filepath.IsLocal(r))
}

func rel(root, path string) string {
	if r, err := filepath.Rel(root, path); err == nil {
		return r
	}
	return path
}
