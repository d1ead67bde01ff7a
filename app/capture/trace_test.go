package capture

import (
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
