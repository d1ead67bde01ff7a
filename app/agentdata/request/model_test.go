package request

import (
	"encoding/json"
	"testing"
)

// TestTextSections: a section is written when its condition holds, its
// words outside otherwise; a slot's lines after the first start as the
// CLI starts them; the template reads back from its JSON.
func TestTextSections(t *testing.T) {
	tx := Text{{Lit: "root: "}, {When: Git, Text: Text{{Slot: SlotCwd}}, Empty: "none"},
		{Lit: "\n"}, {When: Git, Text: Text{{Lit: "git: "}, {Slot: SlotGitStatus, Lines: "git: ", Empty: "(clean)"}, {Lit: "\n"}}}}
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
	data, err := json.Marshal(tx)
	if err != nil {
		t.Fatal(err)
	}
	var back Text
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	if back.Skeleton() != tx.Skeleton() || len(back.Slots()) != 2 {
		t.Errorf("read back %s as %q (slots %v)", data, back.Skeleton(), back.Slots())
	}
	if err := json.Unmarshal([]byte(`[{"when": "git"}, {"slot": "cwd", "when": "git"}]`), &back); err == nil {
		t.Error("a segment that names a condition and a slot, or neither, was read")
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
}

// TestResultFill: a tool's output as the agent writes it, with the call's
// arguments, its words for none and the count of calls before.
func TestResultFill(t *testing.T) {
	r := &Result{Tool: "sh", Text: Text{{Lit: "$ "}, {Slot: ArgSlot("command")}, {Lit: "\n"}, {Slot: SlotResult, Empty: "(empty)"}, {Lit: " #"}, {Slot: SlotCount}}}
	args := map[string]any{"command": "ls", "n": 2}
	if got := r.Fill("a b", args, 0); got != "$ ls\na b #0" {
		t.Errorf("got %q", got)
	}
	if got := r.Fill("", args, 3); got != "$ ls\n(empty) #3" {
		t.Errorf("got %q", got)
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
