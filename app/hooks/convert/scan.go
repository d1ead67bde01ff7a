package convert

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"
)

// stdinTable names the keys of a hook's input for each agent ("" the
// agent does not send it), in the order of agents; the first column is
// the neutral name. Sources: docs/agents/*.md ("stdin (seen)").
var stdinTable = [][5]string{
	// claude-code             codex                     gemini-cli                copilot-cli       qwen-code
	{"tool_name", "tool_name", "tool_name", "toolName", "tool_name"},
	{"tool_input", "tool_input", "tool_input", "toolArgs", "tool_input"},
	{"tool_response", "tool_response", "tool_response", "toolResult", "tool_response"},
	{"transcript_path", "transcript_path", "transcript_path", "transcriptPath", "transcript_path"},
	{"session_id", "session_id", "session_id", "sessionId", "session_id"},
	{"hook_event_name", "hook_event_name", "hook_event_name", "", "hook_event_name"},
	{"last_assistant_message", "last_assistant_message", "prompt_response", "", "last_assistant_message"},
	{"tool_use_id", "tool_use_id", "", "", "tool_use_id"},
	{"permission_mode", "permission_mode", "", "", "permission_mode"},
}

// varsOf are the variables an agent sets that a command or script may use.
var varsOf = map[string][]string{
	ClaudeCode: {"CLAUDE_PROJECT_DIR", "CLAUDE_PLUGIN_ROOT", "CLAUDE_ENV_FILE", "CLAUDE_CODE_SESSION_ID", "CLAUDECODE"},
	Codex:      {},
	GeminiCLI:  {"GEMINI_PROJECT_DIR", "GEMINI_CWD", "CLAUDE_PROJECT_DIR"},
	CopilotCLI: {},
	QwenCode:   {"QWEN_PROJECT_DIR", "CLAUDE_PROJECT_DIR", "GEMINI_PROJECT_DIR"},
}

// text is a script or command line to scan, and where its lines are.
type text struct {
	body string
	// at turns a line and column of body into the source position; a
	// command line's are all its handler's.
	at func(line, col int) Pos
}

// scan reports what h's scripts and command do that the target reads
// otherwise: JSON answers, input keys, tool names, variables.
func (c *converter) scan(h *Hook, native, cmd string) {
	if h.Type != TypeCommand || c.set.From == c.d.Agent {
		return
	}
	texts := []text{{body: cmd, at: func(int, int) Pos { return h.Pos }}}
	for _, s := range h.Scripts {
		data, _, err := readScript(c.set.Root, s.Rel)
		if err != nil || !utf8.Valid(data) {
			continue
		}
		rel := s.Rel
		texts = append(texts, text{body: uncommented(string(data)), at: func(l, col int) Pos { return Pos{File: rel, Line: l, Column: col} }})
	}
	all := ""
	for _, t := range texts {
		all += t.body + "\n"
	}
	for _, t := range texts {
		if c.ad != nil {
			c.scanAdapted(h, native, t)
		} else {
			c.scanOutput(h, native, t, all)
			c.scanInput(h, t)
			c.scanTools(h, t)
		}
		c.scanTranscript(t)
		c.scanVars(h, t)
	}
}

// scanAdapted: what a hook run through the adapter still does not get or
// give there — an input key the target never sends, a context the target
// never shows the model.
func (c *converter) scanAdapted(h *Hook, native string, t text) {
	for _, k := range slices.Sorted(maps.Keys(c.ad.Lacks)) {
		if c.ad.sends(k, h.Event) {
			continue
		}
		for _, p := range find(t, word(k)) {
			c.warn(p, CodeStdinKey, "%s sends no %s in a %s hook's input, not even through the adapter: the script reads it empty", c.d.Title, k, native)
		}
	}
	if slices.Contains(c.ad.NoContext, h.Event) {
		for _, p := range find(t, reContext) {
			c.warn(p, CodeOutputField, "%s never shows a %s hook's additionalContext to the model (seen, docs/agents/%s.md)", c.d.Title, native, docName(c.d.Agent))
		}
	}
}

var reTranscript = word("transcript_path")

// scanTranscript: a script that reads the transcript reads the target's,
// in its own format.
func (c *converter) scanTranscript(t text) {
	for _, p := range find(t, reTranscript) {
		c.warn(p, CodeStdinKey, "transcript_path is %s's transcript, in its own format: what the script looks for in Claude Code's lines may be written otherwise there", c.d.Title)
	}
}

// uncommented blanks a script's comment lines, keeping its line numbers:
// a comment that names a field is no answer.
func uncommented(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		if strings.HasPrefix(strings.TrimSpace(l), "#") {
			lines[i] = ""
		}
	}
	return strings.Join(lines, "\n")
}

// find is each place re matches in t, as a source position.
func find(t text, re *regexp.Regexp) []Pos {
	var out []Pos
	for i, line := range strings.Split(t.body, "\n") {
		for _, m := range re.FindAllStringIndex(line, -1) {
			out = append(out, t.at(i+1, utf8.RuneCountInString(line[:m[0]])+1))
		}
	}
	return out
}

func word(w string) *regexp.Regexp { return regexp.MustCompile(`\b` + regexp.QuoteMeta(w) + `\b`) }

var (
	reNested     = word("hookSpecificOutput")
	reContext    = word("additionalContext")
	reDecision   = word("permissionDecision")
	reUpdated    = word("updatedInput")
	reModified   = word("modifiedArgs")
	reExit2      = regexp.MustCompile(`\bexit\s+2\b`)
	reJSONAnswer = regexp.MustCompile(`\b(hookSpecificOutput|additionalContext|decision|permissionDecision|systemMessage|continue)\b`)
	rePrints     = regexp.MustCompile(`\b(echo|printf|cat)\b`)
)

// scanOutput: the JSON answers the target reads elsewhere or not at all.
func (c *converter) scanOutput(h *Hook, native string, t text, all string) {
	to, title := c.d.Agent, c.d.Title
	nested := reNested.MatchString(all)
	if to == CopilotCLI {
		for _, p := range find(t, reNested) {
			c.warn(p, CodeOutputField, "Copilot CLI reads a hook's JSON answer only at its top level (additionalContext, permissionDecision, decision): nothing inside hookSpecificOutput reaches it — print {\"additionalContext\": …} (seen, docs/agents/copilot-cli.md)")
		}
		for _, p := range find(t, reUpdated) {
			c.warn(p, CodeOutputField, "Copilot CLI reads a changed tool input from modifiedArgs, not updatedInput (docs/agents/copilot-cli.md)")
		}
		if h.Event == PreTool {
			for _, p := range find(t, reExit2) {
				c.warn(p, CodeOutputField, "Copilot CLI denies the call on exit 2, but its model reads only \"Denied by preToolUse hook: hook exited with code 2\", not the hook's stderr — print {\"permissionDecision\": \"deny\", \"permissionDecisionReason\": …} to give it the reason (seen, docs/agents/copilot-cli.md)")
			}
		}
	} else if !nested {
		for _, p := range find(t, reContext) {
			c.warn(p, CodeOutputField, "%s reads additionalContext only inside hookSpecificOutput: written at the top level, it never reaches the model — print {\"hookSpecificOutput\": {\"hookEventName\": %q, \"additionalContext\": …}}", title, native)
		}
	}
	if to == GeminiCLI {
		for _, p := range find(t, reDecision) {
			c.warn(p, CodeOutputField, "Gemini CLI does not read permissionDecision, so this answer does not block there — print {\"decision\": \"deny\", \"reason\": …} (google-gemini/gemini-cli packages/core/src/hooks/types.ts)")
		}
		for _, p := range find(t, reUpdated) {
			c.warn(p, CodeOutputField, "Gemini CLI reads a changed tool input from hookSpecificOutput.tool_input, not updatedInput (packages/core/src/hooks/types.ts)")
		}
	}
	if to != CopilotCLI {
		for _, p := range find(t, reModified) {
			c.warn(p, CodeOutputField, "%s reads a changed tool input from hookSpecificOutput.updatedInput, not modifiedArgs", title)
		}
	}
	if h.Event == PreTool && (to == GeminiCLI || to == QwenCode) {
		for _, p := range find(t, reContext) {
			c.warn(p, CodeOutputField, "%s never shows a %s hook's additionalContext to the model (seen, docs/agents/%s.md)", title, native, docName(to))
		}
	}
	if (to == GeminiCLI || to == CopilotCLI) && (h.Event == SessionStart || h.Event == PromptSubmit) &&
		!reJSONAnswer.MatchString(all) && rePrints.MatchString(t.body) {
		for _, p := range find(t, rePrints)[:1] {
			c.warn(p, CodeOutputField, "%s never gives a hook's plain stdout to the model (it only shows it to the user): if this hook prints context, print it as JSON additionalContext (docs/agents/%s.md)", title, docName(to))
		}
	}
}

func docName(agent string) string { return agent }

// scanInput: input keys the script reads that the target names otherwise.
func (c *converter) scanInput(h *Hook, t text) {
	f, to := column(c.set.From), column(c.d.Agent)
	for _, row := range stdinTable {
		key, theirs := row[f], row[to]
		if key == "" || key == theirs {
			continue
		}
		for _, p := range find(t, word(key)) {
			if theirs == "" {
				c.warn(p, CodeStdinKey, "%s sends no %s in a hook's input", c.d.Title, key)
			} else {
				c.warn(p, CodeStdinKey, "%s sends %s as %s in a hook's input", c.d.Title, key, theirs)
			}
		}
	}
}

// scanTools: tool names the script compares that the target names
// otherwise. Without an adapter to name them back, the hook would not do
// there what it does: an error.
func (c *converter) scanTools(h *Hook, t text) {
	for _, from := range slices.Sorted(maps.Keys(c.res.Renamed)) {
		to := c.res.Renamed[from]
		re := regexp.MustCompile(`["']` + regexp.QuoteMeta(from) + `["']`)
		for _, p := range find(t, re) {
			c.fail(p, CodeToolName, "%s names the tool %q %q, so a comparison with %q never holds there and this hook would not do what it does in %s: compare with both names", c.d.Title, from, to, from, Title(c.set.From))
		}
	}
}

// scanVars: variables of the source agent the target does not set (the
// adapter sets the project's, and in a package its root).
func (c *converter) scanVars(h *Hook, t text) {
	mine := varsOf[c.d.Agent]
	if c.ad != nil {
		mine = append(slices.Clone(mine), "CLAUDE_PROJECT_DIR")
		if c.lay.Manifest != "" {
			mine = append(mine, "CLAUDE_PLUGIN_ROOT")
		}
	}
	for _, v := range varsOf[c.set.From] {
		if slices.Contains(mine, v) {
			continue
		}
		re := regexp.MustCompile(`\$\{?` + v + `\b`)
		for _, p := range find(t, re) {
			c.warn(p, CodeEnv, "%s does not set $%s: it is empty there%s", c.d.Title, v, projectDirHint(c.d.Agent))
		}
	}
}

func projectDirHint(agent string) string {
	if vs := varsOf[agent]; len(vs) > 0 {
		return fmt.Sprintf(" (its hooks have $%s)", vs[0])
	}
	return " (its hooks run in the project folder)"
}
