package llm

import (
	"strings"

	"hookstudio/app/agent/engine"
)

// EmptyAnswer is the warning on a call whose answer carried neither text
// nor tool calls: the engine takes it as an empty final reply, which is
// almost never what the model meant (a filter, a max_tokens of 0, a
// server that cannot stream what it was asked for).
const EmptyAnswer = "empty answer: the model sent neither text nor tool calls, so the reply is empty"

// AnswerWarning says what is suspect about a finished call's answer, ""
// when nothing is. A failed call has its error instead; a planning answer
// without a decision is already an error (ErrUndecidable).
func AnswerWarning(c engine.LLMCall) string {
	if c.Error != "" || c.Phase == engine.PhasePlanning {
		return ""
	}
	if strings.TrimSpace(c.Content) == "" && len(c.ToolCalls) == 0 {
		return EmptyAnswer
	}
	return ""
}

// MarkWarnings is an engine.Config.AfterCall for runs against a real
// model: it adds AnswerWarning to the call's Warning, then calls next (which may be nil).
func MarkWarnings(next func(t *engine.Trace, call int)) func(t *engine.Trace, call int) {
	return func(t *engine.Trace, call int) {
		if call >= 0 && call < len(t.Calls) {
			c := &t.Calls[call]
			switch w := AnswerWarning(*c); {
			case w == "" || strings.Contains(c.Warning, w):
			case c.Warning == "":
				c.Warning = w
			default: // keep what the engine said
				c.Warning += "; " + w
			}
		}
		if next != nil {
			next(t, call)
		}
	}
}
