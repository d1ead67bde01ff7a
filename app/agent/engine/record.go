package engine

import (
	"cmp"
	"fmt"
	"slices"

	"hookstudio/app/hooks/skills"
)

// Record is a trace as plain data, for storing it and loading it back:
// FromRecord(t.Record()) is a trace equal to t.
type Record struct {
	Scenario   string          `json:"scenario"`
	Agent      *Agent          `json:"agent,omitempty"`
	Status     Status          `json:"status"`
	Error      string          `json:"error,omitempty"`
	Hooks      []skills.Hook   `json:"hooks"`
	Requests   []RequestInfo   `json:"requests"`
	Calls      []LLMCall       `json:"calls"`
	Messages   []MessageRecord `json:"messages"`
	Steps      []StepRecord    `json:"steps"`
	RemovedIDs []int32         `json:"removed_ids"`
	ToolCalls  []ToolCall      `json:"tool_calls"`
	// Executable hooks: their invocations, call-only hidden spans, the
	// messages each restore step brought back, in-place replacements.
	HookCalls  []HookCall      `json:"hook_calls,omitempty"`
	Hidden     []SpanRecord    `json:"hidden,omitempty"`
	Restored   []RestoreRecord `json:"restored,omitempty"`
	ReplacedBy [][2]int32      `json:"replaced_by,omitempty"`
	// Facts are an agent's run's slot values (its request model's: the
	// folder, the date, …), so its request bodies can be rebuilt.
	Facts map[string]string `json:"facts,omitempty"`
}

// SpanRecord says message ID was out of the list from step From until To
// (-1: still out).
type SpanRecord struct {
	ID   int32 `json:"id"`
	From int32 `json:"from"`
	To   int32 `json:"to"`
}

// RestoreRecord lists the messages a restore step brought back.
type RestoreRecord struct {
	Step int32   `json:"step"`
	IDs  []int32 `json:"ids"`
}

// MessageRecord is one message of the trace's table. Ref indexes Hooks
// (hook), the built-in prompts (prompt) or ToolCalls (tool, and the first
// of N for an assistant message).
type MessageRecord struct {
	Content   string      `json:"content"`
	Role      skills.Role `json:"role"`
	Origin    Origin      `json:"origin"`
	HistoryOf Origin      `json:"history_of,omitempty"`
	Ref       int32       `json:"ref"`
	N         int32       `json:"n,omitempty"`
	Request   int32       `json:"request"`
	Created   int32       `json:"created"`
	Removed   int32       `json:"removed"`
	Edit      int32       `json:"edit,omitempty"` // 1 + the hook call that wrote it
	Pos       *float64    `json:"pos,omitempty"`  // set when it is not the id
	// Agent is what of an agent's own the message is (its request model's
	// pieces), nil for any other.
	Agent *AgentRecord `json:"agent,omitempty"`
	// Sent is when a prompt the agent wraps was sent (Trace.sent).
	Sent string `json:"sent,omitempty"`
}

// AgentRecord is a message of the agent's own: the pieces it holds; for a
// placeholder the tokens the CLI's words cost; whether it is of the system
// prompt and carries a cache marker.
type AgentRecord struct {
	Pieces            []string `json:"pieces"`
	PlaceholderTokens int      `json:"placeholder_tokens,omitempty"`
	Placeholder       bool     `json:"placeholder,omitempty"`
	System            bool     `json:"system,omitempty"`
	Cache             bool     `json:"cache,omitempty"`
}

// StepRecord is one operation: the messages it added are ids
// [AddFrom, AddTo), the ones it removed RemovedIDs[RemFrom:RemTo].
type StepRecord struct {
	Kind    StepKind      `json:"kind"`
	Phase   Phase         `json:"phase,omitempty"`
	Timing  skills.Timing `json:"timing,omitempty"`
	Request int32         `json:"request"`
	Round   int32         `json:"round"`
	Ref     int32         `json:"ref"`
	AddFrom int32         `json:"add_from"`
	AddTo   int32         `json:"add_to"`
	RemFrom int32         `json:"rem_from"`
	RemTo   int32         `json:"rem_to"`
}

// Record returns the trace as plain data.
func (t *Trace) Record() Record {
	r := Record{Scenario: t.Scenario, Agent: t.Agent, Status: t.Status, Error: t.Error, Hooks: t.Hooks, Requests: t.Requests,
		Calls: t.Calls, RemovedIDs: t.removedIDs, ToolCalls: t.toolCalls,
		Messages: make([]MessageRecord, len(t.msgs)), Steps: make([]StepRecord, len(t.steps))}
	for i, m := range t.msgs {
		r.Messages[i] = MessageRecord{Content: m.content, Role: m.role, Origin: m.origin, HistoryOf: m.histOf,
			Ref: m.ref, N: m.n, Request: m.req, Created: m.created, Removed: m.removed, Edit: m.edit}
		if p, ok := t.pos[int32(i)]; ok {
			r.Messages[i].Pos = &p
		}
		if a, ok := t.agentInfo[int32(i)]; ok {
			r.Messages[i].Agent = &AgentRecord{Pieces: a.pieces, Placeholder: a.placeholder, PlaceholderTokens: a.tokens, System: a.system, Cache: a.cache}
		}
		r.Messages[i].Sent = t.sent[int32(i)]
	}
	r.Facts = t.facts
	r.HookCalls = t.HookCalls
	for _, id := range sortedKeys(t.hidden) {
		for _, sp := range t.hidden[id] {
			r.Hidden = append(r.Hidden, SpanRecord{ID: id, From: sp.from, To: sp.to})
		}
	}
	for _, st := range sortedKeys(t.restored) {
		r.Restored = append(r.Restored, RestoreRecord{Step: st, IDs: t.restored[st]})
	}
	for _, id := range sortedKeys(t.replacedBy) {
		r.ReplacedBy = append(r.ReplacedBy, [2]int32{id, t.replacedBy[id]})
	}
	for i, s := range t.steps {
		r.Steps[i] = StepRecord{Kind: s.kind, Phase: s.phase, Timing: s.timing, Request: s.req, Round: s.round,
			Ref: s.ref, AddFrom: s.addFrom, AddTo: s.addTo, RemFrom: s.remFrom, RemTo: s.remTo}
	}
	return r
}

// FromRecord rebuilds a trace, checking every index so that a damaged
// record is an error, never a panic later.
func FromRecord(r Record) (*Trace, error) {
	t := &Trace{Scenario: r.Scenario, Agent: r.Agent, Status: r.Status, Error: r.Error, Hooks: r.Hooks, Requests: r.Requests,
		Calls: r.Calls, removedIDs: r.RemovedIDs, toolCalls: r.ToolCalls,
		msgs: make([]msg, len(r.Messages)), steps: make([]step, len(r.Steps))}
	nm, ns := int32(len(r.Messages)), int32(len(r.Steps))
	bad := func(what string, i int) (*Trace, error) {
		return nil, fmt.Errorf("trace record: %s %d is out of range", what, i)
	}
	for i, m := range r.Messages {
		if m.Created < 0 || m.Created >= ns || m.Removed < -1 || m.Removed >= ns || m.Request < 0 {
			return bad("message", i)
		}
		switch m.Origin {
		case OriginHook:
			if int(m.Ref) >= len(r.Hooks) || m.Ref < -1 || (m.Ref == -1 && m.Edit == 0) {
				return bad("message hook of", i)
			}
		case OriginPrompt:
			if int(m.Ref) >= len(promptNames) || m.Ref < 0 {
				return bad("message prompt of", i)
			}
		case OriginTool, OriginAssistant:
			if m.Ref < 0 || int(m.Ref+m.N) > len(r.ToolCalls) || (m.Origin == OriginTool && int(m.Ref) >= len(r.ToolCalls)) {
				return bad("message tool call of", i)
			}
		}
		// an agent's history carries executable hooks' words too (no hook, a hook call)
		if m.Origin == OriginHistory && m.HistoryOf == OriginHook && (m.Ref < -1 || (m.Ref == -1 && m.Edit == 0) || int(m.Ref) >= len(r.Hooks)) {
			return bad("message hook of", i)
		}
		if m.Edit < 0 || int(m.Edit) > len(r.HookCalls) {
			return bad("message hook call of", i)
		}
		t.msgs[i] = msg{content: m.Content, role: m.Role, origin: m.Origin, histOf: m.HistoryOf,
			ref: m.Ref, n: m.N, req: m.Request, created: m.Created, removed: m.Removed, edit: m.Edit}
		if m.Pos != nil {
			t.setPos(int32(i), *m.Pos, m.Request)
		}
		if a := m.Agent; a != nil {
			if t.agentInfo == nil {
				t.agentInfo = map[int32]agentMsg{}
			}
			t.agentInfo[int32(i)] = agentMsg{pieces: a.Pieces, placeholder: a.Placeholder, tokens: a.PlaceholderTokens, system: a.System, cache: a.Cache}
		}
		if m.Sent != "" {
			t.markSent(int32(i), m.Sent)
		}
	}
	t.facts = r.Facts
	t.HookCalls = r.HookCalls
	for i, sp := range r.Hidden {
		if sp.ID < 0 || sp.ID >= nm || sp.From < 0 || sp.From >= ns || sp.To < -1 || sp.To >= ns {
			return bad("hidden span", i)
		}
		if t.hidden == nil {
			t.hidden = map[int32][]span{}
		}
		t.hidden[sp.ID] = append(t.hidden[sp.ID], span{from: sp.From, to: sp.To})
	}
	for i, rs := range r.Restored {
		if rs.Step < 0 || rs.Step >= ns {
			return bad("restore step", i)
		}
		for _, id := range rs.IDs {
			if id < 0 || id >= nm {
				return bad("restored message of step", int(rs.Step))
			}
		}
		if t.restored == nil {
			t.restored = map[int32][]int32{}
		}
		t.restored[rs.Step] = rs.IDs
	}
	for i, p := range r.ReplacedBy {
		if p[0] < 0 || p[0] >= nm || p[1] < 0 || p[1] >= nm {
			return bad("replacement", i)
		}
		if t.replacedBy == nil {
			t.replacedBy = map[int32]int32{}
		}
		t.replacedBy[p[0]] = p[1]
	}
	for i, s := range r.Steps {
		if s.AddFrom < 0 || s.AddFrom > s.AddTo || s.AddTo > nm || s.RemFrom < 0 || s.RemFrom > s.RemTo || int(s.RemTo) > len(r.RemovedIDs) {
			return bad("step", i)
		}
		if s.Kind == StepHookCall && (s.Ref < 0 || int(s.Ref) >= len(r.HookCalls)) {
			return bad("hook call of step", i)
		}
		t.steps[i] = step{kind: s.Kind, phase: s.Phase, timing: s.Timing, req: s.Request, round: s.Round,
			ref: s.Ref, addFrom: s.AddFrom, addTo: s.AddTo, remFrom: s.RemFrom, remTo: s.RemTo}
	}
	for i, id := range r.RemovedIDs {
		if id < 0 || id >= nm {
			return bad("removed id", i)
		}
	}
	for i, c := range r.Calls {
		if c.Step < 0 || c.Step >= len(r.Steps) {
			return bad("call", i)
		}
	}
	for i := range t.Hooks {
		if t.hookIndex == nil {
			t.hookIndex = map[string]int32{}
		}
		t.hookIndex[t.Hooks[i].ID()] = int32(i)
	}
	return t, nil
}

func sortedKeys[K cmp.Ordered, V any](m map[K]V) []K {
	keys := make([]K, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
