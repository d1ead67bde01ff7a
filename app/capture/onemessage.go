package capture

import (
	"bytes"
	"encoding/json"
)

// ChatMessage normalises one message of a Chat Completions request (a
// "messages" element as sent) as a capture records it: the session
// importer rebuilds a Qwen Code or Copilot CLI request a message at a time
// from the agent's log, and reads each through the parser a capture of
// the same request uses, so the two cannot read it differently.
func ChatMessage(raw json.RawMessage) []Message {
	req, _, _ := parseOpenAI(wrapped(`{"messages":[`, raw))
	return req.Messages
}

// GeminiContent normalises one content of a Gemini API request (a
// "contents" element: its role and parts) as a capture records it, with
// the warnings a capture would give. A function call without an id is
// named by its place within the content alone, and a response without an
// id answers a call of its name in the same content only: Gemini CLI gives
// every call an id.
func GeminiContent(raw json.RawMessage) ([]Message, []string) {
	req, warnings, _ := parseGemini(wrapped(`{"contents":[`, raw), geminiPath{})
	return req.Messages, warnings
}

// wrapped is raw as the one element of a request's list.
func wrapped(open string, raw json.RawMessage) []byte {
	var b bytes.Buffer
	b.Grow(len(open) + len(raw) + 2)
	b.WriteString(open)
	if len(bytes.TrimSpace(raw)) == 0 {
		b.WriteString("null")
	} else {
		b.Write(raw)
	}
	b.WriteString("]}")
	return b.Bytes()
}
