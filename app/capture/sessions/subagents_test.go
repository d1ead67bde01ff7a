package sessions

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"hookstudio/app/agent/engine"
	"hookstudio/app/capture"
)

// The sub-agent fixtures: both pinned Claude Code versions asked the Agent
// tool for a sub-agent whose SubagentStart hook gave it context and whose
// SubagentStop hook blocked its first answer (cmd/hookctl's
// TestRealAgentClaudeCodeSubagentSessions, -update): the session's
// transcript, and its sub-agent's beside it (<name>/subagents/).
var subagentFixtures = []struct {
	name  string
	exact bool
}{
	{"claude-code-2.1.197-subagent", false},
	{"claude-code-2.1.332-subagent", true},
}

// TestClaudeCodeSubagentFixtures: the sub-agent is a request of its own,
// nested under the call that asked for it (its kind, its task, the tool
// call); its calls are those the capture saw it send and the session's
// the rest — on 2.1.332 each body the body sent and each list the
// capture's message for message, on 2.1.197 rebuilt with every hook's
// words the model read — and its SubagentStart and SubagentStop hooks
// are steps of it, their words theirs (a SubagentStop block reads as a
// Stop's feedback).
func TestClaudeCodeSubagentFixtures(t *testing.T) {
	for _, fx := range subagentFixtures {
		t.Run(fx.name, func(t *testing.T) {
			bodies := map[int][]byte{}
			im := importFixture(t, fx.name, Options{OnRequest: func(k int, b []byte) { bodies[k] = b }})
			s := im.Session()
			tr := mustTrace(t, im)
			if len(s.Subagents) != 1 || len(tr.Requests) != 2 {
				t.Fatalf("%d sub-agents, %d requests", len(s.Subagents), len(tr.Requests))
			}
			sub := tr.Requests[1].Subagent
			if tr.Requests[0].Subagent != nil || sub == nil || sub.Parent != 0 || sub.Call != 0 || sub.Type != "general-purpose" ||
				sub.Description != "Look at the build" || sub.AgentID != s.Subagents[0].ID || sub.Tool < 0 || tr.Record().ToolCalls[sub.Tool].Name != "Agent" {
				t.Fatalf("the sub-agent is not nested under the call that asked for it: %+v", sub)
			}
			if s.Subagents[0].Request != 1 || s.Subagents[0].ToolUseID != sub.ToolUseID {
				t.Errorf("the session's sub-agent: %+v", s.Subagents[0])
			}
			// the trace's calls, conversation by conversation, as the capture saw them
			captured := readCaptured(t, fx.name)
			byAgent := map[string][]capturedCall{}
			for _, c := range captured {
				byAgent[c.AgentID] = append(byAgent[c.AgentID], c)
			}
			sessionOf := map[int]int{} // trace call → Session.Calls
			for i, c := range s.Calls {
				sessionOf[c.Call] = i
			}
			for r, who := range []string{"", sub.AgentID} {
				want, calls := byAgent[who], tr.Requests[r].Calls
				if len(calls) != len(want) {
					t.Fatalf("request %d: %d calls, the capture saw %d", r, len(calls), len(want))
				}
				for k, w := range want {
					c := calls[k]
					if fx.exact && bodySum(t, bodies[sessionOf[c]]) != w.Body {
						t.Errorf("request %d call %d: the body rebuilt from the transcript is not the body sent", r, k+1)
					}
					compareCaptured(t, tr, c, w, fx.exact, r > 0)
				}
			}
			var hooks []string
			for _, st := range tr.Steps() {
				if st.HookCall != nil && st.Request == 1 {
					e, _, _ := strings.Cut(st.HookCall.Event, ":")
					hooks = append(hooks, e+" "+string(st.HookCall.Outcome))
				}
			}
			if !slices.Contains(hooks, "SubagentStart modified") || !slices.Contains(hooks, "SubagentStop blocked") {
				t.Errorf("the sub-agent's hook steps: %v", hooks)
			}
			checkGolden(t, fx.name, account(t, s, tr))
		})
	}
}

// compareCaptured checks trace call c against what the capture saw of it:
// exact, message for message; rebuilt, every hook's words in it as that
// hook's. In a sub-agent's request a Stop's feedback is its SubagentStop's.
func compareCaptured(t *testing.T, tr *engine.Trace, c int, w capturedCall, exact, sub bool) {
	t.Helper()
	got := tr.CallMessages(c)
	event := func(e string) string {
		if ev, _, _ := strings.Cut(e, ":"); sub && ev == "Stop" {
			return "SubagentStop"
		}
		return e
	}
	if !exact {
		for _, m := range w.Messages {
			if m.Origin == capture.OriginHook && !slices.ContainsFunc(got, func(g engine.Message) bool {
				return sum(g.Content) == m.Content && byHook(g) && sameLabel(hookEvent(tr, g), event(m.Hook))
			}) {
				t.Errorf("call %d: a hook's words the model read (%s %s… of %s) are not its hook's message in the rebuilt list", c+1, m.Role, m.Content[:8], m.Hook)
			}
		}
		return
	}
	if len(got) != len(w.Messages) {
		t.Errorf("call %d: %d messages, the capture %d", c+1, len(got), len(w.Messages))
		return
	}
	for i, m := range w.Messages {
		if got[i].Role != m.Role || sum(got[i].Content) != m.Content || byHook(got[i]) != (m.Origin == capture.OriginHook) ||
			!sameLabel(hookEvent(tr, got[i]), event(m.Hook)) {
			t.Errorf("call %d message %d: %s %.60q hook %v %s; the capture: %s %s… %s", c+1, i, got[i].Role, got[i].Content, byHook(got[i]),
				hookEvent(tr, got[i]), m.Role, m.Content[:8], m.Hook)
		}
	}
}

// TestSubagentsFollowed: a session followed while its sub-agent runs
// grows by the sub-agent's transcript too — what it appends is read,
// nothing twice — and the run in the end is the whole import's.
func TestSubagentsFollowed(t *testing.T) {
	const fx = "claude-code-2.1.332-subagent"
	dir := t.TempDir()
	main := filepath.Join(dir, "session.jsonl")
	subSrc := SubagentFiles(filepath.Join("testdata", fx+".jsonl"))
	if len(subSrc) != 1 {
		t.Fatalf("fixture sub-agents: %v", subSrc)
	}
	sub := filepath.Join(subagentsDir(main), filepath.Base(subSrc[0]))
	meta, err := os.ReadFile(strings.TrimSuffix(subSrc[0], ".jsonl") + ".meta.json")
	if err != nil {
		t.Fatal(err)
	}
	mainLines, subLines := fixtureLines(t, fx), linesOf(t, subSrc[0])
	if err := os.MkdirAll(filepath.Dir(sub), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(strings.TrimSuffix(sub, ".jsonl")+".meta.json", meta, 0o644); err != nil {
		t.Fatal(err)
	}
	im := NewImporter(main, Options{})
	write := func(path string, lines []string) {
		f, err := os.OpenFile(path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.WriteString(strings.Join(lines, "")); err != nil {
			t.Fatal(err)
		}
		f.Close()
	}
	// the session's file as it stood when the sub-agent began, then the
	// sub-agent's in two parts (the second cut inside a line), then the rest
	half := len(mainLines) / 2
	write(main, mainLines[:half])
	if _, err := readNew(context.Background(), main, im); err != nil {
		t.Fatal(err)
	}
	subText := strings.Join(subLines, "")
	cut := len(subText) / 2
	for _, part := range []string{subText[:cut], subText[cut:]} {
		f, err := os.OpenFile(sub, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
		if err != nil {
			t.Fatal(err)
		}
		_, _ = f.WriteString(part)
		f.Close()
		if err := im.ReadSubagents(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	write(main, mainLines[half:])
	if _, err := readNew(context.Background(), main, im); err != nil {
		t.Fatal(err)
	}
	if err := im.ReadSubagents(context.Background()); err != nil {
		t.Fatal(err)
	}
	// the same run, but for the order of the tool calls' table (the
	// sub-agent's read before the session's last)
	whole := importFixture(t, fx, Options{})
	doc := func(im *Importer) []byte {
		d := mustTrace(t, im).Document()
		d.Scenario = ""
		for _, r := range d.Requests {
			if r.Subagent != nil {
				r.Subagent.Tool = 0
			}
		}
		out, _ := json.Marshal(d)
		return out
	}
	if !bytes.Equal(doc(im), doc(whole)) {
		t.Errorf("the followed session's run is not the whole import's")
	}
}

func linesOf(t *testing.T, path string) []string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return strings.SplitAfter(strings.TrimSuffix(string(data), "\n"), "\n")
}

// TestListSubagents: a session lists its sub-agents under it (their kind,
// task, calls and hooks), found by their words too, and is read again
// when only its sub-agent's transcript grew.
func TestListSubagents(t *testing.T) {
	const fx = "claude-code-2.1.332-subagent"
	root := t.TempDir()
	l := Locations{Claude: filepath.Join(root, "projects")}
	main := filepath.Join(l.Claude, "-home-user-project", "s1.jsonl")
	files := map[string]string{filepath.Join("testdata", fx+".jsonl"): main}
	for _, f := range SubagentFiles(filepath.Join("testdata", fx+".jsonl")) {
		files[f] = filepath.Join(subagentsDir(main), filepath.Base(f))
		meta := strings.TrimSuffix(f, ".jsonl") + ".meta.json"
		files[meta] = filepath.Join(subagentsDir(main), filepath.Base(meta))
	}
	for from, to := range files {
		data, err := os.ReadFile(from)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(to, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ls := NewLister()
	list, err := ls.List(context.Background(), l, Filter{})
	if err != nil || len(list) != 1 {
		t.Fatalf("%d sessions: %v", len(list), err)
	}
	s := list[0]
	if s.Calls != 2 || len(s.Subagents) != 1 {
		t.Fatalf("session %d calls, sub-agents %+v", s.Calls, s.Subagents)
	}
	sub := s.Subagents[0]
	if sub.Type != "general-purpose" || sub.Description != "Look at the build" || sub.Calls != 3 ||
		!slices.ContainsFunc(sub.Hooks, func(h HookCount) bool { return strings.HasPrefix(h.Label, "SubagentStart") }) {
		t.Errorf("sub-agent %+v", sub)
	}
	if got, _ := ls.List(context.Background(), l, Filter{Search: "look at the BUILD"}); len(got) != 1 {
		t.Error("the search does not find a session by its sub-agent's task")
	}
	// the sub-agent goes on: its transcript grows, the session's does not
	f, err := os.OpenFile(sub.File, os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = f.WriteString(`{"type":"assistant","isSidechain":true,"agentId":"` + sub.ID + `","message":{"id":"msg_more","role":"assistant","model":"claude-opus-5-5","content":[{"type":"text","text":"more"}]}}` + "\n")
	f.Close()
	list, _ = ls.List(context.Background(), l, Filter{})
	if len(list) != 1 || len(list[0].Subagents) != 1 || list[0].Subagents[0].Calls != 4 {
		t.Errorf("the grown sub-agent is not read again: %+v", list)
	}
}
