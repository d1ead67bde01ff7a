package request

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestBuildGemini: Gemini CLI's contents — the hook words it writes on the
// prompt in one text part, one content per role run, a function call's
// id, args and name, its thought signature on the calls since the user
// last spoke — and a side call's turn apart from the context before it.
func TestBuildGemini(t *testing.T) {
	m := &Model{Agent: "gemini-cli", Version: "1", API: Gemini, Keys: []string{"contents", "systemInstruction"},
		Framing: Framing{Merge: true, CallSignature: "sig"}}
	msgs := []Msg{
		{Role: "system", Text: "S", System: true},
		{Role: "user", Text: "CTX"},
		{Role: "user", Text: "<h>A</h>", Join: "\n\n"},
		{Role: "user", Text: "say hi"},
		{Role: "user", Text: "<h>B</h>"},
		{Role: "assistant", ToolCalls: []ToolCall{{ID: "c1", Name: "sh", Arguments: json.RawMessage(`{"command":"ls"}`)}}},
		{Role: "tool", Text: "out", ToolCallID: "c1", ToolName: "sh"},
	}
	body, err := Build(m, nil, msgs, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"contents":[{"parts":[{"text":"CTX"},{"text":"<h>A</h>\n\nsay hi"},{"text":"<h>B</h>"}],"role":"user"},` +
		`{"parts":[{"functionCall":{"id":"c1","args":{"command":"ls"},"name":"sh"},"thoughtSignature":"sig"}],"role":"model"},` +
		`{"parts":[{"functionResponse":{"name":"sh","response":{"output":"out"},"id":"c1"}}],"role":"user"}],` +
		`"systemInstruction":{"parts":[{"text":"S"}],"role":"user"}}`
	if string(body) != want {
		t.Errorf("body\n got %s\nwant %s", body, want)
	}
	// the user spoke again: the answers before it go unsigned
	later := append(msgs, Msg{Role: "assistant", Text: "done"}, Msg{Role: "user", Text: "again"})
	body, _ = Build(m, nil, later, nil)
	if strings.Contains(string(body), "thoughtSignature") {
		t.Errorf("a signature after the user spoke again: %s", body)
	}
	// a side call: its own keys and fields, the turn a content of its own
	side := &Side{Name: "router", Keys: []string{"contents", "generationConfig"}, Fields: []Field{{Name: "generationConfig", Value: json.RawMessage(`{"t":1}`)}}}
	turn := []Msg{{Role: "user", Text: "CTX"}, {Role: "user", Text: "<h>A</h>", Join: "\n\n", Starts: true}, {Role: "user", Text: "say hi"}}
	body, err = BuildSide(m, side, nil, turn)
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"contents":[{"parts":[{"text":"CTX"}],"role":"user"},{"parts":[{"text":"<h>A</h>\n\nsay hi"}],"role":"user"}],"generationConfig":{"t":1}}`; string(body) != want {
		t.Errorf("side body\n got %s\nwant %s", body, want)
	}
}

// TestBuildChat: a Chat Completions body as each agent frames it — Qwen
// Code merges a role's messages into one message of text parts (a part
// even alone), Copilot CLI writes strings and joins a hook's words to the
// prompt's text; an assistant's call without words has no content.
func TestBuildChat(t *testing.T) {
	msgs := []Msg{
		{Role: "system", Text: "SYS", System: true},
		{Role: "user", Text: "CTX"},
		{Role: "user", Text: "PROMPT"},
		{Role: "user", Text: "HOOK", JoinBefore: "\n\n"},
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
