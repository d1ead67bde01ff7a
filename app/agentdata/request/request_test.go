package request

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// model is a request model of a made-up agent: words of our own, every
// kind of piece, slot and list.
func model() *Model {
	lit := func(s string) Seg { return Seg{Lit: s} }
	slot := func(s string) Seg { return Seg{Slot: s} }
	sub := &Model{Agent: "demo", Version: "1.0", API: Anthropic, Model: "demo-model", Keys: []string{"model", "system", "messages"},
		System: []Piece{{ID: "system.1", Role: "system", Text: Text{lit("helper build "), {Slot: SlotOpaque, Default: "c2d"}, lit("; Helper words.")}}},
		Turn:   []Part{{Prompt: true}, {Hooks: "SubagentStart"}}}
	return &Model{Agent: "demo", Version: "1.0", Subagent: &Subagent{Tool: "Task", Request: sub,
		Result: Text{lit("Handed back: "), slot(SlotAnswer), lit(" by "), slot(SlotAgentID), lit(" in "), {Slot: SlotOpaque, Default: "12"}, lit(" ms, ok")}}, API: Anthropic, Model: "demo-model", Keys: []string{"model", "system", "messages", "tools", "stream"},
		Fields: []Field{{Name: "stream", Value: json.RawMessage(`true`)}},
		System: []Piece{
			{ID: "system.1", Role: "system", Text: Text{lit("build "), {Slot: SlotOpaque, Default: "a1b"}, lit(";")}},
			{ID: "system.2", Role: "system", Text: Text{lit("Home is "), slot(SlotHome), lit(".")}, Cache: true},
		},
		Turn: []Part{
			{Piece: &Piece{ID: "turn.1", Role: "user", When: Git, Text: Text{lit("On branch "), slot(SlotGitBranch), lit(", status: "), {Slot: SlotGitStatus, Empty: "(nothing)"}}}},
			{Prompt: true},
			{Hooks: "SessionStart"},
			{Piece: &Piece{ID: "turn.4", Role: "system", Text: Text{lit("Folder "), slot(SlotCwd), lit("\nSkills:\n"), slot(ListSkills), lit("- own: the agent's own\n")}}},
			{Hooks: "UserPromptSubmit"},
			{Piece: &Piece{ID: "turn.6", Role: "system", Text: Text{lit("Today is "), slot(SlotDate), lit(".")}}},
		},
		Tools: []Tool{{Name: "Run", Definition: Text{lit(`{"name":"Run","description":"Runs in `), slot(SlotCwd), lit(`"}`)}}},
		Framing: Framing{Merge: true, Paragraphs: "system", Separator: "\n\n", CacheLast: true, StringContent: true,
			EmptyResult: Text{lit("("), slot("tool"), lit(" printed nothing)")}},
		Lists: map[string]List{ListSkills: {Item: Text{lit("- "), slot(ItemName), lit(": "), slot(ItemDescription), lit("\n")}, Merged: []string{EntryPlugin}}},
		Loop:  Loop{KeepsBlockedAnswer: true, Reminders: []Reminder{{After: 2, Piece: Piece{ID: "reminder.1", Role: "system", Text: Text{lit("Say something.")}}}}},
	}
}

func TestFill(t *testing.T) {
	m := model()
	v := Values{SlotHome: "/h", SlotCwd: `/p "q"`, SlotIsGit: "true", SlotGitBranch: "main", SlotGitStatus: "", SlotDate: "2026-01-02"}
	entries := []Entry{{Name: "zeta", Description: "z", Kind: EntryProject}, {Name: "alpha", Description: "a", Kind: EntryProject}, {Name: "p:x", Description: "px", Kind: EntryPlugin}}
	for k, x := range m.ListValues(entries) {
		v[k] = x
	}
	cases := []struct {
		name, got, want string
	}{
		{"opaque default", m.System[0].Text.Fill(v), "build a1b;"},
		{"empty form", m.Turn[0].Piece.Text.Fill(v), "On branch main, status: (nothing)"},
		{"list with a merged kind", m.Turn[3].Piece.Text.Fill(v), "Folder /p \"q\"\nSkills:\n- alpha: a\n- zeta: z\n- own: the agent's own\n- p:x: px\n"},
		{"JSON escaping", m.Tools[0].Definition.FillJSON(v), `{"name":"Run","description":"Runs in /p \"q\""}`},
		{"missing slot", Text{{Slot: "nope"}}.Fill(v), "{nope}"},
		{"skeleton", m.Turn[0].Piece.Text.Skeleton(), "On branch {git_branch}, status: {git_status}"},
	}
	for _, c := range cases {
		if c.got != c.want {
			t.Errorf("%s: %q, want %q", c.name, c.got, c.want)
		}
	}
	if x, ok := m.System[0].Text.Opaque(v, "build 9z;"); !ok || x != "9z" {
		t.Errorf("Opaque = %q %v", x, ok)
	}
	if got := m.MaskOpaque()("x build 77f; y"); got != "x build {opaque}; y" {
		t.Errorf("MaskOpaque = %q", got)
	}
}

// TestTurnItems: pieces of one text join as paragraphs unless a hook's
// words stand between them; a condition leaves a piece out.
func TestTurnItems(t *testing.T) {
	m := model()
	v := Values{SlotIsGit: "false", SlotCwd: "/p", SlotDate: "d"}
	kinds := func(items []Item) string {
		var out []string
		for _, it := range items {
			out = append(out, string(it.Kind)+":"+strings.Join(it.Pieces, "+")+it.Event)
		}
		return strings.Join(out, " ")
	}
	if got := kinds(m.TurnItems(v, func(string) bool { return false })); got != "prompt: piece:turn.4+turn.6" {
		t.Errorf("no hook spoke: %s", got)
	}
	if got := kinds(m.TurnItems(v, func(e string) bool { return e == "UserPromptSubmit" })); got != "prompt: piece:turn.4 hooks:UserPromptSubmit piece:turn.6" {
		t.Errorf("a hook between: %s", got)
	}
	v[SlotIsGit] = "true"
	if got := kinds(m.TurnItems(v, nil)); !strings.HasPrefix(got, "piece:turn.1 prompt:") {
		t.Errorf("in git: %s", got)
	}
}

// TestShapeOf: the shape keeps slots, sizes and hashes and none of the
// CLI's words; Parse refuses words in a shape.
func TestShapeOf(t *testing.T) {
	m := model()
	sh := ShapeOf(m)
	data := Encode(sh)
	for _, words := range []string{"Home is", "Runs in", "Say something", "printed nothing", "the agent's own", "Helper words", "Handed back"} {
		if strings.Contains(string(data), words) {
			t.Errorf("the shape holds the CLI's words %q", words)
		}
	}
	if _, err := Parse("shape.json", data); err != nil {
		t.Errorf("the shape does not parse: %v", err)
	}
	if sa := sh.Subagent; sa == nil || sa.Tool != "Task" || sa.Request == nil || !sa.Request.Shipped || len(sa.Request.System) != 1 {
		t.Errorf("the shape's sub-agent: %+v", sa)
	}
	if _, err := Parse("model.json", Encode(m)); err != nil {
		t.Errorf("the model does not parse: %v", err)
	}
	m.Shipped = true
	_, err := Parse("bad.json", Encode(m))
	if !errors.Is(err, ErrInvalid) {
		t.Fatalf("a shipped model with texts: %v", err)
	}
	if e := err.(*Error); len(e.Problems) < 5 {
		t.Errorf("every problem at once: %q", e.Problems)
	}
}

func TestParseSyntaxPosition(t *testing.T) {
	_, err := Parse("m.json", []byte("{\n  \"agent\": \"a\",\n  \"version\": 1\n}"))
	var e *Error
	if !errors.As(err, &e) || e.Line != 3 {
		t.Fatalf("a wrong type at line 3: %v", err)
	}
	_, err = Parse("m.json", []byte("{\n  \"agent\": \"a\",\n  \"nope\": true\n}"))
	if !errors.As(err, &e) {
		t.Fatalf("an unknown field: %v", err)
	}
}

// TestBuildAnthropic: the body's keys in the agent's order, the system
// blocks with their markers, one message per run of a role, paragraphs
// joined, the last block marked, single texts as strings.
func TestBuildAnthropic(t *testing.T) {
	m := model()
	body, err := Build(m, Values{SlotCwd: "/p"}, []Msg{
		{Role: "system", Text: "s1", System: true},
		{Role: "system", Text: "s2", System: true, Cache: true},
		{Role: "user", Text: "hi"},
		{Role: "system", Text: "hook words"},
		{Role: "system", Text: "env", Own: true},
		{Role: "assistant", ToolCalls: []ToolCall{{ID: "t1", Name: "Run", Arguments: json.RawMessage(`{"x":1}`)}}},
		{Role: "tool", Text: "out", ToolCallID: "t1"},
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"model":"demo-model","system":[{"text":"s1","type":"text"},{"cache_control":{"type":"ephemeral"},"text":"s2","type":"text"}],` +
		`"messages":[{"role":"user","content":"hi"},{"role":"system","content":"hook words\n\nenv"},` +
		`{"role":"assistant","content":[{"id":"t1","input":{"x":1},"name":"Run","type":"tool_use"}]},` +
		`{"role":"user","content":[{"cache_control":{"type":"ephemeral"},"content":"out","is_error":false,"tool_use_id":"t1","type":"tool_result"}]}],` +
		`"tools":[{"name":"Run","description":"Runs in /p"}],"stream":true}`
	if string(body) != want {
		t.Errorf("body\n%s\nwant\n%s", body, want)
	}
}

// TestMaskOpaque: the opaque values of the agent's texts, its sub-agent's
// request's and of the words a sub-agent's answer comes back in are what a
// comparison with the CLI's request leaves aside.
func TestMaskOpaque(t *testing.T) {
	mask := model().MaskOpaque()
	for _, c := range []struct{ in, want string }{
		{"build 9f8; rest", "build {opaque}; rest"},
		{"helper build 7e6; Helper words.", "helper build {opaque}; Helper words."},
		{"Handed back: done by a1 in 4521 ms, ok", "Handed back: done by a1 in {opaque} ms, ok"},
	} {
		if got := mask(c.in); got != c.want {
			t.Errorf("mask(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
