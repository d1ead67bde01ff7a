package request_test

import (
	"encoding/json"
	"slices"
	"testing"

	"hookstudio/app/agentdata/request"
	"hookstudio/app/capture"
)

// TestBuildResponsesReadsBack: a Responses body Build writes reads back
// through capture's reader as the messages it was given, and lays them
// out as the framing says: the system prompt as the API's instructions or
// as the first input message, the agent's own pieces of one role in a row
// as parts of one message while hooks' words and the prompt stand alone.
func TestBuildResponsesReadsBack(t *testing.T) {
	call := request.ToolCall{ID: "call_1", Name: "sh", Arguments: json.RawMessage(`{"cmd":"ls"}`)}
	msgs := []request.Msg{
		{Role: "system", Text: "the agent's prompt", System: true},
		{Role: "system", Text: "own one", Own: true},
		{Role: "system", Text: "own two", Own: true},
		{Role: "user", Text: "own three", Own: true},
		{Role: "user", Text: "own four", Own: true},
		{Role: "system", Text: "a hook's words"},
		{Role: "system", Text: "another hook's words"},
		{Role: "user", Text: "the prompt"},
		{Role: "assistant", ToolCalls: []request.ToolCall{call}},
		{Role: "tool", Text: "a.txt\n", ToolCallID: "call_1"},
		{Role: "assistant", Text: "done"},
	}
	cases := []struct {
		name    string
		framing request.Framing
		// items are the input items' content parts (0: not a message);
		// instructions whether the body has them
		items        []int
		instructions bool
	}{
		{"system message, own pieces merged", request.Framing{SystemMessage: true, MergeOwn: true}, []int{1, 2, 2, 1, 1, 1, 0, 0, 1}, false},
		{"instructions, every message its own", request.Framing{}, []int{1, 1, 1, 1, 1, 1, 1, 0, 0, 1}, true},
		{"instructions, a role's messages merged", request.Framing{Merge: true}, []int{2, 2, 2, 1, 0, 0, 1}, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := &request.Model{Agent: "a", Version: "1", API: request.Responses, Model: "m", Framing: c.framing}
			body, err := request.Build(m, nil, msgs, nil)
			if err != nil {
				t.Fatal(err)
			}
			var b struct {
				Instructions *string `json:"instructions"`
				Input        []struct {
					Type    string            `json:"type"`
					Content []json.RawMessage `json:"content"`
				} `json:"input"`
			}
			if err := json.Unmarshal(body, &b); err != nil {
				t.Fatal(err)
			}
			if (b.Instructions != nil) != c.instructions {
				t.Errorf("instructions %v, want %v", b.Instructions != nil, c.instructions)
			}
			var items []int
			for _, it := range b.Input {
				items = append(items, len(it.Content))
			}
			if !slices.Equal(items, c.items) {
				t.Errorf("input items' parts %v, want %v\n%s", items, c.items, body)
			}
			got := capture.ReadBody(capture.Responses, body, nil, nil).Messages
			if len(got) != len(msgs) {
				t.Fatalf("%d messages read back, %d built:\n%s", len(got), len(msgs), body)
			}
			for i, g := range got {
				if g.Role != msgs[i].Role || g.Content != msgs[i].Text || len(g.ToolCalls) != len(msgs[i].ToolCalls) {
					t.Errorf("message %d read back as %s %q, built as %s %q", i, g.Role, g.Content, msgs[i].Role, msgs[i].Text)
				}
			}
		})
	}
}

// TestFileCondition: a piece that quotes an instruction file is sent when
// the folder holds the file, not empty; its Not when it holds none.
func TestFileCondition(t *testing.T) {
	quote := request.Piece{ID: "turn.1", When: request.FileCondition("AGENTS.md"),
		Text: request.Text{{Lit: "instructions: "}, {Slot: request.SlotFile("AGENTS.md")}}}
	for _, c := range []struct {
		values request.Values
		sent   bool
	}{
		{request.Values{request.SlotFile("AGENTS.md"): "be brief\n"}, true},
		{request.Values{request.SlotFile("AGENTS.md"): ""}, false},
		{request.Values{}, false},
		{request.Values{request.SlotFile("OTHER.md"): "x"}, false},
	} {
		if got := quote.Present(c.values); got != c.sent {
			t.Errorf("present with %v: %v, want %v", c.values, got, c.sent)
		}
		if got := quote.When.Not().Holds(c.values); got == c.sent {
			t.Errorf("its Not with %v: %v, want %v", c.values, got, !c.sent)
		}
	}
}

// TestResultFrame: a tool's run is worded with its output (its words for
// none), its exit code, the output's token count (a token per four bytes,
// rounded up), the call's arguments and the count of the tool's runs
// before, the agent's opaque values as calibrated.
func TestResultFrame(t *testing.T) {
	f := request.ResultFrame{Tool: "sh", Text: request.Text{{Lit: "id "}, {Slot: request.SlotOpaque, Default: "a1"}, {Lit: "; exit "},
		{Slot: request.SlotExitCode}, {Lit: "; tokens "}, {Slot: request.SlotResultTokens}, {Lit: "\n"}, {Slot: request.SlotResult}}}
	shell := request.ResultFrame{Tool: "sh", Text: request.Text{{Lit: "$ "}, {Slot: request.ArgSlot("command")}, {Lit: "\n"},
		{Slot: request.SlotResult, Empty: "(empty)"}, {Lit: " #"}, {Slot: request.SlotCount}, {Lit: " "}, {Slot: request.ArgSlot("n")}}}
	args := map[string]any{"command": "ls", "n": 2}
	for _, c := range []struct {
		frame request.ResultFrame
		run   request.ToolRun
		want  string
	}{
		{f, request.ToolRun{}, "id a1; exit 0; tokens 0\n"},
		{f, request.ToolRun{Output: "ok\n"}, "id a1; exit 0; tokens 1\nok\n"},
		{f, request.ToolRun{Output: "hsr-tool\n", Code: 3}, "id a1; exit 3; tokens 3\nhsr-tool\n"},
		{f, request.ToolRun{Output: "12345678", Code: 1}, "id a1; exit 1; tokens 2\n12345678"},
		{shell, request.ToolRun{Output: "a b", Args: args}, "$ ls\na b #0 2"},
		{shell, request.ToolRun{Args: args, Count: 3}, "$ ls\n(empty) #3 2"},
		{shell, request.ToolRun{Output: "x"}, "$ \nx #0 "},
	} {
		if got := c.frame.Fill(c.run); got != c.want {
			t.Errorf("Fill(%+v) = %q, want %q", c.run, got, c.want)
		}
	}
	fr := request.Framing{Results: []request.ResultFrame{f, {Tool: "shipped"}}}
	if fr.Result("sh") == nil || fr.Result("other") != nil || fr.Result("shipped") != nil {
		t.Error("a frame with words is found by its tool's name only")
	}
	m := &request.Model{Framing: fr}
	if got := m.MaskOpaque()("id zz9; exit 0"); got != "id {opaque}; exit 0" {
		t.Errorf("masked %q", got)
	}
}
