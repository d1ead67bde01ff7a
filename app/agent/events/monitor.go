package events

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"hookstudio/app/agent/engine"
	"hookstudio/app/agent/scenario"
)

// TokenCounter counts what a chat message costs; tokens.Counter is one.
type TokenCounter interface {
	CountMessage(role, content string) int
}

// Options configures a Monitor. Every part is optional: with only a
// Stream it observes.
type Options struct {
	Stream   *Stream // where events go (required)
	AgentID  string  // "agent" when empty
	Scenario string  // the scenario's name, for WORKFLOW_STARTED
	Control  *Control
	Policy   *Policy
	Approver Approver // asked when Policy needs an approval; nil: no decision (a timeout)
	Budget   *Budget
	// Tokens counts the mock's usage for Budget (real models report theirs).
	Tokens TokenCounter
	Now    func() time.Time
	// OnWait, if set, is told when the run stops to wait for the user —
	// paused at a checkpoint, or asking for an approval — with the trace so
	// far and the step it waits at, so a view can follow the run there. It
	// runs on the run's goroutine before the wait: t may be read only there.
	OnWait func(t *engine.Trace, step int, why WaitReason)
}

// WaitReason says why the run waits for the user.
type WaitReason string

const (
	WaitPaused   WaitReason = "paused"
	WaitApproval WaitReason = "approval"
)

// ForScenario fills the policy, scripted approver and budget a scenario
// declares; the app replaces Approver with the user.
func (o Options) ForScenario(sc *scenario.Scenario) Options {
	o.Scenario = sc.Name
	o.Policy = PolicyOf(sc)
	o.Budget = BudgetOf(sc)
	o.Approver = NewScripted(sc.Approvals)
	return o
}

// Monitor is the event stream's engine.Handler. At every point it is a
// checkpoint for Control, emits the point's events, asks for approvals at
// approve_tool and checks the budget at after_llm. It records nothing in
// the trace except one hook_call (system "policy") per approval decision
// and the budget's stop, which are decisions the user must see beside the
// tool message they produced. Put it last in Config.Handlers (Attach does):
// the approval policy then runs after every hook system's approve_tool.
type Monitor struct {
	o   Options
	now func() time.Time

	mu        sync.Mutex // the engine calls in from the run's goroutine; Stream/OnStream may not
	callStep  map[int]int
	prompt    map[int]int // counted prompt tokens per call (budget without provider usage)
	used      int
	reached   int // budget levels announced
	exceeded  bool
	approvals int
	request   int // the request AGENT_STARTED was emitted for, -1 none
	pending   *engine.ToolCall
	toolStep  int // the tool_call step of pending, once it is known to be skipped or denied
	// The hooks' answers about pending: hook calls before mark belong to
	// earlier tool calls (the Monitor runs last at before_tool and
	// approve_tool, where it moves mark on).
	mark      int
	toolHooks []HookAnswer
	pausedAt  engine.Point
	cancelled bool
	errored   bool // an LLM failure was announced; Finish does not repeat it
	ended     bool
}

// Attach puts a Monitor on cfg: last among the handlers, and around
// BeforeCall (LLM_PROMPT with the exact call step) and OnStream
// (LLM_PARTIAL). The caller emits the end with Finish.
func Attach(cfg *engine.Config, o Options) *Monitor {
	m := &Monitor{o: o, now: o.Now, callStep: map[int]int{}, prompt: map[int]int{}, request: -1}
	if m.now == nil {
		m.now = time.Now
	}
	if m.o.AgentID == "" {
		m.o.AgentID = "agent"
	}
	cfg.Handlers = append(cfg.Handlers, m)
	before := cfg.BeforeCall
	cfg.BeforeCall = func(ctx context.Context, t *engine.Trace, c int) error {
		m.beforeCall(t, c)
		if before != nil {
			return before(ctx, t, c)
		}
		return nil
	}
	stream := cfg.OnStream
	cfg.OnStream = func(c int, text string) {
		m.partial(c, text)
		if stream != nil {
			stream(c, text)
		}
	}
	return m
}

// Quiet implements engine.Quiet: the monitor only watches, so a run it
// watches records its calls as a prompt-only run does.
func (m *Monitor) Quiet() {}

func (m *Monitor) emit(t Type, step int, msg string, payload map[string]any) Event {
	return m.o.Stream.Publish(Event{Type: t, AgentID: m.o.AgentID, Message: msg, Timestamp: m.now(), Step: step, Payload: payload})
}

// Handle implements engine.Handler.
func (m *Monitor) Handle(ctx context.Context, ev *engine.Event) error {
	step := ev.Step()
	if ev.Point != engine.PointApproveTool { // the call being approved is still pending
		m.flushTool(step)
	}
	if err := m.checkpoint(ctx, ev, step); err != nil {
		return err
	}
	switch ev.Point {
	case engine.PointSessionStart:
		m.emit(WorkflowStarted, step, "Workflow started: "+m.o.Scenario, map[string]any{"scenario": m.o.Scenario, "model": ev.Model, "session": ev.Session})
	case engine.PointAfterSend:
		m.agentCompleted(step)
		m.request = ev.Request
		m.emit(AgentStarted, step, fmt.Sprintf("Request %d: %s", ev.Request+1, oneLine(ev.UserInput, 80)), map[string]any{"request": ev.Request, "user": ev.UserInput})
	case engine.PointBeforeLLM:
		m.emit(AgentThinking, step, thinking(ev), map[string]any{"call": ev.Call, "request": ev.Request, "phase": string(ev.Phase), "round": ev.Round})
	case engine.PointAfterLLM:
		return m.afterLLM(ev, step)
	case engine.PointBeforeTool:
		m.toolHooks = m.hookAnswers(ev, nil)
		m.mu.Lock()
		m.pending, m.toolStep = ev.Tool, -1
		if ev.Stopped() { // skipped or answered by a hook: its tool_call step is next
			m.toolStep = step + 1
		}
		m.mu.Unlock()
		m.emit(ToolInvoked, step, "Tool invoked: "+ev.Tool.Name, map[string]any{"tool": ev.Tool.Name, "tool_call_id": ev.Tool.ID, "arguments": ev.Tool.Arguments})
	case engine.PointApproveTool:
		return m.approve(ctx, ev, step)
	case engine.PointAfterTool:
		m.mu.Lock()
		m.pending = nil
		m.mu.Unlock()
		m.observation(ev.Tool, step)
	case engine.PointSessionEnd:
		m.agentCompleted(step)
	}
	return nil
}

func thinking(ev *engine.Event) string {
	switch ev.Phase {
	case engine.PhasePlanning:
		return "Planning: does the request need a tool?"
	case engine.PhaseAgent:
		return fmt.Sprintf("Agent round %d", ev.Round+1)
	}
	return "Answering"
}

func (m *Monitor) agentCompleted(step int) {
	if m.request < 0 {
		return
	}
	m.emit(AgentCompleted, step, fmt.Sprintf("Request %d done", m.request+1), map[string]any{"request": m.request})
	m.request = -1
}

// flushTool emits the observation of a tool call that a hook or the policy
// skipped or denied: no after_tool follows those, so it comes out at the
// next point, with what the model reads in the tool message.
func (m *Monitor) flushTool(step int) {
	m.mu.Lock()
	tc := m.pending
	m.pending = nil
	m.mu.Unlock()
	if tc != nil && (tc.Status == engine.ToolDenied || tc.Status == engine.ToolSkipped) {
		if m.toolStep >= 0 {
			step = m.toolStep
		}
		m.observation(tc, step)
	}
}

func (m *Monitor) observation(tc *engine.ToolCall, step int) {
	p := map[string]any{"tool": tc.Name, "tool_call_id": tc.ID, "result": tc.Result}
	msg := "Tool result: " + tc.Name
	if tc.Error != "" {
		p["error"] = tc.Error
		msg = "Tool failed: " + tc.Name
	}
	if tc.Status != "" {
		p["status"] = string(tc.Status)
		if tc.Status == engine.ToolDenied || tc.Status == engine.ToolSkipped {
			msg = fmt.Sprintf("Tool %s: %s", tc.Status, tc.Name)
		}
	}
	m.emit(ToolObservation, step, msg, p)
}

// checkpoint is Shannon's CheckPausePoint: a cancelled run ends here, a
// paused one waits here (blocking, not polling) until resumed or cancelled.
func (m *Monitor) checkpoint(ctx context.Context, ev *engine.Event, step int) error {
	p := ev.Point
	c := m.o.Control
	if c == nil {
		return nil
	}
	for {
		st, wake := c.snapshot()
		if st.Cancelled {
			m.cancel(p, step, st.CancelledBy)
			return fmt.Errorf("run cancelled at %s: %w", p, context.Canceled)
		}
		if !st.Paused {
			if m.pausedAt != "" {
				m.emit(WorkflowResumed, step, "Resumed at "+string(p), map[string]any{"checkpoint": string(p)})
				m.pausedAt = ""
			}
			return nil
		}
		if m.pausedAt == "" {
			m.pausedAt = p
			m.emit(WorkflowPaused, step, "Paused at "+string(p), map[string]any{"checkpoint": string(p), "reason": st.PauseReason})
			m.waiting(ev, step, WaitPaused)
		}
		select {
		case <-wake:
		case <-ctx.Done():
			if !c.State().Cancelled {
				return fmt.Errorf("paused at %s: %w", p, ctx.Err())
			}
		}
	}
}

func (m *Monitor) waiting(ev *engine.Event, step int, why WaitReason) {
	if m.o.OnWait != nil {
		if t := ev.Trace(); t != nil {
			m.o.OnWait(t, step, why)
		}
	}
}

func (m *Monitor) cancel(p engine.Point, step int, reason string) {
	if m.cancelled {
		return
	}
	m.cancelled = true
	payload := map[string]any{"reason": reason}
	msg := "Cancelled"
	if p != "" {
		payload["checkpoint"] = string(p)
		msg = "Cancelled at " + string(p)
	}
	m.emit(WorkflowCancelled, step, msg, payload)
}

// beforeCall emits LLM_PROMPT at the llm_call step, with what the model
// is about to receive, and counts the prompt for the budget.
func (m *Monitor) beforeCall(t *engine.Trace, c int) {
	lc := t.Calls[c]
	msgs := t.CallMessages(c)
	m.mu.Lock()
	m.callStep[c] = lc.Step
	m.mu.Unlock()
	p := map[string]any{"call": c, "request": lc.Request, "phase": string(lc.Phase), "messages": len(msgs)}
	if m.o.Budget != nil && m.o.Tokens != nil {
		n := 0
		for _, msg := range msgs {
			n += m.o.Tokens.CountMessage(msg.Role, msg.Content)
		}
		m.mu.Lock()
		m.prompt[c] = n
		m.mu.Unlock()
		p["tokens"] = n
	}
	m.emit(LLMPrompt, lc.Step, fmt.Sprintf("LLM call %d: %d messages", c+1, len(msgs)), p)
}

// partial is OnStream: streamed text, an ephemeral event.
func (m *Monitor) partial(c int, text string) {
	m.mu.Lock()
	step, ok := m.callStep[c]
	m.mu.Unlock()
	if !ok {
		step = -1
	}
	m.emit(LLMPartial, step, text, map[string]any{"call": c, "text": text})
}

func (m *Monitor) afterLLM(ev *engine.Event, step int) error {
	m.mu.Lock()
	if s, ok := m.callStep[ev.Call]; ok {
		step = s
	}
	m.mu.Unlock()
	if ev.Err != nil {
		m.errored = true
		m.emit(ErrorOccurred, step, fmt.Sprintf("LLM call %d failed: %v", ev.Call+1, ev.Err), map[string]any{"call": ev.Call, "error": ev.Err.Error()})
		return nil
	}
	p := map[string]any{"call": ev.Call, "content": ev.Answer, "phase": string(ev.Phase)}
	if ev.Usage != nil {
		p["usage"] = ev.Usage
	}
	m.emit(LLMOutput, step, fmt.Sprintf("LLM call %d answered", ev.Call+1), p)
	return m.budget(ev, step)
}

// budget adds the call's tokens and announces each level the first time
// it is reached; with Stop, 100 % ends the run.
func (m *Monitor) budget(ev *engine.Event, step int) error {
	b := m.o.Budget
	if b == nil {
		return nil
	}
	var n int
	source := "provider"
	if ev.Usage != nil {
		n = ev.Usage.InputTokens + ev.Usage.OutputTokens
	} else {
		source = "counted"
		m.mu.Lock()
		n = m.prompt[ev.Call]
		m.mu.Unlock()
		if m.o.Tokens != nil {
			n += m.o.Tokens.CountMessage("assistant", ev.Answer)
		}
	}
	m.used += n
	ratio := float64(m.used) / float64(b.TotalTokens)
	ths := b.thresholds()
	for m.reached < len(ths) && ratio >= ths[m.reached].ratio {
		th := ths[m.reached]
		m.reached++
		var msg string
		switch th.level {
		case LevelWarning:
			msg = fmt.Sprintf("WARNING: Token budget at %.0f%%", ratio*100)
		case LevelCritical:
			msg = fmt.Sprintf("CRITICAL: Token budget at %.0f%% (%d/%d)", ratio*100, m.used, b.TotalTokens)
		default:
			msg = fmt.Sprintf("EXCEEDED: Token budget used up (%d/%d)", m.used, b.TotalTokens)
			m.exceeded = true
		}
		m.emit(BudgetThreshold, step, msg, map[string]any{"level": th.level, "ratio": round3(ratio), "threshold": th.ratio,
			"used": m.used, "total": b.TotalTokens, "call": ev.Call, "call_tokens": n, "source": source})
	}
	if m.exceeded && b.Stop {
		in, _ := json.Marshal(map[string]any{"used": m.used, "total": b.TotalTokens})
		ev.Apply(engine.HookCall{System: "policy", Event: "token_budget", Hook: "token budget", Outcome: engine.OutcomeStopped, Input: in},
			engine.Effect{Action: engine.ActionHardAbort, Reason: fmt.Sprintf("token budget used up (%d of %d tokens)", m.used, b.TotalTokens)})
	}
	return nil
}

func round3(f float64) float64 { return float64(int(f*1000+0.5)) / 1000 }

// hookAnswers appends to list the answers of the hooks that ran at ev's
// point since the last call (notifications answer nothing) and moves the
// mark past them.
func (m *Monitor) hookAnswers(ev *engine.Event, list []HookAnswer) []HookAnswer {
	t := ev.Trace()
	if t == nil {
		return list
	}
	for i := min(m.mark, len(t.HookCalls)); i < len(t.HookCalls); i++ {
		if hc := &t.HookCalls[i]; hc.Point == ev.Point && !hc.Notify {
			list = append(list, answerOf(hc))
		}
	}
	m.mark = len(t.HookCalls)
	return list
}

// approve runs the approval policy after every hook system's approve_tool.
func (m *Monitor) approve(ctx context.Context, ev *engine.Event, step int) error {
	hooks := m.hookAnswers(ev, m.toolHooks)
	m.toolHooks = nil
	defer func() { // the policy's own decision is not an answer about the next call
		if t := ev.Trace(); t != nil {
			m.mark = len(t.HookCalls)
		}
	}()
	if ev.Stopped() {
		m.toolStep = step + 1 // a hook denied it: the tool_call step is next
		return nil
	}
	pol := m.o.Policy
	if pol == nil {
		return nil
	}
	tc := ev.Tool
	var reason string
	switch {
	case slices.Contains(pol.Tools, tc.Name):
		reason = fmt.Sprintf("Dangerous tool requires approval: %s", tc.Name)
	case pol.BudgetExceeded && m.exceeded:
		reason = fmt.Sprintf("Token budget exceeded (%d of %d tokens)", m.used, m.o.Budget.TotalTokens)
	default:
		return nil
	}
	m.approvals++
	timeout := pol.timeout()
	started := m.now()
	req := ApprovalRequest{ID: fmt.Sprintf("approval-%d", m.approvals), Tool: tc.Name, ToolCallID: tc.ID, Arguments: tc.Arguments,
		Reason: reason, TimeoutMS: timeout.Milliseconds(), Deadline: started.Add(timeout), Step: step, Hooks: hooks}
	payload := map[string]any{"id": req.ID, "tool": tc.Name, "tool_call_id": tc.ID,
		"arguments": tc.Arguments, "reason": reason, "timeout_ms": req.TimeoutMS, "deadline": req.Deadline}
	if len(hooks) > 0 {
		payload["hooks"] = hooks
	}
	m.emit(ApprovalRequested, step, "Approval requested: "+reason, payload)
	wall := time.Now()
	m.waiting(ev, step, WaitApproval)
	d, err := m.ask(ctx, req, timeout)
	if err != nil {
		return err
	}
	decision, why := "approved", "user"
	if !d.Approved {
		decision = "denied"
	}
	if d.TimedOut {
		d.Approved, decision, why = false, "denied", "timeout"
	}
	m.emit(ApprovalDecision, m.stepAfter(ev), "Approval "+decision, map[string]any{"id": req.ID, "tool": tc.Name, "tool_call_id": tc.ID,
		"decision": decision, "reason": why, "feedback": d.Feedback})
	in, _ := json.Marshal(req)
	out, _ := json.Marshal(map[string]any{"decision": decision, "reason": why, "feedback": d.Feedback})
	call := engine.HookCall{System: "policy", Event: "approval", Hook: "approval", Input: in, Output: out,
		DurationMS: float64(time.Since(wall).Milliseconds()), Outcome: engine.OutcomeOK}
	approved := d.Approved
	eff := engine.Effect{Approved: &approved}
	if !approved {
		eff.Reason = denialText(tc.Name, d, timeout)
	}
	ev.Apply(call, eff)
	if !approved {
		m.toolStep = ev.Step() + 1 // after the decision's hook_call
	}
	return nil
}

// stepAfter is the step the decision's hook_call will take.
func (m *Monitor) stepAfter(ev *engine.Event) int { return ev.Step() + 1 }

// ask waits for the approver within the timeout; a cancelled run ends
// the wait with its error, a missed deadline is a timeout.
func (m *Monitor) ask(ctx context.Context, req ApprovalRequest, timeout time.Duration) (Decision, error) {
	if m.o.Approver == nil {
		return Decision{TimedOut: true}, nil
	}
	actx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	d, err := m.o.Approver.Approve(actx, req)
	switch {
	case err == nil:
		return d, nil
	case ctx.Err() != nil:
		if m.o.Control != nil && m.o.Control.State().Cancelled {
			m.cancel(engine.PointApproveTool, req.Step, m.o.Control.State().CancelledBy)
		}
		return Decision{}, fmt.Errorf("waiting for approval of %s: %w", req.Tool, ctx.Err())
	case errors.Is(err, context.DeadlineExceeded):
		return Decision{TimedOut: true}, nil
	}
	return Decision{Feedback: "the approval could not be asked: " + err.Error()}, nil
}

// Finish emits how the run ended: WORKFLOW_COMPLETED, WORKFLOW_CANCELLED,
// or ERROR_OCCURRED then WORKFLOW_FAILED. Call it once, after engine.Run.
func (m *Monitor) Finish(tr *engine.Trace, runErr error) {
	if m.ended {
		return
	}
	m.ended = true
	step := tr.NumSteps() - 1
	m.flushTool(step)
	if tr.Status == engine.StatusOK {
		m.agentCompleted(step)
	}
	sum := map[string]any{"status": string(tr.Status), "steps": tr.NumSteps(), "llm_calls": len(tr.Calls)}
	if m.o.Budget != nil {
		sum["tokens_used"] = m.used
	}
	if d := m.o.Stream.Dropped(); d > 0 {
		sum["dropped"] = d
	}
	switch tr.Status {
	case engine.StatusOK:
		m.emit(WorkflowCompleted, step, "Workflow completed", sum)
	case engine.StatusCancelled:
		reason := ""
		if m.o.Control != nil {
			reason = m.o.Control.State().CancelledBy
		}
		m.cancel("", step, reason)
	default:
		msg := tr.Error
		if runErr != nil {
			msg = runErr.Error()
		}
		if !m.errored {
			m.emit(ErrorOccurred, step, msg, map[string]any{"error": msg})
		}
		m.emit(WorkflowFailed, step, "Workflow ended: "+string(tr.Status), sum)
	}
}

func oneLine(s string, n int) string {
	r := []rune(s)
	for i, c := range r {
		if c == '\n' {
			r = append(r[:i:i], '…')
			break
		}
	}
	if len(r) > n {
		r = append(r[:n:n], '…')
	}
	return string(r)
}
