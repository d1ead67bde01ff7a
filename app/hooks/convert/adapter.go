package convert

import (
	_ "embed"
	"fmt"
	"maps"
	"path"
	"regexp"
	"slices"
	"strings"
)

// AdapterName is the file, in the target's script folder, that runs each
// converted Claude Code command hook under the target: it gives the hook
// Claude Code's input and gives its answer back as the target reads it.
const AdapterName = "run-claude-hook.sh"

var (
	//go:embed adapter.sh
	adapterShell string
	//go:embed adapter.awk
	adapterAwk string
)

// adapterSpec is how a Claude Code hook's input and answer map to one
// target's, each fact with where it was read or seen. The adapter is POSIX
// sh, awk and mktemp: what every machine the target runs hooks on has (a
// Copilot CLI installed as a native binary has no node).
type adapterSpec struct {
	// SourceNames are the moments whose event the target also runs under
	// Claude Code's own name, in Claude Code's dialect (Copilot CLI's
	// PascalCase events): written so, they get Claude Code's keys.
	SourceNames []Event
	// ProjectVar is the target's variable of the project folder, which
	// the hook gets as CLAUDE_PROJECT_DIR ("" the folder the hook runs in).
	ProjectVar string
	// Keys renames input keys, the target's to Claude Code's; Camel turns
	// the target's other camelCase keys into snake_case (toolName:
	// tool_name).
	Keys  map[string]string
	Camel bool
	// Values renames a key's values (key → the target's value → Claude
	// Code's).
	Values map[string]map[string]string
	// ToolKeys renames a tool's input keys, by Claude Code's tool name:
	// the target's key → Claude Code's (and back for updatedInput).
	ToolKeys map[string]map[string]string
	// Context is where the target reads additionalContext: "nested"
	// (hookSpecificOutput) or "top"; Permission where it reads a tool
	// call's permission: "nested", "top" (permissionDecision at the top
	// level) or "decision" (decision/reason); Updated the member of
	// hookSpecificOutput a changed tool input goes in.
	Context, Permission, Updated string
	// PostBlock: a PostToolUse block's reason goes to the model as context
	// (the target would hide the tool's output instead).
	PostBlock bool
	// Plain are the moments whose plain stdout Claude Code gives the model
	// and the target does not: printed as context.
	Plain []Event
	// Exit2 is what the target is told for a hook that exits 2 (Claude
	// Code's blocking error) at a moment: "deny" the tool call, "block"
	// the prompt or the stop, "context" for the model, "warn" (Claude Code
	// shows the stderr to the user only: as Fail); a moment not listed
	// gets exit 2.
	Exit2 map[Event]string
	// NoContext are the moments whose additionalContext the target never
	// shows the model.
	NoContext []Event
	// Fail is the exit code that tells the target what any code but 0
	// and 2 tells Claude Code: a non-blocking error, its stderr for the
	// user (Gemini CLI denies the call on any other code, Copilot CLI on
	// any code but 0 at preToolUse).
	Fail int
	// Lacks are input keys Claude Code sends that the target does not send
	// even mapped, each with the moments it does send it at (nil: none).
	Lacks map[string][]Event
	// Source says where these were read or seen.
	Source string
}

var adapters = map[string]*adapterSpec{
	GeminiCLI: {
		ProjectVar: "GEMINI_PROJECT_DIR",
		Keys:       map[string]string{"prompt_response": "last_assistant_message"},
		ToolKeys: map[string]map[string]string{
			"Bash": {"is_background": "run_in_background"},
			"Glob": {"dir_path": "path"}, "Grep": {"dir_path": "path"}, "LS": {"dir_path": "path"},
		},
		Context: "nested", Permission: "decision", Updated: "tool_input", PostBlock: true,
		Plain: []Event{SessionStart, PromptSubmit}, Fail: 1,
		Exit2: map[Event]string{PreTool: "deny", PostTool: "context", PromptSubmit: "block", Stop: "block",
			SessionStart: "warn", SessionEnd: "warn", Notification: "warn", PreCompact: "warn"},
		NoContext: []Event{PreTool},
		Lacks:     map[string][]Event{"tool_use_id": nil, "permission_mode": nil},
		Source: "docs/agents/gemini-cli.md (seen, Gemini CLI 0.61); google-gemini/gemini-cli packages/core/src/hooks " +
			"(hookRunner.ts: plain stdout is a message to the user, exit 2 a deny; types.ts: decision, reason, " +
			"hookSpecificOutput.additionalContext and tool_input); its tools' parameters (tools/definitions)",
	},
	CopilotCLI: {
		SourceNames: []Event{SessionStart, PromptSubmit, PreTool, PostTool, PostToolFailure, Stop, SessionEnd},
		Keys:        map[string]string{"tool_result": "tool_response", "toolArgs": "tool_input", "toolResult": "tool_response"},
		Camel:       true,
		Values:      map[string]map[string]string{"source": {"new": "startup"}},
		ToolKeys: map[string]map[string]string{
			"Read":  {"path": "file_path"},
			"Write": {"path": "file_path", "file_text": "content"},
			"Edit":  {"path": "file_path", "old_str": "old_string", "new_str": "new_string"},
		},
		Context: "top", Permission: "top", Updated: "updatedInput", PostBlock: true,
		Plain: []Event{SessionStart, PromptSubmit},
		Exit2: map[Event]string{PreTool: "deny", PostTool: "context", PostToolFailure: "context", PromptSubmit: "block",
			Stop: "block", SubagentStop: "block", SessionStart: "warn", SessionEnd: "warn", Notification: "warn", PreCompact: "warn"},
		Lacks: map[string][]Event{"tool_use_id": nil, "permission_mode": nil, "last_assistant_message": nil,
			"transcript_path": {Stop, PreCompact}},
		Source: "Copilot CLI 1.0.102 (seen: its PascalCase events send Claude Code's keys and tool names — Bash, Read, " +
			"Edit, Write — with its own tool input keys; it reads additionalContext at the top level only, " +
			"permissionDecision nested or at the top, decision block; exit 2 denies a tool call without its stderr " +
			"and blocks neither a prompt nor a stop; a matcher matches either name)",
	},
	QwenCode: {
		ProjectVar: "QWEN_PROJECT_DIR",
		ToolKeys:   map[string]map[string]string{"Bash": {"is_background": "run_in_background"}},
		Context:    "nested", Permission: "nested", Updated: "updatedInput", Fail: 1,
		Exit2:     map[Event]string{PostTool: "context"},
		NoContext: []Event{PreTool},
		Source: "docs/agents/qwen-code.md (seen, Qwen Code 0.24.4: Claude Code's keys and answers; a PostToolUse " +
			"exit 2's stderr never reaches the model); its shell tool's parameters",
	},
}

// adapterFor is the adapter that runs from's hooks under to (nil: they run
// as they are).
func adapterFor(from, to string) *adapterSpec {
	if from != ClaudeCode {
		return nil
	}
	return adapters[to]
}

// eventFor is the event a hook of moment e is written under.
func (a *adapterSpec) eventFor(to string, e Event) string {
	if a != nil && slices.Contains(a.SourceNames, e) {
		return eventName(ClaudeCode, e)
	}
	return eventName(to, e)
}

// sends says whether the target, through the adapter, gives a hook at
// moment e the Claude Code input key k.
func (a *adapterSpec) sends(k string, e Event) bool {
	at, lacks := a.Lacks[k]
	return !lacks || slices.Contains(at, e)
}

// identifier is what the adapter's tables hold: names, never quotes.
var identifier = regexp.MustCompile(`^[A-Za-z0-9_]+$`)

// renderAdapter is the adapter for agent to, written into the folder
// scripts of a project, or of a package (pkg: its root is the output's).
func renderAdapter(to string, pkg bool, scripts string) ([]byte, error) {
	a := adapters[to]
	var t strings.Builder
	var bad []string
	set := func(table string, v string, keys ...string) {
		for _, s := range append(keys, v) {
			if !identifier.MatchString(s) {
				bad = append(bad, s)
			}
		}
		fmt.Fprintf(&t, "\t%s[\"%s\"] = \"%s\"\n", table, strings.Join(keys, `", "`), v)
	}
	t.WriteString("function tables() {\n")
	fmt.Fprintf(&t, "\tcontext = \"%s\"; permission = \"%s\"; updated = \"%s\"\n", a.Context, a.Permission, a.Updated)
	fmt.Fprintf(&t, "\tcamel = %d; postblock = %d; fail = %d\n", b2i(a.Camel), b2i(a.PostBlock), a.Fail)
	f, c := column(ClaudeCode), column(to)
	for _, r := range toolTable {
		if r[c] != "" && r[c] != r[f] && toolsOf(to, r[c])[0] == r[f] {
			set("toolname", r[f], r[c])
		}
	}
	for _, tool := range slices.Sorted(maps.Keys(a.ToolKeys)) {
		for _, k := range slices.Sorted(maps.Keys(a.ToolKeys[tool])) {
			set("toolkey", a.ToolKeys[tool][k], tool, k)
		}
	}
	for _, k := range slices.Sorted(maps.Keys(a.Keys)) {
		set("key", a.Keys[k], k)
	}
	for _, k := range slices.Sorted(maps.Keys(a.Values)) {
		for _, v := range slices.Sorted(maps.Keys(a.Values[k])) {
			set("value", a.Values[k][v], k, v)
		}
	}
	for _, r := range eventTable {
		if src := r.Names[f]; src != "" && a.eventFor(to, r.Event) != "" {
			set("eventname", a.eventFor(to, r.Event), src)
		}
	}
	for _, e := range a.Plain {
		set("plain", "1", eventName(ClaudeCode, e))
	}
	for _, r := range eventTable {
		if w, ok := a.Exit2[r.Event]; ok {
			set("exit2", w, r.Names[f])
		}
	}
	t.WriteString("}\n")
	if len(bad) > 0 {
		return nil, fmt.Errorf("adapter for %s: not a name: %q", to, bad)
	}
	env := "CLAUDE_PROJECT_DIR=$PWD"
	if a.ProjectVar != "" {
		env = "CLAUDE_PROJECT_DIR=${" + a.ProjectVar + ":-$PWD}"
	}
	if pkg {
		// the package's root, from the adapter's folder in it
		up := strings.Repeat("/..", strings.Count(scripts, "/")+1)
		env += "\nCLAUDE_PLUGIN_ROOT=$(CDPATH= cd -- \"$(dirname -- \"$0\")" + up + "\" && pwd)\nexport CLAUDE_PLUGIN_ROOT"
	}
	r := strings.NewReplacer("@TITLE@", Title(to), "@ENV@", env, "@AWK@", adapterAwk+"\n"+t.String())
	return []byte(r.Replace(adapterShell)), nil
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// wrap is a command line run through the adapter at path: the hook's
// line, its scripts named under Claude Code's variables, given as one word.
func (c *converter) wrap(h *Hook, line string) string {
	if c.adapterPath == "" {
		c.adapterPath = path.Join(c.lay.Scripts, AdapterName)
		for slices.ContainsFunc(c.res.Files, func(f File) bool { return f.Path == c.adapterPath }) || slices.Contains(slices.Collect(maps.Values(c.places)), c.adapterPath) {
			c.adapterPath = strings.TrimSuffix(c.adapterPath, ".sh") + "-1.sh"
		}
		data, err := renderAdapter(c.d.Agent, c.lay.Manifest != "", c.lay.Scripts)
		if err != nil {
			c.err = err
			return line
		}
		c.res.Files = append(c.res.Files, File{Path: c.adapterPath, Role: "adapter", Data: data, Mode: 0o755})
	}
	return "sh " + c.lay.Ref(c.adapterPath) + " " + h.Native + " " + quoteArg(line)
}

// claudeRef names a script copied to rel (in the output folder: a
// package's root) as a Claude Code hook's line names it, under the
// variable the adapter sets. Braced, no agent rewrites it in the line
// (Gemini CLI replaces $CLAUDE_PROJECT_DIR in a command's text).
func claudeRef(pkg bool, rel string) string {
	if pkg {
		return `"${CLAUDE_PLUGIN_ROOT}"/` + rel
	}
	return `"${CLAUDE_PROJECT_DIR}"/` + rel
}
