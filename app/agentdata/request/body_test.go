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
	body, err = BuildSide(m, side, turn)
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"contents":[{"parts":[{"text":"CTX"}],"role":"user"},{"parts":[{"text":"<h>A</h>\n\nsay hi"}],"role":"user"}],"generationConfig":{"t":1}}`; string(body) != want {
		t.Errorf("side body\n got %s\nwant %s", body, want)
	}
}
