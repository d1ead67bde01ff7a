package engine

import (
	"context"
	"encoding/json"
	"regexp"
	"slices"
	"strings"
	"testing"

	"hookstudio/app/agent/scenario"
	"hookstudio/app/agentdata/request"
)

// TestAgentSideCall: an agent's side call (Gemini CLI's router) is a call
// of phase side before the first call of each prompt of the user's, with
// its own system prompt in place of the agent's and the answer its model
// says the agent got; the scenario's rounds answer the agent's calls
// alone. Its request body is its own (keys, fields, the turn a message of
// its own); a tool's output comes within the agent's words around it.
func TestAgentSideCall(t *testing.T) {
	answer := `{"score":1}`
	m := &request.Model{Agent: "agent", Version: "1", API: request.Gemini, Keys: []string{"contents", "systemInstruction", "tools"},
		System:  []request.Piece{{ID: "system.1", Role: "system", Text: request.Text{{Lit: "AGENT"}}}},
		Turn:    []request.Part{{Piece: &request.Piece{ID: "turn.1", Role: "user", Text: request.Text{{Lit: "CTX"}}}}, {Prompt: true}},
		Tools:   []request.Tool{{Name: "sh", Definition: request.Text{{Lit: `{"name":"sh"}`}}}},
		Framing: request.Framing{Merge: true, Results: []request.ResultFrame{{Tool: "sh", Hooks: true, Text: request.Text{{Lit: "<o>"}, {Slot: request.SlotResult, Empty: "(none)"}, {Lit: "</o>"}}}}},
		Loop: request.Loop{Sides: []request.Side{{Name: "router", When: request.SideTurnStart, Model: "small", TurnApart: true, Answer: &answer,
			System: []request.Piece{{ID: "router.system.1", Role: "system", Text: request.Text{{Lit: "ROUTER"}}}},
			Keys:   []string{"contents", "systemInstruction", "generationConfig"}, Fields: []request.Field{{Name: "generationConfig", Value: json.RawMessage(`{"x":1}`)}}}}},
	}
	sc := &scenario.Scenario{Name: "side", EnableTools: true, Tools: []scenario.Tool{{Name: "sh"}}, Requests: []scenario.Request{
		{User: "hi", Rounds: []scenario.Round{{ToolCalls: []scenario.ToolCall{{Name: "sh", Result: "out"}}}, {Content: "done"}}},
		{User: "again", Rounds: []scenario.Round{{Content: "again done"}}},
	}}
	tr, err := Run(context.Background(), sc, nil, Config{Model: script{sc}, Request: m, Facts: request.Values{}})
	if err != nil {
		t.Fatal(err)
	}
	var phases []Phase
	for _, c := range tr.Calls {
		phases = append(phases, c.Phase)
	}
	if want := []Phase{PhaseSide, PhaseAgent, PhaseAgent, PhaseSide, PhaseAgent}; !slices.Equal(phases, want) {
		t.Fatalf("calls %v, want %v", phases, want)
	}
	if tr.Requests[0].Reply != "done" || tr.Requests[1].Reply != "again done" || tr.Calls[0].Content != answer || tr.Calls[0].Model != "small" {
		t.Errorf("replies %q %q, side call %+v", tr.Requests[0].Reply, tr.Requests[1].Reply, tr.Calls[0])
	}
	texts := func(c int) []string {
		var out []string
		for _, msg := range tr.CallMessages(c) {
			out = append(out, msg.Content)
		}
		return out
	}
	if got := texts(0); !slices.Equal(got, []string{"ROUTER", "CTX", "hi"}) {
		t.Errorf("the side call reads %q", got)
	}
	if got := texts(2); !slices.Equal(got, []string{"AGENT", "CTX", "hi", "", "<o>out</o>"}) {
		t.Errorf("the agent's second call reads %q", got)
	}
	body, err := tr.Request(0)
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"contents":[{"parts":[{"text":"CTX"}],"role":"user"},{"parts":[{"text":"hi"}],"role":"user"}],"systemInstruction":{"parts":[{"text":"ROUTER"}],"role":"user"},"generationConfig":{"x":1}}`; string(body) != want {
		t.Errorf("side body\n got %s\nwant %s", body, want)
	}
	body, err = tr.Request(1)
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"contents":[{"parts":[{"text":"CTX"},{"text":"hi"}],"role":"user"}],"systemInstruction":{"parts":[{"text":"AGENT"}],"role":"user"},"tools":[{"functionDeclarations":[{"name":"sh"}]}]}`; string(body) != want {
		t.Errorf("agent body\n got %s\nwant %s", body, want)
	}
}

// chatAgent is a request model of an agent CLI speaking Chat Completions
// with what Qwen Code and Copilot CLI do: a side call after a turn its
// first call answered, its shell's results in words of its own, each
// prompt in its wrapper, a Stop hook's words sent as a new prompt.
func chatAgent() *request.Model {
	nothing := "Nothing to keep."
	sh := `{"type":"function","function":{"name":"sh","parameters":{}}}`
	rd := `{"type":"function","function":{"name":"read","parameters":{}}}`
	return &request.Model{Agent: "chat", Version: "1", API: request.Chat, Model: "m",
		System: []request.Piece{{ID: "system.1", Role: "system", Text: request.Text{{Lit: "You are the agent in "}, {Slot: request.SlotCwd}}}},
		Turn:   []request.Part{{Prompt: true}},
		Tools:  []request.Tool{{Name: "sh", Definition: request.Text{{Lit: sh}}}, {Name: "read", Definition: request.Text{{Lit: rd}}}},
		Framing: request.Framing{Prompt: request.Text{{Lit: "<now>"}, {Slot: request.SlotDatetime}, {Lit: "</now>\n\n"}, {Slot: request.SlotPrompt}},
			Join: map[string]string{string(PointBeforeSend): "\n\n"},
			Results: []request.ResultFrame{{Tool: "sh", Hooks: true, Text: request.Text{{Lit: "$ "}, {Slot: request.ArgSlot("command")}, {Lit: "\n"},
				{Slot: request.SlotResult, Empty: "(empty)"}, {Lit: "\n#"}, {Slot: request.SlotCount}}}}},
		Loop: request.Loop{KeepsBlockedAnswer: true, StopPrompt: true,
			Sides: []request.Side{{Name: "side.1", When: request.SideAfterTurn, Direct: true,
				System: []request.Piece{{ID: "side.1.system.1", Role: "system", Text: request.Text{{Lit: "Extract memories."}}}},
				After:  []request.Piece{{ID: "side.1.after.1", Role: "user", Text: request.Text{{Lit: "Memories of "}, {Slot: request.SlotHome}}}},
				Tools:  []request.Tool{{Name: "read", Definition: request.Text{{Lit: rd}}}}, Answer: &nothing}}}}
}

func chatRun(t *testing.T, yaml string, hs ...Handler) *Trace {
	t.Helper()
	sc, ds := scenario.Parse("s.yaml", []byte(yaml))
	for _, d := range ds {
		if d.Severity == "error" {
			t.Fatal(d)
		}
	}
	tr, err := Run(context.Background(), sc, hookList{}, Config{Model: scriptWithErrors{sc}, Handlers: hs, Request: chatAgent(),
		Facts: request.Values{request.SlotCwd: "/p", request.SlotHome: "/h"}})
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// bodyMessages are call c's request body's messages as role: content.
func bodyMessages(t *testing.T, tr *Trace, c int) []string {
	t.Helper()
	body, err := tr.Request(c)
	if err != nil {
		t.Fatal(err)
	}
	var b struct {
		Messages []struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
		Tools []struct {
			Function struct{ Name string } `json:"function"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(body, &b); err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, m := range b.Messages {
		var s string
		_ = json.Unmarshal(m.Content, &s)
		out = append(out, m.Role+": "+s)
	}
	var tools []string
	for _, tl := range b.Tools {
		tools = append(tools, tl.Function.Name)
	}
	return append(out, "tools: "+strings.Join(tools, " "))
}

var nowRe = regexp.MustCompile(`<now>[^<]+</now>`)

// TestSideCallAfterDirectTurn: a turn its first call answers is followed
// by the agent's side call — its system prompt in place of the agent's,
// the turn and its answer, its own message, its tools — which takes no
// scripted answer; a turn that called a tool is not.
func TestSideCallAfterDirectTurn(t *testing.T) {
	tr := chatRun(t, `name: s
requests:
  - user: hi
    rounds:
      - content: Hello.
`)
	if len(tr.Calls) != 2 || tr.Calls[1].Phase != PhaseSide || tr.Calls[1].Side != "side.1" || tr.Calls[1].Content != "Nothing to keep." {
		t.Fatalf("calls %+v: want the turn's and the side call", tr.Calls)
	}
	if tr.Requests[0].Reply != "Hello." {
		t.Errorf("reply %q: the side call's answer is not the turn's", tr.Requests[0].Reply)
	}
	got := strings.Join(bodyMessages(t, tr, 1), "|")
	want := "system: Extract memories.|user: <now>T</now>\n\nhi|assistant: Hello.|user: Memories of /h|tools: read"
	if nowRe.ReplaceAllString(got, "<now>T</now>") != want {
		t.Errorf("side call\ngot  %q\nwant %q", got, want)
	}
	// a trace loaded from its record writes the same bodies
	back, err := FromRecord(tr.Record())
	if err != nil {
		t.Fatal(err)
	}
	back.SetRequestModel(chatAgent())
	for c := range tr.Calls {
		a, _ := tr.Request(c)
		b, _ := back.Request(c)
		if string(a) != string(b) {
			t.Errorf("call %d from the record:\n%s\nwant\n%s", c, b, a)
		}
	}
	if got := strings.Join(bodyMessages(t, tr, 0), "|"); !strings.HasPrefix(got, "system: You are the agent in /p|user: <now>") || !strings.HasSuffix(got, "tools: sh read") {
		t.Errorf("the turn's call after the side call was recorded: %q", got)
	}

	tr = chatRun(t, `name: s
requests:
  - user: list
    rounds:
      - tool_calls: [{name: sh, arguments: {command: ls}, result: "a b"}]
      - tool_calls: [{name: sh, arguments: {command: "true"}, result: ""}]
      - content: Done.
`)
	if len(tr.Calls) != 3 {
		t.Fatalf("%d calls: a turn that ran tools has no side call", len(tr.Calls))
	}
	got = strings.Join(bodyMessages(t, tr, 2), "|")
	if !strings.Contains(got, "tool: $ ls\na b\n#0|") || !strings.Contains(got, "tool: $ true\n(empty)\n#1|") {
		t.Errorf("the shell's results as the agent writes them, counted: %q", got)
	}
}

// TestStopPromptJoined: a Stop hook's words that keep the agent going are
// a new prompt in the agent's wrapper, the blocked answer kept before it;
// a prompt hook's words are joined to the prompt's text.
func TestStopPromptJoined(t *testing.T) {
	blocked := false
	stop := fakeHook{name: "stop", effects: map[Point]func(*Event) Effect{PointStop: func(*Event) Effect {
		if blocked {
			return Effect{}
		}
		blocked = true
		return Effect{RetryFeedback: "Run the tests."}
	}}}
	prompt := fakeHook{name: "prompt", effects: map[Point]func(*Event) Effect{PointBeforeSend: func(*Event) Effect {
		return Effect{Context: []NewMessage{{Role: "user", Content: "<ctx>"}}}
	}}}
	tr := chatRun(t, `name: s
requests:
  - user: release
    rounds:
      - content: Released.
      - content: Tested.
`, stop, prompt)
	if len(tr.Calls) != 2 {
		t.Fatalf("%d calls: the stop's call and no side call (the turn went on)", len(tr.Calls))
	}
	got := nowRe.ReplaceAllString(strings.Join(bodyMessages(t, tr, 1), "|"), "<now>T</now>")
	want := "system: You are the agent in /p|user: <now>T</now>\n\nrelease\n\n<ctx>|assistant: Released.|user: <now>T</now>\n\nRun the tests.|tools: sh read"
	if got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}
