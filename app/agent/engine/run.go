// Package engine replays the seed system's request flow (planning round,
// agent loop, five checkpoints) over skill hooks and records every step.
package engine

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"hookstudio/app/agent/scenario"
	"hookstudio/app/agentdata/request"
	"hookstudio/app/hooks/skills"
)

// Call is what the model is asked: where in the flow, which tools it may
// call, and the message list, built only if the model asks for it (a
// scripted model never does, which keeps long runs cheap).
type Call struct {
	Request int
	Phase   Phase
	Round   int // -1 outside the agent loop
	Tools   []scenario.Tool
	// Model is the model a hook chose for this call ("" the configured one).
	Model    string
	Messages func() []Message
	// Stream receives the answer's text as it arrives; never nil.
	Stream func(text string)
	// Subagent is the script of the sub-agent whose call this is (nil: the
	// session's own call): a scripted model answers from its rounds.
	Subagent *scenario.Subagent
}

// Reply is the model's answer. NeedTool is the planning decision.
type Reply struct {
	Content   string
	ToolCalls []ToolCall
	NeedTool  bool
	// Usage is what the provider reported the call cost (nil: not
	// reported, e.g. the mock); after_llm handlers read it as Event.Usage.
	// Added for token budgets (app/agent/events).
	Usage *Usage
}

// Usage is a model call's token usage as the provider reports it.
type Usage struct {
	InputTokens  int `json:"input_tokens"`
	OutputTokens int `json:"output_tokens"`
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
	// Handlers are the executable hook systems, outermost first (command,
	// process, request). With none, a run is exactly the seed-000 flow.
	Handlers []Handler
	// ModelName is the model hooks see and filter on ("mock" by default).
	ModelName string
	// Session identifies the run to hooks.
	Session string
	// Agent is the agent CLI version whose renderings the run shows (nil:
	// none was chosen, the run has no real agent's hooks); the trace keeps it.
	Agent *Agent
	// Request is that agent's request model (nil: seed 000's flow). With
	// one, a run is the agent's loop: no planning call nor built-in
	// prompt; the agent's system prompt, its context around the first
	// prompt and its tools; the whole conversation carried into the next
	// request; an answer a Stop hook blocked kept before the hook's words
	// when the agent keeps it. Facts are its slots' values (the folder,
	// the date, …; the prompt is each request's).
	Request *request.Model
	Facts   request.Values
	// AgentEntries are what the agent lists to the model of its folder
	// (its skills), as its hook system found them.
	AgentEntries []request.Entry
	// AgentDir is the folder the agent runs in, when its hook system
	// knows it is not the run's (a skill folder that is a Codex project
	// of its own): its facts are that folder's.
	AgentDir string
}

// Agent names an agent CLI version whose renderings of hook output a run
// follows (a rendering profile), and how it was chosen.
type Agent struct {
	Agent   string `json:"agent"`
	Version string `json:"version"`
	// By is why this version: scenario, flag, installed, newest.
	By string `json:"by,omitempty"`
	// Request says where the run's request model came from: calibrated
	// (the CLI's words), bundled (its shape: placeholders), none.
	Request string `json:"request,omitempty"`
	// Notes say where the simulated request may differ from the agent's
	// (a folder listed in part, an ignore file it does not read).
	Notes []string `json:"notes,omitempty"`
}

// String is "agent@version".
func (a *Agent) String() string { return a.Agent + "@" + a.Version }

// ErrMaxRounds is returned when the agent loop hit Config.MaxRounds.
var ErrMaxRounds = errors.New("agent loop reached the maximum number of rounds")

// ErrAborted is returned when a hook ended the run (hard abort).
var ErrAborted = errors.New("a hook ended the run")

// MaxRetries bounds retry_feedback per request, so a hook that always asks
// for another try cannot loop forever.
const MaxRetries = 5

// stopError ends the current request: a hook stopped it.
type stopError struct{ by string }

func (e *stopError) Error() string { return "request stopped by " + e.by }

// history is one message carried into the next request by the frontend.
type history struct {
	content string
	role    skills.Role
	of      Origin
	ref     int32
	// an agent's history keeps every message: its tool calls (n), who
	// edited it and what of the agent's own it is
	n     int32
	edit  int32
	agent *agentMsg
}

// Run plays every request of the scenario and returns the trace. On an
// error the trace holds every step up to it, with Status saying how it ended.
func Run(ctx context.Context, sc *scenario.Scenario, src HookSource, cfg Config) (*Trace, error) {
	if cfg.ModelName == "" {
		cfg.ModelName = "mock"
	}
	r := &runner{t: &Trace{Scenario: sc.Name, Status: StatusOK, Agent: cfg.Agent}, sc: sc, src: src, cfg: cfg, prompts: promptTexts(sc.Prompts),
		pos: at{round: -1}, toolMsg: map[string]int32{}, tools: sc.Tools}
	if r.agentMode() {
		r.t.req, r.t.facts, r.t.agentInfo = cfg.Request, cfg.Facts, map[int32]agentMsg{}
		if len(cfg.Request.Tools) > 0 { // else the scenario's: an agent nothing is known of
			r.tools = agentTools(cfg.Request)
		}
	}
	r.subs = new([]*subRun)
	err := r.fire(ctx, &Event{Point: PointSessionStart})
	for i := 0; err == nil && i < len(sc.Requests); i++ {
		err = r.request(ctx, i)
	}
	if ctx.Err() == nil && len(cfg.Handlers) > 0 {
		if endErr := r.fire(ctx, &Event{Point: PointSessionEnd}); err == nil {
			err = endErr
		}
	}
	if nestErr := r.nest(); err == nil {
		err = nestErr
	}
	if err != nil {
		r.t.Error = err.Error()
		switch {
		case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
			r.t.Status = StatusCancelled
		case errors.Is(err, ErrMaxRounds):
			r.t.Status = StatusMaxRounds
		case errors.Is(err, ErrAborted):
			r.t.Status = StatusStopped
		default:
			r.t.Status = StatusError
		}
		return r.t, err
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
	pos     at
	// tools are those the model is offered: the scenario's, or the agent's
	tools []scenario.Tool

	// Executable hooks' bookkeeping for the current request.
	userEdit       int32   // 1 + the hook call that rewrote the user input
	overlayHidden  []int32 // hidden for the current call only
	overlayAdded   []int32 // added for the current call only
	user           string  // the request's user input as hooks left it
	toolMsg        map[string]int32
	compactContext []string
	retries        int
	pendingContext []msg // hook context waiting for the message it follows (Effect.Context)
	pendingBefore  []msg // hook context waiting for the message it precedes (Effect.ContextBefore)
	pendingPreface []msg // hook messages waiting for the user's message they precede (Effect.Preface)
	// sessionSystem is what session_start hooks appended to every request's
	// system prompt; sessionEdit 1 + the hook call that last did.
	sessionSystem string
	sessionEdit   int32
	// sub is the sub-agent this runner plays (nil: the session), subs
	// every sub-agent of the run, in the order they started (subagent.go)
	sub  *subRun
	subs *[]*subRun
	// agent is the agent's own request model when it differs from cfg's
	// (a sub-agent's runner plays the agent's sub-agent model)
	agent *request.Model
	// ranTools counts, per tool, the calls that ran (an agent numbers its
	// shells: ResultFrame's count)
	ranTools map[string]int
}

// placeContext adds the hook context that waited for the message just
// added (id): before it, then after it.
func (r *runner) placeContext(id int32) {
	for _, m := range r.pendingBefore {
		m.req = r.pos.req
		r.t.addAt(m, r.t.slotBefore(id))
	}
	r.pendingBefore = nil
	for _, m := range r.pendingContext {
		m.req = r.pos.req
		r.t.add(m)
	}
	r.pendingContext = nil
}

func (r *runner) request(ctx context.Context, i int) error {
	t, req := r.t, &r.sc.Requests[i]
	enabled := r.sc.EnabledSkills
	if req.EnabledSkills != nil {
		enabled = req.EnabledSkills
	}
	r.pos = at{req: int32(i), round: -1}
	r.userEdit, r.retries, r.compactContext = 0, 0, nil
	clear(r.toolMsg)
	// The request is listed from its start, so a paused run shows it.
	t.Requests = append(t.Requests, RequestInfo{Index: i, User: req.User, EnabledSkills: enabled, FirstStep: len(t.steps), Calls: []int{}, Yielded: []string{}})
	info := func() *RequestInfo { return &t.Requests[len(t.Requests)-1] }
	var hookRefs []int32
	if r.src != nil {
		for _, h := range r.src.Hooks(enabled) {
			hookRefs = append(hookRefs, t.hookRef(&h))
		}
	}
	hm := newHookManager(t, hookRefs, &r.pos)
	var yielded []int32
	inject := func(ev Checkpoint) {
		ids := hm.Inject(ev)
		for _, id := range ids {
			t.begin(StepYield, r.pos, ev.Timing, id)
			info().Yielded = append(info().Yielded, t.Hooks[t.msgs[id].ref].Name)
		}
		yielded = append(yielded, ids...)
	}

	user := req.User
	r.user = ""
	send := &Event{Point: PointBeforeSend, UserInput: user}
	err := r.fire(ctx, send)
	if err == nil {
		user = send.UserInput
		r.user = user
		// _build_messages: [system prompt] + history + [user input].
		t.begin(StepBuildMessages, r.pos, "", -1)
		if r.agentMode() {
			r.buildAgent(i, user)
		} else {
			r.buildSeed(i, user)
		}
		r.feedback(send)
		err = r.fire(ctx, &Event{Point: PointAfterSend, UserInput: user})
	}
	var reply string
	if err == nil {
		if r.agentMode() {
			reply, err = r.agentFlow(ctx, hm, info, inject)
		} else {
			inject(Checkpoint{Timing: skills.AfterUserInput, Tool: -1})
			reply, err = r.flow(ctx, hm, info, inject)
		}
	}
	return r.endRequest(err, user, reply, yielded, info)
}

// buildSeed is seed 000's _build_messages: [system prompt] + history +
// [user input].
func (r *runner) buildSeed(i int, user string) {
	t := r.t
	system := r.sc.SystemPrompt
	if r.sessionSystem != "" {
		system = joinText(system, r.sessionSystem)
	}
	if system != "" {
		t.add(msg{content: system, role: skills.System, origin: OriginSystemPrompt, req: int32(i), edit: r.sessionEdit})
	}
	for _, h := range r.history {
		t.add(msg{content: h.content, role: h.role, origin: OriginHistory, histOf: h.of, ref: h.ref, req: int32(i)})
	}
	for _, m := range r.pendingPreface {
		m.req = int32(i)
		t.add(m)
	}
	r.pendingPreface = nil
	r.placeContext(t.add(msg{content: user, role: skills.User, origin: OriginUserInput, req: int32(i), edit: r.userEdit}))
}

// endRequest records how the request ended and what the next one carries.
func (r *runner) endRequest(err error, user, reply string, yielded []int32, info func() *RequestInfo) error {
	t := r.t
	var stop *stopError
	if errors.As(err, &stop) {
		// The request ends here; the run goes on with the next one. What the
		// frontend would have kept of it: the user's message and the yields.
		info().Status, info().StoppedBy = "stopped", stop.by
		r.pendingContext, r.pendingBefore, r.pendingPreface = nil, nil, nil // their message never came
		info().LastStep = len(t.steps) - 1
		if r.agentMode() {
			r.keepConversation()
		} else {
			r.keepHistory(user, yielded, nil)
		}
		return nil
	}
	if err == nil {
		t.begin(StepReply, r.pos, "", -1)
		info().Reply = reply
	}
	info().LastStep = len(t.steps) - 1
	if err != nil {
		return err
	}
	if r.agentMode() {
		r.keepConversation()
		r.history = append(r.history, history{content: reply, role: "assistant", of: OriginAssistant, ref: int32(len(r.t.toolCalls))})
		return nil
	}
	r.keepHistory(user, yielded, &reply)
	return nil
}

// keepHistory is what the frontend keeps of a request: the user's message,
// every yielded hook message in yield order, then the final reply; tool
// traffic is not kept.
func (r *runner) keepHistory(user string, yielded []int32, reply *string) {
	r.history = append(r.history, history{content: user, role: skills.User, of: OriginUserInput})
	for _, id := range yielded {
		m := &r.t.msgs[id]
		r.history = append(r.history, history{content: m.content, role: m.role, of: OriginHook, ref: m.ref})
	}
	if reply != nil {
		r.history = append(r.history, history{content: *reply, role: "assistant", of: OriginAssistant})
	}
}

// flow is chat_stream after the first inject; it returns the final reply.
func (r *runner) flow(ctx context.Context, hm *HookManager, info func() *RequestInfo, inject func(Checkpoint)) (string, error) {
	if !r.sc.EnableTools || (len(r.sc.Tools) == 0 && !r.hooksOfferTools()) {
		r.pos.phase = PhaseDirect
		for {
			rep, err := r.call(ctx, info, nil)
			if err != nil {
				return "", err
			}
			if again, err := r.stopPoint(ctx, rep.Content); err != nil || !again {
				return rep.Content, err
			}
		}
	}

	r.pos.phase = PhasePlanning
	inject(Checkpoint{Timing: skills.BeforePlanning, Tool: -1})
	ref := hm.InjectPrompt(0, r.prompts[0])
	plan, err := r.call(ctx, info, nil)
	if err != nil {
		return "", err
	}
	hm.RemovePrompt(ref)
	hm.Remove(skills.BeforePlanning)
	if !plan.NeedTool {
		return plan.Content, nil
	}

	r.pos.phase = PhaseAgent
	var final string
	for round := 0; ; round++ {
		if r.cfg.MaxRounds > 0 && round >= r.cfg.MaxRounds {
			return "", fmt.Errorf("request %d: %w (%d)", info().Index, ErrMaxRounds, r.cfg.MaxRounds)
		}
		r.pos.round = int32(round)
		if err := r.compact(ctx, round); err != nil {
			return "", err
		}
		hm.Remove(skills.BeforeEachAgent)
		inject(Checkpoint{Timing: skills.BeforeEachAgent, Tool: -1})
		p := int32(2)
		if round == 0 {
			inject(Checkpoint{Timing: skills.BeforeFirstAgent, Tool: -1})
			p = 1
		}
		ref := hm.InjectPrompt(p, r.prompts[p])
		rep, err := r.call(ctx, info, r.sc.Tools)
		if err != nil {
			return "", err
		}
		if len(rep.ToolCalls) == 0 {
			hm.RemovePrompt(ref)
			again, err := r.stopPoint(ctx, rep.Content)
			if err != nil {
				return "", err
			}
			if again {
				continue
			}
			final = rep.Content
			break
		}
		if err := r.runTools(ctx, hm, rep, inject); err != nil {
			return "", err
		}
		hm.RemovePrompt(ref)
	}
	r.pos.round = -1
	hm.Remove(skills.BeforeFirstAgent)
	hm.Remove(skills.AfterToolCall)
	return final, nil
}

// ToolOfferer is a Handler whose hooks may offer the model tools of their
// own at before_llm (Effect.AddTools). An agent that declares no tools but
// is given some by such a hook still runs its agent loop.
type ToolOfferer interface {
	Handler
	OffersTools() bool
}

// hooksOfferTools says whether a handler's hooks may offer tools.
func (r *runner) hooksOfferTools() bool {
	return slices.ContainsFunc(r.cfg.Handlers, func(h Handler) bool {
		o, ok := h.(ToolOfferer)
		return ok && o.OffersTools()
	})
}

// stopPoint fires stop for an answer without tool calls; it says whether a
// hook's retry_feedback sends the round again.
func (r *runner) stopPoint(ctx context.Context, answer string) (bool, error) {
	if len(r.cfg.Handlers) == 0 {
		return false, nil
	}
	ev := &Event{Point: r.stopAt(), Answer: answer}
	if err := r.fire(ctx, ev); err != nil {
		return false, err
	}
	if ev.state == nil || ev.state.stopped != "" {
		return false, nil // stop at stop: the reply ends as it is
	}
	if len(ev.state.retry) > 0 && r.retries < MaxRetries {
		r.keepAnswer(answer)
	}
	from := int32(len(r.t.msgs))
	again := r.feedback(ev)
	if again && r.agentMode() && r.cfg.Request.Loop.StopPrompt {
		// the agent sends the hook's words as a new prompt: the first
		// message (what follows are hooks' words on that prompt)
		for id := from; id < int32(len(r.t.msgs)); id++ {
			if r.t.msgs[id].role == skills.User {
				r.sentNow(id)
				break
			}
		}
	}
	return again, nil
}

// feedback appends an event's retry_feedback texts as user messages, as
// jcli does; it says whether there were any left within MaxRetries.
func (r *runner) feedback(ev *Event) bool {
	if ev.state == nil || len(ev.state.retry) == 0 {
		return false
	}
	if r.retries >= MaxRetries {
		hc := &r.t.HookCalls[len(r.t.HookCalls)-1]
		hc.Warnings = append(hc.Warnings, fmt.Sprintf("retry_feedback ignored: the request already retried %d times", MaxRetries))
		return false
	}
	r.retries++
	r.t.begin(StepHookCall, r.pos, "", int32(len(r.t.HookCalls)-1))
	for _, m := range ev.state.retry {
		r.t.add(msg{content: m.Content, role: skills.Role(m.Role), origin: OriginHook, ref: -1, req: r.pos.req, edit: int32(len(r.t.HookCalls))})
	}
	return true
}

// nameCalls gives each tool call of an answer without an id the one its
// tool message will carry, before after_llm hooks read the answer: a real
// provider names every call, and a hook that hands the calls back must
// find them under the same names.
func (r *runner) nameCalls(calls []ToolCall) {
	for k := range calls {
		if calls[k].ID == "" {
			calls[k].ID = r.callID(k)
		}
	}
}

// callID is the id of the k-th tool call of the current answer.
func (r *runner) callID(k int) string {
	return fmt.Sprintf("call_%d_%d_%d", r.pos.req, r.pos.round, k)
}

// runTools appends the assistant message and one tool message per call,
// then swaps the after_tool_call hooks: once per call, in call order.
func (r *runner) runTools(ctx context.Context, hm *HookManager, rep Reply, inject func(Checkpoint)) error {
	t := r.t
	first := int32(len(t.toolCalls))
	for _, tc := range rep.ToolCalls {
		t.addToolCall(tc)
	}
	t.begin(StepAppend, r.pos, "", -1)
	t.add(msg{content: rep.Content, role: "assistant", origin: OriginAssistant, ref: first, n: int32(len(rep.ToolCalls)), req: r.pos.req})
	call := Call{Request: int(r.pos.req), Phase: r.pos.phase, Round: int(r.pos.round), Tools: r.tools}
	for k := range rep.ToolCalls {
		ti := first + int32(k)
		if err := r.runTool(ctx, call, ti); err != nil {
			return err
		}
	}
	t.Calls[len(t.Calls)-1].ToolCalls = slices.Clone(t.toolCalls[first:])
	if len(r.cfg.Handlers) > 0 {
		if err := r.fire(ctx, &Event{Point: PointAfterTools, ToolCalls: slices.Clone(t.toolCalls[first:])}); err != nil {
			return err
		}
	}
	if r.agentMode() {
		return nil // seed 000's after_tool_call checkpoint is not an agent's
	}
	hm.Remove(skills.AfterToolCall)
	for k := range rep.ToolCalls {
		inject(Checkpoint{Timing: skills.AfterToolCall, Tool: first + int32(k)})
	}
	return nil
}

// runTool plays one tool call: before_tool and approval hooks, the tool (or
// a hook's answer, or the denial), the tool message, after_tool hooks.
func (r *runner) runTool(ctx context.Context, call Call, ti int32) error {
	t := r.t
	hooked := len(r.cfg.Handlers) > 0
	var st *eventState
	if hooked {
		var err error
		if st, err = r.toolDecision(ctx, ti); err != nil {
			return err
		}
	}
	tc := &t.toolCalls[ti]
	ran := false
	switch {
	case st != nil && st.skipped != "":
		tc.Result = st.deny
	case st != nil && st.respond != nil:
		tc.Status, tc.By, tc.Result = ToolResponded, st.respondBy, *st.respond
	case tc.Subagent != nil:
		ran = true
		res, err := r.subagent(ctx, ti)
		if err != nil {
			return fmt.Errorf("sub-agent of %s: %w", tc.Name, err)
		}
		tc.Result = res
	default:
		ran = true
		if r.cfg.Tools != nil {
			res, err := r.cfg.Tools.RunTool(ctx, call, *tc)
			if err != nil {
				if ctx.Err() != nil {
					return fmt.Errorf("tool %s: %w", tc.Name, err)
				}
				// A failing tool is an answer the model sees, as in a real agent.
				tc.Error = err.Error()
			}
			tc.Result = res
		}
		r.resultOf(tc)
	}
	content := r.toolContent(tc, ran)
	t.begin(StepToolCall, r.pos, "", ti)
	m := msg{content: content, role: "tool", origin: OriginTool, ref: ti, req: r.pos.req}
	if !ran {
		m.edit = st.replacedBy // the model reads the hook's words, not the tool's
	}
	id := t.add(m)
	if ran && tc.Error == "" {
		r.afterTool(tc)
	}
	r.placeContext(id)
	if !hooked {
		return nil
	}
	r.toolMsg[tc.ID] = id
	if tc.Status == ToolSkipped || tc.Status == ToolDenied {
		return nil
	}
	return r.fire(ctx, &Event{Point: PointAfterTool, Tool: tc})
}

// toolDecision fires before_tool, then (unless a hook skipped the call or
// answered it) approve_tool, and returns what the hooks decided.
func (r *runner) toolDecision(ctx context.Context, ti int32) (*eventState, error) {
	t := r.t
	before := &Event{Point: PointBeforeTool, Tool: &t.toolCalls[ti]}
	if err := r.fire(ctx, before); err != nil {
		return nil, err
	}
	if st := before.state; st.skipped != "" || st.respond != nil {
		return st, nil
	}
	approve := &Event{Point: PointApproveTool, Tool: &t.toolCalls[ti]}
	if err := r.fire(ctx, approve); err != nil {
		return nil, err
	}
	if a := approve.state.approved; a != nil && *a {
		t.toolCalls[ti].Status = ToolApproved
	}
	return approve.state, nil
}

// call fires before_llm, records an llm_call step, asks the model, undoes
// the call-only changes and fires after_llm. A hook's retry_feedback after
// the answer asks again.
func (r *runner) call(ctx context.Context, info func() *RequestInfo, tools []scenario.Tool) (Reply, error) {
	for {
		rep, again, err := r.callOnce(ctx, info, tools)
		if err != nil || !again {
			return rep, err
		}
	}
}

func (r *runner) callOnce(ctx context.Context, info func() *RequestInfo, tools []scenario.Tool) (Reply, bool, error) {
	t := r.t
	ci := len(t.Calls)
	// fires: some handler watches the points; hooked: one may change the
	// run, so the call records the model it used. A run watched only by
	// Quiet handlers (the event stream) keeps prompt-only call records.
	fires := len(r.cfg.Handlers) > 0
	hooked := fires && slices.ContainsFunc(r.cfg.Handlers, func(h Handler) bool { _, q := h.(Quiet); return !q })
	var before *Event
	if fires {
		before = &Event{Point: PointBeforeLLM, Call: ci, Model: r.cfg.ModelName, Tools: slices.Clone(tools)}
		if err := r.fire(ctx, before); err != nil {
			r.restore()
			return Reply{}, false, err
		}
		r.feedback(before)
	}
	si := t.begin(StepLLMCall, r.pos, "", int32(ci))
	lc := LLMCall{Index: ci, Request: int(r.pos.req), Phase: r.pos.phase, Step: si}
	if r.pos.round >= 0 {
		rd := int(r.pos.round)
		lc.Round = &rd
	}
	model := r.cfg.ModelName
	if hooked {
		model = before.Model
		tools = before.Tools
		lc.Model = model
		if before.state != nil {
			for _, tl := range before.state.addTools {
				lc.AddedTools = append(lc.AddedTools, tl.Name)
			}
			lc.WithheldTools = before.state.withheld
			lc.AnsweredBy = before.state.answerBy
		}
	}
	if r.agentMode() {
		lc.Offered = make([]string, len(tools))
		for k, tl := range tools {
			lc.Offered[k] = tl.Name
		}
		lc.ToolTokens = r.cfg.Request.ToolTokens(lc.Offered)
	}
	t.Calls = append(t.Calls, lc)
	info().Calls = append(info().Calls, ci)
	if err := ctx.Err(); err != nil {
		t.Calls[ci].Error = err.Error()
		r.restore()
		return Reply{}, false, err
	}
	var rep Reply
	var err error
	if hooked && before.state != nil && before.state.answer != nil {
		// a hook answered in the model's place: the model is not asked
		rep = Reply{Content: *before.state.answer}
	} else {
		if r.cfg.BeforeCall != nil {
			if err := r.cfg.BeforeCall(ctx, t, ci); err != nil {
				t.Calls[ci].Error = err.Error()
				r.restore()
				return Reply{}, false, fmt.Errorf("before llm call %d: %w", ci, err)
			}
		}
		stream := func(string) {}
		if r.cfg.OnStream != nil {
			stream = func(text string) { r.cfg.OnStream(ci, text) }
		}
		rep, err = r.cfg.Model.Complete(ctx, Call{
			Request: int(r.pos.req), Phase: r.pos.phase, Round: int(r.pos.round), Tools: tools, Model: model,
			Messages: func() []Message { return t.MessagesAt(si) }, Stream: stream,
		})
	}
	if r.cfg.AfterCall != nil {
		defer r.cfg.AfterCall(t, ci)
	}
	r.restore()
	if err != nil {
		t.Calls[ci].Error = err.Error()
		if fires && ctx.Err() == nil {
			// Request hooks see the end of every request, failed ones too.
			_ = r.fire(ctx, &Event{Point: PointAfterLLM, Call: ci, Model: model, Err: err})
		}
		return Reply{}, false, fmt.Errorf("llm call %d (%s): %w", ci, r.pos.phase, err)
	}
	r.nameCalls(rep.ToolCalls)
	if fires {
		after := &Event{Point: PointAfterLLM, Call: ci, Model: model, Answer: rep.Content, Tools: tools, ToolCalls: slices.Clone(rep.ToolCalls), Usage: rep.Usage,
			AnsweredBy: t.Calls[ci].AnsweredBy}
		if err := r.fire(ctx, after); err != nil {
			return Reply{}, false, err
		}
		if after.state != nil && after.state.toolCalls {
			rep.ToolCalls = after.ToolCalls // a process hook's after_llm rewrote them
		}
		if after.Answer != rep.Content {
			orig := rep.Content
			t.Calls[ci].OriginalContent = &orig
			rep.Content = after.Answer
		}
		if r.feedback(after) {
			t.Calls[ci].Content, t.Calls[ci].ToolCalls = rep.Content, rep.ToolCalls
			return rep, true, nil
		}
	}
	t.Calls[ci].Content, t.Calls[ci].ToolCalls = rep.Content, rep.ToolCalls
	if r.pos.phase == PhasePlanning {
		nt := rep.NeedTool
		t.Calls[ci].NeedTool = &nt
	}
	return rep, false, nil
}

// restore undoes the current call's call-only changes in one step.
func (r *runner) restore() {
	if len(r.overlayHidden) == 0 && len(r.overlayAdded) == 0 {
		return
	}
	r.t.begin(StepRestore, r.pos, "", -1)
	for _, id := range r.overlayAdded {
		r.t.remove(id)
	}
	for _, id := range r.overlayHidden {
		r.t.unhide(id)
	}
	r.overlayHidden, r.overlayAdded = r.overlayHidden[:0], r.overlayAdded[:0]
}

// fire raises ev at every handler, inward before the model or tool and
// outward after it. Hooks stop being asked once one stopped the request.
func (r *runner) fire(ctx context.Context, ev *Event) error {
	hs := r.cfg.Handlers
	if len(hs) == 0 {
		return nil
	}
	ev.r, ev.state = r, &eventState{}
	ev.Request, ev.Phase, ev.Round, ev.Session = int(r.pos.req), r.pos.phase, int(r.pos.round), r.cfg.Session
	if ev.Point != PointBeforeLLM && ev.Point != PointAfterLLM {
		ev.Call = -1
	}
	if ev.Model == "" {
		ev.Model = r.cfg.ModelName
	}
	if ev.UserInput == "" {
		ev.UserInput = r.user
	}
	for k := range hs {
		h := hs[k]
		if !ev.Point.before() {
			h = hs[len(hs)-1-k]
		}
		if err := h.Handle(ctx, ev); err != nil {
			return err
		}
		if ev.state.hardAbort != "" {
			return fmt.Errorf("%w: %s", ErrAborted, ev.state.hardAbort)
		}
		if ev.state.stopped != "" && ev.Point != PointStop && ev.Point != PointSubagentStop && ev.Point != PointBeforeCompact {
			return &stopError{by: ev.state.stopped}
		}
	}
	return nil
}

// systemID finds the current request's system-prompt message.
func (r *runner) systemID() (int32, bool) {
	if len(r.t.steps) == 0 || r.t.steps[len(r.t.steps)-1].req != r.pos.req {
		return 0, false
	}
	for _, id := range r.t.MessageIDsAt(len(r.t.steps) - 1) {
		if r.t.msgs[id].origin == OriginSystemPrompt {
			return int32(id), true
		}
	}
	return 0, false
}

// firstPos is the position of the request's first message.
func (r *runner) firstPos() float64 {
	ids := r.t.MessageIDsAt(len(r.t.steps) - 1)
	if len(ids) == 0 || r.t.msgs[ids[0]].req != r.pos.req {
		return float64(len(r.t.msgs))
	}
	return r.t.posOf(int32(ids[0]))
}
