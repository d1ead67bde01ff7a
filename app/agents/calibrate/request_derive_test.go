package calibrate

import (
	"errors"
	"strings"
	"testing"

	"hookstudio/app/agentdata/request"
	"hookstudio/app/capture"
)

// TestWalk: two runs' texts read as one template — values where they
// stand, a slot's words for none, lines of a value the CLI starts with
// words of its own, a short token of its own as opaque — and a difference
// nothing explains is an error.
func TestWalk(t *testing.T) {
	va := request.Values{request.SlotCwd: "/tmp/a/project", request.SlotGitStatus: "?? x\n?? y", request.SlotPrompt: "first"}
	vb := request.Values{request.SlotCwd: "/tmp/bb/other/proj", request.SlotGitStatus: "", request.SlotPrompt: "second one"}
	for _, c := range []struct {
		name, a, b, want string
		err              error
	}{
		{"values", "in /tmp/a/project: first.", "in /tmp/bb/other/proj: second one.", "in \x00cwd\x00: \x00prompt\x00.", nil},
		{"words for none", "Status: ?? x\n?? y\nend", "Status: (clean)\nend", "Status: \x00git_status\x00\nend", nil},
		{"lines", "git: Status:\ngit: ?? x\ngit: ?? y\ngit: end", "git: Status:\ngit: (clean)\ngit: end", "git: Status:\ngit: \x00git_status\x00\ngit: end", nil},
		{"opaque", "cch=1a2b3; rest of the line", "cch=9z8y; rest of the line", "cch=\x00opaque\x00; rest of the line", nil},
		{"unexplained", "the CLI says this", "the CLI says that other thing", "", ErrUnexplained},
	} {
		t.Run(c.name, func(t *testing.T) {
			tx, err := walk(c.a, c.b, va, vb)
			if !errors.Is(err, c.err) {
				t.Fatalf("err %v, want %v", err, c.err)
			}
			if err != nil {
				return
			}
			if got := markText(tx); got != c.want {
				t.Errorf("template %q, want %q", got, c.want)
			}
			if got := tx.Fill(va); got != c.a {
				t.Errorf("filled with the first run's values: %q", got)
			}
			if got := tx.Fill(vb); got != c.b && c.name != "opaque" { // an opaque slot writes the first run's token
				t.Errorf("filled with the second run's values: %q", got)
			}
		})
	}
}

// TestInsertionAt: what one text holds around an offset that the other
// lacks, found among other differences (lines apart elsewhere, blank
// lines in both).
func TestInsertionAt(t *testing.T) {
	a := "head line one\nvalue AAA here\nthe list:\n\n<i>\nfile words\n\n</i>\n<end of list>\nlast line\n"
	b := "head line one\nvalue BBB here\nthe list:\n\n<end of list>\nlast line\n"
	got, ok := insertionAt(a, b, strings.Index(a, "file words"))
	if !ok || got != "<i>\nfile words\n\n</i>\n" {
		t.Errorf("got %q %v", got, ok)
	}
	if _, ok := insertionAt(a, strings.Replace(b, "<end of list>", "<other>", 1), strings.Index(a, "file words")); ok {
		t.Error("a replacement read as an insertion")
	}
}

// TestGitParts: where a git run's text and the base's differ in the CLI's
// words — an insertion, other words in place of the base's — and not
// where they differ in values or a token of its own.
func TestGitParts(t *testing.T) {
	va := request.Values{request.SlotCwd: "/tmp/base/project", request.SlotIsGit: "false"}
	vb := request.Values{request.SlotCwd: "/tmp/gitrun/project", request.SlotIsGit: "true", request.SlotGitBranch: "hsr-branch"}
	a := "You work in /tmp/base/project.\nGit root: Not a git repository\nToken 1a2b3\nRules follow.\nThe end.\n"
	b := "You work in /tmp/gitrun/project.\nGit root: /tmp/gitrun/project\nToken 9f8e\nRules follow.\n# Git\nBranch: hsr-branch\nThe end.\n"
	parts := gitParts(a, b, va, vb)
	var got []string
	for _, p := range parts {
		got = append(got, unmark(p.marked, vb))
	}
	want := []string{"/tmp/gitrun/project", "# Git\nBranch: hsr-branch\n"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("parts %q, want %q", got, want)
	}
}

// TestLearnTree: the drawing of the probe's folder tells the connectors,
// indents, order, the folders listed unread and the most entries drawn;
// every run's tree is then its slot's value.
func TestLearnTree(t *testing.T) {
	want := &request.Tree{Max: 20, Branch: "├───", Last: "└───", Pipe: "│   ", Blank: "    ", Sep: "/", More: "...",
		Skipped: []string{"dist", "node_modules"}, Order: request.OrderLocale}
	folder := []string{"AGENTS.md", "a.md", "B.md", "QWEN.md", ".qwen/", ".qwen/settings.json", "d/", "d/c.txt", "d/e/", "d/e/f.txt",
		"dist/", "dist/y.js", "g/", "g/h.txt", "node_modules/", "node_modules/x.js"}
	for i := 1; i <= 8; i++ {
		folder = append(folder, "z"+string(rune('0'+i))+".txt")
	}
	base := []string{"QWEN.md", ".qwen/", ".qwen/settings.json"}
	text := func(paths []string) string {
		return "<system-reminder>\nThe folder:\n/p/\n" + want.Draw(request.NodeOf(paths)) + "\n</system-reminder>"
	}
	ran := []*reqRan{{tree: base, values: request.Values{}}, {tree: folder, values: request.Values{}}}
	turns := []*firstTurn{{own: []ownText{{role: "user", text: text(base)}}}, {own: []ownText{{role: "user", text: text(folder)}}}}
	m := &request.Model{}
	if err := learnTree(m, ran, turns); err != nil {
		t.Fatal(err)
	}
	got := m.Lists[request.ListTree].Tree
	if got == nil || got.Draw(request.NodeOf(folder)) != want.Draw(request.NodeOf(folder)) || got.Max != want.Max || got.Blank != want.Blank ||
		strings.Join(got.Skipped, ",") != "dist,node_modules" || got.Order != want.Order {
		t.Fatalf("learned %+v, want %+v", got, want)
	}
	if ran[0].values[request.ListTree] != want.Draw(request.NodeOf(base)) {
		t.Errorf("the base run's tree: %q", ran[0].values[request.ListTree])
	}
}

// TestLostOutput: a probe run whose echo's words are not in its result
// (the command itself aside) lost the output.
func TestLostOutput(t *testing.T) {
	call := func(result string) *reqRan {
		return &reqRan{calls: []capture.Call{{Body: []byte("{}"), Messages: []capture.Message{
			{Role: "user", Content: "p", Origin: capture.OriginUser},
			{Role: "assistant", ToolCalls: []capture.ToolCall{{ID: "c", Name: "sh", Arguments: []byte(`{"command":"echo hsr-tool"}`)}}},
			{Role: "tool", ToolCallID: "c", Content: result},
		}}}}
	}
	if lostOutput(call("Command: echo hsr-tool\nOutput: hsr-tool")) {
		t.Error("the output was there")
	}
	if !lostOutput(call("Command: echo hsr-tool\nOutput: (empty)")) {
		t.Error("the output was lost")
	}
}
