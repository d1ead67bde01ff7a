package prochook

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"hookstudio/app/agent/engine"
	"hookstudio/app/agent/scenario"
	"hookstudio/app/hooks/hostmode"
)

// The identity the simulated agent gives itself in meta, context and scope:
// a CLI message, as PicoClaw's own tests send them.
const (
	agentID  = "main"
	channel  = "cli"
	senderID = "user"
)

// PicoClaw's agent defaults (pkg/config/defaults.go, instance.go): the
// options every before_llm request carries and llm.request reports.
const (
	defaultMaxTokens   = 32768
	defaultTemperature = 0.7
)

// meta is PicoClaw's HookMeta (Go field names, no JSON tags). Source is the
// function that raised it ("runTurn"), TracePath where in the turn.
type meta struct {
	AgentID      string
	TurnID       string
	ParentTurnID string
	SessionKey   string
	Iteration    int
	TracePath    string
	Source       string
}

// meta is the request's HookMeta at tracePath: the turn of ev's request and
// the iteration (LLM call of the turn, from 1) it is in.
func (h *Handler) meta(ev *engine.Event, tracePath string) meta {
	return meta{AgentID: agentID, TurnID: turnID(ev.Request), SessionKey: h.session(ev), Iteration: h.iter,
		TracePath: tracePath, Source: "runTurn"}
}

// turnID is PicoClaw's "<agent>-turn-<n>", n counting the loop's turns.
func turnID(req int) string { return fmt.Sprintf("%s-turn-%d", agentID, req+1) }

func (h *Handler) session(ev *engine.Event) string {
	if ev.Session != "" {
		return ev.Session
	}
	return "session-1"
}

func (h *Handler) chatID(ev *engine.Event) string { return "chat-" + h.session(ev) }

// turnContext is PicoClaw's TurnContext: where the message came from. The
// channel and chat travel here, not as fields of the hook requests.
type turnContext struct {
	Inbound inbound `json:"inbound"`
}

type inbound struct {
	Channel  string `json:"channel"`
	ChatID   string `json:"chat_id"`
	SenderID string `json:"sender_id"`
}

func (h *Handler) context(ev *engine.Event) *turnContext {
	return &turnContext{Inbound: inbound{Channel: channel, ChatID: h.chatID(ev), SenderID: senderID}}
}

// wire types: PicoClaw's providers.Message, ToolDefinition, ToolCall.
type wireMessage struct {
	Role       string         `json:"role"`
	Content    string         `json:"content"`
	ToolCalls  []wireToolCall `json:"tool_calls,omitempty"`
	ToolCallID string         `json:"tool_call_id,omitempty"`
}

type wireToolCall struct {
	ID       string `json:"id"`
	Type     string `json:"type"`
	Function struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"` // a JSON string (OpenAI style) or, leniently, an object
	} `json:"function"`
}

type wireTool struct {
	Type     string `json:"type"`
	Function struct {
		Name        string         `json:"name"`
		Description string         `json:"description,omitempty"`
		Parameters  map[string]any `json:"parameters,omitempty"`
	} `json:"function"`
}

// toolResult is PicoClaw's tools.ToolResult.
type toolResult struct {
	ForLLM          string   `json:"for_llm"`
	ForUser         string   `json:"for_user,omitempty"`
	Silent          bool     `json:"silent"`
	IsError         bool     `json:"is_error"`
	Async           bool     `json:"async"`
	Media           []string `json:"media,omitempty"`
	ArtifactTags    []string `json:"artifact_tags,omitempty"`
	ResponseHandled bool     `json:"response_handled,omitempty"`
}

func wireCalls(calls []engine.ToolCall) []wireToolCall {
	out := make([]wireToolCall, 0, len(calls))
	for _, c := range calls {
		var w wireToolCall
		w.ID, w.Type = c.ID, "function"
		w.Function.Name = c.Name
		args, _ := json.Marshal(orEmpty(c.Arguments))
		w.Function.Arguments, _ = json.Marshal(string(args))
		out = append(out, w)
	}
	return out
}

func orEmpty(m map[string]any) map[string]any {
	if m == nil {
		return map[string]any{}
	}
	return m
}

func wireMessages(ms []engine.Message) []wireMessage {
	out := make([]wireMessage, 0, len(ms))
	for _, m := range ms {
		w := wireMessage{Role: m.Role, Content: m.Content, ToolCallID: m.ToolCallID}
		if len(m.ToolCalls) > 0 {
			w.ToolCalls = wireCalls(m.ToolCalls)
		}
		out = append(out, w)
	}
	return out
}

func wireTools(ts []scenario.Tool) []wireTool {
	out := make([]wireTool, 0, len(ts))
	for _, t := range ts {
		var w wireTool
		w.Type = "function"
		w.Function.Name, w.Function.Description, w.Function.Parameters = t.Name, t.Description, t.Parameters
		out = append(out, w)
	}
	return out
}

// beforeLLMParams is PicoClaw's LLMHookRequest.
type beforeLLMParams struct {
	Meta     meta           `json:"meta"`
	Context  *turnContext   `json:"context,omitempty"`
	Model    string         `json:"model"`
	Messages []wireMessage  `json:"messages,omitempty"`
	Tools    []wireTool     `json:"tools,omitempty"`
	Options  map[string]any `json:"options,omitempty"`
}

// llmResponse is PicoClaw's providers.LLMResponse.
type llmResponse struct {
	Content          string         `json:"content"`
	ToolCalls        []wireToolCall `json:"tool_calls,omitempty"`
	FinishReason     string         `json:"finish_reason"`
	Usage            *usageInfo     `json:"usage,omitempty"`
	Reasoning        string         `json:"reasoning"`
	ReasoningDetails []any          `json:"reasoning_details"`
}

type usageInfo struct {
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
	TotalTokens      int `json:"total_tokens"`
}

// afterLLMParams is PicoClaw's LLMHookResponse.
type afterLLMParams struct {
	Meta     meta         `json:"meta"`
	Context  *turnContext `json:"context,omitempty"`
	Model    string       `json:"model"`
	Response *llmResponse `json:"response,omitempty"`
}

// toolParams is PicoClaw's ToolCallHookRequest (before_tool),
// ToolApprovalRequest (approve_tool) and ToolResultHookResponse
// (after_tool: result and duration).
type toolParams struct {
	Meta      meta           `json:"meta"`
	Context   *turnContext   `json:"context,omitempty"`
	Tool      string         `json:"tool"`
	Arguments map[string]any `json:"arguments,omitempty"`
	Result    *toolResult    `json:"result,omitempty"`
	Duration  *int64         `json:"duration,omitempty"` // nanoseconds, after_tool only
}

// defaultOptions are the options PicoClaw puts on every LLM request.
func defaultOptions() map[string]any {
	return map[string]any{"max_tokens": defaultMaxTokens, "temperature": defaultTemperature, "prompt_cache_key": agentID}
}

// params builds the request of an intercepted method.
func (h *Handler) params(ev *engine.Event, method string) any {
	ctx := h.context(ev)
	switch method {
	case "before_llm":
		return beforeLLMParams{Meta: h.meta(ev, "turn.llm.request"), Context: ctx, Model: ev.Model, Messages: wireMessages(ev.Messages()),
			Tools: wireTools(ev.Tools), Options: defaultOptions()}
	case "after_llm":
		return afterLLMParams{Meta: h.meta(ev, "turn.llm.response"), Context: ctx, Model: ev.Model, Response: responseOf(ev)}
	case "after_tool":
		var d int64 // the simulated tool takes no time
		return toolParams{Meta: h.meta(ev, "turn.tool.after"), Context: ctx, Tool: ev.Tool.Name, Arguments: ev.Tool.Arguments,
			Result: resultOf(ev.Tool), Duration: &d}
	case "approve_tool":
		return toolParams{Meta: h.meta(ev, "turn.tool.approve"), Context: ctx, Tool: ev.Tool.Name, Arguments: ev.Tool.Arguments}
	default: // before_tool
		return toolParams{Meta: h.meta(ev, "turn.tool.before"), Context: ctx, Tool: ev.Tool.Name, Arguments: ev.Tool.Arguments}
	}
}

func responseOf(ev *engine.Event) *llmResponse {
	r := &llmResponse{Content: ev.Answer, FinishReason: "stop"}
	if len(ev.ToolCalls) > 0 {
		r.ToolCalls, r.FinishReason = wireCalls(ev.ToolCalls), "tool_calls"
	}
	if u := ev.Usage; u != nil {
		r.Usage = &usageInfo{PromptTokens: u.InputTokens, CompletionTokens: u.OutputTokens, TotalTokens: u.InputTokens + u.OutputTokens}
	}
	return r
}

func resultOf(tc *engine.ToolCall) *toolResult {
	r := &toolResult{ForLLM: tc.Result}
	if tc.Error != "" {
		r.ForLLM, r.IsError = tc.Error, true
	}
	return r
}

// decision is the part every interceptor answer shares.
type decision struct {
	Action string `json:"action"`
	Reason string `json:"reason"`
}

// effect turns an interceptor's result into an engine effect. Warnings
// say what the simulator could not do with it; other what the other host
// behaviour would do where seed 003 and PicoClaw's code disagree.
func (h *Handler) effect(ev *engine.Event, method string, sent any, result json.RawMessage) (eff engine.Effect, warns []string, other string) {
	code := h.opts.Mode != hostmode.Document
	if method == "approve_tool" {
		var d struct {
			Approved bool   `json:"approved"`
			Reason   string `json:"reason"`
		}
		if err := json.Unmarshal(result, &d); err != nil {
			return h.denied(fmt.Sprintf("the approve_tool answer cannot be read: %v", err)), []string{"the answer is not {\"approved\": bool}; the tool is denied"}, ""
		}
		eff.Approved, eff.Reason = &d.Approved, d.Reason
		if !d.Approved {
			eff.Reason, other = h.denial("Tool execution denied by approval hook", d.Reason)
		}
		return eff, nil, other
	}
	var d decision
	if len(result) == 0 || string(result) == "null" {
		return eff, nil, ""
	}
	if err := json.Unmarshal(result, &d); err != nil {
		return eff, []string{fmt.Sprintf("the result is not an object with an action (%v); treated as continue", err)}, ""
	}
	action := d.Action
	switch action {
	case "", "continue", "modify":
	case "abort_turn":
		eff.Action, eff.Reason = engine.ActionStop, d.Reason
	case "hard_abort":
		eff.Action, eff.Reason = engine.ActionHardAbort, d.Reason
	case "deny_tool":
		if method == "before_tool" {
			eff.Action = engine.ActionDeny
			eff.Reason, other = h.denial("Tool execution denied by hook", d.Reason)
		} else {
			warns = append(warns, fmt.Sprintf("action deny_tool is only valid for before_tool; PicoClaw ignores it at %s", method))
		}
	case "respond":
		if method != "before_tool" {
			warns = append(warns, fmt.Sprintf("action respond is only valid for before_tool; PicoClaw ignores it at %s", method))
		}
	default:
		warns = append(warns, fmt.Sprintf("unknown action %q; PicoClaw ignores it (continue)", action))
	}
	if action == "" || action == "continue" || action == "modify" || action == "respond" {
		switch method {
		case "before_llm":
			var w []string
			w, other = h.modifyRequest(ev, sent.(beforeLLMParams), result, &eff)
			warns = append(warns, w...)
		case "after_llm":
			warns = append(warns, modifyResponse(ev, result, &eff)...)
		case "before_tool":
			var w []string
			w, other = modifyCall(ev, result, action == "respond", code, &eff)
			warns = append(warns, w...)
		case "after_tool":
			warns = append(warns, modifyResult(ev, result, &eff)...)
			h.renamed = renamedTo(ev, result)
		}
	}
	return eff, warns, other
}

// denial is the text the model reads for a denied tool: PicoClaw's code
// prefixes the hook's reason (hookDeniedToolContent), seed 003 gives the
// reason alone (or Hook Studio's own sentence without one).
func (h *Handler) denial(prefix, reason string) (text, other string) {
	coded := prefix
	if reason != "" {
		coded += ": " + reason
	}
	if h.opts.Mode == hostmode.Document {
		return reason, fmt.Sprintf("PicoClaw's code tells the model %q", coded)
	}
	if reason == "" {
		return coded, "as seed 003 describes, the model would read Hook Studio's own denial sentence"
	}
	return coded, fmt.Sprintf("as seed 003 describes, the model would read the reason alone: %q", reason)
}

// renamedTo is the tool name an after_tool answer in PicoClaw's shape
// gives the call ("" none).
func renamedTo(ev *engine.Event, result json.RawMessage) string {
	var r struct {
		Result json.RawMessage `json:"result"`
	}
	if json.Unmarshal(result, &r) != nil || len(r.Result) == 0 {
		return ""
	}
	if _, name, _, err := readToolResult(r.Result); err == nil && name != ev.Tool.Name {
		return name
	}
	return ""
}

// denied is the effect of a failed approval hook: PicoClaw denies.
func (h *Handler) denied(reason string) engine.Effect {
	f := false
	text, _ := h.denial("Tool execution denied by approval hook", reason)
	return engine.Effect{Approved: &f, Reason: text}
}

// modifyRequest applies a before_llm answer's request. Where PicoClaw's
// code and seed 003 disagree (a changed system message or tool list:
// applied by the seed, reverted by the code's applyBeforeLLMControls) the
// handler's mode decides, and other says what the other mode would do.
func (h *Handler) modifyRequest(ev *engine.Event, sent beforeLLMParams, result json.RawMessage, eff *engine.Effect) (warns []string, other string) {
	var r struct {
		Request *struct {
			Model    *string         `json:"model"`
			Messages *[]wireMessage  `json:"messages"`
			Tools    *[]wireTool     `json:"tools"`
			Options  *map[string]any `json:"options"`
		} `json:"request"`
	}
	if err := json.Unmarshal(result, &r); err != nil {
		return []string{fmt.Sprintf("the request cannot be read (%v); ignored", err)}, ""
	}
	if r.Request == nil {
		return nil, ""
	}
	code := h.opts.Mode != hostmode.Document
	var notes []string
	q := r.Request
	if q.Model != nil && *q.Model != "" && *q.Model != ev.Model {
		eff.Model = q.Model
	}
	if q.Messages != nil && !sameMessages(*q.Messages, sent.Messages) {
		if !sameSystem(*q.Messages, sent.Messages) {
			if code {
				warns = append(warns, "the hook changed a system message: PicoClaw's code keeps the original messages (\"Hook attempted to modify system prompt; preserving original messages\")")
				notes = append(notes, "as seed 003 describes, the model would read the hook's messages, its system message changes included")
			} else {
				notes = append(notes, "PicoClaw's code reverts this message list (a system message changed): the model would read the original messages")
			}
		}
		if !code || sameSystem(*q.Messages, sent.Messages) {
			ms := make([]engine.NewMessage, 0, len(*q.Messages))
			for _, m := range *q.Messages {
				ms = append(ms, engine.NewMessage{Role: m.Role, Content: m.Content})
			}
			eff.Messages = ms
		}
	}
	if q.Tools != nil && !equalAny(*q.Tools, sent.Tools) {
		have := map[string]bool{}
		for _, t := range ev.Tools {
			have[t.Name] = true
		}
		kept := map[string]bool{}
		var added []scenario.Tool
		for _, t := range *q.Tools {
			name := t.Function.Name
			kept[name] = true
			if name == "" || have[name] {
				continue
			}
			have[name] = true
			added = append(added, scenario.Tool{Name: name, Description: t.Function.Description, Parameters: t.Function.Parameters})
		}
		var names []string
		for _, t := range added {
			names = append(names, t.Name)
		}
		list := strings.Join(names, ", ")
		if code {
			warns = append(warns, "the hook changed the tool definitions: PicoClaw's code keeps the original tools (\"Hook attempted to modify tool definitions; preserving original tools\")")
			if list != "" {
				notes = append(notes, "as seed 003 and PicoClaw's plugin-tool-injection guide describe, the model would see "+list)
			} else {
				notes = append(notes, "as seed 003 describes, the hook's tool definitions would be used")
			}
		} else {
			eff.AddTools = added
			if list != "" {
				notes = append(notes, "PicoClaw's code reverts this tool definition: the model would not see "+list)
			} else {
				notes = append(notes, "PicoClaw's code reverts these tool definitions")
			}
			for _, t := range ev.Tools {
				if !kept[t.Name] {
					warns = append(warns, fmt.Sprintf("the hook dropped tool %s; the simulator cannot take a tool away from a call, it is still offered", t.Name))
				}
			}
		}
	}
	if q.Options != nil && !equalAny(*q.Options, orEmptyAny(sent.Options)) {
		b, _ := json.Marshal(*q.Options)
		eff.Extra = append(eff.Extra, fmt.Sprintf("options set to %s (sent with a real model's request; the mock ignores them)", b))
		h.setOptions(ev, *q.Options)
	}
	return warns, strings.Join(notes, "; ")
}

// sameSystem compares the system messages of two lists by position and
// content, as PicoClaw's llmHookSystemMessagesUnchanged does.
func sameSystem(a, b []wireMessage) bool {
	sys := func(ms []wireMessage) []string {
		var out []string
		for i, m := range ms {
			if m.Role == "system" {
				out = append(out, fmt.Sprintf("%d\x00%s", i, m.Content))
			}
		}
		return out
	}
	return slices.Equal(sys(a), sys(b))
}

func orEmptyAny(m map[string]any) map[string]any {
	if m == nil {
		return map[string]any{}
	}
	return m
}

func sameMessages(a, b []wireMessage) bool {
	return slices.EqualFunc(a, b, func(x, y wireMessage) bool { return x.Role == y.Role && x.Content == y.Content })
}

func equalAny(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}

// llmAnswer is what after_llm may rewrite of the answer.
type llmAnswer struct {
	Content   *string         `json:"content"`
	ToolCalls *[]wireToolCall `json:"tool_calls"`
}

// readResponse reads an after_llm answer's response in either shape:
// PicoClaw's code decodes it as the whole after_llm params (meta, context,
// model, response: the answer), the seed as the answer itself. Keys only
// the params have (response, meta, context, model) choose the code's shape,
// and then its answer is response.response.
func readResponse(raw json.RawMessage) (*llmAnswer, []string, error) {
	var keys map[string]json.RawMessage
	if err := json.Unmarshal(raw, &keys); err != nil || keys == nil {
		if err == nil {
			return nil, nil, nil
		}
		return nil, nil, err
	}
	if !hasAny(keys, "response", "meta", "context", "model") {
		var a llmAnswer
		if err := json.Unmarshal(raw, &a); err != nil {
			return nil, nil, err
		}
		return &a, nil, nil
	}
	var warns []string
	if hasAny(keys, "content", "tool_calls") {
		warns = append(warns, "response has both the after_llm params' keys and the answer's (content, tool_calls); read as PicoClaw does: the answer is response.response, the outer content and tool_calls are ignored")
	}
	inner, ok := keys["response"]
	if !ok || string(inner) == "null" {
		return nil, warns, nil // PicoClaw keeps the answer it had
	}
	var a llmAnswer
	if err := json.Unmarshal(inner, &a); err != nil {
		return nil, warns, err
	}
	// PicoClaw replaces the whole answer with response.response: what it
	// leaves out is gone.
	if a.Content == nil {
		a.Content = new(string)
		warns = append(warns, "response.response has no content: PicoClaw's answer text becomes empty")
	}
	if a.ToolCalls == nil {
		a.ToolCalls = &[]wireToolCall{}
	}
	return &a, warns, nil
}

func hasAny(keys map[string]json.RawMessage, names ...string) bool {
	for _, n := range names {
		if _, ok := keys[n]; ok {
			return true
		}
	}
	return false
}

func modifyResponse(ev *engine.Event, result json.RawMessage, eff *engine.Effect) []string {
	var r struct {
		Response json.RawMessage `json:"response"`
	}
	if err := json.Unmarshal(result, &r); err != nil {
		return []string{fmt.Sprintf("the response cannot be read (%v); ignored", err)}
	}
	if len(r.Response) == 0 || string(r.Response) == "null" {
		return nil
	}
	a, warns, err := readResponse(r.Response)
	if err != nil {
		return append(warns, fmt.Sprintf("the response cannot be read (%v); ignored", err))
	}
	if a == nil {
		return warns
	}
	if c := a.Content; c != nil && *c != ev.Answer {
		eff.Answer = c
	}
	if tc := a.ToolCalls; tc != nil {
		// The engine matches them to the answer's calls by position: what
		// the hook handed back unchanged stays as it was.
		calls, w := engineCalls(*tc)
		warns = append(warns, w...)
		eff.ToolCalls = &calls
	}
	return warns
}

// engineCalls converts a hook's tool calls.
func engineCalls(ws []wireToolCall) ([]engine.ToolCall, []string) {
	var warns []string
	out := make([]engine.ToolCall, 0, len(ws))
	for _, w := range ws {
		args, err := decodeArguments(w.Function.Arguments)
		if err != nil {
			warns = append(warns, fmt.Sprintf("tool call %s: arguments are not a JSON object (%v); sent as {}", w.Function.Name, err))
		}
		out = append(out, engine.ToolCall{ID: w.ID, Name: w.Function.Name, Arguments: args})
	}
	return out, warns
}

func decodeArguments(raw json.RawMessage) (map[string]any, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return map[string]any{}, nil
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		raw = json.RawMessage(s)
		if strings.TrimSpace(s) == "" {
			return map[string]any{}, nil
		}
	}
	m := map[string]any{}
	if err := json.Unmarshal(raw, &m); err != nil {
		return map[string]any{}, err
	}
	return m, nil
}

// modifyCall applies a before_tool answer. A respond without a result is
// where the two behaviours differ: PicoClaw's code runs the tool as if the
// hook had said continue, seed 003 leaves the tool's result empty.
func modifyCall(ev *engine.Event, result json.RawMessage, respond, code bool, eff *engine.Effect) (warns []string, other string) {
	var r struct {
		Call *struct {
			Tool      string          `json:"tool"`
			Arguments *map[string]any `json:"arguments"`
			// PicoClaw's code carries a respond result here too
			// (ToolCallHookRequest.HookResult); a top-level result wins,
			// as there.
			HookResult *toolResult `json:"hook_result"`
		} `json:"call"`
		Result *toolResult `json:"result"`
	}
	if err := json.Unmarshal(result, &r); err != nil {
		return []string{fmt.Sprintf("the call cannot be read (%v); ignored", err)}, ""
	}
	if r.Call != nil {
		if r.Call.Tool != "" && r.Call.Tool != ev.Tool.Name {
			warns = append(warns, fmt.Sprintf("the hook renamed the call to %s; the simulator keeps the model's tool name %s", r.Call.Tool, ev.Tool.Name))
		}
		if r.Call.Arguments != nil && !equalAny(orEmpty(*r.Call.Arguments), orEmpty(ev.Tool.Arguments)) {
			eff.ToolArguments = maps.Clone(*r.Call.Arguments)
			if eff.ToolArguments == nil {
				eff.ToolArguments = map[string]any{}
			}
		}
	}
	if r.Result == nil && r.Call != nil && r.Call.HookResult != nil {
		r.Result = r.Call.HookResult
	}
	switch {
	case respond && r.Result == nil && code:
		warns = append(warns, "respond without a result: PicoClaw's code runs the tool normally (\"Hook returned respond action but no HookResult provided\")")
		other = "as seed 003 describes, the tool would not run and its result would be empty"
		eff.ToolArguments = nil // PicoClaw runs the call as the model made it
	case respond:
		text := ""
		if r.Result == nil {
			warns = append(warns, "respond without a result: the tool's result is empty")
			other = "PicoClaw's code runs the tool normally when respond has no result"
		} else {
			text = r.Result.ForLLM
			if r.Result.IsError {
				eff.Extra = append(eff.Extra, "the hook's result is marked is_error")
			}
		}
		eff.Respond = &text
	case r.Result != nil:
		warns = append(warns, "a result is only used with action respond; ignored")
	}
	return warns, other
}

// readToolResult reads an after_tool answer's result in either shape:
// PicoClaw's code decodes it as the whole after_tool params (meta, context,
// tool, arguments, result, duration), whose result is the new tool result
// and whose tool renames the call; the seed reads it as the tool result
// itself. Keys only the params have choose the code's shape.
func readToolResult(raw json.RawMessage) (res *toolResult, rename string, warns []string, err error) {
	var keys map[string]json.RawMessage
	if err := json.Unmarshal(raw, &keys); err != nil || keys == nil {
		return nil, "", nil, err
	}
	if !hasAny(keys, "result", "tool", "meta", "context", "arguments", "duration") {
		var r toolResult
		if err := json.Unmarshal(raw, &r); err != nil {
			return nil, "", nil, err
		}
		return &r, "", nil, nil
	}
	if hasAny(keys, "for_llm", "for_user", "is_error", "silent") {
		warns = append(warns, "result has both the after_tool params' keys and a tool result's (for_llm…); read as PicoClaw does: the new text is result.result.for_llm, the outer for_llm is ignored")
	}
	var w struct {
		Tool   string      `json:"tool"`
		Result *toolResult `json:"result"`
	}
	if err := json.Unmarshal(raw, &w); err != nil {
		return nil, "", warns, err
	}
	return w.Result, w.Tool, warns, nil
}

func modifyResult(ev *engine.Event, result json.RawMessage, eff *engine.Effect) []string {
	var r struct {
		Result json.RawMessage `json:"result"`
	}
	if err := json.Unmarshal(result, &r); err != nil {
		return []string{fmt.Sprintf("the result cannot be read (%v); ignored", err)}
	}
	if len(r.Result) == 0 || string(r.Result) == "null" {
		return nil
	}
	res, rename, warns, err := readToolResult(r.Result)
	if err != nil {
		return append(warns, fmt.Sprintf("the result cannot be read (%v); ignored", err))
	}
	if rename != "" && rename != ev.Tool.Name {
		eff.Extra = append(eff.Extra, fmt.Sprintf("tool renamed to %s in agent.tool.exec_end and the turn's tool executions (the model's tool message keeps its call id)", rename))
	}
	if res == nil {
		return warns // PicoClaw keeps the tool's result
	}
	failed := ev.Tool.Error != ""
	if res.IsError != failed {
		warns = append(warns, "the hook changed is_error; the simulator keeps whether the tool failed and rewrites only its text")
	}
	text := res.ForLLM
	switch {
	case failed && text != ev.Tool.Error:
		eff.ToolError = &text
	case !failed && text != ev.Tool.Result:
		eff.ToolResult = &text
	}
	return warns
}
