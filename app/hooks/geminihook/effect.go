package geminihook

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"

	"hookstudio/app/agent/engine"
	"hookstudio/app/agentdata/profile"
	"hookstudio/app/hooks/hookrun"
)

// ownOutcomes are renderings read in Gemini CLI 0.61's code that the
// bundled profile does not describe (calibration has not learned them).
var ownOutcomes = map[string]*profile.Outcome{}

// fire runs the handlers of one event, reads their answers as Gemini CLI
// merges them, and applies the merged answer.
func (h *Handler) fire(ctx context.Context, event Event, ev *engine.Event) (bool, error) {
	list, seq := h.matching(event, ev)
	if len(list) == 0 {
		if event == AfterAgent {
			h.setStopActive(false)
		}
		return false, nil
	}
	input, err := h.input(event, ev)
	if err != nil {
		return false, err
	}
	results, inputs := h.runAll(ctx, event, list, input, seq)
	if err := ctx.Err(); err != nil {
		return false, fmt.Errorf("gemini cli hooks: %w", err)
	}
	merged := merge(event, results)
	eff, block := h.effect(event, ev, merged, results)
	var again *retry
	if event == AfterAgent {
		if block != "" {
			again = h.retryTurn(ctx, ev, block, &eff)
		}
		h.setStopActive(block != "")
	}
	carrier := carrierOf(results)
	for i, hd := range list {
		call := h.call(hd, event, ev, inputs[i], results[i])
		e := engine.Effect{}
		if i == carrier {
			e = eff
			if n := contributors(results); n > 1 {
				e.Extra = append(e.Extra, fmt.Sprintf("the answers of %d hooks merged as Gemini CLI merges one event's hooks", n))
			}
		}
		h.apply(ev, hd, call, e)
	}
	if again != nil {
		again.apply(h, ev)
	}
	return eff.Answer != nil && event == BeforeModel || eff.Action == engine.ActionStop, nil
}

// runAll runs the handlers in parallel, or one after another (a group
// said sequential) with each answer changing the next one's input as
// Gemini CLI's runner does.
func (h *Handler) runAll(ctx context.Context, event Event, list []*Hook, input []byte, seq bool) ([]result, [][]byte) {
	results := make([]result, len(list))
	inputs := make([][]byte, len(list))
	if !seq {
		var wg sync.WaitGroup
		for i, hd := range list {
			inputs[i] = input
			wg.Go(func() { results[i] = h.run(ctx, hd, input) })
		}
		wg.Wait()
		return results, inputs
	}
	cur := input
	for i, hd := range list {
		inputs[i] = cur
		results[i] = h.run(ctx, hd, cur)
		if r := results[i]; r.output != nil && exitCode(r.res) == 0 && !r.res.TimedOut && r.res.Err == nil {
			cur = chain(event, cur, r.output)
		}
	}
	return results, inputs
}

// chain is the input of the next sequential hook: BeforeAgent's prompt
// gains the context, BeforeModel's request the overrides, BeforeTool's
// input the replaced fields.
func chain(event Event, input []byte, out map[string]any) []byte {
	spec, _ := out["hookSpecificOutput"].(map[string]any)
	if spec == nil {
		return input
	}
	var in map[string]json.RawMessage
	if json.Unmarshal(input, &in) != nil {
		return input
	}
	// keys keep their order: rewrite the one value in place
	set := func(key string, v any) []byte {
		var ordered []string
		dec := json.NewDecoder(strings.NewReader(string(input)))
		_, _ = dec.Token()
		for dec.More() {
			t, _ := dec.Token()
			k, _ := t.(string)
			ordered = append(ordered, k)
			var skip json.RawMessage
			_ = dec.Decode(&skip)
		}
		f := &hookrun.Fields{}
		for _, k := range ordered {
			if k == key {
				f.Add(k, v)
			} else {
				f.Add(k, in[k])
			}
		}
		return f.JSON()
	}
	switch event {
	case BeforeAgent:
		var prompt string
		c, ok := spec["additionalContext"].(string)
		if ok && json.Unmarshal(in["prompt"], &prompt) == nil {
			return set("prompt", prompt+"\n\n"+c)
		}
	case BeforeModel:
		if part, ok := spec["llm_request"].(map[string]any); ok {
			var req map[string]any
			if json.Unmarshal(in["llm_request"], &req) == nil {
				for k, v := range part {
					req[k] = v
				}
				return set("llm_request", req)
			}
		}
	case BeforeTool:
		if part, ok := spec["tool_input"].(map[string]any); ok {
			var ti map[string]any
			if json.Unmarshal(in["tool_input"], &ti) == nil {
				for k, v := range part {
					ti[k] = v
				}
				return set("tool_input", ti)
			}
		}
	}
	return input
}

// carrierOf is the hook whose call carries the event's merged effect in
// the trace: the first whose answer acts (context, a decision, a stop, a
// rewrite), else the last that answered at all.
func carrierOf(rs []result) int {
	last := -1
	for i, r := range rs {
		if r.output == nil {
			continue
		}
		last = i
		d, _ := r.output["decision"].(string)
		if _, spec := r.output["hookSpecificOutput"]; spec || d == "deny" || d == "block" || d == "ask" || r.output["continue"] == false {
			return i
		}
	}
	return last
}

func contributors(rs []result) int {
	n := 0
	for _, r := range rs {
		if r.output != nil {
			n++
		}
	}
	return n
}

// merged is one event's hooks' answers merged as Gemini CLI's aggregator
// merges them.
type merged struct {
	out      map[string]any
	fromExit bool // the blocking answer came from a plain-text exit code ≥ 2
}

func merge(event Event, rs []result) merged {
	var outs []map[string]any
	fromExit := false
	for _, r := range rs {
		if r.output == nil {
			continue
		}
		outs = append(outs, r.output)
		if !r.json && r.output["decision"] == "deny" {
			fromExit = true
		}
	}
	if len(outs) == 0 {
		return merged{}
	}
	m := merged{fromExit: fromExit}
	switch event {
	case BeforeTool, AfterTool, BeforeAgent, AfterAgent, SessionStart:
		m.out = mergeOr(outs)
	case BeforeModel, AfterModel:
		m.out = map[string]any{}
		spec := map[string]any{}
		for _, o := range outs {
			for k, v := range o {
				m.out[k] = v
			}
			if s, ok := o["hookSpecificOutput"].(map[string]any); ok {
				for k, v := range s {
					spec[k] = v
				}
			}
		}
		m.out["hookSpecificOutput"] = spec
	case BeforeToolSelection:
		m.out = mergeToolSelection(outs)
	default:
		m.out = map[string]any{}
		for _, o := range outs {
			for k, v := range o {
				m.out[k] = v
			}
		}
	}
	return m
}

// mergeOr: any block wins (else ask, else allow), reasons, system messages
// and contexts joined with newlines, continue: false if any says so.
func mergeOr(outs []map[string]any) map[string]any {
	m := map[string]any{"continue": true, "suppressOutput": false}
	var stops, reasons, sys, ctxs []string
	block, ask, stop := false, false, false
	spec := map[string]any{}
	for _, o := range outs {
		if o["continue"] == false {
			stop = true
			m["continue"] = false
			if s, ok := o["stopReason"].(string); ok && s != "" {
				stops = append(stops, s)
			}
		}
		switch d, _ := o["decision"].(string); d {
		case "block", "deny":
			block = true
			m["decision"] = d
		case "ask":
			ask = true
			if !block {
				m["decision"] = d
			}
		}
		if s, ok := o["reason"].(string); ok && s != "" {
			reasons = append(reasons, s)
		}
		if s, ok := o["systemMessage"].(string); ok && s != "" {
			sys = append(sys, s)
		}
		if o["suppressOutput"] == true {
			m["suppressOutput"] = true
		}
		if s, ok := o["hookSpecificOutput"].(map[string]any); ok {
			for k, v := range s {
				spec[k] = v
			}
			if c, ok := s["additionalContext"].(string); ok {
				ctxs = append(ctxs, c)
			}
		}
	}
	if !block && !ask && !stop {
		m["decision"] = "allow"
	}
	if len(stops) > 0 {
		m["stopReason"] = strings.Join(stops, "\n")
	}
	if len(reasons) > 0 {
		m["reason"] = strings.Join(reasons, "\n")
	}
	if len(sys) > 0 {
		m["systemMessage"] = strings.Join(sys, "\n")
	}
	if len(ctxs) > 0 {
		spec["additionalContext"] = strings.Join(ctxs, "\n")
	}
	if len(spec) > 0 {
		m["hookSpecificOutput"] = spec
	}
	return m
}

// mergeToolSelection: the union of the allowed names; NONE wins, then ANY.
func mergeToolSelection(outs []map[string]any) map[string]any {
	var names []string
	none, anyMode := false, false
	for _, o := range outs {
		spec, _ := o["hookSpecificOutput"].(map[string]any)
		tc, _ := spec["toolConfig"].(map[string]any)
		if tc == nil {
			continue
		}
		switch tc["mode"] {
		case "NONE":
			none = true
		case "ANY":
			anyMode = true
		}
		list, _ := tc["allowedFunctionNames"].([]any)
		for _, n := range list {
			if s, ok := n.(string); ok && !slices.Contains(names, s) {
				names = append(names, s)
			}
		}
	}
	mode := "AUTO"
	switch {
	case none:
		mode, names = "NONE", nil
	case anyMode:
		mode = "ANY"
	}
	slices.Sort(names)
	return map[string]any{"hookSpecificOutput": map[string]any{"hookEventName": "BeforeToolSelection",
		"toolConfig": map[string]any{"mode": mode, "allowedFunctionNames": orEmpty(names)}}}
}

func orEmpty(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// blocking reads an event's merged answer: stop (continue: false), block
// (decision block or deny) and the effective reason.
func (m merged) read() (stop, block bool, reason string, spec map[string]any) {
	if m.out == nil {
		return false, false, "", nil
	}
	spec, _ = m.out["hookSpecificOutput"].(map[string]any)
	stop = m.out["continue"] == false
	d, _ := m.out["decision"].(string)
	block = d == "block" || d == "deny"
	reason, _ = m.out["stopReason"].(string)
	if reason == "" {
		reason, _ = m.out["reason"].(string)
	}
	if reason == "" {
		reason = "No reason provided"
	}
	return stop, block, reason, spec
}

// notice is what the user sees of the answers' systemMessage.
func (h *Handler) notice(event Event, m merged) string {
	if m.out == nil || m.out["suppressOutput"] == true {
		return ""
	}
	s, _ := m.out["systemMessage"].(string)
	if s == "" {
		return ""
	}
	if text, ok := h.render.Text(profile.ID(string(event), profile.KindStdout), profile.Values{Event: string(event), Text: s}); ok {
		return text
	}
	return "Hook system message: " + s
}

// values are what a rendering is filled with.
func values(event Event, ev *engine.Event, text string) profile.Values {
	v := profile.Values{Event: string(event), Text: text, Prompt: ev.UserInput}
	if ev.Tool != nil {
		v.Tool = ev.Tool.Name
	}
	return v
}

// place renders the first outcome of kinds the profile knows at event.
func (h *Handler) place(eff *engine.Effect, ev *engine.Event, event Event, text string, kinds ...string) error {
	for _, k := range kinds {
		ok, err := h.render.Place(eff, ev, profile.ID(string(event), k), values(event, ev, text))
		if ok || err != nil {
			return err
		}
	}
	eff.Extra = append(eff.Extra, fmt.Sprintf("no rendering of %s.%s in %s: the model reads nothing of it here", event, kinds[0], h.profileRef()))
	return nil
}

func (h *Handler) profileRef() string {
	if p := h.render.Profile(); p != nil {
		return "the profile " + p.Ref()
	}
	return "this build"
}

// effect is what the merged answer of event does, as Gemini CLI acts on
// it; block is the reason when it blocks (AfterAgent: the retry prompt).
func (h *Handler) effect(event Event, ev *engine.Event, m merged, rs []result) (engine.Effect, string) {
	var eff engine.Effect
	eff.Notice = h.notice(event, m)
	stop, block, reason, spec := m.read()
	if m.out == nil {
		return eff, ""
	}
	blockKinds := []string{profile.KindDeny, profile.KindBlock, profile.KindExit2}
	if m.fromExit {
		blockKinds = []string{profile.KindExit2, profile.KindDeny, profile.KindBlock}
	}
	shown := func(prefix string) string {
		if s, _ := m.out["systemMessage"].(string); strings.TrimSpace(s) != "" {
			return prefix + strings.TrimSpace(s)
		}
		return prefix + reason
	}
	stopped := func() {
		eff.Action, eff.Reason = engine.ActionStop, reason
		eff.Notice = joinLines(eff.Notice, shown("Agent execution stopped: "))
	}
	var err error
	switch event {
	case SessionStart:
		// advisory: continue and decision are ignored
		if c, _ := spec["additionalContext"].(string); c != "" {
			err = h.place(&eff, ev, event, c, profile.KindContext)
			for _, p := range eff.Preface {
				h.mu.Lock()
				h.prefix = p.Content
				h.mu.Unlock()
			}
		}
	case BeforeAgent:
		switch {
		case stop:
			stopped()
		case block:
			eff.Action, eff.Reason = engine.ActionStop, reason
			eff.Notice = joinLines(eff.Notice, shown("[WARNING] Agent execution blocked: "))
			eff.Extra = append(eff.Extra, "the prompt is discarded and the model is not asked")
		default:
			if c, _ := spec["additionalContext"].(string); c != "" {
				err = h.place(&eff, ev, event, c, profile.KindContext)
			}
		}
	case BeforeModel:
		switch {
		case stop:
			stopped()
		case block:
			eff.Notice = joinLines(eff.Notice, shown("[WARNING] Agent execution blocked: "))
			if text, ok := syntheticText(spec["llm_response"]); ok {
				eff.Answer = &text
			} else {
				eff.Action, eff.Reason = engine.ActionStop, reason
				eff.Extra = append(eff.Extra, "the model call is blocked without an answer: the turn ends")
			}
		default:
			if _, ok := spec["llm_response"]; ok {
				eff.Extra = append(eff.Extra, "llm_response is used only with decision \"deny\" (Gemini CLI 0.61): the model is asked")
			}
			if req, ok := spec["llm_request"].(map[string]any); ok {
				h.rewriteRequest(&eff, ev, req)
			}
		}
	case BeforeToolSelection:
		tc, _ := spec["toolConfig"].(map[string]any)
		names, _ := tc["allowedFunctionNames"].([]string)
		switch tc["mode"] {
		case "NONE":
			none := []string{}
			eff.OnlyTools = &none
		case "ANY":
			eff.Extra = append(eff.Extra, "mode ANY forces a tool call; the scenario's answers decide in the simulated agent")
			fallthrough
		default:
			if len(names) > 0 {
				eff.OnlyTools = &names
			}
		}
	case AfterModel:
		switch {
		case stop:
			stopped()
		case block:
			eff.Action, eff.Reason = engine.ActionStop, reason
			eff.Notice = joinLines(eff.Notice, shown("[WARNING] Agent execution blocked: "))
			eff.Extra = append(eff.Extra, "the answer is discarded: the turn ends")
		default:
			if text, ok := syntheticText(spec["llm_response"]); ok {
				eff.Answer = &text
				if len(ev.ToolCalls) > 0 {
					none := []engine.ToolCall{}
					eff.ToolCalls = &none
					eff.Extra = append(eff.Extra, "Gemini CLI rebuilds the answer from the hook's text parts only: its tool calls are gone")
				}
			}
		}
	case BeforeTool:
		switch {
		case stop:
			eff.Action, eff.Reason = engine.ActionStop, "Agent execution stopped by hook: "+reason
		case block:
			err = h.place(&eff, ev, event, reason, blockKinds...)
		default:
			if ti, ok := spec["tool_input"].(map[string]any); ok {
				eff.ToolArguments = ti
				h.mu.Lock()
				h.rewritten[ev.Tool.ID] = true
				h.mu.Unlock()
			}
			if m.out["decision"] == "ask" {
				eff.Extra = append(eff.Extra, "decision ask: the interactive CLI asks the user; gemini -p --yolo goes on")
			}
		}
	case AfterTool:
		switch {
		case stop:
			eff.Action, eff.Reason = engine.ActionStop, "Agent execution stopped by hook: "+reason
		case block:
			err = h.place(&eff, ev, event, reason, blockKinds...)
		default:
			if c, _ := spec["additionalContext"].(string); c != "" {
				if ev.Tool.Error != "" {
					// appended to the output, but a failed tool's answer is its error (seen)
					eff.Extra = append(eff.Extra, "the tool failed: Gemini CLI sends the model its error, not the output the context was appended to")
				} else {
					err = h.place(&eff, ev, event, c, profile.KindContext)
				}
			}
			if _, ok := spec["tailToolCallRequest"]; ok {
				eff.Extra = append(eff.Extra, "tailToolCallRequest is not simulated: the tool's result stays")
			}
		}
	case AfterAgent:
		switch {
		case stop:
			stopped()
		case block:
			eff.Notice = joinLines(eff.Notice, shown("[WARNING] Agent execution blocked: "))
			err = h.place(&eff, ev, event, reason, profile.KindBlock, profile.KindDeny, profile.KindExit2)
			return eff, reason
		}
	}
	if err != nil {
		eff.Extra = append(eff.Extra, err.Error())
	}
	return eff, ""
}

func joinLines(a, b string) string {
	if a == "" {
		return b
	}
	return a + "\n" + b
}

// syntheticText is the text of a hook's llm_response (its first
// candidate's parts joined), and whether it has any.
func syntheticText(v any) (string, bool) {
	resp, _ := v.(map[string]any)
	cands, _ := resp["candidates"].([]any)
	if len(cands) == 0 {
		return "", false
	}
	c0, _ := cands[0].(map[string]any)
	content, _ := c0["content"].(map[string]any)
	parts, _ := content["parts"].([]any)
	if len(parts) == 0 {
		return "", false
	}
	var b strings.Builder
	for _, p := range parts {
		switch x := p.(type) {
		case string:
			b.WriteString(x)
		case map[string]any:
			if t, ok := x["text"].(string); ok {
				b.WriteString(t)
			}
		}
	}
	return b.String(), true
}

// rewriteRequest applies a BeforeModel llm_request: the model, and the
// messages laid over the text turns in order (turns without text kept,
// extra messages appended), as Gemini CLI's translator merges them.
func (h *Handler) rewriteRequest(eff *engine.Effect, ev *engine.Event, req map[string]any) {
	if model, ok := req["model"].(string); ok && model != "" && model != ev.Model {
		eff.Model = &model
	}
	msgs, ok := req["messages"].([]any)
	if !ok {
		return
	}
	cur := requestOf(ev)
	all := ev.Messages()
	out := make([]engine.NewMessage, 0, len(all)+len(msgs))
	first, member := map[int]int{}, map[int]bool{}
	for g, ids := range cur.groups {
		first[ids[0]] = g
		for _, id := range ids {
			member[id] = true
		}
	}
	toNew := func(m any) engine.NewMessage {
		mm, _ := m.(map[string]any)
		role, _ := mm["role"].(string)
		if role == "model" {
			role = "assistant"
		}
		content, ok := mm["content"].(string)
		if !ok {
			content = fmt.Sprint(mm["content"])
		}
		return engine.NewMessage{Role: role, Content: content}
	}
	// a turn the hook gave a message for becomes that one message; turns
	// past the hook's list, and the rest of the list, stay
	for i, m := range all {
		if g, ok := first[i]; ok && g < len(msgs) {
			out = append(out, toNew(msgs[g]))
			continue
		}
		if g, ok := groupOf(cur.groups, i); ok && member[i] && g < len(msgs) {
			continue // merged into its turn's first message
		}
		out = append(out, engine.NewMessage{Role: m.Role, Content: m.Content})
	}
	for k := len(cur.groups); k < len(msgs); k++ {
		out = append(out, toNew(msgs[k]))
	}
	eff.Messages = out
	if len(msgs) < len(cur.messages) {
		eff.Extra = append(eff.Extra, fmt.Sprintf("the hook gave %d messages for %d text turns: Gemini CLI keeps the rest as they were", len(msgs), len(cur.messages)))
	}
}

func groupOf(groups [][]int, id int) (int, bool) {
	for g, ids := range groups {
		if slices.Contains(ids, id) {
			return g, true
		}
	}
	return 0, false
}

// retry is AfterAgent's block: Gemini CLI sends the reason as a new
// prompt, and BeforeAgent fires on it.
type retry struct {
	event *Event
	list  []*Hook
	input []byte
	rs    []result
	eff   engine.Effect
}

// retryTurn runs BeforeAgent for the prompt an AfterAgent block sends; a
// BeforeAgent that blocks it ends the turn instead.
func (h *Handler) retryTurn(ctx context.Context, ev *engine.Event, reason string, after *engine.Effect) *retry {
	list, seq := h.matching(BeforeAgent, ev)
	if len(list) == 0 {
		return nil
	}
	stand := *ev
	stand.UserInput = reason
	input, err := h.input(BeforeAgent, &stand)
	if err != nil {
		return nil
	}
	// the prompt BeforeAgent reads is the reason itself
	input = chainPrompt(input, reason)
	rs, _ := h.runAll(ctx, BeforeAgent, list, input, seq)
	m := merge(BeforeAgent, rs)
	stop, block, why, spec := m.read()
	r := &retry{list: list, input: input, rs: rs}
	switch {
	case stop || block:
		after.RetryFeedback = ""
		after.Action, after.Reason = engine.ActionStop, why
		after.Extra = append(after.Extra, "BeforeAgent blocked the retry prompt: the turn ends")
	default:
		if c, _ := spec["additionalContext"].(string); c != "" {
			text, ok := h.render.Text(profile.ID(string(BeforeAgent), profile.KindContext), values(BeforeAgent, ev, c))
			if ok {
				r.eff.RetryFeedback = text
			}
		}
	}
	r.eff.Notice = h.notice(BeforeAgent, m)
	return r
}

func chainPrompt(input []byte, prompt string) []byte {
	var in map[string]json.RawMessage
	if json.Unmarshal(input, &in) != nil {
		return input
	}
	b, _ := json.Marshal(prompt)
	old := string(in["prompt"])
	return []byte(strings.Replace(string(input), `"prompt":`+old, `"prompt":`+string(b), 1))
}

func (r *retry) apply(h *Handler, ev *engine.Event) {
	carrier := carrierOf(r.rs)
	for i, hd := range r.list {
		call := h.call(hd, BeforeAgent, ev, r.input, r.rs[i])
		e := engine.Effect{}
		if i == carrier {
			e = r.eff
		}
		h.apply(ev, hd, call, e)
	}
}

func (h *Handler) setStopActive(v bool) {
	h.mu.Lock()
	h.stopActive = v
	h.mu.Unlock()
}

// Outcomes are the answers whose words reach the model or the user, in
// the order of docs/gemini-cli-hooks.md.
var Outcomes = []profile.Spec{
	{ID: "SessionStart.context", Hook: "SessionStart `additionalContext: C`"},
	{ID: "SessionStart.stdout", Hook: "SessionStart plain stdout `X` on exit 0 (or `systemMessage: X`)"},
	{ID: "BeforeAgent.context", Hook: "BeforeAgent `additionalContext: C`"},
	{ID: "BeforeAgent.stdout", Hook: "BeforeAgent plain stdout `X` on exit 0 (or `systemMessage: X`)"},
	{ID: "BeforeTool.exit2", Hook: "BeforeTool exit 2 (any code but 0 and 1), stderr `R`"},
	{ID: "BeforeTool.deny", Hook: "BeforeTool `decision: deny` (or `block`), reason `R`"},
	{ID: "AfterTool.context", Hook: "AfterTool `additionalContext: C` (the tool succeeded)"},
	{ID: "AfterTool.exit2", Hook: "AfterTool exit 2, stderr `R`"},
	{ID: "AfterTool.deny", Hook: "AfterTool `decision: deny`, reason `R`"},
	{ID: "AfterAgent.block", Hook: "AfterAgent `decision: deny` (or exit 2), reason `R`"},
	{ID: "AfterAgent.stdout", Hook: "AfterAgent plain stdout `X` on exit 0 (or `systemMessage: X`)"},
}
