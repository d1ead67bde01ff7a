package request

import (
	"encoding/json"
	"testing"
)

// TestConditionalText: a template's words under a condition (the git
// section, a context file's block with its slots) are written when it
// holds, and read back from the model file as written.
func TestConditionalText(t *testing.T) {
	text := Text{{Lit: "head"}, {Lit: "\n<ctx ", When: FileCondition("GEMINI.md")}, {Slot: SlotCwd, When: FileCondition("GEMINI.md")},
		{Lit: ">", When: FileCondition("GEMINI.md")}, {Slot: SlotFile("GEMINI.md"), When: FileCondition("GEMINI.md")},
		{Lit: "</ctx>", When: FileCondition("GEMINI.md")}, {Lit: "\n# Git", When: Git}, {Lit: "\nend"}}
	for _, c := range []struct {
		v    Values
		want string
	}{
		{Values{SlotCwd: "/p", SlotFile("GEMINI.md"): "words", SlotIsGit: "true"}, "head\n<ctx /p>words</ctx>\n# Git\nend"},
		{Values{SlotCwd: "/p", SlotFile("GEMINI.md"): "", SlotIsGit: "false"}, "head\nend"},
	} {
		if got := text.Fill(c.v); got != c.want {
			t.Errorf("fill %v: %q, want %q", c.v, got, c.want)
		}
	}
	data, err := json.Marshal(text)
	if err != nil {
		t.Fatal(err)
	}
	var back Text
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	if string(must(json.Marshal(back))) != string(data) {
		t.Errorf("read back as %s, written %s", must(json.Marshal(back)), data)
	}
	for _, bad := range []string{`[{"lit": "x", "when": "sometimes"}]`, `[{"lit": "x", "slot": "cwd"}]`, `[{}]`} {
		var tx Text
		if err := json.Unmarshal([]byte(bad), &tx); err == nil {
			t.Errorf("%s read as %v", bad, tx)
		}
	}
	if FileCondition("A").Not().Not() != FileCondition("A") || Git.Not() != NoGit || !FileCondition("A").Not().Holds(Values{}) {
		t.Error("conditions' negation")
	}
}

func must(b []byte, err error) []byte {
	if err != nil {
		panic(err)
	}
	return b
}

// TestTextLines: a slot's lines after the first start as the CLI starts
// them (Qwen Code's "git: "), inside words under a condition.
func TestTextLines(t *testing.T) {
	tx := Text{{Lit: "root: "}, {Slot: SlotCwd, When: Git}, {Lit: "none", When: NoGit},
		{Lit: "\n"}, {Lit: "git: ", When: Git}, {Slot: SlotGitStatus, Lines: "git: ", Empty: "(clean)", When: Git}, {Lit: "\n", When: Git}}
	for _, c := range []struct {
		v    Values
		want string
	}{
		{Values{SlotIsGit: "false", SlotCwd: "/p"}, "root: none\n"},
		{Values{SlotIsGit: "true", SlotCwd: "/p", SlotGitStatus: "?? a\n?? b"}, "root: /p\ngit: ?? a\ngit: ?? b\n"},
		{Values{SlotIsGit: "true", SlotCwd: "/p", SlotGitStatus: ""}, "root: /p\ngit: (clean)\n"},
	} {
		if got := tx.Fill(c.v); got != c.want {
			t.Errorf("Fill(%v) = %q, want %q", c.v, got, c.want)
		}
	}
	var back Text
	if err := json.Unmarshal(must(json.Marshal(tx)), &back); err != nil || back.Skeleton() != tx.Skeleton() || back[5].Lines != "git: " {
		t.Errorf("read back as %v (%v)", back, err)
	}
}

// TestRenderFiles: the instruction files present, in the agent's order,
// each by its item, between them the agent's separator.
func TestRenderFiles(t *testing.T) {
	m := &Model{Lists: map[string]List{ListFiles: {Item: Text{{Lit: "<i>\n"}, {Slot: ItemContent}, {Lit: "</i>"}}, Files: []string{"A.md", "B.md"}, Sep: "\n\n"}}}
	es := []Entry{{Name: "B.md", Body: "b\n", Kind: EntryFile}, {Name: "A.md", Body: "a\n", Kind: EntryFile}, {Name: "skill", Kind: EntryProject}}
	if got, want := m.RenderFiles(es), "<i>\na\n</i>\n\n<i>\nb\n</i>"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if got := m.RenderFiles(es[:1]); got != "<i>\nb\n</i>" {
		t.Errorf("one file: %q", got)
	}
	// the files' list is the folder's (workspace.AgentFolder): the lists
	// of the hook system's entries leave it be
	if v, ok := m.ListValues(es)[ListFiles]; ok {
		t.Errorf("the entries' lists set the files' list: %q", v)
	}
}

// TestOrderStdin: a hook's stdin in the CLI's key order for its event,
// keys the model does not know after them, other events as they are.
func TestOrderStdin(t *testing.T) {
	m := &Model{Stdin: map[string][]string{"Stop": {"session_id", "cwd", "hook_event_name"}}}
	in := []byte(`{"hook_event_name":"Stop","extra":[1,2],"cwd":"/p","session_id":"s"}`)
	if got, want := string(m.OrderStdin("Stop", in)), `{"session_id":"s","cwd":"/p","hook_event_name":"Stop","extra":[1,2]}`; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	if got := string(m.OrderStdin("Other", in)); got != string(in) {
		t.Errorf("an event without an order: %s", got)
	}
	var none *Model
	if got := string(none.OrderStdin("Stop", in)); got != string(in) {
		t.Errorf("no model: %s", got)
	}
}
