package capture_test

import (
	"context"
	"path/filepath"
	"testing"

	"hookstudio/app/capture"
	"hookstudio/app/store/history"
)

// TestCaptureRunInHistory: a capture with an interleaved side request (two
// conversations, two requests) is stored and read back by the history
// with every call's list as the agent sent it.
func TestCaptureRunInHistory(t *testing.T) {
	ctx := context.Background()
	store, err := history.Open(ctx, filepath.Join(t.TempDir(), "history.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	sys := capture.Message{Role: "system", Content: "You are Claude Code.", Origin: capture.OriginSystem}
	user := capture.Message{Role: "user", Content: "clean the build", Origin: capture.OriginUser}
	hook := capture.Message{Role: "user", Content: "UserPromptSubmit hook success: shared folder", Origin: capture.OriginHook, Hook: "UserPromptSubmit"}
	said := capture.Message{Role: "assistant", Content: "Left it.", Origin: capture.OriginAssistant}
	title := capture.Message{Role: "system", Content: "Write a title.", Origin: capture.OriginSystem}
	calls := []capture.Call{
		{N: 0, API: capture.Anthropic, Status: 200, Messages: []capture.Message{sys, user, hook}, Answer: &capture.Answer{Content: "Left it."}},
		{N: 1, API: capture.Anthropic, Status: 200, Messages: []capture.Message{title, user}, Answer: &capture.Answer{Content: "Build cleaning"}},
		{N: 2, API: capture.Anthropic, Status: 200, Messages: []capture.Message{sys, user, hook, said, {Role: "user", Content: "thanks", Origin: capture.OriginUser}}, Answer: &capture.Answer{Content: "You're welcome."}},
	}
	tr, err := capture.Trace(capture.Name(calls), calls)
	if err != nil {
		t.Fatal(err)
	}
	id, err := store.SaveRun(ctx, history.RunInput{Trace: tr, ScenarioFile: "capture", Source: history.SourceCapture})
	if err != nil {
		t.Fatal(err)
	}
	run, err := store.LoadRun(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if len(run.Trace.Requests) != 2 || run.LLMCalls != 3 {
		t.Fatalf("%d requests, %d calls", len(run.Trace.Requests), run.LLMCalls)
	}
	for k, at := range []int{0, 2, 1} { // the main conversation's calls, then the side request's
		c := calls[at]
		got := run.Trace.CallMessages(k)
		if len(got) != len(c.Messages) {
			t.Fatalf("call %d: %d messages, sent %d", k, len(got), len(c.Messages))
		}
		for i := range got {
			if got[i].Content != c.Messages[i].Content {
				t.Errorf("call %d message %d: %q, sent %q", k, i, got[i].Content, c.Messages[i].Content)
			}
		}
	}
	if run.Hooks[0].Name != "UserPromptSubmit" || run.Hooks[0].CallsSeen != 2 {
		t.Errorf("hook metrics %+v", run.Hooks)
	}
}
