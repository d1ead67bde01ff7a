package main

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"hookstudio/app/capture"
	"hookstudio/app/capture/sessions"
)

const agentIDHeader = capture.SubagentHeader

// subagentSettings: a SubagentStart hook that gives the sub-agent context
// and a SubagentStop hook that blocks the sub-agent's first answer.
const subagentSettings = `{"hooks": {
  "SubagentStart": [{"hooks": [{"type": "command", "command": "echo '{\"hookSpecificOutput\":{\"hookEventName\":\"SubagentStart\",\"additionalContext\":\"sub start context: the fixtures are in testdata\"}}'"}]}],
  "SubagentStop": [{"hooks": [{"type": "command", "command": "f=\"$CLAUDE_PROJECT_DIR/substop.json\"; if [ -e \"$f\" ]; then exit 0; fi; cat > \"$f\"; echo '{\"decision\":\"block\",\"reason\":\"Check the fixtures too.\"}'"}]}]
}}`

// subagentAnswers: the session asks a sub-agent (in the foreground: 2.1.332
// runs one in the background unless told), which runs a tool, answers, is
// blocked by its SubagentStop hook and answers again; the session ends.
const subagentAnswers = `answers:
  - content: Let me ask a helper.
    tool_calls: [{name: Agent, arguments: {description: Look at the build, prompt: Find what is in the build folder, subagent_type: general-purpose, run_in_background: false}}]
  - tool_calls: [{name: Bash, arguments: {command: "ls build", description: List the build folder}}]
  - content: The build folder is empty.
  - content: The fixtures are fine too.
  - content: The helper is done.
`

// subagentWords are the words of the sub-agent tests (kept in a fixture).
var subagentWords = []string{"clean the build folder", "Let me ask a helper.", "Look at the build", "Find what is in the build folder",
	"ls build", "List the build folder", "The build folder is empty.", "The fixtures are fine too.", "The helper is done.",
	"sub start context: the fixtures are in testdata", "Check the fixtures too."}

// TestRealAgentClaudeCodeSubagentSessions runs both pinned Claude Code
// versions offline against hookctl capture with a call of the Agent tool,
// and imports the session with its sub-agent's transcript: the sub-agent
// is a request of its own nested under the call that asked for it (its
// kind and task, the tool call), its calls are those the capture saw with
// its id (on 2.1.332 each list the capture's message for message, on
// 2.1.197 rebuilt with every hook's words in it), its SubagentStart and
// SubagentStop hooks are steps of it, and the session's calls are the
// rest. With -update the transcripts, scrubbed, become fixtures of
// app/capture/sessions.
func TestRealAgentClaudeCodeSubagentSessions(t *testing.T) {
	for _, tc := range []struct{ version, cli string }{
		{"2.1.197", "node_modules/.bin/claude"},
		{"2.1.332", "node_modules/claude-code-2.1.332/bin/claude.exe"},
	} {
		t.Run(tc.version, func(t *testing.T) {
			claude := agentTool(t, tc.cli)
			t.Parallel()
			dir, proj, home, answers := claudeProject(t, subagentSettings, subagentAnswers)
			if err := os.MkdirAll(filepath.Join(proj, "build"), 0o755); err != nil {
				t.Fatal(err)
			}
			out := filepath.Join(dir, "capture.json")
			url, wait := startCapture(t, "--answers", answers, "--max-requests", "5", "--json", out, "--no-history")
			runClaude(t, claude, proj, home, url, "sk-ant-test-never-stored", "-p", "clean the build folder", "--allowedTools", "Bash Agent")
			if code, stderr := wait(); code != exitOK {
				t.Fatalf("capture exit %d: %s", code, stderr)
			}
			calls := capturedCalls(t, out)
			files, _ := filepath.Glob(filepath.Join(home, ".claude", "projects", "*", "*.jsonl"))
			if len(files) != 1 {
				t.Fatalf("transcripts: %v", files)
			}
			transcript := files[0]
			subs := sessions.SubagentFiles(transcript)
			if len(subs) != 1 {
				t.Fatalf("sub-agent transcripts: %v", subs)
			}
			doc, _ := importJSON(t, transcript, filepath.Join(dir, "history.db"))
			s := doc.session(t)
			if len(s.Subagents) != 1 || len(doc.Trace.Requests) != 2 {
				t.Fatalf("%d sub-agents, %d requests", len(s.Subagents), len(doc.Trace.Requests))
			}
			sub := doc.Trace.Requests[1].Subagent
			if sub == nil || sub.Parent != 0 || sub.Call != 0 || sub.Type != "general-purpose" || sub.Description != "Look at the build" ||
				sub.AgentID != s.Subagents[0].ID || sub.ToolUseID == "" {
				t.Fatalf("the sub-agent's request is not nested under the call that asked for it: %+v", sub)
			}
			// the capture's calls, by who sent them, are the requests' calls
			var mine, its []capture.Call
			for _, c := range calls {
				switch c.Headers[agentIDHeader] {
				case "":
					mine = append(mine, c)
				case sub.AgentID:
					its = append(its, c)
				default:
					t.Errorf("call %d is another sub-agent's (%s)", c.N, c.Headers[agentIDHeader])
				}
			}
			exact := tc.version == "2.1.332"
			for r, want := range [][]capture.Call{mine, its} {
				got := doc.Trace.Requests[r].LLMCalls
				if len(got) != len(want) {
					t.Fatalf("request %d: %d calls, the capture %d", r, len(got), len(want))
				}
				for k, c := range want {
					sameCall(t, doc, got[k].Messages, c, exact, r)
				}
			}
			// the sub-agent's hooks are steps of its request
			var events []string
			for _, st := range doc.Trace.Steps {
				if st.HookCall != nil && st.Request == 1 {
					e, _, _ := strings.Cut(st.HookCall.Event, ":")
					events = append(events, e+"/"+st.HookCall.Outcome)
				}
			}
			for _, w := range []string{"SubagentStart/modified", "SubagentStop/blocked"} {
				if !slices.Contains(events, w) {
					t.Errorf("no %s step in the sub-agent's request: %v", w, events)
				}
			}
			if os.Getenv("SESSIONS_KEEP") != "" {
				_ = os.CopyFS(filepath.Join(os.Getenv("SESSIONS_KEEP"), "subagent-"+tc.version), os.DirFS(dir))
			}
			if *update {
				writeSubagentFixture(t, tc.version, transcript, proj, home, calls)
			}
		})
	}
}

// sameCall checks an imported call's messages against what the capture
// saw: exact, message for message; rebuilt, every hook's words in it as
// that hook's.
func sameCall(t *testing.T, doc *importedDoc, got []traceMessage, c capture.Call, exact bool, r int) {
	t.Helper()
	k := c.N
	event := func(e string) string { return e }
	if r > 0 {
		event = subagentEvent
	}
	if !exact {
		for _, m := range c.Messages {
			if m.Origin == capture.OriginHook && !slices.ContainsFunc(got, func(g traceMessage) bool {
				return g.Content == m.Content && g.byHook() && sameEvent(doc.hookEvent(g), event(m.Hook))
			}) {
				t.Errorf("request %d call %d: the hook's words %q (%s) are not in the rebuilt list as its", r, k+1, cut(m.Content), m.Hook)
			}
		}
		return
	}
	if len(got) != len(c.Messages) {
		t.Errorf("request %d call %d: %d messages, the capture %d", r, k+1, len(got), len(c.Messages))
		return
	}
	for i, m := range c.Messages {
		if got[i].Role != m.Role || got[i].Content != m.Content || (m.Origin == capture.OriginHook) != got[i].byHook() ||
			!sameEvent(doc.hookEvent(got[i]), event(m.Hook)) {
			t.Errorf("request %d call %d message %d: %s %q (hook %v %s), the capture %s %q (%s %s)", r, k+1, i, got[i].Role, cut(got[i].Content),
				got[i].byHook(), doc.hookEvent(got[i]), m.Role, cut(m.Content), m.Origin, m.Hook)
		}
	}
}

// subagentEvent is the hook event of words capture read as event's in a
// sub-agent's request: Claude Code words a SubagentStop block as a Stop's
// feedback, which the import gives its SubagentStop hook.
func subagentEvent(event string) string {
	if e, _, _ := strings.Cut(event, ":"); e == "Stop" {
		return "SubagentStop"
	}
	return event
}

// writeSubagentFixture keeps the session's transcript and its sub-agent's,
// scrubbed alike, as claude-code-<version>-subagent.jsonl and
// claude-code-<version>-subagent/subagents/ in app/capture/sessions'
// testdata, with what the capture saw of each call.
func writeSubagentFixture(t *testing.T, version, transcript, proj, home string, calls []capture.Call) {
	t.Helper()
	pairs := []string{proj, "/home/user/project", home, "/home/user", filepath.Base(filepath.Dir(transcript)), "-home-user-project"}
	if kernel, err := os.ReadFile("/proc/sys/kernel/osrelease"); err == nil && len(bytes.TrimSpace(kernel)) > 0 {
		pairs = append(pairs, "Linux "+string(bytes.TrimSpace(kernel)), "Linux 6.1.0")
	}
	rep := strings.NewReplacer(pairs...)
	files := append([]string{transcript}, sessions.SubagentFiles(transcript)...)
	at := sessions.NewAgentTexts(subagentWords...)
	data := map[string][]byte{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if err := at.Collect(b); err != nil {
			t.Fatal(err)
		}
		data[f] = b
	}
	base := filepath.Join("..", "..", "app", "capture", "sessions", "testdata", "claude-code-"+version+"-subagent")
	if err := os.RemoveAll(base); err != nil {
		t.Fatal(err)
	}
	for i, f := range files {
		var scrubbed bytes.Buffer
		if err := sessions.Scrub(bytes.NewReader(data[f]), &scrubbed, sessions.Chain(at.JSON(), rep)); err != nil {
			t.Fatal(err)
		}
		dst := base + ".jsonl"
		if i > 0 {
			dst = filepath.Join(base, "subagents", filepath.Base(f))
			meta, err := os.ReadFile(strings.TrimSuffix(f, ".jsonl") + ".meta.json")
			if err != nil {
				t.Fatal(err)
			}
			writeFiles(t, "", map[string]string{strings.TrimSuffix(dst, ".jsonl") + ".meta.json": string(meta)})
		}
		writeFiles(t, "", map[string]string{dst: scrubbed.String()})
	}
	writeCaptured(t, base, at, rep, calls, nil)
}
