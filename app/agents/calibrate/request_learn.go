package calibrate

import (
	"encoding/json"
	"fmt"
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

// learnJoins reads which hook events' words the CLI writes in one text
// with a text beside them (a text of the base's first request that is the
// two, a few blank characters between): the words on the prompt after
// them (Gemini CLI's SessionStart context: Part.Join), and the words
// joined to the message before them (Copilot CLI's prompt hook after its
// prompt, Qwen Code's SessionStart block after its system prompt:
// Framing.Join).
func learnJoins(m *request.Model, base *firstTurn, prompt string) {
	texts := bodyStrings(base.call.Body)
	ms := base.call.Messages
	for i := 1; i < len(ms); i++ {
		if ms[i].Origin != capture.OriginHook {
			continue
		}
		event, _, _ := strings.Cut(ms[i].Hook, ":")
		prev, h := ms[i-1].Content, ms[i].Content
		for _, t := range texts {
			if len(t) > len(prev)+len(h) && strings.HasPrefix(t, prev) && strings.HasSuffix(t, h) {
				if sep := t[len(prev) : len(t)-len(h)]; strings.TrimSpace(sep) == "" {
					if m.Framing.Join == nil {
						m.Framing.Join = map[string]string{}
					}
					m.Framing.Join[event] = sep
				}
			}
		}
	}
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

// learnSides reads the calls the CLI makes of its own: those capture
// tells (Call.Side) before the first call of the user's turn — each one's
// system prompt (a template read against the other runs'), model, body
// and the answer capture gave it, every run making the same — and those
// after the turn (learnAfterTurn).
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
	return learnAfterTurn(m, ran, counter)
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
