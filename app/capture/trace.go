package capture

import (
	"encoding/json"
	"fmt"

	"hookstudio/app/engine"
	"hookstudio/app/skills"
)

// AgentSkill is the skill the captured agent's hooks are listed under in
// the views (their names are the agent's: "PreToolUse:Bash", "Stop").
const AgentSkill = "agent"

// Trace turns a capture into a trace the simulator's views, the history and
// the comparison read: one request, one LLM call per captured request, and
// before each call a step that adds the messages new since the previous
// call and removes those it no longer sends. Hook output is a hook's message
// (under AgentSkill), so the visibility matrix counts it.
func Trace(name string, calls []Call) (*engine.Trace, error) {
	b := &traceBuilder{rec: engine.Record{Scenario: name, Status: engine.StatusOK, Hooks: []skills.Hook{}},
		hooks: map[string]int32{}, toolByID: map[string]int32{}}
	var live []int32 // the ids of the list the previous call sent
	var liveKeys []string
	user := ""
	for k, c := range calls {
		keys := make([]string, len(c.Messages))
		for i, m := range c.Messages {
			keys[i] = messageKey(m)
		}
		same := 0
		for same < len(live) && same < len(keys) && liveKeys[same] == keys[same] {
			same++
		}
		step := int32(len(b.rec.Steps))
		st := engine.StepRecord{Kind: engine.StepBuildMessages, Phase: engine.PhaseAgent, Round: int32(k), Ref: -1,
			AddFrom: int32(len(b.rec.Messages)), RemFrom: int32(len(b.rec.RemovedIDs))}
		for _, id := range live[same:] {
			b.rec.Messages[id].Removed = step
			b.rec.RemovedIDs = append(b.rec.RemovedIDs, id)
		}
		live, liveKeys = live[:same:same], keys
		for _, m := range c.Messages[same:] {
			live = append(live, b.message(m, step))
			if user == "" && m.Origin == OriginUser {
				user = m.Content
			}
		}
		st.AddTo, st.RemTo = int32(len(b.rec.Messages)), int32(len(b.rec.RemovedIDs))
		b.rec.Steps = append(b.rec.Steps, st)
		round := k
		call := engine.LLMCall{Index: k, Request: 0, Phase: engine.PhaseAgent, Round: &round, Step: len(b.rec.Steps), Model: c.Model}
		if c.Answer != nil {
			call.Content = c.Answer.Content
			for _, tc := range c.Answer.ToolCalls {
				call.ToolCalls = append(call.ToolCalls, engine.ToolCall{ID: tc.ID, Name: tc.Name, Arguments: arguments(tc.Arguments)})
			}
		}
		if c.Status != 200 || c.Disconnected {
			call.Error = c.Error
		}
		b.rec.Steps = append(b.rec.Steps, engine.StepRecord{Kind: engine.StepLLMCall, Phase: engine.PhaseAgent, Round: int32(k), Ref: int32(k),
			AddFrom: int32(len(b.rec.Messages)), AddTo: int32(len(b.rec.Messages)), RemFrom: int32(len(b.rec.RemovedIDs)), RemTo: int32(len(b.rec.RemovedIDs))})
		b.rec.Calls = append(b.rec.Calls, call)
	}
	req := engine.RequestInfo{Index: 0, User: user, EnabledSkills: []string{}, Calls: []int{}, Yielded: []string{}, LastStep: max(0, len(b.rec.Steps)-1)}
	for k := range calls {
		req.Calls = append(req.Calls, k)
	}
	if len(calls) > 0 && calls[len(calls)-1].Answer != nil {
		req.Reply = calls[len(calls)-1].Answer.Content
	}
	if len(b.hooks) > 0 {
		req.EnabledSkills = []string{AgentSkill}
	}
	b.rec.Requests = []engine.RequestInfo{req}
	if len(b.rec.Steps) == 0 {
		return nil, fmt.Errorf("the capture has no requests")
	}
	return engine.FromRecord(b.rec)
}

type traceBuilder struct {
	rec      engine.Record
	hooks    map[string]int32
	toolByID map[string]int32
}

// messageKey is what makes two calls' messages the same message.
func messageKey(m Message) string {
	k, _ := json.Marshal([]any{m.Role, m.Content, m.ToolCallID, m.ToolCalls})
	return string(k)
}

func (b *traceBuilder) message(m Message, step int32) int32 {
	mr := engine.MessageRecord{Content: m.Content, Role: skills.Role(m.Role), Request: 0, Created: step, Removed: -1, Ref: -1}
	switch {
	case m.Origin == OriginHook:
		mr.Origin, mr.Ref = engine.OriginHook, b.hook(m)
	case m.Role == "system":
		mr.Origin = engine.OriginSystemPrompt
	case m.Role == "assistant":
		mr.Origin, mr.Ref = engine.OriginAssistant, int32(len(b.rec.ToolCalls))
		for _, tc := range m.ToolCalls {
			b.toolByID[tc.ID] = int32(len(b.rec.ToolCalls))
			b.rec.ToolCalls = append(b.rec.ToolCalls, engine.ToolCall{ID: tc.ID, Name: tc.Name, Arguments: arguments(tc.Arguments)})
		}
		mr.N = int32(len(m.ToolCalls))
	case m.Role == "tool":
		mr.Origin, mr.Ref = engine.OriginTool, b.tool(m.ToolCallID)
		tc := &b.rec.ToolCalls[mr.Ref]
		tc.Result = m.Content
		if m.IsError {
			tc.Error = m.Content
		}
	default:
		mr.Origin = engine.OriginUserInput
	}
	b.rec.Messages = append(b.rec.Messages, mr)
	return int32(len(b.rec.Messages) - 1)
}

// hook is the index of the agent's hook m names, listed once.
func (b *traceBuilder) hook(m Message) int32 {
	name := m.Hook
	if name == "" {
		name = "hook"
	}
	if i, ok := b.hooks[name]; ok {
		return i
	}
	role := skills.Role(m.Role)
	if m.Role == "tool" {
		role = skills.Role("user") // a tool result the hook wrote: the agent sends it as the user's
	}
	b.rec.Hooks = append(b.rec.Hooks, skills.Hook{Skill: AgentSkill, Name: name, Role: role})
	b.hooks[name] = int32(len(b.rec.Hooks) - 1)
	return b.hooks[name]
}

// tool is the index of the tool call a result answers (one is made for a
// result whose call the capture never saw).
func (b *traceBuilder) tool(id string) int32 {
	if i, ok := b.toolByID[id]; ok {
		return i
	}
	b.rec.ToolCalls = append(b.rec.ToolCalls, engine.ToolCall{ID: id, Name: "(unseen call)"})
	b.toolByID[id] = int32(len(b.rec.ToolCalls) - 1)
	return b.toolByID[id]
}

func arguments(raw json.RawMessage) map[string]any {
	var m map[string]any
	if json.Unmarshal(raw, &m) != nil {
		return map[string]any{"raw": string(raw)}
	}
	return m
}
