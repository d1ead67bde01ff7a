package capture

import (
	"encoding/json"
	"fmt"
	"hash/maphash"

	"hookstudio/app/agent/engine"
	"hookstudio/app/hooks/skills"
)

// AgentSkill is the skill the captured agent's hooks are listed under in
// the views (their names are the agent's: "PreToolUse:Bash", "Stop").
const AgentSkill = "agent"

// Trace turns a capture into a trace the simulator's views, the history and
// the comparison read: one request per conversation the agent held (most
// captures: one), one LLM call per captured request, and before each call
// a step that adds the messages new since the previous call of the same
// conversation and removes those it no longer sends. Hook output is a
// hook's message (under AgentSkill), so the visibility matrix counts it.
//
// A call continues the conversation whose last call's list it shares the
// longest start with (at least its first message: the same system prompt,
// or the same first turn); a call that shares none starts a conversation
// of its own — a side request such as a title or quota call with its own
// prompt — so an interleaved side request does not read as the main list
// replaced and then restored. The trace holds the conversations one after
// the other, as a simulation runs requests (each request's steps in a run,
// its calls numbered in that order), so a capture with a side request
// lines up call by call with the simulation of its saved scenario.
func Trace(name string, calls []Call) (*engine.Trace, error) {
	b := &traceBuilder{rec: engine.Record{Scenario: name, Status: engine.StatusOK, Hooks: []skills.Hook{}},
		hooks: map[string]int32{}, toolByID: map[string]int32{}}
	type conversation struct {
		live  []int32 // the ids of the list its last call sent
		keys  []msgKey
		info  engine.RequestInfo
		calls int
	}
	var convs []*conversation
	allKeys := callKeys(calls)
	of := conversationsOf(allKeys)
	for k, at := range byConversation(of) {
		c := calls[at]
		var cv *conversation
		if conv := of[at]; conv < len(convs) {
			cv = convs[conv]
		} else {
			cv = &conversation{info: engine.RequestInfo{Index: len(convs), EnabledSkills: []string{}, Calls: []int{}, Yielded: []string{},
				FirstStep: len(b.rec.Steps)}}
			convs = append(convs, cv)
		}
		keys := allKeys[at]
		same := 0
		for same < len(cv.keys) && same < len(keys) && cv.keys[same] == keys[same] {
			same++
		}
		req := int32(cv.info.Index)
		round := cv.calls
		cv.calls++
		step := int32(len(b.rec.Steps))
		st := engine.StepRecord{Kind: engine.StepBuildMessages, Phase: engine.PhaseAgent, Request: req, Round: int32(round), Ref: -1,
			AddFrom: int32(len(b.rec.Messages)), RemFrom: int32(len(b.rec.RemovedIDs))}
		for _, id := range cv.live[same:] {
			b.rec.Messages[id].Removed = step
			b.rec.RemovedIDs = append(b.rec.RemovedIDs, id)
		}
		cv.live, cv.keys = cv.live[:same:same], keys
		for _, m := range c.Messages[same:] {
			cv.live = append(cv.live, b.message(m, step, req))
			if cv.info.User == "" && m.Origin == OriginUser {
				cv.info.User = m.Content
			}
		}
		st.AddTo, st.RemTo = int32(len(b.rec.Messages)), int32(len(b.rec.RemovedIDs))
		b.rec.Steps = append(b.rec.Steps, st)
		call := engine.LLMCall{Index: k, Request: int(req), Phase: engine.PhaseAgent, Round: &round, Step: len(b.rec.Steps), Model: c.Model}
		if c.Answer != nil {
			call.Content = c.Answer.Content
			for _, tc := range c.Answer.ToolCalls {
				call.ToolCalls = append(call.ToolCalls, engine.ToolCall{ID: tc.ID, Name: tc.Name, Arguments: arguments(tc.Arguments)})
			}
			cv.info.Reply = c.Answer.Content
		}
		if c.Status != 200 || c.Disconnected {
			call.Error = c.Error
		}
		b.rec.Steps = append(b.rec.Steps, engine.StepRecord{Kind: engine.StepLLMCall, Phase: engine.PhaseAgent, Request: req, Round: int32(round), Ref: int32(k),
			AddFrom: int32(len(b.rec.Messages)), AddTo: int32(len(b.rec.Messages)), RemFrom: int32(len(b.rec.RemovedIDs)), RemTo: int32(len(b.rec.RemovedIDs))})
		b.rec.Calls = append(b.rec.Calls, call)
		cv.info.Calls = append(cv.info.Calls, k)
		cv.info.LastStep = len(b.rec.Steps) - 1
	}
	if len(b.rec.Steps) == 0 {
		return nil, fmt.Errorf("the capture has no requests")
	}
	for _, cv := range convs {
		if len(b.hooks) > 0 {
			cv.info.EnabledSkills = []string{AgentSkill}
		}
		b.rec.Requests = append(b.rec.Requests, cv.info)
	}
	return engine.FromRecord(b.rec)
}

// byConversation is the places of calls conversation by conversation,
// each conversation's in the order they came.
func byConversation(of []int) []int {
	out := make([]int, 0, len(of))
	for conv := 0; len(out) < len(of); conv++ {
		for k := range of {
			if of[k] == conv {
				out = append(out, k)
			}
		}
	}
	return out
}

// conversationsOf numbers the conversations the calls belong to (0, 1, …
// in the order they start): a call continues the conversation whose last
// call it shares the longest start with, at least its first message; the
// latest of equals.
func conversationsOf(allKeys [][]msgKey) []int {
	out := make([]int, len(allKeys))
	var last [][]msgKey // each conversation's last call's message keys
	for k, keys := range allKeys {
		best, same := -1, 0
		for ci, o := range last {
			n := 0
			for n < len(o) && n < len(keys) && o[n] == keys[n] {
				n++
			}
			if n > 0 && n >= same {
				best, same = ci, n
			}
		}
		if best < 0 {
			best = len(last)
			last = append(last, nil)
		}
		last[best], out[k] = keys, best
	}
	return out
}

type traceBuilder struct {
	rec      engine.Record
	hooks    map[string]int32
	toolByID map[string]int32
}

// msgKey is what makes two calls' messages the same message: its role,
// the tool call it answers, and a hash of its content and tool calls (an
// agent sends its whole conversation each time, so a long capture's run is
// built from megabytes of repeated text: hashed, not copied).
type msgKey struct {
	role, toolCallID string
	size             int
	content, calls   uint64
}

// keySeed seeds the hashes of msgKey; they are compared within a process only.
var keySeed = maphash.MakeSeed()

func messageKey(m Message) msgKey {
	k := msgKey{role: m.Role, toolCallID: m.ToolCallID, size: len(m.Content), content: maphash.String(keySeed, m.Content)}
	if len(m.ToolCalls) > 0 {
		var h maphash.Hash
		h.SetSeed(keySeed)
		for _, tc := range m.ToolCalls {
			h.WriteString(tc.ID)
			h.WriteByte(0)
			h.WriteString(tc.Name)
			h.WriteByte(0)
			h.Write(tc.Arguments)
			h.WriteByte(0)
		}
		k.calls = h.Sum64()
	}
	return k
}

// callKeys are each call's messages' keys.
func callKeys(calls []Call) [][]msgKey {
	out := make([][]msgKey, len(calls))
	for k, c := range calls {
		out[k] = make([]msgKey, len(c.Messages))
		for i, m := range c.Messages {
			out[k][i] = messageKey(m)
		}
	}
	return out
}

func (b *traceBuilder) message(m Message, step, req int32) int32 {
	mr := engine.MessageRecord{Content: m.Content, Role: skills.Role(m.Role), Request: req, Created: step, Removed: -1, Ref: -1}
	switch {
	case m.Origin == OriginHook:
		mr.Origin, mr.Ref = engine.OriginHook, b.hook(m)
	case m.Origin == OriginContext:
		// the agent's own context, as a simulated agent's run shows it
		mr.Origin = engine.OriginAgentContext
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
