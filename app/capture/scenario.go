package capture

import (
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"hookstudio/app/agent/engine"
	"hookstudio/app/agent/llm"
	"hookstudio/app/agent/scenario"
	"hookstudio/app/store/atomicfile"
)

// ToScenario turns a capture into a mock scenario that replays it: the
// system prompt and tools the agent sent, and per request the recorded
// answers as the mock's rounds, in order — each tool call with the result
// the agent sent back for it — so a simulation of the scenario gives the
// same assistant answers and tool calls in the same order, and the hooks
// of a skills folder can be tried against a real agent's conversation.
//
// A request starts with the first call and after every answer without tool
// calls (the agent's turn ended); its user text is what the agent added
// after that answer (the user's words, else what else it sent: a Stop
// hook's feedback). Calls that got no answer (an error status, a client
// that left) are not replayed, and notes says so for each; a capture whose
// last answer asked for tools ends with a round the mock closes. A side
// request the agent interleaved (another conversation, see Trace) comes as
// requests of its own after the conversation it interrupted: a simulation
// runs one request after another.
func ToScenario(name string, calls []Call) (sc *scenario.Scenario, notes []string, err error) {
	sc = &scenario.Scenario{Name: name}
	declared := map[string]bool{}
	declare := func(tool string) {
		if tool != "" && !declared[tool] {
			declared[tool] = true
			sc.Tools = append(sc.Tools, scenario.Tool{Name: tool, Description: "(a tool the captured agent offered its model)"})
		}
	}
	// conversation by conversation (a side request the agent interleaved
	// is requests of its own, after the conversation it interrupted)
	of := conversationsOf(callKeys(calls), subagentsOf(calls))
	order := byConversation(of)
	var answered []Call
	var answeredConv []int
	for _, at := range order {
		c := calls[at]
		if c.Answer == nil || c.Answer.Error != nil || c.Status != 200 || c.Disconnected {
			why := c.Error
			if why == "" {
				why = fmt.Sprintf("status %d", c.Status)
			}
			notes = append(notes, fmt.Sprintf("call #%d is not replayed: it got no answer (%s)", c.N+1, why))
			continue
		}
		answered, answeredConv = append(answered, c), append(answeredConv, of[at])
		for _, t := range c.Tools {
			declare(t)
		}
		for _, tc := range c.Answer.ToolCalls {
			declare(tc.Name)
		}
	}
	if len(answered) == 0 {
		return nil, notes, errors.New("the capture has no answered call to replay")
	}
	var system []string
	for _, m := range answered[0].Messages {
		if m.Role == "system" {
			system = append(system, m.Content)
		}
	}
	sc.SystemPrompt = strings.Join(system, "\n\n")
	sc.EnableTools = len(sc.Tools) > 0

	// results by tool call id, from the calls after the one that asked
	results := map[string]Message{}
	for _, c := range answered {
		for _, m := range c.Messages {
			if m.Role == "tool" && m.ToolCallID != "" {
				if _, ok := results[m.ToolCallID]; !ok {
					results[m.ToolCallID] = m
				}
			}
		}
	}

	var req *scenario.Request
	var prev *Call
	for i := range answered {
		c := &answered[i]
		if i > 0 && answeredConv[i] != answeredConv[i-1] {
			req, prev = nil, nil // another conversation: its own requests
		}
		if req == nil {
			sc.Requests = append(sc.Requests, scenario.Request{User: turnText(prev, c)})
			req = &sc.Requests[len(sc.Requests)-1]
		}
		a := c.Answer
		if !sc.EnableTools {
			req.Reply = a.Content // a direct call: one per request
			req, prev = nil, c
			continue
		}
		rd := scenario.Round{Content: a.Content}
		for _, tc := range a.ToolCalls {
			out := scenario.ToolCall{ID: tc.ID, Name: tc.Name, Arguments: arguments(tc.Arguments)}
			if r, ok := results[tc.ID]; ok {
				out.Result = r.Content
			} else {
				notes = append(notes, fmt.Sprintf("call #%d: %s's result never reached the model in the capture; replayed as empty", c.N+1, tc.Name))
			}
			rd.ToolCalls = append(rd.ToolCalls, out)
		}
		req.Rounds = append(req.Rounds, rd)
		if len(a.ToolCalls) == 0 {
			req = nil // the turn ended: the next call is a new request
		}
		prev = c
	}
	return sc, notes, nil
}

// turnText is what the agent sent as the next turn in c: the user's words
// it added since prev's answer, else any other text it added (hook
// feedback, context), else the last user message.
func turnText(prev, c *Call) string {
	from := 0
	if prev != nil {
		from = min(len(prev.Messages)+1, len(c.Messages)) // + the answer the agent sent back
		if !extends(prev.Messages, c.Messages) {
			from = 0 // another conversation: all of it is new
		}
	}
	var user, other []string
	for _, m := range c.Messages[from:] {
		switch {
		case m.Origin == OriginUser:
			user = append(user, m.Content)
		case m.Role == "user" || m.Origin == OriginHook:
			other = append(other, m.Content)
		}
	}
	switch {
	case len(user) > 0:
		return strings.Join(user, "\n\n")
	case len(other) > 0:
		return strings.Join(other, "\n\n")
	}
	for i := len(c.Messages) - 1; i >= 0; i-- {
		if c.Messages[i].Role == "user" {
			return c.Messages[i].Content
		}
	}
	return "(the agent sent no user text)"
}

// extends says whether next begins with prev's messages (the same
// conversation, one turn on).
func extends(prev, next []Message) bool {
	if len(next) < len(prev) {
		return false
	}
	for i := range prev {
		if messageKey(prev[i]) != messageKey(next[i]) {
			return false
		}
	}
	return true
}

// ScenarioYAML is the capture as a scenario file (scenario.Parse reads it
// back) and the notes on what it does not replay.
func ScenarioYAML(name string, calls []Call) ([]byte, []string, error) {
	sc, notes, err := ToScenario(name, calls)
	if err != nil {
		return nil, notes, err
	}
	data, err := llm.MarshalScenarioYAML(sc)
	if err != nil {
		return nil, notes, err
	}
	head := "# A capture saved as a scenario (hookctl capture --save-scenario, or Save as scenario… in the app):\n" +
		"# the mock replays the captured agent's model answers, in order.\n"
	for _, n := range notes {
		head += "# note: " + n + "\n"
	}
	return append([]byte(head), data...), notes, nil
}

// CallsFromTrace reads a capture run back from its trace (a capture kept
// in the history): each LLM call's message list and answer. What a trace
// does not keep — the exact body, the headers, the tools offered, which
// call a hook's tool result answered — is missing, which ToScenario
// tolerates: the answers and tool calls are all there.
func CallsFromTrace(tr *engine.Trace) []Call {
	calls := make([]Call, len(tr.Calls))
	for i, lc := range tr.Calls {
		c := Call{N: i, Model: lc.Model, Status: 200, Messages: []Message{}, Tools: []string{}}
		if lc.Error != "" {
			c.Status, c.Error = 500, lc.Error
		} else {
			a := &Answer{Content: lc.Content}
			for _, tc := range lc.ToolCalls {
				a.ToolCalls = append(a.ToolCalls, ToolCall{ID: tc.ID, Name: tc.Name, Arguments: rawArguments(tc.Arguments)})
			}
			c.Answer = a
		}
		for _, m := range tr.CallMessages(i) {
			cm := Message{Role: m.Role, Content: m.Content, ToolCallID: m.ToolCallID, Hook: m.Hook}
			switch m.Origin {
			case engine.OriginSystemPrompt:
				cm.Origin = OriginSystem
			case engine.OriginUserInput:
				cm.Origin = OriginUser
			case engine.OriginAssistant:
				cm.Origin = OriginAssistant
			case engine.OriginTool:
				cm.Origin = OriginToolResult
			case engine.OriginHook:
				cm.Origin = OriginHook
			default:
				cm.Origin = string(m.Origin)
			}
			for _, tc := range m.ToolCalls {
				cm.ToolCalls = append(cm.ToolCalls, ToolCall{ID: tc.ID, Name: tc.Name, Arguments: rawArguments(tc.Arguments)})
			}
			c.Messages = append(c.Messages, cm)
		}
		calls[i] = c
	}
	return calls
}

func rawArguments(m map[string]any) json.RawMessage {
	if m == nil {
		return json.RawMessage(`{}`)
	}
	b, err := json.Marshal(m)
	if err != nil {
		return json.RawMessage(`{}`)
	}
	return b
}

// SaveScenario writes calls as a scenario file at path (absolute, .yaml or
// .yml) and returns the notes on what it does not replay.
func SaveScenario(path, name string, calls []Call) ([]string, error) {
	if !filepath.IsAbs(path) {
		return nil, fmt.Errorf("%q: give the scenario file's full path", path)
	}
	if ext := filepath.Ext(path); ext != ".yaml" && ext != ".yml" {
		return nil, fmt.Errorf("%s: a scenario file ends in .yaml or .yml", path)
	}
	data, notes, err := ScenarioYAML(name, calls)
	if err != nil {
		return notes, err
	}
	if err := atomicfile.Write(path, data, 0o644); err != nil {
		return notes, fmt.Errorf("write %s: %w", path, err)
	}
	return notes, nil
}
