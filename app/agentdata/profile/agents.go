package profile

import "slices"

// Kinds of hook output an outcome is about.
const (
	KindStdout      = "stdout"        // plain stdout on exit 0
	KindContext     = "context"       // additionalContext (JSON)
	KindExit2       = "exit2"         // exit 2; {text} is stderr
	KindBlock       = "block"         // decision: block; {text} is the reason
	KindDeny        = "deny"          // permissionDecision: deny; {text} is the reason
	KindAsk         = "ask"           // permissionDecision: ask with a reason, nobody to ask
	KindAskNoReason = "ask_no_reason" // permissionDecision: ask without a reason, nobody to ask
)

// Kinds lists every kind, for validation.
var Kinds = []string{KindStdout, KindContext, KindExit2, KindBlock, KindDeny, KindAsk, KindAskNoReason}

// Spec is one outcome an agent's profile describes: what the hook does.
type Spec struct {
	ID string
	// Hook is what the hook answers, in words, for the docs.
	Hook string
}

// ClaudeCode is the agent name of Claude Code's profiles.
const ClaudeCode = "claude-code"

// claudeCode are Claude Code's outcomes, in the order of
// docs/claude-code-hooks.md "What the model reads".
var claudeCode = []Spec{
	{"SessionStart.stdout", "SessionStart, stdout `X` on exit 0"},
	{"SessionStart.context", "SessionStart `additionalContext: C`"},
	{"UserPromptSubmit.stdout", "UserPromptSubmit, stdout `X` on exit 0"},
	{"UserPromptSubmit.context", "UserPromptSubmit `additionalContext: C`"},
	{"UserPromptSubmit.exit2", "UserPromptSubmit exit 2, stderr `R`"},
	{"UserPromptSubmit.block", "UserPromptSubmit `decision: block`, reason `R`"},
	{"PreToolUse.exit2", "PreToolUse exit 2, stderr `R`"},
	{"PreToolUse.deny", "PreToolUse `permissionDecision: deny`, reason `R`"},
	{"PreToolUse.ask", "PreToolUse `permissionDecision: ask`, reason `R`, nobody to ask"},
	{"PreToolUse.ask_no_reason", "PreToolUse `permissionDecision: ask` without a reason, nobody to ask"},
	{"PreToolUse.context", "PreToolUse `additionalContext: C` (tool allowed)"},
	{"PostToolUse.context", "PostToolUse `additionalContext: C`"},
	{"PostToolUse.exit2", "PostToolUse exit 2, stderr `R`"},
	{"PostToolUse.block", "PostToolUse `decision: block`, reason `R`"},
	{"PostToolUseFailure.context", "PostToolUseFailure `additionalContext: C`"},
	{"PostToolBatch.context", "PostToolBatch `additionalContext: C`"},
	{"Stop.exit2", "Stop exit 2, stderr `R`"},
	{"Stop.block", "Stop `decision: block`, reason `R`"},
}

// Outcomes lists the outcomes a profile of agent must describe, in the
// docs' order; nil for an agent whose outcomes are not listed yet (its
// profiles may then hold any "<Event>.<kind>").
func Outcomes(agent string) []Spec {
	switch agent {
	case ClaudeCode:
		return slices.Clone(claudeCode)
	}
	return nil
}
