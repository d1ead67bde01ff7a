package sessions

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"hookstudio/app/capture"
)

// notJSON says why a line is not read, never quoting it: a transcript
// holds what the tools printed, keys included.
func notJSON(err error) string {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return fmt.Sprintf("not JSON (at byte %d); the line is left out", se.Offset)
	}
	return "not a record the importer can read; the line is left out"
}

// short is a hash or id cut for messages.
func short(s string) string {
	if len(s) > 12 {
		return s[:12] + "…"
	}
	return s
}

// isPrompt says whether a user record is a prompt the user sent (not a
// tool result, the agent's own meta text or a compaction's summary).
func isPrompt(rec *claudeRecord) bool {
	if rec.IsMeta || rec.IsCompactSummary || rec.IsSidechain || rec.Message == nil {
		return false
	}
	return promptText(rec.Message.Content) != ""
}

// promptText is a user message's first text ("" for tool results).
func promptText(content json.RawMessage) string {
	typ, text := firstBlock(content)
	if typ != "text" {
		return ""
	}
	return text
}

// toolResults are a user message's blocks when they are tool results.
func toolResults(content json.RawMessage) ([]json.RawMessage, bool) {
	if typ, _ := firstBlock(content); typ != "tool_result" {
		return nil, false
	}
	blocks := elements(content)
	return blocks, len(blocks) > 0
}

// answerOf is an assistant message's text and tool calls.
func answerOf(content json.RawMessage) (string, []capture.ToolCall) {
	ms, _ := capture.AnthropicMessage("assistant", content)
	if len(ms) == 0 {
		return "", nil
	}
	return ms[0].Content, ms[0].ToolCalls
}

// stringsOf reads a string or a list of strings.
func stringsOf(raw json.RawMessage) []string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		if s == "" {
			return nil
		}
		return []string{s}
	}
	var ss []string
	_ = json.Unmarshal(raw, &ss)
	return ss
}

func containsAll(have, want []string) bool {
	for _, w := range want {
		if !slices.Contains(have, w) {
			return false
		}
	}
	return len(want) > 0
}

// additionalContext is a hook's JSON output's additionalContext.
func additionalContext(out string) string {
	var o struct {
		Specific struct {
			AdditionalContext string `json:"additionalContext"`
		} `json:"hookSpecificOutput"`
	}
	_ = json.Unmarshal([]byte(out), &o)
	return o.Specific.AdditionalContext
}

func firstOf(s ...string) string {
	for _, x := range s {
		if strings.TrimSpace(x) != "" {
			return x
		}
	}
	return ""
}

// cutRunes cuts s to n runes, marking the cut.
func cutRunes(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// widen stretches [started, ended] to hold the record time ts (RFC 3339;
// a record without one changes nothing).
func widen(started, ended *time.Time, ts string) {
	t, err := time.Parse(time.RFC3339Nano, ts)
	if err != nil {
		return
	}
	if started.IsZero() || t.Before(*started) {
		*started = t
	}
	if t.After(*ended) {
		*ended = t
	}
}

// turn counts a prompt the user sent, the first message of ms capture
// reads as the user's (the first one is the session's).
func (im *Importer) turn(ms []capture.Message) {
	for _, m := range ms {
		if m.Origin == capture.OriginUser {
			im.sess.Turns++
			if im.sess.Prompt == "" {
				im.sess.Prompt = cutRunes(m.Content, PromptMax)
			}
			return
		}
	}
}

// prompt counts a prompt the user sent in a list's summary (the first one
// is the session's).
func (sc *summarizer) prompt(text string) {
	if text == "" {
		return
	}
	sc.s.Turns++
	if sc.s.Prompt == "" {
		sc.s.Prompt = cutRunes(text, PromptMax)
	}
}

// answer counts the model's answer id once in a list's summary.
func (sc *summarizer) answer(id, model string) {
	if !sc.answers[id] {
		sc.answers[id] = true
		sc.s.Calls++
		sc.s.Model = firstOf(sc.s.Model, model)
	}
}
