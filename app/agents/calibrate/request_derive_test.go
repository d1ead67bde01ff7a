package calibrate

import (
	"encoding/json"
	"strconv"
	"testing"

	"hookstudio/app/agent/tokens"
	"hookstudio/app/agentdata/request"
	"hookstudio/app/capture"
)

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
	files := []string{"AGENTS.md"}
	base := truths(request.Values{request.SlotIsGit: "false", request.FileSlot("AGENTS.md"): "x"}, files)
	bare := truths(request.Values{request.SlotIsGit: "false"}, files)
	git := truths(request.Values{request.SlotIsGit: "true", request.FileSlot("AGENTS.md"): "y"}, files)
	gitBare := truths(request.Values{request.SlotIsGit: "true"}, files)
	for _, c := range []struct {
		name string
		a, b map[request.Condition]bool
		want request.Condition
		ok   bool
	}{
		{"an instruction file", base, bare, request.FileCondition("AGENTS.md"), true},
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
	spec := reqAgent{shell: "sh", outputs: map[string]probeOutput{
		"echo hsr-tool": {"hsr-tool\n", 0}, "true": {"", 0}, "slow": {"hsr-slow-output-longer\n", 7}}}
	frame := func(id, took string, o probeOutput) string {
		return "id " + id + "\ntook 0." + took + " s\nexit " + strconv.Itoa(o.code) + "\nsize " + strconv.Itoa(request.ApproxTokens(o.out)) + "\n---\n" + o.out
	}
	run := func(results ...string) *reqRan {
		var ms []capture.Message
		for i, cmd := range []string{"echo hsr-tool", "true", "slow"} {
			id := "c" + strconv.Itoa(i)
			args, _ := json.Marshal(map[string]string{"cmd": cmd})
			ms = append(ms, capture.Message{Role: "assistant", ToolCalls: []capture.ToolCall{{ID: id, Name: "sh", Arguments: args}}},
				capture.Message{Role: "tool", Content: results[i], ToolCallID: id})
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
	// a CLI that counts tokens otherwise: no template reads every output
	bad := run(frame("5b92b7", "0000", o["echo hsr-tool"]), frame("840511", "0001", o["true"]),
		"id edcab0\ntook 0.3012 s\nexit 7\nsize 5\n---\nhsr-slow-output-longer\n")
	if err := learnResults(&request.Model{}, spec, []*reqRan{bad}, counter); err == nil {
		t.Error("outputs counted otherwise read as the template")
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
