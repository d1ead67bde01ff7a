package calibrate

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"hookstudio/app/agentdata/request"
	"hookstudio/app/capture"
)

// TestWalkConditional: words one run has and the other lacks, where a
// condition holds in the one only (a git folder, a context file), are
// words under that condition, the planted values in them slots; without
// such a condition they stay unexplained.
func TestWalkConditional(t *testing.T) {
	file := request.SlotFile("GEMINI.md")
	for _, c := range []struct {
		name   string
		a, b   string
		va, vb request.Values
		when   request.Condition
		err    bool
	}{
		{"git section", "SYS end.", "SYS end.\n\n# Git\n- a repository.", request.Values{request.SlotIsGit: "false"}, request.Values{request.SlotIsGit: "true"}, request.Git, false},
		{"no git section", "SYS end.\n\n# Git\n- a repository.", "SYS end.", request.Values{request.SlotIsGit: "true"}, request.Values{request.SlotIsGit: "false"}, request.Git, false},
		{"a context file's block", "<ctx>\ntree\n\n<loaded>from /tmp/a/proj/G: base words</loaded>\n</ctx>", "<ctx>\ntree\n\n</ctx>",
			request.Values{request.SlotCwd: "/tmp/a/proj", file: "base words"}, request.Values{request.SlotCwd: "/tmp/b/other", file: ""}, request.FileCondition("GEMINI.md"), false},
		{"no condition tells", "SYS end.", "SYS end. More words.", request.Values{request.SlotIsGit: "false"}, request.Values{request.SlotIsGit: "false"}, "", true},
	} {
		tm, err := walk(c.a, c.b, c.va, c.vb)
		if c.err {
			if err == nil {
				t.Errorf("%s: read as %q", c.name, markText(tm))
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if tm.Fill(c.va) != c.a || tm.Fill(c.vb) != c.b {
			t.Errorf("%s: %q fills as %q and %q", c.name, markText(tm), tm.Fill(c.va), tm.Fill(c.vb))
		}
		if !slices.ContainsFunc(tm, func(s request.Seg) bool { return s.When == c.when || s.When == c.when.Not() }) {
			t.Errorf("%s: no words under %s in %q", c.name, c.when, markText(tm))
		}
	}
	// the block's path is the folder's slot, its words the file's
	tm, _ := walk("<ctx>\n\n<l>/tmp/a/proj/G: base words</l>\n</ctx>", "<ctx>\n\n</ctx>",
		request.Values{request.SlotCwd: "/tmp/a/proj", file: "base words"}, request.Values{request.SlotCwd: "/tmp/b/other", file: ""})
	if s := tm.Slots(); !slices.Contains(s, request.SlotCwd) || !slices.Contains(s, file) {
		t.Errorf("slots %q of %q", s, markText(tm))
	}
}

// TestReconcileConditional: two readings of the base's text, one with the
// file's words as a slot, one with the whole block under the file's
// condition, are the block with its slots.
func TestReconcileConditional(t *testing.T) {
	file := request.SlotFile("G")
	v := request.Values{request.SlotCwd: "/p", file: "w", request.SlotIsGit: "false"}
	a := request.Text{{Lit: "x<b>"}, {Slot: request.SlotCwd}, {Lit: ":"}, {Slot: file}, {Lit: "</b>y."}}
	b := request.Text{{Lit: "x"}, {Lit: "<b>", When: request.FileCondition("G")}, {Slot: request.SlotCwd, When: request.FileCondition("G")},
		{Lit: ":", When: request.FileCondition("G")}, {Slot: file, When: request.FileCondition("G")}, {Lit: "</b>", When: request.FileCondition("G")},
		{Lit: "y."}, {Lit: " git", When: request.Git}}
	got, err := reconcile(a, b, v, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got.Fill(v) != "x<b>/p:w</b>y." || got.Fill(request.Values{request.SlotIsGit: "true", file: ""}) != "xy. git" {
		t.Errorf("%q", markText(got))
	}
}

// TestReconcileTwoGitRuns: the git section read against a dirty folder
// (its status a slot) and against a clean one (the CLI's words for none)
// is one section whose status is empty as the clean run wrote it.
func TestReconcileTwoGitRuns(t *testing.T) {
	base := request.Values{request.SlotIsGit: "false"}
	dirty := request.Values{request.SlotIsGit: "true", request.SlotGitStatus: "?? new.txt", request.SlotGitBranch: "topic-a"}
	clean := request.Values{request.SlotIsGit: "true", request.SlotGitStatus: "", request.SlotGitBranch: "topic-b"}
	text := "SYS."
	section := func(v request.Values) string {
		s := v[request.SlotGitStatus]
		if s == "" {
			s = "(clean)"
		}
		return text + "\n\ngit: branch " + v[request.SlotGitBranch] + "\nstatus:\n" + s
	}
	a, err := walk(text, section(dirty), base, dirty)
	if err != nil {
		t.Fatal(err)
	}
	b, err := walk(text, section(clean), base, clean)
	if err != nil {
		t.Fatal(err)
	}
	got, err := reconcile(a, b, base, []request.Values{base, dirty, clean})
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range []request.Values{base, dirty, clean} {
		want := text
		if v[request.SlotIsGit] == "true" {
			want = section(v)
		}
		if got.Fill(v) != want {
			t.Errorf("%q fills %v as %q, want %q", markText(got), v, got.Fill(v), want)
		}
	}
}

// TestOpaqueWholeToken: a number whose last digits differ between runs
// (a process group id) is one opaque value, not its differing tail.
func TestOpaqueWholeToken(t *testing.T) {
	tm, err := walk("PGID: 32320\n</x>", "PGID: 32360\n</x>", request.Values{}, request.Values{})
	if err != nil {
		t.Fatal(err)
	}
	if i := slices.IndexFunc(tm, func(s request.Seg) bool { return s.Slot == request.SlotOpaque }); i < 0 || tm[i].Default != "32320" {
		t.Errorf("%q", markText(tm))
	}
}

// TestLearnTree: the listing rules are read back from runs whose requests
// list their folders by known rules — glyphs, order, the folders never
// opened, the bound, what git ignores, the two summaries.
func TestLearnTree(t *testing.T) {
	rules := request.Tree{Summary: "Showing it all.", Truncated: "Showing some.", Gap: "\n\n", Mid: "├──", Last: "└──", Pipe: "│  ", Blank: "   ",
		Sep: "/", More: "…", Ignored: []string{".git", "node_modules"}, Max: 12, Order: request.OrderLocale, Gitignore: true}
	file := func(name string) request.Node { return request.Node{Name: name} }
	dir := func(name string, c ...request.Node) request.Node {
		return request.Node{Name: name, Dir: true, Children: c}
	}
	many := dir("many")
	for _, n := range []string{"f01", "f02", "f03", "f04", "f05", "f06", "f07", "f08", "f09", "f10", "f11", "f12", "f13", "f14"} {
		many.Children = append(many.Children, file(n))
	}
	folders := []request.Node{
		dir("a", file("B.txt"), file("a.txt"), file("_c.txt"), dir("sub", file("x"), dir("in", file("y"))), dir("zz", file("z"))),
		dir("b", dir("node_modules", file("m")), dir(".git", file("HEAD")), request.Node{Name: "ign.txt", Ignored: true}, file("k.txt"), dir("zlast", file("q"))),
		dir("c", many, file("top")),
	}
	var ran []*reqRan
	for i, f := range folders {
		cwd := "/w/" + f.Name
		text := "<ctx>\nStructure:\n\n" + rules.Render(f, cwd) + "\n\n</ctx>"
		body, _ := json.Marshal(map[string]string{"t": text})
		ran = append(ran, &reqRan{run: reqRun{name: string(rune('a' + i))}, folder: f, values: request.Values{request.SlotCwd: cwd},
			calls: []capture.Call{{Body: body, Messages: []capture.Message{{Role: "user", Content: text, Origin: capture.OriginContext}}}}})
	}
	m := &request.Model{}
	if err := learnTree(m, reqAgent{tree: true}, ran); err != nil {
		t.Fatal(err)
	}
	if got, _ := json.Marshal(m.Tree); string(got) != string(must(json.Marshal(rules))) {
		t.Errorf("learned %s\n   want %s", got, must(json.Marshal(rules)))
	}
	for _, r := range ran {
		if !strings.Contains(r.calls[0].Messages[0].Content, r.values[request.SlotTree]) {
			t.Errorf("%s: its listing %q", r.run.name, r.values[request.SlotTree])
		}
	}
}

func must(b []byte, err error) []byte {
	if err != nil {
		panic(err)
	}
	return b
}
