package prochook

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"hookstudio/app/engine"
	"hookstudio/app/scenario"
)

// The identity the simulated agent gives itself in meta and scope.
const (
	agentID = "main"
	channel = "cli"
)

// meta is PicoClaw's EventMeta (Go field names, no JSON tags).
type meta struct {
	AgentID      string
	TurnID       string
	ParentTurnID string
	SessionKey   string
	Iteration    int
	TracePath    string
	Source       string
}

func (h *Handler) meta(ev *engine.Event, source string) meta {
	it := 0
	if ev.Round >= 0 {
		it = ev.Round + 1 // 0 is the planning (or direct) call
	}
	return meta{AgentID: agentID, TurnID: turnID(ev.Request), SessionKey: h.session(ev), Iteration: it,
		TracePath: "runTurn", Source: source}
}

func turnID(req int) string { return fmt.Sprintf("turn-%d", req+1) }

func (h *Handler) session(ev *engine.Event) string {
	if ev.Session != "" {
		return ev.Session
	}
	return "session-1"
}

func (h *Handler) chatID(ev *engine.Event) string { return "chat-" + h.session(ev) }

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
	ForUser         string   `json:"for_user"`
	Silent          bool     `json:"silent"`
	IsError         bool     `json:"is_error"`
	Async           bool     `json:"async"`
	Media           []string `json:"media"`
	ArtifactTags    []string `json:"artifact_tags"`
	ResponseHandled bool     `json:"response_handled"`
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

type beforeLLMParams struct {
	Meta     meta           `json:"meta"`
	Model    string         `json:"model"`
	Messages []wireMessage  `json:"messages"`
	Tools    []wireTool     `json:"tools"`
	Options  map[string]any `json:"options,omitempty"`
	Channel  string         `json:"channel"`
	ChatID   string         `json:"chat_id"`
}

type llmResponse struct {
	Role      string         `json:"role"`
	Content   string         `json:"content"`
	ToolCalls []wireToolCall `json:"tool_calls,omitempty"`
}

type afterLLMParams struct {
	Meta     meta        `json:"meta"`
	Model    string      `json:"model"`
	Response llmResponse `json:"response"`
	Channel  string      `json:"channel"`
	ChatID   string      `json:"chat_id"`
}

type toolParams struct {
	Meta      meta           `json:"meta"`
	Tool      string         `json:"tool"`
	Arguments map[string]any `json:"arguments"`
	Result    *toolResult    `json:"result,omitempty"`
	Duration  *int64         `json:"duration,omitempty"` // nanoseconds, after_tool only
	Channel   string         `json:"channel"`
	ChatID    string         `json:"chat_id"`
}

// params builds the request of an intercepted method.
func (h *Handler) params(ev *engine.Event, method string) any {
	ch, chat := channel, h.chatID(ev)
	switch method {
	case "before_llm":
		return beforeLLMParams{Meta: h.meta(ev, "turn.llm.request"), Model: ev.Model, Messages: wireMessages(ev.Messages()),
			Tools: wireTools(ev.Tools), Channel: ch, ChatID: chat}
	case "after_llm":
		return afterLLMParams{Meta: h.meta(ev, "turn.llm.response"), Model: ev.Model, Channel: ch, ChatID: chat,
			Response: llmResponse{Role: "assistant", Content: ev.Answer, ToolCalls: wireCalls(ev.ToolCalls)}}
	case "after_tool":
		var d int64 // the simulated tool takes no time
		return toolParams{Meta: h.meta(ev, "turn.tool.after"), Tool: ev.Tool.Name, Arguments: orEmpty(ev.Tool.Arguments),
			Result: resultOf(ev.Tool), Duration: &d, Channel: ch, ChatID: chat}
	case "approve_tool":
		return toolParams{Meta: h.meta(ev, "turn.tool.approve"), Tool: ev.Tool.Name, Arguments: orEmpty(ev.Tool.Arguments), Channel: ch, ChatID: chat}
	default: // before_tool
		return toolParams{Meta: h.meta(ev, "turn.tool.before"), Tool: ev.Tool.Name, Arguments: orEmpty(ev.Tool.Arguments), Channel: ch, ChatID: chat}
	}
}

func resultOf(tc *engine.ToolCall) *toolResult {
	r := &toolResult{ForLLM: tc.Result, Media: []string{}, ArtifactTags: []string{}}
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
// say what the simulator could not do with it.
func (h *Handler) effect(ev *engine.Event, method string, sent any, result json.RawMessage) (engine.Effect, []string) {
	var eff engine.Effect
	var warns []string
	if method == "approve_tool" {
		var d struct {
			Approved bool   `json:"approved"`
			Reason   string `json:"reason"`
		}
		if err := json.Unmarshal(result, &d); err != nil {
			return denied(fmt.Sprintf("the approve_tool answer cannot be read: %v", err)), []string{"the answer is not {\"approved\": bool}; the tool is denied"}
		}
		eff.Approved, eff.Reason = &d.Approved, d.Reason
		return eff, nil
	}
	var d decision
	if len(result) == 0 || string(result) == "null" {
		return eff, nil
	}
	if err := json.Unmarshal(result, &d); err != nil {
		return eff, []string{fmt.Sprintf("the result is not an object with an action (%v); treated as continue", err)}
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
			eff.Action, eff.Reason = engine.ActionDeny, d.Reason
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
			warns = append(warns, h.modifyRequest(ev, sent.(beforeLLMParams), result, &eff)...)
		case "after_llm":
			warns = append(warns, modifyResponse(ev, result, &eff)...)
		case "before_tool":
			warns = append(warns, modifyCall(ev, result, action == "respond", &eff)...)
		case "after_tool":
			warns = append(warns, modifyResult(ev, result, &eff)...)
		}
	}
	return eff, warns
}

func denied(reason string) engine.Effect {
	f := false
	return engine.Effect{Approved: &f, Reason: reason}
}

func (h *Handler) modifyRequest(ev *engine.Event, sent beforeLLMParams, result json.RawMessage, eff *engine.Effect) []string {
	var r struct {
		Request *struct {
			Model    *string         `json:"model"`
			Messages *[]wireMessage  `json:"messages"`
			Tools    *[]wireTool     `json:"tools"`
			Options  *map[string]any `json:"options"`
		} `json:"request"`
	}
	if err := json.Unmarshal(result, &r); err != nil {
		return []string{fmt.Sprintf("the request cannot be read (%v); ignored", err)}
	}
	if r.Request == nil {
		return nil
	}
	var warns []string
	q := r.Request
	if q.Model != nil && *q.Model != "" && *q.Model != ev.Model {
		eff.Model = q.Model
	}
	if q.Messages != nil && !sameMessages(*q.Messages, sent.Messages) {
		ms := make([]engine.NewMessage, 0, len(*q.Messages))
		for _, m := range *q.Messages {
			ms = append(ms, engine.NewMessage{Role: m.Role, Content: m.Content})
		}
		eff.Messages = ms
	}
	if q.Tools != nil {
		have := map[string]bool{}
		for _, t := range ev.Tools {
			have[t.Name] = true
		}
		kept := map[string]bool{}
		for _, t := range *q.Tools {
			name := t.Function.Name
			kept[name] = true
			if name == "" || have[name] {
				continue
			}
			have[name] = true
			eff.AddTools = append(eff.AddTools, scenario.Tool{Name: name, Description: t.Function.Description, Parameters: t.Function.Parameters})
		}
		for _, t := range ev.Tools {
			if !kept[t.Name] {
				warns = append(warns, fmt.Sprintf("the hook dropped tool %s; the simulator cannot take a tool away from a call, it is still offered", t.Name))
			}
		}
	}
	if q.Options != nil && !equalAny(*q.Options, orEmptyAny(sent.Options)) {
		b, _ := json.Marshal(*q.Options)
		eff.Extra = append(eff.Extra, fmt.Sprintf("options set to %s (sent with a real model's request; the mock ignores them)", b))
		h.setOptions(ev, *q.Options)
	}
	return warns
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
		calls, w := engineCalls(*tc, ev.ToolCalls)
		warns = append(warns, w...)
		if !equalAny(wireCalls(calls), wireCalls(ev.ToolCalls)) {
			eff.ToolCalls = &calls
		}
	}
	return warns
}

// engineCalls converts a hook's tool calls, keeping the scripted result of
// a call whose id the hook kept.
func engineCalls(ws []wireToolCall, old []engine.ToolCall) ([]engine.ToolCall, []string) {
	var warns []string
	out := make([]engine.ToolCall, 0, len(ws))
	for i, w := range ws {
		c := engine.ToolCall{ID: w.ID, Name: w.Function.Name}
		if c.ID == "" {
			c.ID = fmt.Sprintf("hook_call_%d", i)
		}
		args, err := decodeArguments(w.Function.Arguments)
		if err != nil {
			warns = append(warns, fmt.Sprintf("tool call %s: arguments are not a JSON object (%v); sent as {}", c.Name, err))
		}
		c.Arguments = args
		for _, o := range old {
			if o.ID == c.ID {
				c.Result, c.Error = o.Result, o.Error
			}
		}
		out = append(out, c)
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

func modifyCall(ev *engine.Event, result json.RawMessage, respond bool, eff *engine.Effect) []string {
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
		return []string{fmt.Sprintf("the call cannot be read (%v); ignored", err)}
	}
	var warns []string
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
	if respond {
		text := ""
		if r.Result == nil {
			warns = append(warns, "respond without a result: the tool's result is empty")
		} else {
			text = r.Result.ForLLM
			if r.Result.IsError {
				eff.Extra = append(eff.Extra, "the hook's result is marked is_error")
			}
		}
		eff.Respond = &text
	} else if r.Result != nil {
		warns = append(warns, "a result is only used with action respond; ignored")
	}
	return warns
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
