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

// nonceOf is the probe's words of a run ("HSR1a2b3c4d").
func nonceOf(r *reqRan) string {
	w, _, _ := strings.Cut(r.run.prompt, " ")
	return w
}

// isStopWords says msg holds the probe's Stop hook's words: as a hook's
// (Claude Code), or as a prompt of the user's the agent sends them in
// (Gemini CLI's AfterAgent reason, Qwen Code, Copilot CLI in its wrapper:
// capture cannot tell them from the user's).
func isStopWords(r *reqRan, msg capture.Message) (hook, prompt bool) {
	switch {
	case msg.Origin == capture.OriginHook && strings.HasPrefix(msg.Hook, "Stop"):
		return true, false
	case r.run.stop != "" && msg.Content == r.run.stop,
		msg.Origin == capture.OriginUser && strings.Contains(msg.Content, nonceOf(r)+" stop words"):
		return false, true
	}
	return false, false
}

// learnResults reads how the agent writes its tools' outputs for the
// model, from the probes' calls (one printing a word, one printing
// nothing, in each run that has them): two results of a tool read as one
// template with the output, the call's arguments and the count of its
// calls before as slots — or, where that template does not read every
// run's results (an opaque value such as Gemini CLI's process group read
// as a count), with the output alone. A result that is the output alone
// (its words for none the model's EmptyResult) is no wrapper.
func learnResults(m *request.Model, ran []*reqRan, counter *tokens.Counter) error {
	type sample struct {
		text string
		v    request.Values
	}
	byTool := map[string][]sample{}
	var order []string
	for _, r := range ran {
		count := map[string]int{}
		for _, res := range toolResults(r) {
			tc, msg := res.call, res.msg
			var args map[string]any
			if json.Unmarshal(tc.Arguments, &args) != nil {
				continue
			}
			cmd, _ := args["command"].(string)
			out, ok := probeOutput(cmd)
			if !ok {
				continue
			}
			v := request.Values{request.SlotResult: out, request.SlotCount: fmt.Sprint(count[tc.Name])}
			count[tc.Name]++
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
	}
	for _, tool := range order {
		ss := byTool[tool]
		full := slices.IndexFunc(ss, func(s sample) bool { return s.v[request.SlotResult] != "" })
		empty := slices.IndexFunc(ss, func(s sample) bool { return s.v[request.SlotResult] == "" })
		if full < 0 || empty < 0 || ss[full].text == ss[full].v[request.SlotResult] && ss[empty].text == "" {
			continue // as it is
		}
		reads := func(t request.Text) bool {
			for _, s := range ss {
				if _, ok := t.Opaque(s.v, s.text); !ok {
					return false
				}
			}
			return true
		}
		t, err := walk(ss[full].text, ss[empty].text, ss[full].v, ss[empty].v)
		if err != nil || !reads(t) {
			only := func(s sample) request.Values { return request.Values{request.SlotResult: s.v[request.SlotResult]} }
			if t, err = walk(ss[full].text, ss[empty].text, only(ss[full]), only(ss[empty])); err != nil {
				return &ProbeError{Probe: "request result of " + tool, Err: err}
			}
		}
		if len(t) == 1 && t[0].Slot == request.SlotResult {
			continue // the output as it is, its words for none the model's EmptyResult
		}
		if !slices.Contains(t.Slots(), request.SlotResult) {
			return &ProbeError{Probe: "request result of " + tool, Err: fmt.Errorf("%w: the tool's result %q does not hold its output", ErrUnreadable, clip(ss[full].text))}
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
