package convert

import (
	"fmt"
	"math"
	"slices"
	"strings"
)

// dialect is what writing a hook set for one agent needs to know of it,
// each fact with where it was read.
type dialect struct {
	Agent string
	Title string
	// Runs are the handler types the agent runs from its hook files;
	// RunsWhy says what it does with another one.
	Runs    []string
	RunsWhy string
	// ToolEvents are the moments whose matcher filters tool names;
	// ValueEvents those whose matcher filters something else (a session's
	// source, a compaction's trigger). Elsewhere a matcher is not read.
	ToolEvents, ValueEvents []Event
	// OneValue: a value matcher is compared with one value exactly (Gemini
	// CLI), so several values are a group each.
	OneValue bool
	// Fields are the optional handler fields the agent reads.
	Fields []string
	// Timeout is the agent's default for a handler type, in seconds.
	Timeout func(typ string) float64
	// Vars are the environment variables the agent sets for a hook; the
	// project folder's first.
	Vars []string
	// Source is where these facts were read.
	Source string
}

// optional handler fields, by their neutral names
const (
	fieldArgs        = "args"
	fieldName        = "name"
	fieldDescription = "description"
	fieldEnv         = "env"
	fieldCwd         = "cwd"
	fieldSequential  = "sequential"
	fieldPowerShell  = "powershell"
	fieldModel       = "model"
	fieldIf          = "if"
)

var dialects = []dialect{
	{
		Agent: ClaudeCode, Title: "Claude Code",
		Runs:       []string{TypeCommand, TypePrompt, TypeHTTP, TypeAgent, TypeMCPTool},
		ToolEvents: []Event{PreTool, PostTool, PostToolFailure, PermissionRequest, PermissionDenied},
		ValueEvents: []Event{SessionStart, PreCompact, PostCompact, SessionEnd, Notification, SubagentStart, SubagentStop,
			StopFailure, InstructionsLoaded, "file_changed", "config_change", "elicitation", "elicitation_result"},
		Fields: []string{fieldArgs, fieldModel, fieldIf},
		Timeout: func(typ string) float64 {
			switch typ {
			case TypePrompt, TypeHTTP:
				return 30
			case TypeAgent:
				return 60
			}
			return 600
		},
		Vars:   []string{"CLAUDE_PROJECT_DIR", "CLAUDE_PLUGIN_ROOT", "CLAUDE_ENV_FILE", "CLAUDECODE"},
		Source: "docs/claude-code-hooks.md",
	},
	{
		Agent: Codex, Title: "Codex",
		Runs:       []string{TypeCommand},
		RunsWhy:    "Codex runs only command hooks (it skips prompt and agent hooks: \"not supported yet\")",
		ToolEvents: []Event{PreTool, PermissionRequest, PostTool}, ValueEvents: []Event{SessionStart, SubagentStart, SubagentStop},
		Timeout: func(string) float64 { return 600 },
		Source:  "docs/agents/codex.md; openai/codex codex-rs/hooks (events/common.rs, engine/discovery.rs)",
	},
	{
		Agent: GeminiCLI, Title: "Gemini CLI",
		Runs:       []string{TypeCommand},
		RunsWhy:    "Gemini CLI runs only command hooks from its settings",
		ToolEvents: []Event{PreTool, PostTool}, ValueEvents: []Event{SessionStart, SessionEnd, PreCompact}, OneValue: true,
		Fields:  []string{fieldName, fieldDescription, fieldEnv, fieldSequential},
		Timeout: func(string) float64 { return 60 },
		Vars:    []string{"GEMINI_PROJECT_DIR", "CLAUDE_PROJECT_DIR", "GEMINI_CWD"},
		Source:  "docs/agents/gemini-cli.md; google-gemini/gemini-cli packages/core/src/hooks (hookPlanner.ts, hookRunner.ts, types.ts)",
	},
	{
		Agent: CopilotCLI, Title: "Copilot CLI",
		Runs:       []string{TypeCommand},
		RunsWhy:    "Copilot CLI runs command hooks (its prompt hook only types text at a new interactive session's start)",
		ToolEvents: []Event{PreTool, PostTool, PostToolFailure, PermissionRequest}, ValueEvents: []Event{Notification, PreCompact, SubagentStart},
		Fields:  []string{fieldEnv, fieldCwd, fieldPowerShell},
		Timeout: func(string) float64 { return 30 },
		Source:  "docs/agents/copilot-cli.md; Copilot CLI 1.0.102 changelog (matchers: a regular expression over the whole tool name)",
	},
	{
		Agent: QwenCode, Title: "Qwen Code",
		Runs:       []string{TypeCommand, TypeHTTP, TypePrompt},
		RunsWhy:    "Qwen Code runs command, http and prompt hooks",
		ToolEvents: []Event{PreTool, PostTool, PostToolFailure, PermissionRequest, PermissionDenied},
		ValueEvents: []Event{SessionStart, PreCompact, PostCompact, SessionEnd, Notification, SubagentStart, SubagentStop,
			StopFailure, InstructionsLoaded, PromptExpansion},
		Fields:  []string{fieldName, fieldDescription, fieldEnv, fieldSequential, fieldModel},
		Timeout: func(string) float64 { return 60 },
		Vars:    []string{"QWEN_PROJECT_DIR", "CLAUDE_PROJECT_DIR", "GEMINI_PROJECT_DIR"},
		Source:  "docs/agents/qwen-code.md; Qwen Code 0.24.4 packages/core/src/hooks (types.ts, hook-matcher.ts, hook-timeout.ts)",
	},
}

// Targets lists the agents a hook set can be written for.
func Targets() []string {
	out := make([]string, len(dialects))
	for i, d := range dialects {
		out[i] = d.Agent
	}
	return out
}

// Title is how messages name an agent ("Gemini CLI").
func Title(agent string) string {
	if d := dialectOf(agent); d != nil {
		return d.Title
	}
	return agent
}

// Titles are agents' names for messages.
func Titles(agents []string) []string {
	out := make([]string, len(agents))
	for i, a := range agents {
		out[i] = Title(a)
	}
	return out
}

func dialectOf(agent string) *dialect {
	i := slices.IndexFunc(dialects, func(d dialect) bool { return d.Agent == agent })
	if i < 0 {
		return nil
	}
	return &dialects[i]
}

func (d *dialect) runs(typ string) bool    { return slices.Contains(d.Runs, typ) }
func (d *dialect) reads(field string) bool { return slices.Contains(d.Fields, field) }

// matcherOn says what a matcher filters on at e: "tool", "value" or "".
func (d *dialect) matcherOn(e Event) string {
	switch {
	case slices.Contains(d.ToolEvents, e):
		return "tool"
	case slices.Contains(d.ValueEvents, e):
		return "value"
	}
	return ""
}

// toolMatcher writes a matcher of the agent's tool names.
func (d *dialect) toolMatcher(names []string) string {
	switch d.Agent {
	case GeminiCLI: // an unanchored regular expression: anchored, it means these names only
		if len(names) == 1 {
			return "^" + names[0] + "$"
		}
		return "^(" + strings.Join(names, "|") + ")$"
	}
	return strings.Join(names, "|")
}

// timeoutValue is a timeout in seconds as the agent's file writes it, and
// whether it had to be rounded.
func (d *dialect) timeoutValue(sec float64) (v float64, rounded bool) {
	switch d.Agent {
	case GeminiCLI:
		return math.Round(sec * 1000), false
	case Codex, CopilotCLI:
		c := math.Ceil(sec)
		return c, c != sec
	case QwenCode:
		if sec >= 1000 { // Qwen Code reads 1000 or more as milliseconds
			return sec * 1000, false
		}
	}
	return sec, false
}

// timeoutKey is the field a handler's timeout is written in.
func (d *dialect) timeoutKey() string {
	if d.Agent == CopilotCLI {
		return "timeoutSec"
	}
	return "timeout"
}

// unit names the unit of its timeouts, for messages.
func (d *dialect) unit() string {
	if d.Agent == GeminiCLI {
		return "ms"
	}
	return "s"
}

func fmtSeconds(s float64) string { return fmt.Sprintf("%gs", s) }
