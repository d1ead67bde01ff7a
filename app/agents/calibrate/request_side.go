package calibrate

import (
	"encoding/json"
	"fmt"
	"strings"

	"hookstudio/app/agent/tokens"
	"hookstudio/app/agentdata/request"
	"hookstudio/app/capture"
)

// sideOf is a side call a run made, and the run's turn.
type sideOf struct {
	k    int
	call capture.Call
	turn []capture.Call
	when request.SideWhen
}

// sideCalls are the runs' side calls: those before the turn's first call
// and those after its last.
func sideCalls(ran []*reqRan) []sideOf {
	var out []sideOf
	for k, r := range ran {
		first, ok := firstCall(r)
		if !ok {
			continue
		}
		turn := turnCalls(r)
		seenTurn := false
		for _, c := range r.calls {
			if !isSideCall(first, c) {
				seenTurn = true
				continue
			}
			if len(c.Messages) == 0 || c.Body == nil {
				continue
			}
			when := request.SideAfterTurn
			if !seenTurn {
				when = request.SideTurnStart
			}
			out = append(out, sideOf{k: k, call: c, turn: turn, when: when})
		}
	}
	return out
}

// learnAfterTurn reads the calls the agent makes of its own after a turn
// (Qwen Code's memory extraction): when (only after a turn answered by
// its first call, when the runs whose turn went on made none), its
// system prompt and its own messages after the turn's as templates read
// between two runs, its tools, its body's fields, and the answer capture
// gave it.
func learnAfterTurn(m *request.Model, ran []*reqRan, counter *tokens.Counter) error {
	all := sideCalls(ran)
	var after []sideOf
	byRun := map[int]bool{}
	for _, s := range all {
		if s.when == request.SideAfterTurn && !byRun[s.k] {
			after = append(after, s)
			byRun[s.k] = true
		}
	}
	if len(after) == 0 {
		return nil
	}
	sc := request.Side{Name: fmt.Sprintf("side.%d", len(m.Loop.Sides)+1), When: request.SideAfterTurn, Tools: []request.Tool{}, Alone: true}
	sc.Direct = true
	longer := false
	for k, r := range ran {
		n := len(turnCalls(r))
		if byRun[k] && n != 1 {
			sc.Direct = false
		}
		if !byRun[k] && n > 1 {
			longer = true
		}
	}
	sc.Direct = sc.Direct && longer
	// its messages: its system prompt, the turn's conversation, its own
	split := func(s sideOf) (sys, conv, own []capture.Message) {
		ms := s.call.Messages
		n := 0
		for n < len(ms) && ms[n].Origin == capture.OriginSystem && ms[n].Role == "system" {
			n++
		}
		sys = ms[:n]
		carried := turnConversation(s.turn)
		if len(ms)-n >= len(carried) && sameTexts(ms[n:n+len(carried)], carried) {
			sc.Alone = false
			return sys, ms[n : n+len(carried)], ms[n+len(carried):]
		}
		return sys, nil, ms[n:]
	}
	a := after[0]
	b := a
	if len(after) > 1 {
		b = after[1]
	}
	va, vb := ran[a.k].values, ran[b.k].values
	sysA, _, ownA := split(a)
	sysB, _, ownB := split(b)
	if len(sysA) != len(sysB) || len(ownA) != len(ownB) {
		return &ProbeError{Probe: "request " + ran[b.k].run.name, Err: fmt.Errorf("%w: the side calls of two runs hold other messages", ErrUnexplained)}
	}
	read := func(id string, x, y capture.Message) (request.Piece, error) {
		t := request.Text{{Lit: x.Content}}
		if a.k != b.k {
			w, err := walk(x.Content, y.Content, va, vb)
			if err != nil {
				return request.Piece{}, &ProbeError{Probe: "request side call", Err: err}
			}
			t = w
		}
		t = machine(t, va)
		return request.Piece{ID: id, Role: x.Role, Text: t, Shape: shapeOf(counter, t)}, nil
	}
	for i := range sysA {
		p, err := read(fmt.Sprintf("%s.system.%d", sc.Name, i+1), sysA[i], sysB[i])
		if err != nil {
			return err
		}
		sc.System = append(sc.System, p)
	}
	for i := range ownA {
		p, err := read(fmt.Sprintf("%s.after.%d", sc.Name, i+1), ownA[i], ownB[i])
		if err != nil {
			return err
		}
		sc.After = append(sc.After, p)
	}
	defs, err := toolDefsOf(m.API, a.call.Body)
	if err != nil {
		return &ProbeError{Probe: "request side call", Err: err}
	}
	otherDefs, _ := toolDefsOf(m.API, b.call.Body)
	for i, d := range defs {
		t := request.Text{{Lit: string(d.raw)}}
		if a.k != b.k && i < len(otherDefs) && otherDefs[i].name == d.name {
			if t, err = walk(string(d.raw), string(otherDefs[i].raw), va, vb); err != nil {
				return &ProbeError{Probe: "request side call's tool " + d.name, Err: err}
			}
		}
		t = machine(t, va)
		sc.Tools = append(sc.Tools, request.Tool{Name: d.name, Definition: t, Shape: shapeOf(counter, t)})
	}
	body, keys, err := bodyOf(a.call)
	if err != nil {
		return &ProbeError{Probe: "request side call", Err: fmt.Errorf("%w: %w", ErrUnreadable, err)}
	}
	if strings.Join(keys, ",") != strings.Join(m.Keys, ",") {
		sc.Keys = keys
	}
	var fields []request.Field
	for _, k := range keys {
		if !conversationKey(k) {
			fields = append(fields, request.Field{Name: k, Value: body[k]})
		}
	}
	if !sameFields(fields, m.Fields) {
		sc.Fields = fields
	}
	answer := ""
	if a.call.Answer != nil {
		answer = a.call.Answer.Content
	}
	sc.Answer, sc.AnswerShape = &answer, shapeOf(counter, request.Text{{Lit: answer}})
	m.Loop.Sides = append(m.Loop.Sides, sc)
	// every side call, rebuilt from the model, is what the CLI sent
	for _, s := range after {
		if err := rebuildsSide(m, &m.Loop.Sides[len(m.Loop.Sides)-1], ran[s.k], s); err != nil {
			return &ProbeError{Probe: "request " + ran[s.k].run.name + " side call", Err: err}
		}
	}
	return nil
}

func sameFields(a, b []request.Field) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Name != b[i].Name || !jsonEqual(a[i].Value, b[i].Value) {
			return false
		}
	}
	return true
}

// turnConversation is what the turn's last call sent besides its system
// prompt, and the answer it got: what a side call after the turn carries.
func turnConversation(turn []capture.Call) []capture.Message {
	if len(turn) == 0 {
		return nil
	}
	last := turn[len(turn)-1]
	var out []capture.Message
	for _, msg := range last.Messages {
		if msg.Role == "system" {
			continue
		}
		out = append(out, msg)
	}
	if last.Answer != nil {
		out = append(out, capture.Message{Role: "assistant", Content: last.Answer.Content})
	}
	return out
}

func sameTexts(a, b []capture.Message) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Role != b[i].Role || a[i].Content != b[i].Content {
			return false
		}
	}
	return true
}

// rebuildsSide checks that the model gives back a run's side call: its
// system prompt, the turn's conversation as the agent's last call sent it
// and its own messages, written as the agent writes them and read as
// capture reads them.
func rebuildsSide(m *request.Model, sc *request.Side, r *reqRan, s sideOf) error {
	var msgs []request.Msg
	for _, p := range sc.System {
		msgs = append(msgs, request.Msg{Role: p.Role, Text: p.Text.Fill(r.values), System: true})
	}
	if !sc.Alone {
		msgs = append(msgs, requestMsgs(m, turnConversation(s.turn))...)
	}
	for _, p := range sc.After {
		msgs = append(msgs, request.Msg{Role: p.Role, Text: p.Text.Fill(r.values)})
	}
	body, err := request.BuildSide(m, sc, r.values, msgs)
	if err != nil {
		return fmt.Errorf("%w: %w", ErrRebuild, err)
	}
	return sameCall(m, body, s.call, true)
}

// requestMsgs are messages as capture read them, as a request's.
func requestMsgs(m *request.Model, ms []capture.Message) []request.Msg {
	out := make([]request.Msg, 0, len(ms))
	for _, x := range ms {
		rm := request.Msg{Role: x.Role, Text: x.Content, ToolCallID: x.ToolCallID, IsError: x.IsError}
		for _, tc := range x.ToolCalls {
			rm.ToolCalls = append(rm.ToolCalls, request.ToolCall{ID: tc.ID, Name: tc.Name, Arguments: json.RawMessage(tc.Arguments)})
		}
		if x.Origin == capture.OriginHook {
			event, _, _ := strings.Cut(x.Hook, ":")
			rm.JoinBefore = m.Framing.Join[event]
		}
		out = append(out, rm)
	}
	return out
}
