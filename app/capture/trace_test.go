package capture

import (
	"strings"
	"testing"

	"hookstudio/app/engine"
)

// TestTrace: a captured conversation reads as a trace: each call's list as
// the agent sent it, the messages a call kept not added again, the hook's
// text a hook message of the agent.
func TestTrace(t *testing.T) {
	srv := start(t, Options{})
	post(t, srv.URL()+"/v1/messages", claudeFirst, nil)
	post(t, srv.URL()+"/v1/messages", claudeSecond, nil)
	calls := srv.Calls()
	tr, err := Trace("clean the build", calls)
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Calls) != 2 || len(tr.Requests) != 1 || tr.Requests[0].User != "clean the build" {
		t.Fatalf("calls %d requests %+v", len(tr.Calls), tr.Requests)
	}
	for c, call := range calls {
		got := tr.CallMessages(c)
		if len(got) != len(call.Messages) {
			t.Fatalf("call %d receives %d messages, the agent sent %d", c, len(got), len(call.Messages))
		}
		for i, m := range got {
			if m.Content != call.Messages[i].Content || m.Role != call.Messages[i].Role {
				t.Errorf("call %d message %d: %q, sent %q", c, i, m.Content, call.Messages[i].Content)
			}
		}
	}
	second := tr.CallMessages(1)
	hook := second[len(second)-1]
	if hook.Origin != engine.OriginHook || hook.Hook != "Stop" || hook.Skill != AgentSkill {
		t.Errorf("the Stop hook's text: %+v", hook)
	}
	if tr.Calls[0].ToolCalls[0].Name != "Bash" || tr.Calls[1].Content == "" {
		t.Errorf("answers %+v", tr.Calls)
	}
	// a trace that round-trips through its record (the history stores it so)
	if _, err := engine.FromRecord(tr.Record()); err != nil {
		t.Fatal(err)
	}
	if _, err := Trace("none", nil); err == nil {
		t.Error("an empty capture made a trace")
	}
}

// TestTraceDiffBetweenCalls: the simulator's views show per call what
// changed since the previous call through the build-messages step before
// it (its added messages, and its removed ones as ghost rows): for a
// capture that step holds exactly what the agent added to its list since
// the previous call, and what it dropped or rewrote (a rewritten message
// is a removal and an addition, as the list the model got says).
func TestTraceDiffBetweenCalls(t *testing.T) {
	sys := Message{Role: "system", Content: "You are Claude Code.", Origin: OriginSystem}
	reminder := Message{Role: "user", Content: "<system-reminder>\nToday is Monday.\n</system-reminder>", Origin: OriginContext}
	user := Message{Role: "user", Content: "clean the build", Origin: OriginUser}
	bash := ToolCall{ID: "toolu_1", Name: "Bash", Arguments: []byte(`{"command":"rm -rf build"}`)}
	asked := Message{Role: "assistant", Origin: OriginAssistant, ToolCalls: []ToolCall{bash}}
	blocked := Message{Role: "tool", Content: "PreToolUse:Bash hook error: blocked", Origin: OriginHook, Hook: "PreToolUse:Bash", ToolCallID: "toolu_1", IsError: true}
	said := Message{Role: "assistant", Content: "Blocked.", Origin: OriginAssistant}
	stop := Message{Role: "user", Content: "Stop hook feedback: say why", Origin: OriginHook, Hook: "Stop"}
	user2 := Message{Role: "user", Content: "clean the build, please", Origin: OriginUser} // the agent rewrote the turn
	calls := []Call{
		{N: 0, Status: 200, Messages: []Message{sys, reminder, user}, Answer: &Answer{ToolCalls: []ToolCall{bash}}},
		{N: 1, Status: 200, Messages: []Message{sys, reminder, user, asked, blocked}, Answer: &Answer{Content: "Blocked."}},
		{N: 2, Status: 200, Messages: []Message{sys, reminder, user, asked, blocked, said, stop}, Answer: &Answer{Content: "Because."}},
		{N: 3, Status: 200, Messages: []Message{sys, user2}, Answer: &Answer{Content: "Done."}},
	}
	tr, err := Trace("diff", calls)
	if err != nil {
		t.Fatal(err)
	}
	contents := func(ids []int) []string {
		out := []string{}
		for _, id := range ids {
			out = append(out, tr.Message(id).Content)
		}
		return out
	}
	tests := []struct {
		call           int
		added, removed []string
	}{
		{call: 0, added: []string{sys.Content, reminder.Content, user.Content}, removed: []string{}},
		{call: 1, added: []string{"", blocked.Content}, removed: []string{}},
		{call: 2, added: []string{said.Content, stop.Content}, removed: []string{}},
		{call: 3, added: []string{user2.Content}, removed: []string{reminder.Content, user.Content, "", blocked.Content, said.Content, stop.Content}},
	}
	for _, tt := range tests {
		build := tr.Step(tr.Calls[tt.call].Step - 1)
		if build.Kind != engine.StepBuildMessages {
			t.Fatalf("call %d: the step before is %s", tt.call, build.Kind)
		}
		if got := contents(build.Added); strings.Join(got, "|") != strings.Join(tt.added, "|") {
			t.Errorf("call %d added %q, want %q", tt.call, got, tt.added)
		}
		if got := contents(build.Removed); strings.Join(got, "|") != strings.Join(tt.removed, "|") {
			t.Errorf("call %d removed %q, want %q", tt.call, got, tt.removed)
		}
	}
}
