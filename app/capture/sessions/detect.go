package sessions

import (
	"encoding/json"
	"errors"
	"fmt"
)

// ErrUnknownFormat is wrapped by a FormatError.
var ErrUnknownFormat = errors.New("not a session log of an agent the importer knows")

// FormatError says a file is not a session log the importer knows, and
// the first line that told it so.
type FormatError struct {
	File   string
	Line   int
	Reason string
}

func (e *FormatError) Error() string {
	return fmt.Sprintf("%s:%d: %v (Claude Code, Codex, Gemini CLI, Qwen Code or Copilot CLI): %s", e.File, e.Line, ErrUnknownFormat, e.Reason)
}

func (e *FormatError) Unwrap() error { return ErrUnknownFormat }

// detectLines is how many lines the importer reads for a record it knows
// before it tells the file is not a session log.
const detectLines = 8

// probe is what tells a record's agent.
type probe struct {
	Type          string          `json:"type"`
	Payload       json.RawMessage `json:"payload"`
	Data          json.RawMessage `json:"data"`
	ID            json.RawMessage `json:"id"`
	UUID          string          `json:"uuid"`
	SessionID     string          `json:"sessionId"`
	ProjectHash   string          `json:"projectHash"`
	Set           json.RawMessage `json:"$set"`
	RewindTo      json.RawMessage `json:"$rewindTo"`
	Provenance    string          `json:"provenance"`
	SystemPayload json.RawMessage `json:"systemPayload"`
	Message       *struct {
		Parts json.RawMessage `json:"parts"`
	} `json:"message"`
}

// claudeTypes are the record types of a Claude Code transcript.
var claudeTypes = map[string]bool{"user": true, "assistant": true, "attachment": true, "system": true,
	"api-request": true, "api-request-blob": true, "api-request-shape": true}

// detect tells the agent that wrote a record ("" none it knows), and why
// not: a Codex rollout's records have a type and a payload, Gemini CLI's
// log starts with its project's hash (then messages by id, $set and
// $rewindTo), Copilot CLI's events have a dotted type and data, Qwen Code's
// records name their parent as Claude Code's do but hold Gemini parts and
// their provenance, Claude Code's have a type it writes and its session.
func detect(line []byte) (Agent, string) {
	var p probe
	if err := json.Unmarshal(line, &p); err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			return "", fmt.Sprintf("not JSON (at byte %d)", se.Offset)
		}
		return "", "not a JSON object"
	}
	var id string
	_ = json.Unmarshal(p.ID, &id)
	switch {
	case p.Type != "" && len(p.Payload) > 0:
		return Codex, ""
	case p.ProjectHash != "" || len(p.Set) > 0 || len(p.RewindTo) > 0,
		id != "" && p.UUID == "" && geminiTypes[p.Type]:
		return GeminiCLI, ""
	case len(p.Data) > 0 && copilotType(p.Type):
		return CopilotCLI, ""
	case p.UUID != "" && (p.Provenance != "" || len(p.SystemPayload) > 0 || p.Type == "tool_result" || p.Message != nil && len(p.Message.Parts) > 0):
		return QwenCode, ""
	case p.Type != "" && (p.SessionID != "" || p.UUID != "" || claudeTypes[p.Type] || claudeBookkeeping[p.Type]):
		return ClaudeCode, ""
	}
	return "", "a JSON record no agent's log has"
}
