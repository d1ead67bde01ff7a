package calibrate

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
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

// learnResults reads the CLI's words around its tools' outputs: the
// results of the probes' calls whose output is known — the agent's own
// table of commands (spec.outputs: their exit codes and sizes vary too),
// else `echo WORD` and `true` (their output alone varies) — per tool read
// as one template between two of them, which must read every one; every
// value that differs between the two stands as its slot (not as an
// opaque value: a count the CLI makes otherwise). The call's arguments
// and the count of the tool's calls before are slots too where the
// template with them reads every result (Copilot CLI's shell id), else
// the output's values alone (an opaque value such as Gemini CLI's process
// group read as a count; an agent's table: those alone). A result that is the output alone, or only
// words for none (Claude Code's, Framing.EmptyResult), is no frame.
// Whether the hooks read the framed words too is read off what they saved.
func learnResults(m *request.Model, spec reqAgent, ran []*reqRan, counter *tokens.Counter) error {
	type sample struct {
		text string
		// run are the output's values, all of them those and the call's
		run, all request.Values
	}
	byTool := map[string][]sample{}
	var order []string
	for _, r := range ran {
		count := map[string]int{}
		for _, res := range toolResults(r) {
			tc, msg := res.call, res.msg
			var args map[string]any
			if msg.Origin != capture.OriginToolResult || json.Unmarshal(tc.Arguments, &args) != nil {
				continue // a hook's words in the result's place (a blocked call) tell nothing of it
			}
			var v request.Values
			if spec.outputs != nil {
				po, ok := spec.outputs[commandOf(&tc)]
				if !ok || tc.Name != spec.shell {
					continue
				}
				v = request.Values{request.SlotResult: po.out, request.SlotExitCode: strconv.Itoa(po.code),
					request.SlotResultTokens: strconv.Itoa(request.ApproxTokens(po.out))}
			} else if out, ok := probeOutput(commandOf(&tc)); ok {
				v = request.Values{request.SlotResult: out}
			} else {
				continue
			}
			all := request.Values{request.SlotCount: strconv.Itoa(count[tc.Name])}
			count[tc.Name]++
			for k, x := range args {
				if s, ok := x.(string); ok {
					all[request.ArgSlot(k)] = s
				}
			}
			maps.Copy(all, v)
			if _, known := byTool[tc.Name]; !known {
				order = append(order, tc.Name)
			}
			byTool[tc.Name] = append(byTool[tc.Name], sample{msg.Content, v, all})
		}
	}
	if spec.shell != "" && len(byTool[spec.shell]) == 0 {
		return &ProbeError{Probe: "request " + spec.shell, Err: fmt.Errorf("%w: no output of the shell tool seen", ErrTextNotFound)}
	}
	for _, name := range order {
		ss := byTool[name]
		readsAll := func(t request.Text) bool {
			return !slices.ContainsFunc(ss, func(s sample) bool { _, ok := t.Opaque(s.all, s.text); return !ok })
		}
		var frame request.Text
		differ := false
		passes := []bool{false, true}
		if spec.outputs != nil {
			passes = passes[1:] // the table's values alone
		}
	read:
		for _, outputOnly := range passes {
			for i := range ss {
				for j := i + 1; j < len(ss); j++ {
					vary := varying(ss[i].run, ss[j].run)
					if len(vary) == 0 {
						continue
					}
					differ = true
					va, vb := ss[i].all, ss[j].all
					if outputOnly {
						va, vb = ss[i].run, ss[j].run
					}
					t, err := walk(ss[i].text, ss[j].text, va, vb)
					if err != nil || !readsAll(t) || slices.ContainsFunc(vary, func(s string) bool { return !slices.Contains(t.Slots(), s) }) {
						continue
					}
					frame = t
					break read
				}
			}
		}
		switch {
		case frame == nil && differ:
			return &ProbeError{Probe: "request tool result " + name, Err: fmt.Errorf("%w: no template reads the %d outputs of %s seen", ErrUnexplained, len(ss), name)}
		case frame == nil, len(frame) == 1 && frame[0].Slot == request.SlotResult:
			continue // the output as it is
		}
		texts := make([]string, len(ss))
		for i, s := range ss {
			texts[i] = s.text
		}
		m.Framing.Results = append(m.Framing.Results, request.ResultFrame{Tool: name, Text: frame, Shape: shapeOf(counter, frame), Hooks: hooksSaw(ran, texts)})
	}
	return nil
}

// hooksSaw says whether a hook of the runs read one of texts as a string
// of the JSON it saved: the CLI hands its hooks the words it sends.
func hooksSaw(ran []*reqRan, texts []string) bool {
	for _, r := range ran {
		for name, data := range r.wrote {
			if !strings.HasSuffix(name, ".json") {
				continue
			}
			if slices.ContainsFunc(bodyStrings(data), func(s string) bool { return slices.Contains(texts, s) }) {
				return true
			}
		}
	}
	return false
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
