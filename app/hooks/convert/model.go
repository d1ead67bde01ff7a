// Package convert writes one agent's hook set in another agent's format —
// Claude Code, Codex CLI, Gemini CLI, Copilot CLI, Qwen Code — through one
// neutral model of a hook set: a source is read through its hook system's
// parsed configuration into a Set (events, matchers and tools named in no
// agent's dialect), and a Set is written in a target's files. What cannot
// carry over (an event the target lacks, an `if` rule, a handler type it
// does not run, a matcher it reads otherwise, a JSON field of a script the
// target does not read) is a diagnostic at the source's file:line:col.
// Each agent's events and tools are one row of a table (events.go,
// tools.go), each entry stated with where it was read; docs/convert.md is
// the same tables in prose.
package convert

import (
	"fmt"
	"path"
	"slices"
	"strings"
)

// Agent names, as rendering profiles and hook systems name them.
const (
	ClaudeCode = "claude-code"
	Codex      = "codex"
	GeminiCLI  = "gemini-cli"
	CopilotCLI = "copilot-cli"
	QwenCode   = "qwen-code"
)

// Handler types across the agents.
const (
	TypeCommand = "command"
	TypePrompt  = "prompt"
	TypeHTTP    = "http"
	TypeAgent   = "agent"
	TypeMCPTool = "mcp_tool"
)

// Event is a moment of an agent's loop, named in no agent's dialect.
type Event string

// Set is a hook set in no agent's dialect.
type Set struct {
	// From is the agent whose files it was read from.
	From string
	// Root is the folder read (absolute).
	Root string
	// Package says the source was a package of hooks — a Claude Code
	// plugin, a Gemini CLI extension, a Copilot CLI plugin — rather than a
	// project's settings: a target writes its own kind of package.
	Package bool
	// Name is the package's or the folder's name (Copilot CLI's hook file
	// is named for it).
	Name  string
	Hooks []Hook
}

// Hook is one handler with its group's event and matcher.
type Hook struct {
	Event Event `json:"event"`
	// Native is the event as the source wrote it.
	Native  string  `json:"native"`
	Matcher Matcher `json:"matcher"`
	Type    string  `json:"type"`
	// Command is the command line as written, the source's variables in it
	// (${CLAUDE_PLUGIN_ROOT}/hooks/guard.sh); Args Claude Code's args.
	Command string   `json:"command,omitempty"`
	Args    []string `json:"args,omitempty"`
	// PowerShell is Copilot CLI's Windows command.
	PowerShell string `json:"powershell,omitempty"`
	Prompt     string `json:"prompt,omitempty"`
	URL        string `json:"url,omitempty"`
	Model      string `json:"model,omitempty"`
	// Timeout is the time the agent gives the handler, in seconds (the
	// source's default when it wrote none); Explicit says it wrote one.
	Timeout  float64 `json:"timeout"`
	Explicit bool    `json:"explicit,omitempty"`
	// If is Claude Code's permission rule (Bash(git *)).
	If   string `json:"if,omitempty"`
	Once bool   `json:"once,omitempty"`
	// Sequential runs the group's handlers one by one (Gemini CLI, Qwen Code).
	Sequential  bool              `json:"sequential,omitempty"`
	Name        string            `json:"name,omitempty"`
	Description string            `json:"description,omitempty"`
	Env         map[string]string `json:"env,omitempty"`
	Cwd         string            `json:"cwd,omitempty"`
	// Skill is the skill whose use registers the handler (a Claude Code
	// SKILL.md frontmatter): no other agent has hooks scoped to a skill.
	Skill string `json:"skill,omitempty"`
	// Scripts are the files the command runs that live in the source
	// folder, found by the source system's reading of the line.
	Scripts []Script `json:"scripts,omitempty"`
	// Pos is where the handler is declared.
	Pos Pos `json:"pos"`
}

// Script is a file a command runs, inside the source folder.
type Script struct {
	// Rel is its path relative to the source root, with slashes.
	Rel string `json:"rel"`
	// Ref is how the command names it, as written (a variable and the
	// rest of the path: ${CLAUDE_PLUGIN_ROOT}/hooks/guard.sh).
	Ref Ref `json:"ref"`
}

// Ref is a path as a command line names it.
type Ref struct {
	// Var is the folder variable the path starts with ("" a relative or
	// absolute path).
	Var string `json:"var,omitempty"`
	// Path is the rest after "$Var/" (or the whole path).
	Path string `json:"path"`
}

// Pos is a place in a source file.
type Pos struct {
	File   string `json:"file"` // relative to the source root, slashes
	Line   int    `json:"line"`
	Column int    `json:"column"`
}

func (p Pos) String() string { return fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Column) }

// Matcher is what a group's matcher lets through, named in no dialect.
type Matcher struct {
	// All: no matcher, "" or "*".
	All bool `json:"all,omitempty"`
	// Tools are tool names of the tools table's first column (Claude
	// Code's names), for tool events.
	Tools []string `json:"tools,omitempty"`
	// Values are what a non-tool event's matcher compares with, as written
	// (startup, resume; auto), one per alternative.
	Values []string `json:"values,omitempty"`
	// Unknown are names or patterns no table knows (an MCP tool), kept as
	// the source wrote them.
	Unknown []string `json:"unknown,omitempty"`
	// Written is the matcher as the source wrote it.
	Written string `json:"written,omitempty"`
	// Regex: the source's matcher was a regular expression, read as the
	// known tools it matches.
	Regex bool `json:"regex,omitempty"`
}

// names are a tool matcher's parts in target's names, and the tools the
// target lacks.
func (m Matcher) names(target string) (names, missing []string) {
	for _, t := range m.Tools {
		n := toolName(target, t)
		if n == "" {
			missing = append(missing, t)
			continue
		}
		if !slices.Contains(names, n) {
			names = append(names, n)
		}
	}
	for _, u := range m.Unknown {
		if !slices.Contains(names, u) {
			names = append(names, u)
		}
	}
	return names, missing
}

// describe names a hook for messages: its event and its command, prompt or URL.
func (h *Hook) describe() string {
	what := h.Command
	switch h.Type {
	case TypePrompt:
		what = "prompt " + cut(h.Prompt, 40)
	case TypeHTTP:
		what = "POST " + h.URL
	case TypeAgent, TypeMCPTool:
		what = h.Type + " handler"
	}
	return fmt.Sprintf("%s %s", h.Native, cut(what, 60))
}

// label names a command hook for a person: the file name of the script it
// runs, else its command cut short.
func (h *Hook) label() string {
	if len(h.Scripts) > 0 {
		return path.Base(h.Scripts[0].Rel)
	}
	return cut(h.Command, 48)
}

func cut(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}
