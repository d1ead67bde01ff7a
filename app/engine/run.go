// Package engine replays the seed system's request flow (planning round,
// agent loop, five checkpoints) over skill hooks and records every step.
package engine

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"hookstudio/app/scenario"
	"hookstudio/app/skills"
)

// Call is what the model is asked: where in the flow, which tools it may
// call, and the message list, built only if the model asks for it (a
// scripted model never does, which keeps long runs cheap).
type Call struct {
	Request  int
	Phase    Phase
	Round    int // -1 outside the agent loop
	Tools    []scenario.Tool
	Messages func() []Message
	// Stream receives the answer's text as it arrives; never nil.
	Stream func(text string)
}

// Reply is the model's answer. NeedTool is the planning decision.
type Reply struct {
	Content   string
	ToolCalls []ToolCall
	NeedTool  bool
}

// Model answers LLM calls.
type Model interface {
	Complete(ctx context.Context, call Call) (Reply, error)
}

// ToolRunner produces the result of a tool call.
type ToolRunner interface {
	RunTool(ctx context.Context, call Call, tc ToolCall) (string, error)
}

// HookSource gives the hooks of the enabled skills (nil: every skill).
type HookSource interface {
	Hooks(enabled []string) []skills.Hook
}

// Config is what a run needs besides the scenario.
type Config struct {
	Model Model
	Tools ToolRunner
	// MaxRounds ends a runaway agent loop; 0 means no limit (a scripted
	// model always ends).
	MaxRounds int
	// BeforeCall, if set, runs after an llm_call step is recorded and before
	// the model is asked: a debugger pauses here to show the exact request.
	// An error ends the run (a cancelled pause is context.Canceled).
	BeforeCall func(ctx context.Context, t *Trace, call int) error
	// AfterCall, if set, runs once the model answered (or failed).
	AfterCall func(t *Trace, call int)
	// OnStream, if set, receives streamed answer text per call.
	OnStream func(call int, text string)
}

// ErrMaxRounds is returned when the agent loop hit Config.MaxRounds.
var ErrMaxRounds = errors.New("agent loop reached the maximum number of rounds")

// history is one message carried into the next request by the frontend.
type history struct {
	content string
	role    skills.Role
	of      Origin
	ref     int32
}

// Run plays every request of the scenario and returns the trace. On an
// error the trace holds every step up to it, with Status saying how it ended.
func Run(ctx context.Context, sc *scenario.Scenario, src HookSource, cfg Config) (*Trace, error) {
	r := &runner{t: &Trace{Scenario: sc.Name, Status: StatusOK}, sc: sc, src: src, cfg: cfg, prompts: promptTexts(sc.Prompts)}
	for i := range sc.Requests {
		if err := r.request(ctx, i); err != nil {
			r.t.Error = err.Error()
			switch {
			case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
				r.t.Status = StatusCancelled
			case errors.Is(err, ErrMaxRounds):
				r.t.Status = StatusMaxRounds
			default:
				r.t.Status = StatusError
			}
			return r.t, err
		}
	}
	return r.t, nil
}

type runner struct {
	t       *Trace
	sc      *scenario.Scenario
	src     HookSource
	cfg     Config
	prompts [3]string
	history []history
}

func (r *runner) request(ctx context.Context, i int) error {
	t, req := r.t, &r.sc.Requests[i]
	enabled := r.sc.EnabledSkills
	if req.EnabledSkills != nil {
		enabled = req.EnabledSkills
	}
	// The request is listed from its start, so a paused run shows it.
	t.Requests = append(t.Requests, RequestInfo{Index: i, User: req.User, EnabledSkills: enabled, FirstStep: len(t.steps), Calls: []int{}, Yielded: []string{}})
	info := &t.Requests[len(t.Requests)-1]
	var hookRefs []int32
	for _, h := range r.src.Hooks(enabled) {
		hookRefs = append(hookRefs, t.hookRef(&h))
	}
	hm := newHookManager(t, hookRefs, int32(i))
	var yielded []int32
	inject := func(ev Event) {
		ids := hm.Inject(ev)
		for _, id := range ids {
			t.begin(StepYield, hm.pos, ev.Timing, id)
			info.Yielded = append(info.Yielded, t.Hooks[t.msgs[id].ref].Name)
		}
		yielded = append(yielded, ids...)
	}

	// _build_messages: [system prompt] + history + [user input].
	t.begin(StepBuildMessages, hm.pos, "", -1)
	if r.sc.SystemPrompt != "" {
		t.add(msg{content: r.sc.SystemPrompt, role: skills.System, origin: OriginSystemPrompt, req: int32(i)})
	}
	for _, h := range r.history {
		t.add(msg{content: h.content, role: h.role, origin: OriginHistory, histOf: h.of, ref: h.ref, req: int32(i)})
	}
	t.add(msg{content: req.User, role: skills.User, origin: OriginUserInput, req: int32(i)})

	inject(Event{Timing: skills.AfterUserInput, Tool: -1})
	reply, err := r.flow(ctx, hm, info, inject)
	if err == nil {
		t.begin(StepReply, hm.pos, "", -1)
		info.Reply = reply
	}
	info.LastStep = len(t.steps) - 1
	if err != nil {
		return err
	}

	// The frontend keeps the user's message, every yielded hook message in
	// yield order, then the final reply; tool traffic is not kept.
	r.history = append(r.history, history{content: req.User, role: skills.User, of: OriginUserInput})
	for _, id := range yielded {
		m := &t.msgs[id]
		r.history = append(r.history, history{content: m.content, role: m.role, of: OriginHook, ref: m.ref})
	}
	r.history = append(r.history, history{content: reply, role: "assistant", of: OriginAssistant})
	return nil
}

// flow is chat_stream after the first inject; it returns the final reply.
func (r *runner) flow(ctx context.Context, hm *HookManager, info *RequestInfo, inject func(Event)) (string, error) {
	if !r.sc.EnableTools || len(r.sc.Tools) == 0 {
		hm.pos.phase = PhaseDirect
		rep, err := r.call(ctx, hm, info, nil)
		return rep.Content, err
	}

	hm.pos.phase = PhasePlanning
	inject(Event{Timing: skills.BeforePlanning, Tool: -1})
	ref := hm.InjectPrompt(0, r.prompts[0])
	plan, err := r.call(ctx, hm, info, nil)
	if err != nil {
		return "", err
	}
	hm.RemovePrompt(ref)
	hm.Remove(skills.BeforePlanning)
	if !plan.NeedTool {
		return plan.Content, nil
	}

	hm.pos.phase = PhaseAgent
	var final string
	for round := 0; ; round++ {
		if r.cfg.MaxRounds > 0 && round >= r.cfg.MaxRounds {
			return "", fmt.Errorf("request %d: %w (%d)", info.Index, ErrMaxRounds, r.cfg.MaxRounds)
		}
		hm.pos.round = int32(round)
		hm.Remove(skills.BeforeEachAgent)
		inject(Event{Timing: skills.BeforeEachAgent, Tool: -1})
		p := int32(2)
		if round == 0 {
			inject(Event{Timing: skills.BeforeFirstAgent, Tool: -1})
			p = 1
		}
		ref := hm.InjectPrompt(p, r.prompts[p])
		rep, err := r.call(ctx, hm, info, r.sc.Tools)
		if err != nil {
			return "", err
		}
		if len(rep.ToolCalls) == 0 {
			hm.RemovePrompt(ref)
			final = rep.Content
			break
		}
		if err := r.runTools(ctx, hm, rep, inject); err != nil {
			return "", err
		}
		hm.RemovePrompt(ref)
	}
	hm.pos.round = -1
	hm.Remove(skills.BeforeFirstAgent)
	hm.Remove(skills.AfterToolCall)
	return final, nil
}

// runTools appends the assistant message and one tool message per call,
// then swaps the after_tool_call hooks: once per call, in call order.
func (r *runner) runTools(ctx context.Context, hm *HookManager, rep Reply, inject func(Event)) error {
	t := r.t
	first := int32(len(t.toolCalls))
	for k, tc := range rep.ToolCalls {
		if tc.ID == "" {
			tc.ID = fmt.Sprintf("call_%d_%d_%d", hm.pos.req, hm.pos.round, k)
		}
		t.addToolCall(tc)
	}
	t.begin(StepAppend, hm.pos, "", -1)
	t.add(msg{content: rep.Content, role: "assistant", origin: OriginAssistant, ref: first, n: int32(len(rep.ToolCalls)), req: hm.pos.req})
	call := Call{Request: int(hm.pos.req), Phase: hm.pos.phase, Round: int(hm.pos.round), Tools: r.sc.Tools}
	for k := range rep.ToolCalls {
		ti := first + int32(k)
		tc := &t.toolCalls[ti]
		if r.cfg.Tools != nil {
			res, err := r.cfg.Tools.RunTool(ctx, call, *tc)
			if err != nil {
				if ctx.Err() != nil {
					return fmt.Errorf("tool %s: %w", tc.Name, err)
				}
				// A failing tool is an answer the model sees, as in a real agent.
				tc.Error = err.Error()
				res = "error: " + err.Error()
			}
			tc.Result = res
		}
		t.begin(StepToolCall, hm.pos, "", ti)
		t.add(msg{content: tc.Result, role: "tool", origin: OriginTool, ref: ti, req: hm.pos.req})
	}
	t.Calls[len(t.Calls)-1].ToolCalls = slices.Clone(t.toolCalls[first:])
	hm.Remove(skills.AfterToolCall)
	for k := range rep.ToolCalls {
		inject(Event{Timing: skills.AfterToolCall, Tool: first + int32(k)})
	}
	return nil
}

// call records an llm_call step and asks the model.
func (r *runner) call(ctx context.Context, hm *HookManager, info *RequestInfo, tools []scenario.Tool) (Reply, error) {
	t := r.t
	ci := len(t.Calls)
	si := t.begin(StepLLMCall, hm.pos, "", int32(ci))
	lc := LLMCall{Index: ci, Request: int(hm.pos.req), Phase: hm.pos.phase, Step: si}
	if hm.pos.round >= 0 {
		rd := int(hm.pos.round)
		lc.Round = &rd
	}
	t.Calls = append(t.Calls, lc)
	info.Calls = append(info.Calls, ci)
	if err := ctx.Err(); err != nil {
		t.Calls[ci].Error = err.Error()
		return Reply{}, err
	}
	if r.cfg.BeforeCall != nil {
		if err := r.cfg.BeforeCall(ctx, t, ci); err != nil {
			t.Calls[ci].Error = err.Error()
			return Reply{}, fmt.Errorf("before llm call %d: %w", ci, err)
		}
	}
	stream := func(string) {}
	if r.cfg.OnStream != nil {
		stream = func(text string) { r.cfg.OnStream(ci, text) }
	}
	rep, err := r.cfg.Model.Complete(ctx, Call{
		Request: int(hm.pos.req), Phase: hm.pos.phase, Round: int(hm.pos.round), Tools: tools,
		Messages: func() []Message { return t.MessagesAt(si) }, Stream: stream,
	})
	if r.cfg.AfterCall != nil {
		defer r.cfg.AfterCall(t, ci)
	}
	if err != nil {
		t.Calls[ci].Error = err.Error()
		return Reply{}, fmt.Errorf("llm call %d (%s): %w", ci, hm.pos.phase, err)
	}
	t.Calls[ci].Content, t.Calls[ci].ToolCalls = rep.Content, rep.ToolCalls
	if hm.pos.phase == PhasePlanning {
		nt := rep.NeedTool
		t.Calls[ci].NeedTool = &nt
	}
	return rep, nil
}
