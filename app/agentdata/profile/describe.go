package profile

import (
	"fmt"
	"strings"
)

// Example are the values the docs and hookctl calibrate show a rendering
// with: the hook's words are X (stdout), C (context) or R (a reason).
func Example(id string) Values {
	event, kind := SplitID(id)
	v := Values{Event: event, Command: "./hook.sh", Prompt: "fix the build", Text: "R"}
	switch event {
	case "PreToolUse", "PostToolUse", "PostToolUseFailure", "PermissionRequest":
		v.Tool = "Bash"
	}
	switch kind {
	case KindDenyResolved, KindDenyResolvedNoReason:
		v.Tool = "Read"
	}
	switch kind {
	case KindDenyNoReason, KindAskNoReason, KindDenyResolvedNoReason:
		v.Text = ""
	case KindStdout:
		v.Text = "X"
	case KindContext:
		v.Text = "C"
	}
	return v
}

// Where says in words where a rendering reaches the model ("a system-role
// paragraph after the tool result").
func (r *Rendering) Where() string {
	var s string
	switch r.Place {
	case PlaceMessage:
		s = fmt.Sprintf("a %s message", r.Role)
	case PlaceParagraph:
		s = fmt.Sprintf("a paragraph of a %s message", r.Role)
	case PlaceBlock:
		s = fmt.Sprintf("a %s text block", r.Role)
	case PlaceToolResult:
		s = "the tool's result"
		if r.IsError {
			s += " (is_error)"
		}
		return s
	case PlacePromptPrefix:
		return "before the prompt's text"
	case PlacePromptSuffix:
		return "after the prompt's text"
	case PlaceSystemSuffix:
		return "after the system prompt's text"
	case PlaceResultSuffix:
		return "after the tool result's text"
	case PlaceNotice:
		return "printed to the user, no model call"
	}
	if a := r.Anchor.words(); a != "" {
		s += " " + a
	}
	return s
}

func (a Anchor) words() string {
	switch a {
	case AnchorBeforePrompt:
		return "before the prompt"
	case AnchorAfterPrompt:
		return "after the prompt"
	case AnchorAfterToolResult:
		return "after the tool result"
	case AnchorAfterToolResults:
		return "after the tool results"
	case AnchorAfterAnswer:
		return "after the answer"
	case AnchorBeforeToolResult:
		return "after the tool call, before its result"
	}
	return ""
}

// Words says how several hooks' outputs come together ("" for one).
func (j *Join) Words() string {
	if j == nil {
		return ""
	}
	switch j.As {
	case JoinSeparate:
		return "each hook's its own"
	case JoinParagraphs:
		return "each hook's a paragraph of the same message"
	case JoinText:
		return fmt.Sprintf("one text, each hook's words joined by %s", strings.Trim(fmt.Sprintf("%q", j.Separator), `"`))
	}
	return ""
}
