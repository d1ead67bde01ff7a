package scenario

import (
	"strings"

	"go.yaml.in/yaml/v3"
)

// Level describes one kind of mapping in a scenario file: the fields the
// parser understands there and the ones whose absence is an error. The JSON
// Schema in schema/scenario.schema.json is tested against these lists.
type Level struct {
	// Name is "scenario", "prompts", "tool", "request", "planning",
	// "round" or "tool_call"; the schema keeps every level but the root
	// under $defs with this name.
	Name     string
	Fields   []string // in the order the documentation presents them
	Required []string
}

// ExtensionPrefix starts keys the parser ignores at every level, so
// authors can park YAML anchors and notes (`x-defaults: &d {...}`) without
// tripping the unknown-field warning (the docker-compose convention).
const ExtensionPrefix = "x-"

// Levels lists every level of the file format. It is derived from the same
// field tables the decoder runs, so it cannot drift from the parser.
func Levels() []Level {
	var d *decoder // the tables are only listed here, never run
	levels := []namedFields{
		{"scenario", d.scenarioFields(new(Scenario), new(scenarioPos))},
		{"prompts", d.promptsFields(new(Prompts))},
		{"tool", d.toolFields(new(Tool), new(toolPos))},
		{"tool_result", d.toolResultFields(new(ToolResult))},
		{"request", d.requestFields(new(Request), new(requestPos))},
		{"planning", d.planningFields(new(Planning), new(requestPos))},
		{"round", d.roundFields(new(Round), new(roundPos))},
		{"tool_call", d.toolCallFields(new(ToolCall), new(callPos))},
		{"compact", d.compactFields(new(Compact))},                      // hookfields.go
		{"subagent", d.subagentFields(new(Subagent), new(subagentPos))}, // subagent.go
	}
	return append(append(append(toLevels(levels), expectLevels()...), requestLevels()...), opsLevels()...)
}

// field is one key of a mapping level and how to decode its value.
type field struct {
	name     string
	required bool
	// hint completes "add NAME: ..." when a required field is missing.
	hint   string
	decode func(key, val *yaml.Node, path string)
}

func fieldNames(fields []field) []string {
	names := make([]string, len(fields))
	for i, f := range fields {
		names[i] = f.name
	}
	return names
}

func lookupField(fields []field, name string) *field {
	for i := range fields {
		if fields[i].name == name {
			return &fields[i]
		}
	}
	return nil
}

func (d *decoder) scenarioFields(s *Scenario, sp *scenarioPos) []field {
	return []field{
		{name: "name", decode: func(k, v *yaml.Node, path string) {
			sp.hasName = true
			if name, ok := d.str(v, path); ok {
				if name == "" {
					d.errorf(v, CodeEmptyValue, "name is empty; give the scenario a short name, e.g. name: %s", s.Name)
					return
				}
				s.Name = name
			}
		}},
		{name: "system_prompt", decode: func(k, v *yaml.Node, path string) {
			s.SystemPrompt, _ = d.str(v, path)
		}},
		{name: "enable_tools", decode: func(k, v *yaml.Node, path string) {
			if b, ok := d.boolean(v, path); ok {
				s.EnableTools = b
			}
		}},
		{name: "enabled_skills", decode: func(k, v *yaml.Node, path string) {
			s.EnabledSkills = d.skillList(v, path, -1, &s.skillRefs)
		}},
		{name: "prompts", decode: func(k, v *yaml.Node, path string) {
			d.object(v, path, d.promptsFields(&s.Prompts))
		}},
		{name: "tools", decode: func(k, v *yaml.Node, path string) {
			sp.toolsOK = d.list(v, path, func(i int, item *yaml.Node, p string) {
				var t Tool
				tp := toolPos{node: item}
				d.object(item, p, d.toolFields(&t, &tp))
				s.Tools = append(s.Tools, t)
				sp.tools = append(sp.tools, tp)
			})
		}},
		{name: "requests", required: true, hint: "a list of requests, e.g. requests: [{user: Hello}]", decode: func(k, v *yaml.Node, path string) {
			ok := d.list(v, path, func(i int, item *yaml.Node, p string) {
				r := Request{Line: item.Line}
				rp := requestPos{node: item}
				d.request(item, p, &r, &rp, len(s.Requests), &s.skillRefs)
				s.Requests = append(s.Requests, r)
				sp.requests = append(sp.requests, &rp)
			})
			if ok && len(s.Requests) == 0 {
				d.errorf(v, CodeEmptyValue, "requests is empty; add at least one request, e.g. - user: Hello")
			}
		}},
		d.expectField(ScopeScenario, &s.Expect),
		d.approvalField(s), d.approvalsField(s), d.budgetField(s), // approval.go
		d.modelField(s), d.hookAnswersField(s), // hookfields.go
		d.agentField(s),         // hookfields.go
		d.requestPolicyField(s), // requests.go
	}
}

func (d *decoder) promptsFields(p *Prompts) []field {
	return []field{
		{name: "planning", decode: func(k, v *yaml.Node, path string) { p.Planning, _ = d.str(v, path) }},
		{name: "first_step", decode: func(k, v *yaml.Node, path string) { p.FirstStep, _ = d.str(v, path) }},
		{name: "agent_loop", decode: func(k, v *yaml.Node, path string) { p.AgentLoop, _ = d.str(v, path) }},
	}
}

func (d *decoder) toolFields(t *Tool, tp *toolPos) []field {
	return []field{
		{name: "name", required: true, hint: "the name the model calls it by, e.g. name: read_file", decode: func(k, v *yaml.Node, path string) {
			if name, ok := d.str(v, path); ok {
				t.Name = name
				tp.name = v
				switch {
				case name == "":
					d.errorf(v, CodeEmptyValue, "%s is empty; give the tool the name the model calls it by", path)
				case !validToolName(name):
					d.warnf(v, CodeToolName, "tool name %q has characters or a length OpenAI-compatible providers reject; use 1-64 letters, digits, _ or -", name)
				}
			}
		}},
		{name: "description", decode: func(k, v *yaml.Node, path string) { t.Description, _ = d.str(v, path) }},
		{name: "parameters", decode: func(k, v *yaml.Node, path string) { t.Parameters = d.mapping(v, path) }},
		{name: "result", decode: func(k, v *yaml.Node, path string) {
			if r, ok := d.scripted(v, path); ok {
				t.Result = &r
			}
		}},
		{name: "results", decode: func(k, v *yaml.Node, path string) {
			d.list(v, path, func(i int, item *yaml.Node, p string) {
				var r ToolResult
				d.object(item, p, d.toolResultFields(&r))
				t.Results = append(t.Results, r)
			})
		}},
	}
}

func (d *decoder) toolResultFields(r *ToolResult) []field {
	return []field{
		{name: "arguments", decode: func(k, v *yaml.Node, path string) { r.Arguments = d.scriptedMapping(v, path) }},
		{name: "result", required: true, hint: "what the tool returns for these arguments, e.g. result: \"package main\"", decode: func(k, v *yaml.Node, path string) {
			r.Result, _ = d.scripted(v, path)
		}},
	}
}

func (d *decoder) requestFields(r *Request, rp *requestPos) []field {
	return []field{
		{name: "user", required: true, hint: "the user's message, e.g. user: Read main.go", decode: func(k, v *yaml.Node, path string) {
			r.User, _ = d.str(v, path)
		}},
		{name: "enabled_skills", decode: func(k, v *yaml.Node, path string) {
			r.EnabledSkills = d.skillList(v, path, rp.index, rp.skillRefs)
		}},
		{name: "reply", decode: func(k, v *yaml.Node, path string) {
			rp.reply = k
			r.Reply, _ = d.scripted(v, path)
		}},
		{name: "planning", decode: func(k, v *yaml.Node, path string) {
			rp.planning = k
			var pl Planning
			if d.object(v, path, d.planningFields(&pl, rp)) {
				r.Planning = &pl
			}
		}},
		{name: "rounds", decode: func(k, v *yaml.Node, path string) {
			rp.rounds = k
			d.list(v, path, func(i int, item *yaml.Node, p string) {
				var rd Round
				pos := roundPos{node: item}
				if d.object(item, p, d.roundFields(&rd, &pos)) && !pos.hasContent && !pos.callsFailed && len(rd.ToolCalls) == 0 {
					d.errorf(item, CodeEmptyRound, "%s has neither content nor tool_calls; give it content (the answer that ends the loop) or tool_calls", p)
				}
				r.Rounds = append(r.Rounds, rd)
				rp.roundList = append(rp.roundList, pos)
			})
		}},
		d.expectField(ScopeRequest, &r.Expect),
		d.attemptsField(&r.Attempts), // requests.go
	}
}

func (d *decoder) planningFields(pl *Planning, rp *requestPos) []field {
	return []field{
		{name: "need_tool", decode: func(k, v *yaml.Node, path string) {
			if b, ok := d.boolean(v, path); ok {
				pl.NeedTool = b
				rp.needTool = v
			}
		}},
		{name: "content", decode: func(k, v *yaml.Node, path string) { pl.Content, _ = d.str(v, path) }},
		d.expectField(ScopePlanning, &pl.Expect),
		d.attemptsField(&pl.Attempts), // requests.go
	}
}

func (d *decoder) roundFields(rd *Round, pos *roundPos) []field {
	return []field{
		{name: "content", decode: func(k, v *yaml.Node, path string) {
			pos.hasContent = true
			rd.Content, _ = d.scripted(v, path)
		}},
		{name: "tool_calls", decode: func(k, v *yaml.Node, path string) {
			pos.callsFailed = !d.list(v, path, func(i int, item *yaml.Node, p string) {
				var c ToolCall
				cp := callPos{node: item}
				d.object(item, p, d.toolCallFields(&c, &cp))
				rd.ToolCalls = append(rd.ToolCalls, c)
				pos.calls = append(pos.calls, cp)
			})
		}},
		d.expectField(ScopeRound, &rd.Expect),
		d.compactField(rd),            // hookfields.go
		d.attemptsField(&rd.Attempts), // requests.go
	}
}

func (d *decoder) toolCallFields(c *ToolCall, cp *callPos) []field {
	return []field{
		{name: "id", decode: func(k, v *yaml.Node, path string) {
			if id, ok := d.str(v, path); ok {
				c.ID = id
				cp.id = v
			}
		}},
		{name: "name", required: true, hint: "the declared tool it calls, e.g. name: read_file", decode: func(k, v *yaml.Node, path string) {
			if name, ok := d.str(v, path); ok {
				c.Name = name
				cp.name = v
				if name == "" {
					d.errorf(v, CodeEmptyValue, "%s is empty; name the declared tool this call uses", path)
				}
			}
		}},
		{name: "arguments", decode: func(k, v *yaml.Node, path string) { c.Arguments = d.scriptedMapping(v, path) }},
		{name: "result", decode: func(k, v *yaml.Node, path string) { c.Result, _ = d.scripted(v, path) }},
		d.toolErrorField(c, cp), // hookfields.go
		d.subagentField(c, cp),  // subagent.go
	}
}

// validToolName follows the function-name rule of OpenAI-compatible APIs,
// the strictest common denominator among the providers Hook Studio targets.
func validToolName(name string) bool {
	if len(name) == 0 || len(name) > 64 {
		return false
	}
	for _, r := range name {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-') {
			return false
		}
	}
	return true
}

func isExtension(key string) bool { return strings.HasPrefix(key, ExtensionPrefix) }

// namedFields is one level of the format: its name and its field table.
type namedFields struct {
	name   string
	fields []field
}

// toLevels describes field tables for the schema test.
func toLevels(levels []namedFields) []Level {
	out := make([]Level, 0, len(levels))
	for _, l := range levels {
		lv := Level{Name: l.name, Fields: []string{}, Required: []string{}}
		for _, f := range l.fields {
			lv.Fields = append(lv.Fields, f.name)
			if f.required {
				lv.Required = append(lv.Required, f.name)
			}
		}
		out = append(out, lv)
	}
	return out
}
