package capture

import (
	"fmt"
	"strings"
	"testing"

	"hookstudio/app/agent/engine"
)

// TestTrace: a captured conversation reads as a trace: each call's list as
// the agent sent it, the messages a call kept not added again, the hook's
// text a hook message of the agent.
func TestTrace(t *testing.T) {
	srv := start(t, Options{})
	post(t, srv.URL()+"/v1/messages", claudeFirst, nil)
	post(t, srv.URL()+"/v1/messages", claudeSecond, nil)
	calls := recorded(t, srv, 2)
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

// TestTraceSideRequest: a side request the agent interleaves (its own
// prompt, e.g. a title call) is a conversation — a request — of its own,
// after the one it interrupted, so the main conversation's next call shows
// only what it added since its previous call, not its whole list replaced
// and restored.
func TestTraceSideRequest(t *testing.T) {
	sys := Message{Role: "system", Content: "You are Claude Code.", Origin: OriginSystem}
	user := Message{Role: "user", Content: "clean the build", Origin: OriginUser}
	bash := ToolCall{ID: "toolu_1", Name: "Bash", Arguments: []byte(`{"command":"ls"}`)}
	asked := Message{Role: "assistant", Origin: OriginAssistant, ToolCalls: []ToolCall{bash}}
	result := Message{Role: "tool", Content: "build/", Origin: OriginToolResult, ToolCallID: "toolu_1"}
	titleSys := Message{Role: "system", Content: "Write a 5-word title for the conversation.", Origin: OriginSystem}
	calls := []Call{
		{N: 0, Status: 200, Messages: []Message{sys, user}, Answer: &Answer{ToolCalls: []ToolCall{bash}}},
		{N: 1, Status: 200, Messages: []Message{titleSys, user}, Answer: &Answer{Content: "Cleaning the build folder"}},
		{N: 2, Status: 200, Messages: []Message{sys, user, asked, result}, Answer: &Answer{Content: "Done."}},
		{N: 3, Status: 200, Messages: []Message{titleSys, {Role: "user", Content: "and now?", Origin: OriginUser}}, Answer: &Answer{Content: "Another title"}},
	}
	tr, err := Trace("side", calls)
	if err != nil {
		t.Fatal(err)
	}
	if tr, err = engine.FromRecord(tr.Record()); err != nil { // as the history stores and reads it
		t.Fatal(err)
	}
	if len(tr.Requests) != 2 || strings.Join(intsToStrings(tr.Requests[0].Calls), ",") != "0,1" || strings.Join(intsToStrings(tr.Requests[1].Calls), ",") != "2,3" ||
		tr.Requests[0].LastStep >= tr.Requests[1].FirstStep {
		t.Fatalf("requests %+v", tr.Requests)
	}
	order := []int{0, 2, 1, 3} // the trace's calls: the main conversation's, then the side request's
	for k, at := range order {
		c := calls[at]
		got := tr.CallMessages(k)
		if len(got) != len(c.Messages) {
			t.Fatalf("call %d receives %d messages, the agent sent %d", k, len(got), len(c.Messages))
		}
		for i := range got {
			if got[i].Content != c.Messages[i].Content {
				t.Errorf("call %d message %d: %q, sent %q", k, i, got[i].Content, c.Messages[i].Content)
			}
		}
	}
	main := tr.Step(tr.Calls[1].Step - 1)
	if len(main.Added) != 2 || len(main.Removed) != 0 || tr.Message(main.Added[1]).Content != "build/" {
		t.Errorf("the main conversation's second call added %v, removed %v: want the tool call and its result only", main.Added, main.Removed)
	}
	side := tr.Step(tr.Calls[3].Step - 1)
	if len(side.Added) != 1 || len(side.Removed) != 1 || tr.Message(side.Removed[0]).Content != "clean the build" {
		t.Errorf("the side request's second call added %v, removed %v", side.Added, side.Removed)
	}
}

func intsToStrings(xs []int) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = fmt.Sprint(x)
	}
	return out
}
