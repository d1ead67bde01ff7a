package events

import (
	"context"
	"errors"
	"slices"
	"testing"

	"hookstudio/app/agent/engine"
)

// usageModel answers like the mock and reports fixed provider usage.
type usageModel struct {
	m     engine.Model
	usage engine.Usage
}

func (u usageModel) Complete(ctx context.Context, c engine.Call) (engine.Reply, error) {
	r, err := u.m.Complete(ctx, c)
	us := u.usage
	r.Usage = &us
	return r, err
}

func runUsage(t *testing.T, b *Budget, pol *Policy) (*engine.Trace, *Stream, error) {
	sc := everyPoint(t)
	st := NewStream(StreamOptions{})
	// 4 calls of 100 + 25 tokens each: 125, 250, 375, 500.
	cfg := engine.Config{Model: usageModel{mockOf(sc), engine.Usage{InputTokens: 100, OutputTokens: 25}}}
	m := Attach(&cfg, Options{Stream: st, Budget: b, Policy: pol, Approver: NewScripted(nil), Tokens: counter(t)})
	tr, err := engine.Run(context.Background(), sc, noHooks{}, cfg)
	m.Finish(tr, err)
	return tr, st, err
}

type threshold struct {
	level string
	call  int
	used  int
}

func thresholds(st *Stream) []threshold {
	var out []threshold
	for _, e := range st.Persistent() {
		if e.Type == BudgetThreshold {
			out = append(out, threshold{e.Payload["level"].(string), e.Payload["call"].(int), e.Payload["used"].(int)})
			if e.Payload["source"] != "provider" {
				out = append(out, threshold{"source " + e.Payload["source"].(string), 0, 0})
			}
		}
	}
	return out
}

// TestBudgetProviderUsage: the provider's reported usage is what counts;
// each level is announced once, on the call that reaches it.
func TestBudgetProviderUsage(t *testing.T) {
	// 80 % of 300 = 240 (call 2: 250), 95 % = 285 (call 3: 375, also 100 %).
	_, st, err := runUsage(t, &Budget{TotalTokens: 300}, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []threshold{{LevelWarning, 1, 250}, {LevelCritical, 2, 375}, {LevelExceeded, 2, 375}}
	if got := thresholds(st); !slices.Equal(got, want) {
		t.Errorf("thresholds %v, want %v", got, want)
	}
	// Custom thresholds.
	_, st, _ = runUsage(t, &Budget{TotalTokens: 1000, Warning: 0.2, Critical: 0.45}, nil)
	want = []threshold{{LevelWarning, 1, 250}, {LevelCritical, 3, 500}}
	if got := thresholds(st); !slices.Equal(got, want) {
		t.Errorf("custom thresholds %v, want %v", got, want)
	}
}

// TestBudgetStop: with stop, reaching 100 % ends the run (status stopped)
// right after the call, with a policy hook_call saying why.
func TestBudgetStop(t *testing.T) {
	tr, st, err := runUsage(t, &Budget{TotalTokens: 300, Stop: true}, nil)
	if !errors.Is(err, engine.ErrAborted) || tr.Status != engine.StatusStopped {
		t.Fatalf("err %v status %s", err, tr.Status)
	}
	if len(tr.Calls) != 3 {
		t.Errorf("%d calls, want the run to end after call 3", len(tr.Calls))
	}
	hc := tr.HookCalls[len(tr.HookCalls)-1]
	if hc.System != "policy" || hc.Outcome != engine.OutcomeStopped {
		t.Errorf("last hook call %+v", hc)
	}
	evs := st.Persistent()
	if last := evs[len(evs)-1]; last.Type != WorkflowFailed || last.Payload["status"] != "stopped" {
		t.Errorf("last event %s %v", last.Type, last.Payload)
	}
}

// TestBudgetExceededNeedsApproval: once the budget is used up, a policy
// with budget_exceeded asks about every tool call (here: none scripted,
// so each is denied as a timeout).
func TestBudgetExceededNeedsApproval(t *testing.T) {
	// 125 tokens a call, budget 200: exceeded after call 2 (planning, round 1).
	tr, st, err := runUsage(t, &Budget{TotalTokens: 200}, &Policy{BudgetExceeded: true})
	if err != nil {
		t.Fatal(err)
	}
	var reasons []string
	for _, e := range st.Persistent() {
		if e.Type == ApprovalRequested {
			reasons = append(reasons, e.Payload["reason"].(string))
		}
	}
	if len(reasons) != 2 || reasons[0] != "Token budget exceeded (250 of 200 tokens)" {
		t.Errorf("approval reasons %q", reasons)
	}
	if tc := tr.Calls[1].ToolCalls[0]; tc.Status != engine.ToolDenied {
		t.Errorf("read_file after the budget: %+v", tc)
	}
}

// TestBudgetCountsMock: without provider usage, the call's messages and
// answer are counted with o200k.
func TestBudgetCountsMock(t *testing.T) {
	sc := everyPoint(t)
	c := counter(t)
	_, st, err := run(t, context.Background(), sc, nil, Options{Budget: &Budget{TotalTokens: 1}, Tokens: c})
	if err != nil {
		t.Fatal(err)
	}
	var prompt int
	for _, e := range st.Persistent() {
		if e.Type == LLMPrompt {
			prompt = e.Payload["tokens"].(int)
			break
		}
	}
	th := st.Persistent()[slices.IndexFunc(st.Persistent(), func(e Event) bool { return e.Type == BudgetThreshold })]
	// The planning call answers "plan".
	if want := prompt + c.CountMessage("assistant", "plan"); th.Payload["used"] != want || th.Payload["source"] != "counted" || prompt == 0 {
		t.Errorf("used %v (%v), want %d", th.Payload["used"], th.Payload["source"], want)
	}
}
