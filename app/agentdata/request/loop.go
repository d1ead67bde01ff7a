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

// SlotCount is the slot of a Result: how many calls of the tool came
// before in the session.
const SlotCount = "count"

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
