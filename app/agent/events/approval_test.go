package events

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"hookstudio/app/agent/engine"
	"hookstudio/app/agent/scenario"
)

func withApprovals(t *testing.T, decisions ...scenario.ApprovalDecision) *scenario.Scenario {
	sc := everyPoint(t)
	sc.Approval = &scenario.Approval{Tools: []string{"run_command"}}
	sc.Approvals = decisions
	return sc
}

func toolMessage(tr *engine.Trace, name string) string {
	for i := len(tr.Calls) - 1; i >= 0; i-- {
		for _, m := range tr.CallMessages(i) {
			if m.Role == "tool" && m.Tool == name {
				return m.Content
			}
		}
	}
	return ""
}

func decisionOf(t *testing.T, st *Stream) map[string]any {
	t.Helper()
	for _, e := range st.Persistent() {
		if e.Type == ApprovalDecision {
			return e.Payload
		}
	}
	t.Fatal("no APPROVAL_DECISION")
	return nil
}

// TestScriptedApprovals: approve runs the tool, deny puts the feedback in
// the tool message, timeout denies with reason timeout; each decision is
// one policy hook_call in the trace. read_file needs no approval.
func TestScriptedApprovals(t *testing.T) {
	cases := []struct {
		decision, feedback string
		status             engine.ToolStatus
		message            string // in the tool message the model reads
		payload            string // APPROVAL_DECISION decision/reason
	}{
		{scenario.DecisionApprove, "", engine.ToolApproved, "a b", "approved/user"},
		{scenario.DecisionDeny, "not on prod", engine.ToolDenied, "Tool call run_command was denied by the user: not on prod", "denied/user"},
		{scenario.DecisionTimeout, "", engine.ToolDenied, "no approval decision within 30s (timeout)", "denied/timeout"},
	}
	for _, c := range cases {
		t.Run(c.decision, func(t *testing.T) {
			sc := withApprovals(t, scenario.ApprovalDecision{Tool: "run_command", Decision: c.decision, Feedback: c.feedback})
			tr, st, err := run(t, context.Background(), sc, nil, Options{}.ForScenario(sc))
			if err != nil {
				t.Fatal(err)
			}
			tc := tr.Calls[2].ToolCalls[0]
			if tc.Status != c.status {
				t.Errorf("status %q, want %q", tc.Status, c.status)
			}
			if msg := toolMessage(tr, "run_command"); !strings.Contains(msg, c.message) {
				t.Errorf("tool message %q, want it to contain %q", msg, c.message)
			}
			p := decisionOf(t, st)
			if got := p["decision"].(string) + "/" + p["reason"].(string); got != c.payload {
				t.Errorf("decision %s, want %s", got, c.payload)
			}
			var policy []engine.HookCall
			for _, hc := range tr.HookCalls {
				if hc.System == "policy" {
					policy = append(policy, hc)
				}
			}
			if len(policy) != 1 || policy[0].Point != engine.PointApproveTool {
				t.Errorf("policy hook calls %+v, want one at approve_tool", policy)
			}
			var types []Type
			for _, e := range st.Persistent() {
				types = append(types, e.Type)
			}
			i := slices.Index(types, ApprovalRequested)
			if i < 1 || types[i-1] != ToolInvoked || types[i+1] != ApprovalDecision || types[i+2] != ToolObservation {
				t.Errorf("events around the approval: %v", types)
			}
			if n := strings.Count(strings.Join(asStrings(types), " "), string(ApprovalRequested)); n != 1 {
				t.Errorf("%d approval requests, want 1 (read_file needs none)", n)
			}
		})
	}
}

func asStrings(ts []Type) []string {
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = string(t)
	}
	return out
}

// waiting never decides: only the deadline or a cancel ends its wait.
type waiting struct{ asked chan ApprovalRequest }

func (w waiting) Approve(ctx context.Context, req ApprovalRequest) (Decision, error) {
	w.asked <- req
	<-ctx.Done()
	return Decision{}, ctx.Err()
}

// TestApprovalTimesOut: no decision within the policy's timeout is a
// denial with reason timeout; the request carries the deadline.
func TestApprovalTimesOut(t *testing.T) {
	sc := withApprovals(t)
	w := waiting{asked: make(chan ApprovalRequest, 1)}
	o := Options{Policy: &Policy{Tools: []string{"run_command"}, Timeout: 50 * time.Millisecond}, Approver: w, Now: time.Now}
	start := time.Now()
	tr, st, err := run(t, context.Background(), sc, nil, o)
	if err != nil {
		t.Fatal(err)
	}
	if time.Since(start) < 50*time.Millisecond {
		t.Error("the run did not wait for the timeout")
	}
	req := <-w.asked
	if req.Tool != "run_command" || req.Arguments["command"] != "ls" || req.TimeoutMS != 50 || req.Deadline.Before(start) {
		t.Errorf("request %+v", req)
	}
	if p := decisionOf(t, st); p["decision"] != "denied" || p["reason"] != "timeout" {
		t.Errorf("decision %v", p)
	}
	if tc := tr.Calls[2].ToolCalls[0]; tc.Status != engine.ToolDenied || !strings.Contains(tc.Result, "timeout") {
		t.Errorf("tool call %+v", tc)
	}
}

// TestCancelDuringApproval: a cancel ends the wait at once and the run.
func TestCancelDuringApproval(t *testing.T) {
	sc := withApprovals(t)
	w := waiting{asked: make(chan ApprovalRequest, 1)}
	ctl := NewControl()
	ctx, release := ctl.Context(context.Background())
	defer release()
	go func() { <-w.asked; ctl.Cancel("user") }()
	tr, st, err := run(t, ctx, sc, nil, Options{Policy: &Policy{Tools: []string{"run_command"}, Timeout: time.Minute}, Approver: w, Control: ctl})
	if !errors.Is(err, context.Canceled) || tr.Status != engine.StatusCancelled {
		t.Fatalf("err %v status %s", err, tr.Status)
	}
	evs := st.Persistent()
	if last := evs[len(evs)-1]; last.Type != WorkflowCancelled || last.Payload["checkpoint"] != string(engine.PointApproveTool) {
		t.Errorf("last event %s %v", last.Type, last.Payload)
	}
	for _, m := range tr.MessagesAt(tr.NumSteps() - 1) {
		if m.Role == "tool" && m.Tool == "run_command" {
			t.Error("the tool ran")
		}
	}
}

// denyAll is a hook system whose approve_tool denies every call.
type denyAll struct{}

func (denyAll) Handle(_ context.Context, ev *engine.Event) error {
	if ev.Point == engine.PointApproveTool {
		no := false
		ev.Apply(engine.HookCall{System: "process", Event: "hook.approve_tool", Hook: "guard"}, engine.Effect{Approved: &no, Reason: "guard says no"})
	}
	return nil
}

// TestHookDeniedFirst: a process hook's denial stands; the policy does not
// ask again, and the denied call still gets its TOOL_OBSERVATION.
func TestHookDeniedFirst(t *testing.T) {
	sc := withApprovals(t, scenario.ApprovalDecision{Decision: scenario.DecisionApprove})
	_, st, err := run(t, context.Background(), sc, nil, Options{}.ForScenario(sc), denyAll{})
	if err != nil {
		t.Fatal(err)
	}
	var denied []string
	for _, e := range st.Persistent() {
		if e.Type == ApprovalRequested {
			t.Error("the policy asked about a call a hook denied")
		}
		if e.Type == ToolObservation && e.Payload["status"] == "denied" {
			denied = append(denied, e.Payload["result"].(string))
		}
	}
	if !slices.Equal(denied, []string{"guard says no", "guard says no"}) {
		t.Errorf("denied observations %q", denied)
	}
}

// voter is a hook system with a say about every tool call: its before_tool
// hook looks at the call, its approve_tool hook approves it, and a
// notification (which answers nothing) follows.
type voter struct{}

func (voter) Handle(_ context.Context, ev *engine.Event) error {
	switch ev.Point {
	case engine.PointBeforeTool:
		ev.Apply(engine.HookCall{System: "process", Event: "hook.before_tool", Hook: "v", Output: []byte(`{"action":"continue","tool":"` + ev.Tool.Name + `"}`)}, engine.Effect{})
	case engine.PointApproveTool:
		yes := true
		ev.Apply(engine.HookCall{System: "process", Event: "hook.approve_tool", Hook: "v", Output: []byte(`{"approved":true}`)}, engine.Effect{Approved: &yes})
		ev.Record(engine.HookCall{System: "process", Event: "hook.runtime_event", Hook: "v", Notify: true})
	}
	return nil
}

// asking records the requests and approves them.
type asking struct{ asked []ApprovalRequest }

func (a *asking) Approve(_ context.Context, req ApprovalRequest) (Decision, error) {
	a.asked = append(a.asked, req)
	return Decision{Approved: true}, nil
}

// TestHooksAnswersComeWithTheQuestion: the policy asks about a call a hook
// approved, with what the hooks answered about that call (and no other).
func TestHooksAnswersComeWithTheQuestion(t *testing.T) {
	sc := withApprovals(t)
	a := &asking{}
	tr, st, err := run(t, context.Background(), sc, nil, Options{Policy: PolicyOf(sc), Approver: a}, voter{})
	if err != nil {
		t.Fatal(err)
	}
	if len(a.asked) != 1 || a.asked[0].Tool != "run_command" {
		t.Fatalf("asked %+v", a.asked)
	}
	want := []HookAnswer{
		{System: "process", Event: "hook.before_tool", Hook: "v", Outcome: engine.OutcomeOK, Answer: `{"action":"continue","tool":"run_command"}`},
		{System: "process", Event: "hook.approve_tool", Hook: "v", Outcome: engine.OutcomeOK, Answer: `{"approved":true}`},
	}
	if got := a.asked[0].Hooks; !slices.Equal(got, want) {
		t.Errorf("hooks with the question:\n%+v\nwant\n%+v", got, want)
	}
	for _, e := range st.Persistent() {
		if e.Type == ApprovalRequested && !slices.Equal(e.Payload["hooks"].([]HookAnswer), want) {
			t.Errorf("APPROVAL_REQUESTED's hooks %v", e.Payload["hooks"])
		}
	}
	// the trace's copy of the request leaves them out: they are steps
	for _, hc := range tr.HookCalls {
		if hc.System == "policy" && strings.Contains(string(hc.Input), "hooks") {
			t.Errorf("the policy's input repeats the hook calls: %s", hc.Input)
		}
	}
}
