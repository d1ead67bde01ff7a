package search

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"hookstudio/app/agent/engine"
	"hookstudio/app/hooks/skills"
)

func TestMain(m *testing.M) {
	// every test here needs FTS5: without the build tag they would all fail
	// on the same error, so say it once
	dir, err := os.MkdirTemp("", "search-probe")
	if err == nil {
		ix, err := Open(context.Background(), filepath.Join(dir, "probe.db"))
		if errors.Is(err, ErrNoFullText) {
			fmt.Fprintln(os.Stderr, "app/store/search: these tests need SQLite's FTS5: go test -tags sqlite_fts5 (make test passes it)")
			os.RemoveAll(dir)
			os.Exit(1)
		}
		if ix != nil {
			ix.Close()
		}
		os.RemoveAll(dir)
	}
	os.Exit(m.Run())
}

func openTemp(t *testing.T) *Index {
	t.Helper()
	ix, err := Open(context.Background(), filepath.Join(t.TempDir(), FileName))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close() })
	return ix
}

// guardRecord is a Claude Code session in brief: the user asks to clean
// the build folder, the model runs rm -rf, a PreToolUse guard blocks it
// (its reason is the tool's result), a prompt hook reminds of the rules
// before each call, and the model answers in words.
//
//	step 0 build_messages: 0 system, 1 user, 2 the prompt hook's reminder
//	step 1 llm_call 0 → Bash rm -rf build
//	step 2 append: 3 assistant (the tool call)
//	step 3 hook_call 0 (PreToolUse ./hooks/guard.sh, blocked): 4 tool result in the guard's words
//	step 4 inject: 5 the reminder again
//	step 5 llm_call 1 → "I will not delete the build folder: the guard forbids rm -rf."
//	step 6 reply
func guardRecord(t testing.TB) *engine.Record {
	t.Helper()
	tc := engine.ToolCall{ID: "toolu_1", Name: "Bash", Arguments: map[string]any{"command": "rm -rf build"},
		Result: "Blocked by the guard: rm -rf deletes files for good; use git clean -n first", Status: engine.ToolDenied, By: "./hooks/guard.sh"}
	exit := 2
	reminder := "Keep the build green and never delete tracked files."
	answer := "I will not delete the build folder: the guard forbids rm -rf."
	rec := engine.Record{
		Scenario: "clean", Status: engine.Status("ok"),
		Hooks:    []skills.Hook{{Skill: "rules", Name: "reminder", Timing: skills.BeforeEachAgent, Role: skills.Role("system"), Content: reminder}},
		Requests: []engine.RequestInfo{{Index: 0, User: "clean the build folder", Calls: []int{0, 1}, FirstStep: 0, LastStep: 6}},
		Calls: []engine.LLMCall{
			{Index: 0, Request: 0, Phase: engine.PhaseAgent, Step: 1, ToolCalls: []engine.ToolCall{tc}},
			{Index: 1, Request: 0, Phase: engine.PhaseAgent, Step: 5, Content: answer},
		},
		Messages: []engine.MessageRecord{
			{Content: "You are a careful coding agent.", Role: "system", Origin: engine.OriginSystemPrompt, Created: 0, Removed: -1},
			{Content: "clean the build folder", Role: "user", Origin: engine.OriginUserInput, Created: 0, Removed: -1},
			{Content: reminder, Role: "system", Origin: engine.OriginHook, Ref: 0, Created: 0, Removed: 4},
			{Content: "", Role: "assistant", Origin: engine.OriginAssistant, Ref: 0, N: 1, Created: 2, Removed: -1},
			{Content: tc.Result, Role: "tool", Origin: engine.OriginTool, Ref: 0, Created: 3, Removed: -1},
			{Content: reminder, Role: "system", Origin: engine.OriginHook, Ref: 0, Created: 4, Removed: -1},
		},
		Steps: []engine.StepRecord{
			{Kind: engine.StepBuildMessages, AddFrom: 0, AddTo: 3},
			{Kind: engine.StepLLMCall, Phase: engine.PhaseAgent, AddFrom: 3, AddTo: 3},
			{Kind: engine.StepAppend, AddFrom: 3, AddTo: 4},
			{Kind: engine.StepHookCall, Ref: 0, AddFrom: 4, AddTo: 5},
			{Kind: engine.StepInject, Timing: skills.BeforeEachAgent, AddFrom: 5, AddTo: 6, RemFrom: 0, RemTo: 1},
			{Kind: engine.StepLLMCall, Phase: engine.PhaseAgent, AddFrom: 6, AddTo: 6},
			{Kind: engine.StepReply, AddFrom: 6, AddTo: 6},
		},
		RemovedIDs: []int32{2},
		ToolCalls:  []engine.ToolCall{tc},
		HookCalls: []engine.HookCall{{System: "claude-code", Event: "PreToolUse:Bash", Hook: "./hooks/guard.sh", Outcome: engine.OutcomeBlocked,
			Input:  []byte(`{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"rm -rf build"}}`),
			Stderr: "rm -rf deletes files for good; use git clean -n first", ExitCode: &exit}},
	}
	if _, err := engine.FromRecord(rec); err != nil {
		t.Fatalf("the test's record is not a valid trace: %v", err)
	}
	return &rec
}

// guardDoc is guardRecord as run id of the history.
func guardDoc(t testing.TB, id int64, started time.Time) Doc {
	return Doc{Key: RunKey(id), Source: "session", Run: id, File: fmt.Sprintf("/home/user/.claude/projects/p/s%d.jsonl", id),
		Agent: "claude-code", Version: "2.1.332", Project: "/home/user/project", Title: "clean the build folder",
		Started: started, Sig: "1", Record: guardRecord(t)}
}
