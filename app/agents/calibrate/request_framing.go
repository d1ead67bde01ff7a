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

// learnPrompt reads how the agent writes the prompt when it writes more
// than the prompt in its message (Copilot CLI's <current_datetime>): the
// runs' prompt messages read as one template.
func learnPrompt(m *request.Model, ran []*reqRan, turns []*firstTurn) error {
	if turns[0].prompt == "" {
		return nil
	}
	var t request.Text
	for k := 1; k < len(ran) && t == nil; k++ {
		w, err := walk(turns[0].prompt, turns[k].prompt, ran[0].values, ran[k].values)
		if err != nil {
			return &ProbeError{Probe: "request " + ran[k].run.name, Err: fmt.Errorf("the prompt's message: %w", err)}
		}
		t = w
	}
	if t == nil || !slices.Contains(t.Slots(), request.SlotPrompt) {
		return &ProbeError{Probe: "request prompt", Err: fmt.Errorf("%w: the prompt's message %q does not hold the prompt", ErrUnreadable, clip(turns[0].prompt))}
	}
	for k, r := range ran {
		if got := t.Fill(r.values); got != turns[k].prompt && !(turns[k].prompt == "" && got == r.values[request.SlotPrompt]) {
			return &ProbeError{Probe: "request " + r.run.name, Err: fmt.Errorf("%w: the prompt's message %q is not %q", ErrRebuild, clip(turns[k].prompt), clip(got))}
		}
	}
	m.Framing.Prompt = t
	return nil
}

// learnJoin reads which hook events' words the agent writes in the text
// of the message before them (Copilot CLI's prompt hook after the prompt,
// Qwen Code's SessionStart block after its system prompt): a text of the
// body that is the message before, a few blanks, and the hook's words.
func learnJoin(m *request.Model, base *firstTurn) {
	var texts []string
	var b struct {
		Messages []struct {
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	if json.Unmarshal(base.call.Body, &b) != nil {
		return
	}
	for _, msg := range b.Messages {
		var s string
		if json.Unmarshal(msg.Content, &s) == nil {
			texts = append(texts, s)
		}
	}
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
}

// nonceOf is the probe's words of a run ("HSR1a2b3c4d").
func nonceOf(r *reqRan) string {
	w, _, _ := strings.Cut(r.run.prompt, " ")
	return w
}

// isStopWords says msg holds the probe's Stop hook's words: as a hook's
// (Claude Code), or as a prompt of the user's the agent sends them in
// (capture cannot tell them from the user's).
func isStopWords(msg capture.Message, r *reqRan) (hook, prompt bool) {
	switch {
	case msg.Origin == capture.OriginHook && strings.HasPrefix(msg.Hook, "Stop"):
		return true, false
	case msg.Origin == capture.OriginUser && strings.Contains(msg.Content, nonceOf(r)+" stop words"):
		return false, true
	}
	return false, false
}

// learnResults reads how the agent writes its shell tool's output for the
// model, from the probe's two calls (one printing a word, one printing
// nothing): the two results read as one template with the output, the
// call's arguments and the count of calls before as slots.
func learnResults(m *request.Model, r *reqRan, counter *tokens.Counter) error {
	calls := turnCalls(r)
	if len(calls) == 0 {
		return nil
	}
	type sample struct {
		text string
		v    request.Values
	}
	byTool := map[string][]sample{}
	var order []string
	ms := calls[len(calls)-1].Messages
	asked := map[string]capture.ToolCall{}
	for _, msg := range ms {
		for _, tc := range msg.ToolCalls {
			asked[tc.ID] = tc
		}
		tc, ok := asked[msg.ToolCallID]
		if msg.Role != "tool" || !ok {
			continue
		}
		var args map[string]any
		if json.Unmarshal(tc.Arguments, &args) != nil {
			continue
		}
		cmd, _ := args["command"].(string)
		out, ok := probeOutput(cmd)
		if !ok {
			continue
		}
		v := request.Values{request.SlotResult: out, request.SlotCount: fmt.Sprint(len(byTool[tc.Name]))}
		for k, x := range args {
			if s, ok := x.(string); ok {
				v[request.ArgSlot(k)] = s
			}
		}
		if len(byTool[tc.Name]) == 0 {
			order = append(order, tc.Name)
		}
		byTool[tc.Name] = append(byTool[tc.Name], sample{msg.Content, v})
	}
	for _, tool := range order {
		ss := byTool[tool]
		if len(ss) < 2 || ss[0].text == ss[0].v[request.SlotResult] && ss[1].text == ss[1].v[request.SlotResult] {
			continue // as it is
		}
		t, err := walk(ss[0].text, ss[1].text, ss[0].v, ss[1].v)
		if err != nil {
			return &ProbeError{Probe: "request result of " + tool, Err: err}
		}
		if len(t) == 1 && t[0].Slot == request.SlotResult {
			continue // the output as it is, its words for none the model's EmptyResult
		}
		if !slices.Contains(t.Slots(), request.SlotResult) {
			return &ProbeError{Probe: "request result of " + tool, Err: fmt.Errorf("%w: the tool's result %q does not hold its output", ErrUnreadable, clip(ss[0].text))}
		}
		m.Loop.Results = append(m.Loop.Results, request.Result{Tool: tool, Text: t, Shape: shapeOf(counter, t)})
	}
	return nil
}

// probeOutput is what a probe's command prints ("echo WORD", "true").
func probeOutput(cmd string) (string, bool) {
	switch {
	case cmd == "true":
		return "", true
	case strings.HasPrefix(cmd, "echo ") && !strings.ContainsAny(cmd[5:], `'"$;|&<> `):
		return cmd[5:], true
	}
	return "", false
}
