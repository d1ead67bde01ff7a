package scenario

import (
	"hookstudio/app/agentdata/profile"
	"hookstudio/app/format/yamlpos"

	"go.yaml.in/yaml/v3"
)

// The fields executable hooks need (seed 001, command hooks): the model
// name hooks see, scripted answers for llm hooks, a failing tool call and
// a compaction before a round. Each is listed in its level's table in
// fields.go.

// CodeResultAndError: a scripted tool call has both result and error.
const CodeResultAndError = "result-and-error"

// Compaction kinds a round may trigger.
const (
	CompactMicro = "micro"
	CompactAuto  = "auto"
)

func (d *decoder) modelField(s *Scenario) field {
	return field{name: "model", decode: func(k, v *yaml.Node, path string) {
		if m, ok := d.str(v, path); ok {
			if m == "" {
				d.errorf(v, CodeEmptyValue, "model is empty; name the model hooks see (model_prefix filters match it), or remove the field to use \"mock\"")
				return
			}
			s.Model = m
		}
	}}
}

// agentField decodes agent: the agent CLI and version whose renderings
// the run shows (whether a profile exists is the run's to say).
func (d *decoder) agentField(s *Scenario) field {
	return field{name: "agent", decode: func(k, v *yaml.Node, path string) {
		a, ok := d.str(v, path)
		if !ok {
			return
		}
		if _, err := profile.ParseRef(a); err != nil {
			d.errorf(v, CodeInvalidValue, "agent %q: write the agent CLI and its version, such as claude-code@2.1.332", a)
			return
		}
		s.Agent = a
	}}
}

// hookAnswersField decodes hook_answers: hook name → an answer or a list
// of answers (each the text the llm hook's model answers, in order).
func (d *decoder) hookAnswersField(s *Scenario) field {
	return field{name: "hook_answers", decode: func(k, v *yaml.Node, path string) {
		m, ok := d.deref(v)
		if !ok {
			return
		}
		if m.Kind != yaml.MappingNode {
			d.errorf(v, CodeWrongType, "%s must be a mapping of llm hook names to answers, not %s", path, yamlpos.Describe(m))
			return
		}
		out := map[string][]string{}
		for _, p := range d.pairs(m) {
			sub := path + "." + p.name
			val, ok := d.deref(p.val)
			if !ok {
				continue
			}
			if val.Kind == yaml.SequenceNode {
				answers := []string{}
				d.list(p.val, sub, func(i int, item *yaml.Node, ip string) {
					if a, ok := d.str(item, ip); ok {
						answers = append(answers, a)
					}
				})
				if len(answers) == 0 {
					d.errorf(p.val, CodeEmptyValue, "%s is empty; give at least one answer, e.g. '{}' for no change", sub)
					continue
				}
				out[p.name] = answers
				continue
			}
			if a, ok := d.str(p.val, sub); ok {
				out[p.name] = []string{a}
			}
		}
		s.HookAnswers = out
	}}
}

// toolErrorField decodes a scripted tool call's error: the call fails
// with this message instead of returning a result.
func (d *decoder) toolErrorField(c *ToolCall, cp *callPos) field {
	return field{name: "error", decode: func(k, v *yaml.Node, path string) {
		e, ok := d.scripted(v, path)
		if !ok {
			return
		}
		if e == "" {
			d.errorf(v, CodeEmptyValue, "%s is empty; write the message the tool fails with, or remove error to let it succeed", path)
			return
		}
		c.Error = e
		if m, ok := d.deref(cp.node); ok && m.Kind == yaml.MappingNode {
			for i := 0; i+1 < len(m.Content); i += 2 {
				if m.Content[i].Value == "result" {
					d.errorf(k, CodeResultAndError, "this call has both result and error; a tool either returns a result or fails with an error, so keep one")
				}
			}
		}
	}}
}

// compactField decodes a round's compaction: compact: micro | auto, or
// compact: {kind: auto, summary: ...}.
func (d *decoder) compactField(rd *Round) field {
	return field{name: "compact", decode: func(k, v *yaml.Node, path string) {
		n, ok := d.deref(v)
		if !ok {
			return
		}
		c := &Compact{}
		if n.Kind == yaml.ScalarNode {
			kind, ok := d.str(v, path)
			if !ok {
				return
			}
			c.Kind = kind
			if !d.compactKind(v, path, kind) {
				return
			}
			rd.Compact = c
			return
		}
		if d.object(v, path, d.compactFields(c)) && c.Kind != "" {
			rd.Compact = c
		}
	}}
}

func (d *decoder) compactKind(at *yaml.Node, path, kind string) bool {
	if kind == CompactMicro || kind == CompactAuto {
		return true
	}
	d.errorf(at, CodeInvalidValue, "%s is %q; a compaction is micro (older tool results cleared) or auto (the conversation replaced by a summary)", path, kind)
	return false
}

func (d *decoder) compactFields(c *Compact) []field {
	return []field{
		{name: "kind", required: true, hint: "micro or auto", decode: func(k, v *yaml.Node, path string) {
			if kind, ok := d.str(v, path); ok && d.compactKind(v, path, kind) {
				c.Kind = kind
			}
		}},
		{name: "summary", decode: func(k, v *yaml.Node, path string) { c.Summary, _ = d.str(v, path) }},
	}
}
