package request

import "encoding/json"

// ResponsesInput is how a Responses body lays out its input: whether it
// has instructions, and each input item's type (a message: its role and
// number of content parts).
type ResponsesInput struct {
	Instructions bool
	Items        []InputItem
}

// InputItem is one item of a Responses body's input.
type InputItem struct {
	Type  string // "message" for a message ("" written as "message")
	Role  string
	Parts int
}

// ReadResponsesInput reads body's layout; ok false: not a Responses body.
func ReadResponsesInput(body json.RawMessage) (in ResponsesInput, ok bool) {
	var b struct {
		Instructions *string `json:"instructions"`
		Input        []struct {
			Type    string            `json:"type"`
			Role    string            `json:"role"`
			Content []json.RawMessage `json:"content"`
		} `json:"input"`
	}
	if json.Unmarshal(body, &b) != nil {
		return in, false
	}
	in.Instructions = b.Instructions != nil
	for _, it := range b.Input {
		typ := it.Type
		if typ == "" {
			typ = "message"
		}
		in.Items = append(in.Items, InputItem{Type: typ, Role: it.Role, Parts: len(it.Content)})
	}
	return in, true
}
