package calibrate

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"hookstudio/app/agent/tokens"
	"hookstudio/app/agentdata/request"
	"hookstudio/app/capture"
)

// bodyStrings are every string of a JSON body, in order.
func bodyStrings(raw json.RawMessage) []string {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return nil
	}
	var out []string
	var walk func(any)
	walk = func(x any) {
		switch y := x.(type) {
		case string:
			out = append(out, y)
		case []any:
			for _, e := range y {
				walk(e)
			}
		case map[string]any:
			for _, e := range y {
				walk(e)
			}
		}
	}
	walk(v)
	return out
}

// learnJoins reads, for each hook event whose words stand right before
// the prompt, whether the CLI writes them on the prompt in one text (a
// text of the base's first request that is the words, a few blank
// characters, the prompt): what joins them.
func learnJoins(m *request.Model, base *firstTurn, prompt string) {
	texts := bodyStrings(base.call.Body)
	for i := 0; i+1 < len(m.Turn); i++ {
		event := m.Turn[i].Hooks
		if event == "" || !m.Turn[i+1].Prompt {
			continue
		}
		var words []string
		for _, msg := range base.call.Messages {
			if e, _, _ := strings.Cut(msg.Hook, ":"); msg.Origin == capture.OriginHook && e == event {
				words = append(words, msg.Content)
			}
		}
		if len(words) != 1 {
			continue
		}
		for _, s := range texts {
			mid, ok := strings.CutPrefix(s, words[0])
			if !ok {
				continue
			}
			if sep, ok := strings.CutSuffix(mid, prompt); ok && sep != "" && strings.TrimSpace(sep) == "" {
				m.Turn[i].Join = sep
				break
			}
		}
	}
}

// probeOutput is what a probe's shell call prints: "echo WORDS" its
// words, "true" nothing.
func probeOutput(tc capture.ToolCall) (string, bool) {
	var a struct {
		Command string `json:"command"`
	}
	if json.Unmarshal(tc.Arguments, &a) != nil {
		return "", false
	}
	if a.Command == "true" {
		return "", true
	}
	if w, ok := strings.CutPrefix(a.Command, "echo "); ok && !strings.ContainsAny(w, `"'$\`) {
		return w, true
	}
	return "", false
}

// learnResults reads the CLI's words around its tools' outputs: for each
// tool the runs called once printing words and once printing nothing,
// the two results read as one template of SlotResult (its empty form the
// CLI's words for no output). A result that is the output alone (or only
// words for none: Claude Code's, Framing.EmptyResult) is no wrapper.
func learnResults(m *request.Model, ran []*reqRan) error {
	type seen struct{ text, output string }
	byTool := map[string][]seen{}
	var order []string
	for _, r := range ran {
		calls := turnCalls(r)
		if len(calls) == 0 {
			continue
		}
		last := calls[len(calls)-1].Messages
		asked := map[string]capture.ToolCall{}
		for _, msg := range last {
			for _, tc := range msg.ToolCalls {
				asked[tc.ID] = tc
			}
			tc, ok := asked[msg.ToolCallID]
			if msg.Role != "tool" || msg.Origin != capture.OriginToolResult || !ok {
				continue
			}
			if out, ok := probeOutput(tc); ok {
				if _, known := byTool[tc.Name]; !known {
					order = append(order, tc.Name)
				}
				byTool[tc.Name] = append(byTool[tc.Name], seen{msg.Content, out})
			}
		}
	}
	for _, name := range order {
		ss := byTool[name]
		full := slices.IndexFunc(ss, func(s seen) bool { return s.output != "" })
		empty := slices.IndexFunc(ss, func(s seen) bool { return s.output == "" })
		if full < 0 || empty < 0 {
			continue
		}
		t, err := walk(ss[full].text, ss[empty].text, request.Values{request.SlotResult: ss[full].output}, request.Values{request.SlotResult: ""})
		if err != nil {
			return &ProbeError{Probe: "request tool result " + name, Err: err}
		}
		if len(t) == 1 && t[0].Slot == request.SlotResult {
			continue // the output as it is
		}
		if m.Framing.Results == nil {
			m.Framing.Results = map[string]request.Text{}
		}
		m.Framing.Results[name] = t
	}
	return nil
}

// learnSides reads the calls the CLI makes of its own (capture tells
// them: Call.Side) before the first call of the user's turn: each one's
// system prompt (a template read against the other runs'), model, body
// and the answer capture gave it. Every run makes the same.
func learnSides(m *request.Model, ran []*reqRan, counter *tokens.Counter) error {
	sidesOf := func(r *reqRan) ([]capture.Call, error) {
		var out []capture.Call
		turn := 0
		for _, c := range r.calls {
			switch {
			case c.Side == "":
				turn++
			case turn > 0:
				return nil, &ProbeError{Probe: "request " + r.run.name, Err: fmt.Errorf("%w: a side call (%s) after the turn's first call", ErrUnexplained, c.Path)}
			default:
				out = append(out, c)
			}
		}
		return out, nil
	}
	base, err := sidesOf(ran[0])
	if err != nil {
		return err
	}
	others := make([][]capture.Call, len(ran))
	for k := 1; k < len(ran); k++ {
		if others[k], err = sidesOf(ran[k]); err != nil {
			return err
		}
		if len(others[k]) != len(base) {
			return &ProbeError{Probe: "request " + ran[k].run.name, Err: fmt.Errorf("%w: %d side calls, the base run made %d", ErrUnexplained, len(others[k]), len(base))}
		}
	}
	for i, c := range base {
		body, keys, err := bodyOf(c)
		if err != nil {
			return &ProbeError{Probe: "request side call", Err: fmt.Errorf("%w: %w", ErrUnreadable, err)}
		}
		method := c.Path[strings.LastIndexByte(c.Path, ':')+1:]
		method, _, _ = strings.Cut(method, "?")
		s := request.Side{Name: fmt.Sprintf("%s.%d", c.Side, i+1), When: request.SideTurnStart, Model: c.Model, Method: method, Keys: keys}
		for _, k := range keys {
			if !conversationKey(k) {
				s.Fields = append(s.Fields, request.Field{Name: k, Value: body[k]})
			}
		}
		if c.Answer != nil {
			a := c.Answer.Content
			s.Answer = &a
			s.AnswerShape = shapeOf(counter, request.Text{{Lit: a}})
		}
		// its system prompt, piece by piece, read against the next run's
		var sys []string
		for _, msg := range c.Messages {
			if msg.Origin == capture.OriginSystem {
				sys = append(sys, msg.Content)
			}
		}
		var otherSys []string
		if len(ran) > 1 {
			for _, msg := range others[1][i].Messages {
				if msg.Origin == capture.OriginSystem {
					otherSys = append(otherSys, msg.Content)
				}
			}
		}
		for k, text := range sys {
			t := request.Text{{Lit: text}}
			if k < len(otherSys) {
				w, err := walk(text, otherSys[k], ran[0].values, ran[1].values)
				if err != nil {
					return &ProbeError{Probe: "request side call " + s.Name, Err: err}
				}
				t = w
			}
			t = machine(t, ran[0].values)
			s.System = append(s.System, request.Piece{ID: fmt.Sprintf("%s.system.%d", s.Name, k+1), Role: "system", Text: t, Shape: shapeOf(counter, t)})
		}
		m.Loop.Sides = append(m.Loop.Sides, s)
	}
	return nil
}

// conversationKey says whether a body's key holds the conversation, the
// system prompt or the tools (what the model's texts write), not a field.
func conversationKey(k string) bool {
	switch k {
	case "system", "messages", "tools", "instructions", "input", "contents", "systemInstruction":
		return true
	}
	return false
}
