package cmdhook

import (
	"bytes"
	"strings"

	"hookstudio/app/agent/engine"
)

// render fills the prompt template and appends the instruction saying
// what JSON the answer may hold. Every variable is filled from the event,
// whether or not the event's HookContext carries the field.
func render(prompt string, name Event, ev *engine.Event, cwd string, v *view) string {
	var tool, args, result string
	if ev.Tool != nil {
		tool, args, result = ev.Tool.Name, argumentsJSON(ev.Tool.Arguments), ev.Tool.Result
	}
	input, answer := ev.UserInput, ev.Answer
	if v != nil {
		// The earlier hooks' answers of a held chain (chain.go).
		for _, o := range []struct {
			dst *string
			src *string
		}{{&input, v.userInput}, {&answer, v.answer}, {&result, v.toolResult}} {
			if o.src != nil {
				*o.dst = *o.src
			}
		}
		if v.toolArgs != nil {
			args = argumentsJSON(v.toolArgs)
		}
	}
	pairs := []string{
		"{{event}}", string(name), "{{user_input}}", input, "{{assistant_output}}", answer,
		"{{tool_name}}", tool, "{{tool_arguments}}", args, "{{tool_result}}", result,
		"{{model}}", ev.Model, "{{cwd}}", cwd,
	}
	var b strings.Builder
	b.WriteString(strings.NewReplacer(pairs...).Replace(prompt))
	b.WriteString("\n\nAnswer with exactly one JSON object (a HookResult) and nothing else, no prose and no code fence. ")
	b.WriteString("{} means no change. At ")
	b.WriteString(string(name))
	b.WriteString(" the object may contain: ")
	b.WriteString(strings.Join(appliesAt(name), ", "))
	b.WriteString(".")
	return b.String()
}

// extractJSON takes the JSON object out of a model's answer: models wrap
// it in a code fence or a sentence now and then.
func extractJSON(answer string) []byte {
	s := strings.TrimSpace(answer)
	if strings.HasPrefix(s, "```") {
		s = strings.TrimPrefix(s, "```json")
		s = strings.TrimPrefix(s, "```")
		s = strings.TrimSuffix(strings.TrimSpace(s), "```")
		s = strings.TrimSpace(s)
	}
	if i, j := strings.IndexByte(s, '{'), strings.LastIndexByte(s, '}'); (i > 0 || j < len(s)-1) && i >= 0 && j > i {
		s = s[i : j+1]
	}
	return bytes.TrimSpace([]byte(s))
}
