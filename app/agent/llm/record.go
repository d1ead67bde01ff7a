package llm

import (
	"bytes"
	"errors"
	"fmt"
	"slices"

	"go.yaml.in/yaml/v3"

	"hookstudio/app/agent/engine"
	"hookstudio/app/agent/scenario"
)

// ToScenario turns a real run of sc into a mock scenario: the same
// settings, tools and requests, with every answer the model gave scripted
// (the planning decision and text, each agent round's content and tool
// calls with the results they got, the direct replies). Played by the mock,
// it makes the same LLM call sequence, so hooks can be edited and
// re-simulated deterministically.
//
// A run that stopped early keeps only its finished requests; a run with
// none is an error. A tool the model called without the scenario declaring
// it is declared, so the file passes the checks. Tool-call ids a server
// repeated within a request are dropped (the engine generates fresh ones).
func ToScenario(sc *scenario.Scenario, tr *engine.Trace) (*scenario.Scenario, error) {
	if sc == nil || tr == nil {
		return nil, errors.New("record: no scenario or no trace")
	}
	reqs := tr.Requests
	if tr.Status != engine.StatusOK && len(reqs) > 0 {
		reqs = reqs[:len(reqs)-1]
	}
	if len(reqs) == 0 {
		return nil, fmt.Errorf("record: the run finished no request (status %s): nothing to replay", tr.Status)
	}
	out := &scenario.Scenario{
		Name:          sc.Name,
		File:          sc.File,
		SystemPrompt:  sc.SystemPrompt,
		EnableTools:   sc.EnableTools,
		EnabledSkills: slices.Clone(sc.EnabledSkills),
		Prompts:       sc.Prompts,
		Tools:         slices.Clone(sc.Tools),
	}
	declared := map[string]bool{}
	for _, t := range out.Tools {
		declared[t.Name] = true
	}
	for _, info := range reqs {
		if info.Index >= len(sc.Requests) {
			return nil, fmt.Errorf("record: the trace has request %d, the scenario only %d", info.Index, len(sc.Requests))
		}
		src := &sc.Requests[info.Index]
		req := scenario.Request{User: src.User, EnabledSkills: slices.Clone(src.EnabledSkills)}
		ids := map[string]bool{}
		for _, ci := range info.Calls {
			c := &tr.Calls[ci]
			switch c.Phase {
			case engine.PhaseDirect:
				req.Reply = c.Content
			case engine.PhasePlanning:
				need := c.NeedTool != nil && *c.NeedTool
				req.Planning = &scenario.Planning{NeedTool: need, Content: c.Content}
			case engine.PhaseAgent:
				rd := scenario.Round{Content: c.Content}
				for _, tc := range c.ToolCalls {
					id := tc.ID
					if ids[id] {
						id = ""
					}
					ids[id] = id != ""
					if !declared[tc.Name] {
						declared[tc.Name] = true
						out.Tools = append(out.Tools, scenario.Tool{Name: tc.Name, Description: "(not declared by the scenario; the model called it during the recorded run)"})
					}
					rd.ToolCalls = append(rd.ToolCalls, scenario.ToolCall{ID: id, Name: tc.Name, Arguments: tc.Arguments, Result: tc.Result})
				}
				req.Rounds = append(req.Rounds, rd)
			}
		}
		out.Requests = append(out.Requests, req)
	}
	return out, nil
}

// The YAML shapes, in the order the documentation presents the fields.
type (
	yScenario struct {
		Name          string     `yaml:"name"`
		SystemPrompt  string     `yaml:"system_prompt,omitempty"`
		EnableTools   bool       `yaml:"enable_tools"`
		EnabledSkills *[]string  `yaml:"enabled_skills,omitempty"`
		Prompts       *yPrompts  `yaml:"prompts,omitempty"`
		Tools         []yTool    `yaml:"tools,omitempty"`
		Requests      []yRequest `yaml:"requests"`
	}
	yPrompts struct {
		Planning  string `yaml:"planning,omitempty"`
		FirstStep string `yaml:"first_step,omitempty"`
		AgentLoop string `yaml:"agent_loop,omitempty"`
	}
	yTool struct {
		Name        string         `yaml:"name"`
		Description string         `yaml:"description,omitempty"`
		Parameters  map[string]any `yaml:"parameters,omitempty"`
	}
	yRequest struct {
		User          string     `yaml:"user"`
		EnabledSkills *[]string  `yaml:"enabled_skills,omitempty"`
		Reply         *string    `yaml:"reply,omitempty"`
		Planning      *yPlanning `yaml:"planning,omitempty"`
		Rounds        []yRound   `yaml:"rounds,omitempty"`
	}
	yPlanning struct {
		NeedTool bool   `yaml:"need_tool"`
		Content  string `yaml:"content"`
	}
	yRound struct {
		Content   *string     `yaml:"content,omitempty"`
		ToolCalls []yToolCall `yaml:"tool_calls,omitempty"`
	}
	yToolCall struct {
		ID        string         `yaml:"id,omitempty"`
		Name      string         `yaml:"name"`
		Arguments map[string]any `yaml:"arguments,omitempty"`
		Result    string         `yaml:"result"`
	}
)

// MarshalScenarioYAML writes sc as a scenario file that scenario.Parse
// reads back to the same scenario.
func MarshalScenarioYAML(sc *scenario.Scenario) ([]byte, error) {
	y := yScenario{Name: sc.Name, SystemPrompt: sc.SystemPrompt, EnableTools: sc.EnableTools}
	if sc.EnabledSkills != nil {
		s := slices.Clone(sc.EnabledSkills)
		y.EnabledSkills = &s
	}
	if sc.Prompts != (scenario.Prompts{}) {
		y.Prompts = &yPrompts{Planning: sc.Prompts.Planning, FirstStep: sc.Prompts.FirstStep, AgentLoop: sc.Prompts.AgentLoop}
	}
	for _, t := range sc.Tools {
		y.Tools = append(y.Tools, yTool{Name: t.Name, Description: t.Description, Parameters: t.Parameters})
	}
	for _, r := range sc.Requests {
		yr := yRequest{User: r.User}
		if r.EnabledSkills != nil {
			s := slices.Clone(r.EnabledSkills)
			yr.EnabledSkills = &s
		}
		if r.Reply != "" {
			reply := r.Reply
			yr.Reply = &reply
		}
		if r.Planning != nil {
			yr.Planning = &yPlanning{NeedTool: r.Planning.NeedTool, Content: r.Planning.Content}
		}
		for _, rd := range r.Rounds {
			var yrd yRound
			if rd.Content != "" || len(rd.ToolCalls) == 0 {
				c := rd.Content
				yrd.Content = &c // a round without tool calls needs content, even empty
			}
			for _, tc := range rd.ToolCalls {
				yrd.ToolCalls = append(yrd.ToolCalls, yToolCall{ID: tc.ID, Name: tc.Name, Arguments: tc.Arguments, Result: tc.Result})
			}
			yr.Rounds = append(yr.Rounds, yrd)
		}
		y.Requests = append(y.Requests, yr)
	}
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(y); err != nil {
		return nil, fmt.Errorf("encode scenario: %w", err)
	}
	if err := enc.Close(); err != nil {
		return nil, fmt.Errorf("encode scenario: %w", err)
	}
	return buf.Bytes(), nil
}
