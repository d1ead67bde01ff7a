package sessions

import (
	"strconv"
	"strings"
)

// Output kinds a hook's record names, as the agent words them for the model.
const (
	OutputSuccess           = "success"            // plain stdout of SessionStart / UserPromptSubmit
	OutputAdditionalContext = "additional context" // hookSpecificOutput.additionalContext
	OutputBlockingError     = "blocking error"     // exit 2 or decision: block, beside the agent's own feedback
)

// Renderings word a hook's output as one version of an agent put it before
// the model — where a transcript does not hold the request itself and it is
// rebuilt from the records. They are the agent's rendering profile (issue
// 27); the measured Claude Code renderings stand in until the profiles
// package is merged.
type Renderings interface {
	// Hook is the role and text hook output of kind becomes (ok false: the
	// model does not read it). label is the agent's name of the hook
	// ("PostToolUse:Bash"), command the handler's command line.
	Hook(kind, label, text, command string) (role, content string, ok bool)
	// Feedback is the agent's own record of hook feedback (a Stop hook's
	// reason) as the model reads it; lead is the preamble the record names.
	Feedback(text, lead string) string
	// Joined is what ends each but the last of several hooks' messages of
	// role that the agent sends as blocks of one message.
	Joined(role string) string
}

// RenderingsFor are the renderings of an agent version.
func RenderingsFor(agent Agent, version string) Renderings {
	if agent == ClaudeCode && !atLeast(version, 2, 1, 300) {
		return claudeCode197{}
	}
	return claudeCode332{}
}

// claudeCode197 are Claude Code 2.1.197's renderings (the pinned version,
// measured through capture: docs/claude-code-hooks.md).
type claudeCode197 struct{}

func (claudeCode197) Hook(kind, label, text, command string) (string, string, bool) {
	event, _, _ := strings.Cut(label, ":")
	switch kind {
	case OutputSuccess:
		return "system", label + " hook success: " + text, true
	case OutputAdditionalContext:
		if isToolEvent(event) {
			return "user", "<system-reminder>\n" + label + " hook additional context: " + text + "\n</system-reminder>", true
		}
		return "system", label + " hook additional context: " + text, true
	case OutputBlockingError:
		if isToolEvent(event) {
			return "user", "<system-reminder>\n" + label + ` hook blocking error from command: "` + command + `": ` + text + "\n</system-reminder>", true
		}
	}
	return "", "", false // a Stop block reaches the model as the agent's feedback record
}

func (claudeCode197) Feedback(text, _ string) string { return text }

// Joined: several tool hooks' reminders after one tool result are text
// blocks of one user message, each but the last ending in a newline.
func (claudeCode197) Joined(role string) string {
	if role == "user" {
		return "\n"
	}
	return ""
}

// claudeCode332 are the renderings of Claude Code 2.1.332, the newest of
// 2026-11-26 (shared/design-agents.md): hook output as system-role
// messages, Stop feedback under the agent's preamble.
type claudeCode332 struct{}

func (claudeCode332) Hook(kind, label, text, command string) (string, string, bool) {
	switch kind {
	case OutputSuccess:
		return "system", label + " hook success: " + text, true
	case OutputAdditionalContext:
		return "system", label + " hook additional context: " + text, true
	case OutputBlockingError:
		return "system", label + ` hook blocking error from command: "` + command + `": ` + text, true
	}
	return "", "", false
}

func (claudeCode332) Feedback(text, lead string) string {
	if lead == "" {
		return text
	}
	return "<system-reminder>\n" + lead + "\n" + text + "\n</system-reminder>"
}

// Joined: several hooks' texts are paragraphs of one system message, which
// a capture reads as a message each.
func (claudeCode332) Joined(string) string { return "" }

func isToolEvent(event string) bool {
	switch event {
	case "PreToolUse", "PostToolUse", "PostToolUseFailure", "PermissionRequest":
		return true
	}
	return false
}

// atLeast compares a dotted version with major.minor.patch ("" is older
// than any).
func atLeast(version string, want ...int) bool {
	parts := strings.Split(strings.TrimSpace(version), ".")
	for i, w := range want {
		if i >= len(parts) {
			return false
		}
		n, err := strconv.Atoi(strings.TrimLeft(parts[i], "v"))
		if err != nil {
			return false
		}
		if n != w {
			return n > w
		}
	}
	return true
}
