package request

import (
	"encoding/json"
	"strconv"
)

// Result is how the agent writes a tool's output for the model (and its
// hooks): Text's slots are SlotResult (the output; its Seg.Empty the
// agent's words for none), ArgSlot(name) (the call's arguments) and
// SlotCount (how many calls of the tool came before in the session).
type Result struct {
	Tool  string `json:"tool"`
	Text  Text   `json:"text,omitempty"`
	Shape Shape  `json:"shape"`
}

// The slots of a Result.
const (
	SlotResult = "result"
	SlotCount  = "count"
)

// ArgSlot is the slot of a tool call's argument name.
func ArgSlot(name string) string { return "arg." + name }

// Result is how the agent writes tool's output, nil when it writes it as
// it is (or the model is a shipped shape).
func (m *Model) Result(tool string) *Result {
	for i := range m.Loop.Results {
		if r := &m.Loop.Results[i]; r.Tool == tool && r.Text != nil {
			return r
		}
	}
	return nil
}

// Fill writes output as the agent does for a call with args, the
// count-th of its tool.
func (r *Result) Fill(output string, args map[string]any, count int) string {
	v := Values{SlotResult: output, SlotCount: strconv.Itoa(count)}
	for _, s := range r.Text.Slots() {
		name, ok := cutArg(s)
		if !ok {
			continue
		}
		switch x := args[name].(type) {
		case string:
			v[s] = x
		case nil:
			v[s] = ""
		default:
			b, _ := json.Marshal(x)
			v[s] = string(b)
		}
	}
	return r.Text.Fill(v)
}

func cutArg(slot string) (string, bool) {
	if len(slot) > 4 && slot[:4] == "arg." {
		return slot[4:], true
	}
	return "", false
}

// SideCall is a call the agent makes of its own beside the turn's calls
// (Qwen Code's memory extraction after a turn, Gemini CLI's model router
// before it): a call of the run, whose answer no scenario scripts.
type SideCall struct {
	// ID names it in the trace ("side.1").
	ID   string   `json:"id"`
	When SideWhen `json:"when"`
	// Direct: only after a turn whose answer came from the prompt's own
	// call — no tool round and no Stop hook's block before it.
	Direct bool `json:"direct,omitempty"`
	// System is its system prompt, in place of the agent's.
	System []Piece `json:"system"`
	// Conversation: the turn's messages as the agent's last call sent
	// them (its system prompt aside), and the answer, come before After.
	Conversation bool `json:"conversation,omitempty"`
	// After are its own messages after the conversation.
	After []Piece `json:"after,omitempty"`
	// Tools it offers, in the order sent.
	Tools []Tool `json:"tools"`
	// Keys and Fields of its body, as the model's.
	Keys   []string `json:"keys,omitempty"`
	Fields []Field  `json:"fields,omitempty"`
	// Answer is the answer the run assumes it gets: a text, which ends
	// the side call's own loop (what capture answers it).
	Answer string `json:"answer"`
}

// SideWhen says when a side call is made.
type SideWhen string

const (
	// SideAfterTurn: once the turn has its last answer.
	SideAfterTurn SideWhen = "after_turn"
	// SideBeforeTurn: before the turn's first call.
	SideBeforeTurn SideWhen = "before_turn"
)

// SideModel is the model a side call's request is written with: the
// agent's, with the side call's tools, keys and fields.
func (m *Model) SideModel(s *SideCall) *Model {
	out := *m
	out.Tools = s.Tools
	if len(s.Keys) > 0 {
		out.Keys = s.Keys
	}
	if s.Fields != nil {
		out.Fields = s.Fields
	}
	return &out
}

// SideCallByID is the side call named id, or nil.
func (m *Model) SideCallByID(id string) *SideCall {
	for i := range m.Loop.Side {
		if m.Loop.Side[i].ID == id {
			return &m.Loop.Side[i]
		}
	}
	return nil
}
