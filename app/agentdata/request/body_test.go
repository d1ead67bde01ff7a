package request

import (
	"encoding/json"
	"testing"
)

// TestBuildChat: a Chat Completions body as each agent frames it — Qwen
// Code merges a role's messages into one message of text parts (a part
// even alone), Copilot CLI writes strings and joins a hook's words to the
// prompt's text; an assistant's call without words has no content.
func TestBuildChat(t *testing.T) {
	msgs := []Msg{
		{Role: "system", Text: "SYS", System: true},
		{Role: "user", Text: "CTX"},
		{Role: "user", Text: "PROMPT"},
		{Role: "user", Text: "HOOK", Join: "\n\n"},
		{Role: "assistant", ToolCalls: []ToolCall{{ID: "c1", Name: "sh", Arguments: json.RawMessage(`{"command":"ls"}`)}}},
		{Role: "tool", Text: "OUT", ToolCallID: "c1"},
		{Role: "user", Text: "MORE"},
	}
	for _, c := range []struct {
		name    string
		framing Framing
		want    string
	}{
		{"strings", Framing{},
			`[{"content":"SYS","role":"system"},{"content":"CTX","role":"user"},{"content":"PROMPT\n\nHOOK","role":"user"},` +
				`{"content":null,"role":"assistant","tool_calls":[{"function":{"arguments":"{\"command\":\"ls\"}","name":"sh"},"id":"c1","type":"function"}]},` +
				`{"content":"OUT","role":"tool","tool_call_id":"c1"},{"content":"MORE","role":"user"}]`},
		{"merged parts", Framing{Merge: true, Parts: true},
			`[{"content":"SYS","role":"system"},{"content":[{"text":"CTX","type":"text"},{"text":"PROMPT\n\nHOOK","type":"text"}],"role":"user"},` +
				`{"content":null,"role":"assistant","tool_calls":[{"function":{"arguments":"{\"command\":\"ls\"}","name":"sh"},"id":"c1","type":"function"}]},` +
				`{"content":[{"text":"OUT","type":"text"}],"role":"tool","tool_call_id":"c1"},{"content":[{"text":"MORE","type":"text"}],"role":"user"}]`},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := &Model{Agent: "a", Version: "1", API: Chat, Model: "m", Framing: c.framing}
			body, err := Build(m, nil, msgs, nil)
			if err != nil {
				t.Fatal(err)
			}
			var b struct {
				Messages json.RawMessage `json:"messages"`
			}
			if err := json.Unmarshal(body, &b); err != nil {
				t.Fatal(err)
			}
			var got, want any
			_ = json.Unmarshal(b.Messages, &got)
			if err := json.Unmarshal([]byte(c.want), &want); err != nil {
				t.Fatal(err)
			}
			g, _ := json.Marshal(got)
			w, _ := json.Marshal(want)
			if string(g) != string(w) {
				t.Errorf("messages\ngot  %s\nwant %s", g, w)
			}
		})
	}
}
