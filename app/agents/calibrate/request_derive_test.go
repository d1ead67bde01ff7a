package calibrate

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"hookstudio/app/agent/tokens"
	"hookstudio/app/agentdata/request"
	"hookstudio/app/capture"
	"hookstudio/app/platform/workspace"
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

// TestOpaqueAfterSlot: a token of the CLI's own right after a slot's value
// whose last characters are alike in both runs starts after the value
// (never inside what the walk read already).
func TestOpaqueAfterSlot(t *testing.T) {
	va, vb := request.Values{request.SlotGitBranch: "topic-a1"}, request.Values{request.SlotGitBranch: "topic-b1"}
	tm, err := walk("x topic-a1b2 y", "x topic-b1c2 y", va, vb)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := markText(tm), "x \x00git_branch\x00\x00opaque\x00 y"; got != want {
		t.Errorf("template %q, want %q", got, want)
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

// TestWalkShortValues: a short value (an exit code) that two runs' texts
// hold glued to other digits (a time's) is no slot there; where it stands
// alone it is.
func TestWalkShortValues(t *testing.T) {
	a := "took 0.0031 s\nexit 0\nsize 3\n---\nhsr-tool\n"
	b := "took 0.3045 s\nexit 7\nsize 6\n---\nhsr-slow-output-longer\n"
	va := request.Values{request.SlotExitCode: "0", request.SlotResultTokens: "3", request.SlotResult: "hsr-tool\n"}
	vb := request.Values{request.SlotExitCode: "7", request.SlotResultTokens: "6", request.SlotResult: "hsr-slow-output-longer\n"}
	tm, err := walk(a, b, va, vb)
	if err != nil {
		t.Fatal(err)
	}
	want := "took 0.\x00opaque\x00 s\nexit \x00exit_code\x00\nsize \x00result_tokens\x00\n---\n\x00result\x00"
	if got := markText(tm); got != want {
		t.Errorf("template %q,\nwant     %q", got, want)
	}
	for _, c := range []struct {
		s    string
		at   int
		x    string
		want bool
	}{
		{"0.0031", 2, "0", true},
		{"exit 0\n", 5, "0", false},
		{"code 12", 5, "12", false},
		{"a/home/x", 2, "home", false}, // long values: never glued
	} {
		if got := glued(c.s, c.at, c.x); got != c.want {
			t.Errorf("glued(%q, %d, %q) = %v", c.s, c.at, c.x, got)
		}
	}
}

// TestExplains: a text one run has and another lacks is sent under the
// one condition the first meets and the other does not; none or several
// tell nothing.
func TestExplains(t *testing.T) {
	base := request.Values{request.SlotIsGit: "false", request.SlotFile("AGENTS.md"): "x"}
	bare := request.Values{request.SlotIsGit: "false", request.SlotFile("AGENTS.md"): ""}
	git := request.Values{request.SlotIsGit: "true", request.SlotFile("AGENTS.md"): "y"}
	gitBare := request.Values{request.SlotIsGit: "true", request.SlotFile("AGENTS.md"): ""}
	for _, c := range []struct {
		name string
		a, b request.Values
		want request.Condition
		ok   bool
	}{
		{"an instruction file", base, bare, request.FileCondition("AGENTS.md"), true},
		{"no instruction file", bare, base, request.FileCondition("AGENTS.md").Not(), true},
		{"outside git", base, git, request.NoGit, true},
		{"in git", git, base, request.Git, true},
		{"the same conditions", base, base, "", false},
		{"two conditions", base, gitBare, "", false},
	} {
		got, ok := explains(c.a, c.b)
		if got != c.want || ok != c.ok {
			t.Errorf("%s: %q %v, want %q %v", c.name, got, ok, c.want, c.ok)
		}
	}
}

// TestLearnResults: the shell tool's outputs of the probe's commands read
// as one template with the output, its exit code and token count as slots
// and the agent's own changing values as opaque; outputs no template reads
// are an error.
func TestLearnResults(t *testing.T) {
	spec := reqAgent{shell: "sh", outputs: map[string]shellOutput{
		"echo hsr-tool": {"hsr-tool\n", 0}, "true": {"", 0}, "slow": {"hsr-slow-output-longer\n", 7}}}
	frame := func(id, took string, o shellOutput) string {
		return "id " + id + "\ntook 0." + took + " s\nexit " + strconv.Itoa(o.code) + "\nsize " + strconv.Itoa(request.ApproxTokens(o.out)) + "\n---\n" + o.out
	}
	run := func(results ...string) *reqRan {
		var ms []capture.Message
		for i, cmd := range []string{"echo hsr-tool", "true", "slow"} {
			id := "c" + strconv.Itoa(i)
			args, _ := json.Marshal(map[string]string{"cmd": cmd})
			ms = append(ms, capture.Message{Role: "assistant", ToolCalls: []capture.ToolCall{{ID: id, Name: "sh", Arguments: args}}},
				capture.Message{Role: "tool", Content: results[i], Origin: capture.OriginToolResult, ToolCallID: id})
		}
		return &reqRan{calls: []capture.Call{{Messages: ms, Body: json.RawMessage(`{}`)}}}
	}
	o := spec.outputs
	good := run(frame("5b92b7", "0000", o["echo hsr-tool"]), frame("840511", "0001", o["true"]), frame("edcab0", "3012", o["slow"]))
	counter, err := tokens.NewCounter()
	if err != nil {
		t.Fatal(err)
	}
	m := &request.Model{}
	if err := learnResults(m, spec, []*reqRan{good}, counter); err != nil {
		t.Fatal(err)
	}
	f := m.Framing.Result("sh")
	if f == nil {
		t.Fatal("no frame learned")
	}
	if got, want := markText(f.Text), "id \x00opaque\x00\ntook 0.\x00opaque\x00 s\nexit \x00exit_code\x00\nsize \x00result_tokens\x00\n---\n\x00result\x00"; got != want {
		t.Errorf("frame %q,\nwant  %q", got, want)
	}
	if f.Hooks {
		t.Error("the frame read as the hooks' though no hook saved it")
	}
	// a hook that saved the framed words: the CLI hands them its hooks
	seen := run(frame("5b92b7", "0000", o["echo hsr-tool"]), frame("840511", "0001", o["true"]), frame("edcab0", "3012", o["slow"]))
	seen.wrote = map[string][]byte{"PostToolUse-0.json": must(json.Marshal(map[string]any{"tool_response": map[string]string{"llmContent": frame("840511", "0001", o["true"])}}))}
	raw := run(frame("5b92b7", "0000", o["echo hsr-tool"]), frame("840511", "0001", o["true"]), frame("edcab0", "3012", o["slow"]))
	raw.wrote = map[string][]byte{"PostToolUse-0.json": must(json.Marshal(map[string]any{"tool_response": "hsr-tool\n"}))}
	for _, c := range []struct {
		r     *reqRan
		hooks bool
	}{{seen, true}, {raw, false}} {
		m := &request.Model{}
		if err := learnResults(m, spec, []*reqRan{c.r}, counter); err != nil {
			t.Fatal(err)
		}
		if f := m.Framing.Result("sh"); f == nil || f.Hooks != c.hooks {
			t.Errorf("hooks read the frame: %+v, want %v", f, c.hooks)
		}
	}
	// a CLI that counts tokens otherwise: no template reads every output
	bad := run(frame("5b92b7", "0000", o["echo hsr-tool"]), frame("840511", "0001", o["true"]),
		"id edcab0\ntook 0.3012 s\nexit 7\nsize 5\n---\nhsr-slow-output-longer\n")
	if err := learnResults(&request.Model{}, spec, []*reqRan{bad}, counter); err == nil {
		t.Error("outputs counted otherwise read as the template")
	}
}

// TestLearnResultsProbes: without a command table, the probes' echo and
// true read as a template with the call's arguments and count where it
// reads every result (a shell id), as the output alone where the CLI
// writes it so (its words for none the EmptyResult); a blocked call's
// result, a hook's words, tells nothing of the tool.
func TestLearnResultsProbes(t *testing.T) {
	run := func(results ...string) *reqRan {
		var ms []capture.Message
		for i, cmd := range []string{"echo hsr-tool", "true", "echo hsr-named"} {
			id := "c" + strconv.Itoa(i)
			args, _ := json.Marshal(map[string]string{"command": cmd})
			origin := capture.OriginToolResult
			if i == 2 {
				origin = capture.OriginHook
			}
			ms = append(ms, capture.Message{Role: "assistant", ToolCalls: []capture.ToolCall{{ID: id, Name: "sh", Arguments: args}}},
				capture.Message{Role: "tool", Content: results[i], Origin: origin, ToolCallID: id})
		}
		return &reqRan{calls: []capture.Call{{Messages: ms, Body: json.RawMessage(`{}`)}}}
	}
	counter, err := tokens.NewCounter()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		r    *reqRan
		want string // the frame's text marked, "" none
	}{
		{"as it is", run("hsr-tool", "(no output)", "blocked: HSR named words"), ""},
		{"a shell id", run("<shell 0>\nhsr-tool", "<shell 1>\n(empty)", "blocked"), "<shell \x00count\x00>\n\x00result\x00"},
	} {
		m := &request.Model{}
		if err := learnResults(m, reqAgent{shell: "sh"}, []*reqRan{c.r}, counter); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		got := ""
		if f := m.Framing.Result("sh"); f != nil {
			got = markText(f.Text)
		}
		if got != c.want {
			t.Errorf("%s: frame %q, want %q", c.name, got, c.want)
		}
	}
}

// TestResponsesFraming: a Responses agent that sends no instructions and
// a developer message first has its system prompt as a message; several
// parts in one message are its own texts merged.
func TestResponsesFraming(t *testing.T) {
	for _, c := range []struct {
		body string
		want request.Framing
	}{
		{`{"input":[{"type":"message","role":"developer","content":[{"type":"input_text","text":"p"}]},
			{"type":"message","role":"user","content":[{"type":"input_text","text":"a"},{"type":"input_text","text":"b"}]}]}`,
			request.Framing{SystemMessage: true, MergeOwn: true}},
		{`{"instructions":"p","input":[{"type":"message","role":"user","content":[{"type":"input_text","text":"a"}]}]}`, request.Framing{}},
	} {
		got := responsesFraming(capture.Call{Body: json.RawMessage(c.body)})
		if got.SystemMessage != c.want.SystemMessage || got.MergeOwn != c.want.MergeOwn {
			t.Errorf("%s: %+v, want %+v", c.body, got, c.want)
		}
	}
}

// TestReadTurnOwnUserText: a user text of the first request that is not
// the prompt (an instruction file the agent quotes) is the agent's own.
func TestReadTurnOwnUserText(t *testing.T) {
	r := &reqRan{run: reqRun{name: "base"}, values: request.Values{request.SlotPrompt: "the prompt"}, calls: []capture.Call{{Body: json.RawMessage(`{}`),
		Messages: []capture.Message{
			{Role: "system", Content: "sys", Origin: capture.OriginSystem},
			{Role: "user", Content: "# instructions\nbe brief", Origin: capture.OriginUser},
			{Role: "user", Content: "the prompt", Origin: capture.OriginUser},
		}}}}
	ft, err := readTurn(r)
	if err != nil {
		t.Fatal(err)
	}
	if len(ft.own) != 2 || ft.own[1].text != "# instructions\nbe brief" || len(ft.parts) != 2 || ft.parts[0].prompt || !ft.parts[1].prompt {
		t.Errorf("own %+v, parts %+v", ft.own, ft.parts)
	}
}

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
	// a token that differs is the CLI's own (opaque); a word that differs
	// (Claude Code's sub-agent's "Yes"/"No") is its words for git
	a := "You work in /tmp/base/project.\nGit root: Not a git repository\nToken 1a2b3\nIn git: No\nRules follow.\nThe end.\n"
	b := "You work in /tmp/gitrun/project.\nGit root: /tmp/gitrun/project\nToken 9f8e\nIn git: Yes\nRules follow.\n# Git\nBranch: hsr-branch\nThe end.\n"
	parts := gitParts(a, b, va, vb)
	var got []string
	for _, p := range parts {
		got = append(got, unmark(p.marked, vb))
	}
	want := []string{"/tmp/gitrun/project", "Yes", "# Git\nBranch: hsr-branch\n"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("parts %q, want %q", got, want)
	}
}

// TestLearnBareTree: the drawing of the probe's folder (planted on disk,
// read as calibration reads it) tells the connectors, indents, order, the
// folders listed unread and the most entries drawn; every run's tree is
// then its slot's value.
func TestLearnBareTree(t *testing.T) {
	want := &request.Tree{Max: 20, Mid: "├───", Last: "└───", Pipe: "│   ", Blank: "    ", Sep: "/", More: "...",
		Ignored: []string{"dist", "node_modules"}, Order: request.OrderLocale, Bare: true, MarkUnread: true}
	plant := func(paths []string) request.Node {
		dir := t.TempDir()
		for _, p := range paths {
			full := filepath.Join(dir, filepath.FromSlash(p))
			if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(full, []byte("hsr\n"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		root, _ := workspace.Listing(context.Background(), dir, workspace.ListingOptions{})
		return root
	}
	paths := []string{"AGENTS.md", "a.md", "B.md", "QWEN.md", ".qwen/settings.json", "d/c.txt", "d/e/f.txt", "dist/y.js", "g/h.txt", "node_modules/x.js"}
	for i := 1; i <= 8; i++ {
		paths = append(paths, "z"+string(rune('0'+i))+".txt")
	}
	base, folder := plant([]string{"QWEN.md", ".qwen/settings.json"}), plant(paths)
	text := func(n request.Node) string {
		return "<system-reminder>\nThe folder:\n/p/\n" + want.Render(n, "") + "\n</system-reminder>"
	}
	ran := []*reqRan{{folder: base, values: request.Values{}}, {folder: folder, values: request.Values{}}}
	turns := []*firstTurn{{own: []ownText{{role: "user", text: text(base)}}}, {own: []ownText{{role: "user", text: text(folder)}}}}
	m := &request.Model{}
	if err := learnBareTree(m, ran, turns); err != nil {
		t.Fatal(err)
	}
	got := m.Tree
	if got == nil || got.Render(folder, "") != want.Render(folder, "") || got.Max != want.Max || got.Blank != want.Blank ||
		strings.Join(got.Ignored, ",") != "dist,node_modules" || got.Order != want.Order {
		t.Fatalf("learned %+v, want %+v", got, want)
	}
	if ran[0].values[request.SlotTree] != want.Render(base, "") {
		t.Errorf("the base run's tree: %q", ran[0].values[request.SlotTree])
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

// TestLearnHandBack: the sub-agent tool's results of runs whose
// sub-agents answered in one line and two (each line quoted with an
// indent), used other tools and took other times read as one template:
// the answer, the agent id, the tool count and names as slots, the CLI's
// own numbers opaque; it gives every run's result back.
func TestLearnHandBack(t *testing.T) {
	result := func(tools, answer, id, tokens, uses, ms string) string {
		return "<used>" + tools + "</used>\nReport:\n  " + strings.ReplaceAll(answer, "\n", "\n  ") + "\nid: " + id + " (again: " + id +
			")\n<n>tokens: " + tokens + "\ncalls made: " + uses + "\ntime in ms: " + ms + "</n>"
	}
	v := func(tools, answer, id, uses string) request.Values {
		return request.Values{request.SlotToolsUsed: tools, request.SlotAnswer: answer, request.SlotAgentID: id, request.SlotToolUses: uses}
	}
	rs := []handBack{
		{result("Bash", "one answer.", "a0123456789abcdef", "11802", "1", "172"), v("Bash", "one answer.", "a0123456789abcdef", "1")},
		{result("Bash, Read", "two answer.\nits second line.", "afedcba9876543210", "11960", "2", "450"),
			v("Bash, Read", "two answer.\nits second line.", "afedcba9876543210", "2")},
		{result("Bash", "three.", "a5555555555555555", "9807", "1", "88"), v("Bash", "three.", "a5555555555555555", "1")},
	}
	tx, err := learnHandBack(rs)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{request.SlotAnswer, request.SlotAgentID, request.SlotToolUses, request.SlotToolsUsed, request.SlotOpaque} {
		if !slices.Contains(tx.Slots(), s) {
			t.Errorf("no %s slot in %q", s, tx.Skeleton())
		}
	}
	for i, r := range rs {
		if _, ok := tx.Opaque(r.v, r.text); !ok {
			t.Errorf("run %d: %q does not read %q", i, tx.Skeleton(), r.text)
		}
	}
	want := result("Glob", "new.\nlines.", "a1111111111111111", "11802", "3", "172")
	if got := tx.Fill(v("Glob", "new.\nlines.", "a1111111111111111", "3")); got != want {
		t.Errorf("filled\n%q\nwant\n%q", got, want)
	}
}
