package capture

import (
	"encoding/json"
	"testing"

	"hookstudio/app/agentdata/request"
)

// TestReadBodyRoundTrip: a body request.Build writes reads back through
// capture's reader as the list it was written from, role and text, for
// each API: so a simulated call's messages are what a capture of the
// same request would show.
func TestReadBodyRoundTrip(t *testing.T) {
	list := []request.Msg{
		{Role: "system", Text: "The agent's system prompt.", System: true},
		{Role: "user", Text: "<system-reminder>\nour own context\n</system-reminder>", Own: true},
		{Role: "user", Text: "clean the build folder"},
		{Role: "assistant", ToolCalls: []request.ToolCall{{ID: "t1", Name: "Run", Arguments: json.RawMessage(`{"command":"ls"}`)}}},
		{Role: "tool", Text: "build/", ToolCallID: "t1", ToolName: "Run"},
		{Role: "assistant", Text: "Done."},
	}
	for _, api := range request.APIs {
		t.Run(string(api), func(t *testing.T) {
			m := &request.Model{Agent: "demo", Version: "1", API: api, Model: "demo", Framing: request.Framing{Merge: api == request.Anthropic}}
			body, err := request.Build(m, nil, list, nil)
			if err != nil {
				t.Fatal(err)
			}
			capi := API(api)
			if api == request.Chat {
				capi = OpenAI
			}
			got := ReadBody(capi, body, nil, nil).Messages
			if len(got) != len(list) {
				t.Fatalf("%d messages read back from %s, %d written", len(got), body, len(list))
			}
			for i, m := range got {
				want := list[i].Role
				if want == "developer" {
					want = "system"
				}
				if m.Content != list[i].Text || (m.Role != want && !(api == request.Gemini && want == "system")) {
					t.Errorf("message %d: %s %q read back, %s %q written", i, m.Role, m.Content, want, list[i].Text)
				}
			}
		})
	}
}
