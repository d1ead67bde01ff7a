package convert

import (
	"regexp"
	"slices"
)

// toolRow is one tool and how each agent's hooks name it ("" the agent
// has no such tool its hooks see), in the order of agents. The first
// column, Claude Code's name, is the neutral name.
type toolRow [5]string

// toolTable maps the tools hooks match on. Sources: toolSources.
var toolTable = []toolRow{
	// claude-code  codex          gemini-cli           copilot-cli  qwen-code
	{"Bash", "Bash", "run_shell_command", "bash", "run_shell_command"},
	{"Edit", "apply_patch", "replace", "edit", "edit"},
	{"Write", "apply_patch", "write_file", "create", "write_file"},
	{"Read", "", "read_file", "view", "read_file"},
	{"Grep", "", "grep_search", "grep", "grep_search"},
	{"Glob", "", "glob", "glob", "glob"},
	{"LS", "", "list_directory", "", "list_directory"},
	{"WebFetch", "", "web_fetch", "web_fetch", "web_fetch"},
	{"WebSearch", "", "google_web_search", "", "web_search"},
	{"TodoWrite", "", "write_todos", "", "todo_write"},
	{"NotebookEdit", "", "", "", "notebook_edit"},
	{"Agent", "spawn_agent", "", "", "agent"},
	{"Task", "spawn_agent", "", "", "agent"},
	{"Skill", "", "activate_skill", "", ""},
}

// toolSources says where each agent's column was read.
var toolSources = map[string]string{
	ClaudeCode: "Claude Code's tool names (docs/claude-code-hooks.md)",
	Codex: "openai/codex HookToolName: shell tools are \"Bash\" to hooks, apply_patch matches \"Edit\" and \"Write\" as aliases, " +
		"spawn_agent \"Agent\"; Codex has no file-reading or search tool of its own (it reads through the shell)",
	GeminiCLI:  "google-gemini/gemini-cli packages/core/src/tools/definitions/base-declarations.ts (*_TOOL_NAME)",
	CopilotCLI: "docs/agents/copilot-cli.md (its shell tool is bash) and Copilot CLI 1.0.102's tool list (bash, view, edit, create, glob, grep, web_fetch)",
	QwenCode:   "Qwen Code 0.24.4 TOOL_NAME_ALIASES (packages/core, the canonical names)",
}

// toolName is agent's name for a neutral tool ("" none).
func toolName(agent, tool string) string {
	c := column(agent)
	if c < 0 {
		return ""
	}
	for _, r := range toolTable {
		if r[0] == tool {
			return r[c]
		}
	}
	return ""
}

// toolsOf are the neutral tools agent's name stands for (apply_patch:
// Edit and Write), nil when no row knows it.
func toolsOf(agent, name string) []string {
	c := column(agent)
	var out []string
	for _, r := range toolTable {
		if c >= 0 && r[c] == name && !slices.Contains(out, r[0]) {
			out = append(out, r[0])
		}
	}
	if len(out) > 1 { // Agent and Task are one tool to the agents that name it
		out = slices.DeleteFunc(out, func(t string) bool { return t == "Task" && slices.Contains(out, "Agent") })
	}
	return out
}

// toolsMatching are agent's tools, in neutral names, that re matches by
// test, and whether it matches any tool some other name (an MCP tool)
// might have.
func toolsMatching(agent string, test func(string) bool) []string {
	c := column(agent)
	var out []string
	for _, r := range toolTable {
		if c >= 0 && r[c] != "" && test(r[c]) {
			for _, t := range toolsOf(agent, r[c]) {
				if !slices.Contains(out, t) {
					out = append(out, t)
				}
			}
		}
	}
	return out
}

// plainNames is a matcher of bare names joined by | (or ,).
var plainNames = regexp.MustCompile(`^[A-Za-z0-9_\- ,|]+$`)
