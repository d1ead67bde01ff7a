package ccshape

import (
	"encoding/json"

	"hookstudio/app/agent/engine"
	"hookstudio/app/agentdata/profile"
)

// Render puts an outcome of a rendering profile into an effect at a point
// of the flow, where the agent puts it: a message before or after the one
// the point leads to, the tool's result (a denial before the tool, its
// output replaced after it), text joined to the system prompt or the
// tool's result, feedback that sends the loop round again, a notice for
// the user. A developer message (Codex's) is a system message here, as
// capture reads it. It says false when the profile has no such outcome.
func Render(eff *engine.Effect, p engine.Point, o *profile.Outcome, v profile.Values) bool {
	if o == nil || len(o.Renderings) == 0 {
		return false
	}
	for i := range o.Renderings {
		r := &o.Renderings[i]
		text := r.Render(v).Content
		role := string(r.Role)
		if role == "developer" || role == "" {
			role = "system"
		}
		msg := engine.NewMessage{Role: role, Content: text}
		switch r.Place {
		case profile.PlaceToolResult:
			if p == engine.PointAfterTool {
				eff.ToolResult = &text
			} else {
				eff.Action, eff.Reason = engine.ActionDeny, text
			}
		case profile.PlaceNotice:
			eff.Notice = text
		case profile.PlaceSystemSuffix:
			eff.AppendSystem = text
		case profile.PlaceResultSuffix:
			eff.AppendResult = text
		case profile.PlacePromptPrefix, profile.PlacePromptSuffix:
			// the prompt itself is rewritten only by a before_send hook
			joined := v.Prompt + r.Separator + text
			if r.Place == profile.PlacePromptPrefix {
				joined = text + r.Separator + v.Prompt
			}
			eff.UserInput = &joined
		default: // a message, a paragraph or a block: a message of its own
			switch {
			case p == engine.PointStop:
				if role == "user" {
					eff.RetryFeedback = text
				}
			case r.Anchor == profile.AnchorBeforePrompt || r.Anchor == profile.AnchorBeforeToolResult:
				eff.ContextBefore = append(eff.ContextBefore, msg)
			default:
				eff.Context = append(eff.Context, msg)
			}
		}
	}
	return true
}

// Output is the JSON a hook of the shape prints on exit 0, with the fields
// every dialect reads (each reads its own subset).
type Output struct {
	Continue       *bool           `json:"continue"`
	StopReason     *string         `json:"stopReason"`
	SystemMessage  *string         `json:"systemMessage"`
	SuppressOutput bool            `json:"suppressOutput"`
	Decision       string          `json:"decision"`
	Reason         *string         `json:"reason"`
	Specific       *SpecificOutput `json:"hookSpecificOutput"`
}

// SpecificOutput is hookSpecificOutput.
type SpecificOutput struct {
	HookEventName            string          `json:"hookEventName"`
	AdditionalContext        *string         `json:"additionalContext"`
	PermissionDecision       string          `json:"permissionDecision"`
	PermissionDecisionReason *string         `json:"permissionDecisionReason"`
	UpdatedInput             map[string]any  `json:"updatedInput"`
	UpdatedToolOutput        json.RawMessage `json:"updatedToolOutput"`
	Decision                 *struct {
		Behavior string  `json:"behavior"`
		Message  *string `json:"message"`
	} `json:"decision"`
}

// Str is *s, "" for nil.
func Str(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
