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
	// KindDenyNoReason: permissionDecision: deny (or decision: block)
	// without a reason; {text} is empty.
	KindDenyNoReason = "deny_no_reason"
	// KindDenyResolved and KindDenyResolvedNoReason: a deny of a call whose
	// file path the agent resolved before its hooks ran (Claude Code's
	// Read, Write, Edit given a relative path: the hook reads it absolute),
	// which Claude Code 2.1.332 words apart from any other deny.
	KindDenyResolved         = "deny_resolved"
	KindDenyResolvedNoReason = "deny_resolved_no_reason"
)

// Kinds lists every kind, for validation.
var Kinds = []string{KindStdout, KindContext, KindExit2, KindBlock, KindDeny, KindAsk, KindAskNoReason, KindDenyNoReason,
	KindDenyResolved, KindDenyResolvedNoReason}

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
	{"PreToolUse.deny_no_reason", "PreToolUse `permissionDecision: deny` without a reason"},
	{"PreToolUse.deny_resolved", "PreToolUse `permissionDecision: deny`, reason `R`, of a Read, Write or Edit whose relative path Claude Code resolved"},
	{"PreToolUse.deny_resolved_no_reason", "PreToolUse `permissionDecision: deny` without a reason, of a Read, Write or Edit whose relative path Claude Code resolved"},
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
