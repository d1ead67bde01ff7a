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
