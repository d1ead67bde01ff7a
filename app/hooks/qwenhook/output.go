package qwenhook

import "strings"

// output is a hook's answer as Qwen Code reads it (hooks/types.ts).
type output struct {
	Continue       *bool     `json:"continue"`
	StopReason     string    `json:"stopReason"`
	SuppressOutput *bool     `json:"suppressOutput"`
	SystemMessage  string    `json:"systemMessage"`
	Decision       string    `json:"decision"`
	Reason         string    `json:"reason"`
	Specific       *specific `json:"hookSpecificOutput"`

	// merged: a hook of the event blocked (decision block or deny), and
	// every reason given, in order
	blocked bool
	reasons []string
}

type specific struct {
	AdditionalContext        *string `json:"additionalContext"`
	PermissionDecision       string  `json:"permissionDecision"`
	PermissionDecisionReason *string `json:"permissionDecisionReason"`
	Decision                 *struct {
		Behavior string  `json:"behavior"`
		Message  *string `json:"message"`
	} `json:"decision"`
}

func (o *output) specific() *specific {
	if o.Specific == nil {
		return &specific{}
	}
	return o.Specific
}

func (o *output) context() *string { return o.specific().AdditionalContext }

// blockedAt: a decision that blocks (PreToolUse reads permissionDecision
// first).
func (o *output) blockedAt(event string) bool {
	if event == PreToolUse {
		return o.permissionDecision() == "deny"
	}
	return o.Decision == "block" || o.Decision == "deny"
}

func (o *output) permissionDecision() string {
	if d := o.specific().PermissionDecision; d == "allow" || d == "deny" || d == "ask" {
		return d
	}
	switch o.Decision {
	case "allow", "approve":
		return "allow"
	case "deny", "block":
		return "deny"
	case "ask":
		return "ask"
	}
	return ""
}

// effectiveReason is getEffectiveReason: stopReason, else reason.
func (o *output) effectiveReason() string {
	switch {
	case o.StopReason != "":
		return o.StopReason
	case o.Reason != "":
		return o.Reason
	}
	return "No reason provided"
}

// permissionReason is what a PreToolUse denial tells the model.
func (o *output) permissionReason() string {
	if r := o.specific().PermissionDecisionReason; r != nil {
		return *r
	}
	return o.effectiveReason()
}

func (o *output) reason() string { return strings.Join(o.reasons, "\n") }

// merge is Qwen Code's hookAggregator: any block blocks, reasons and
// contexts joined by a newline, continue: false if any says so, the other
// fields the last hook's.
func merge(outs []*output) output {
	var m output
	var contexts []string
	for _, o := range outs {
		if o.Decision == "block" || o.Decision == "deny" {
			m.blocked = true
		}
		if o.Reason != "" {
			m.reasons = append(m.reasons, o.Reason)
		}
		if o.Continue != nil && !*o.Continue {
			f := false
			m.Continue = &f
			if o.StopReason != "" {
				m.StopReason = o.StopReason
			}
		}
		if c := o.context(); c != nil {
			contexts = append(contexts, *c)
		}
		if o.Specific != nil {
			sp := m.specific()
			if o.Specific.PermissionDecision != "" {
				sp.PermissionDecision = o.Specific.PermissionDecision
			}
			if o.Specific.PermissionDecisionReason != nil {
				sp.PermissionDecisionReason = o.Specific.PermissionDecisionReason
			}
			if o.Specific.Decision != nil {
				sp.Decision = o.Specific.Decision
			}
			m.Specific = sp
		}
		if o.SystemMessage != "" {
			m.SystemMessage = o.SystemMessage
		}
	}
	switch {
	case m.blocked:
		m.Decision = "block"
	case len(outs) > 0:
		for _, o := range outs {
			if o.Decision == "allow" {
				m.Decision = "allow"
			}
		}
	}
	m.Reason = m.reason()
	if len(contexts) > 0 {
		joined := strings.Join(contexts, "\n")
		sp := m.specific()
		sp.AdditionalContext = &joined
		m.Specific = sp
	}
	return m
}
