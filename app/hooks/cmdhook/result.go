package cmdhook

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"hookstudio/app/agent/engine"
	"hookstudio/app/format/diag"
)

// ctxMessage is one message of HookContext.messages.
type ctxMessage struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

// hookContext is the HookContext JSON on stdin. Pointer fields are set
// exactly for the fields the event fills, so the others are left out
// (seed 001: "未填充的字段序列化时省略"); the order follows the seed's table.
type hookContext struct {
	Event           Event         `json:"event"`
	Messages        *[]ctxMessage `json:"messages,omitempty"`
	SystemPrompt    *string       `json:"system_prompt,omitempty"`
	Model           *string       `json:"model,omitempty"`
	UserInput       *string       `json:"user_input,omitempty"`
	AssistantOutput *string       `json:"assistant_output,omitempty"`
	ToolName        *string       `json:"tool_name,omitempty"`
	ToolArguments   *string       `json:"tool_arguments,omitempty"`
	ToolResult      *string       `json:"tool_result,omitempty"`
	ToolError       *string       `json:"tool_error,omitempty"`
	SessionID       string        `json:"session_id"`
	Cwd             string        `json:"cwd"`
}

// buildContext fills the HookContext for name from the event as the hooks
// before this one left it.
func buildContext(name Event, ev *engine.Event, session, cwd string) hookContext {
	spec := specs[name]
	c := hookContext{Event: name, SessionID: session, Cwd: cwd}
	str := func(s string) *string { return &s }
	if spec.fills&ctxMessages != 0 {
		msgs := ev.Messages()
		list := make([]ctxMessage, 0, len(msgs)+1)
		for i := range msgs {
			list = append(list, ctxMessage{Role: msgs[i].Role, Content: msgs[i].Content})
		}
		if name == Stop {
			// In jcli the final answer is in the conversation when stop fires.
			list = append(list, ctxMessage{Role: "assistant", Content: ev.Answer})
		}
		c.Messages = &list
	}
	if spec.fills&ctxSystemPrompt != 0 {
		c.SystemPrompt = str(ev.SystemPrompt())
	}
	if spec.fills&ctxModel != 0 {
		c.Model = str(ev.Model)
	}
	if spec.fills&ctxUserInput != 0 {
		c.UserInput = str(ev.UserInput)
	}
	if spec.fills&ctxAssistantOutput != 0 {
		c.AssistantOutput = str(ev.Answer)
	}
	if ev.Tool != nil {
		if spec.fills&ctxToolName != 0 {
			c.ToolName = str(ev.Tool.Name)
		}
		if spec.fills&ctxToolArguments != 0 {
			c.ToolArguments = str(argumentsJSON(ev.Tool.Arguments))
		}
		if spec.fills&ctxToolResult != 0 {
			c.ToolResult = str(ev.Tool.Result)
		}
		if spec.fills&ctxToolError != 0 {
			c.ToolError = str(ev.Tool.Error)
		}
	}
	return c
}

func argumentsJSON(args map[string]any) string {
	if args == nil {
		return "{}"
	}
	b, err := json.Marshal(args)
	if err != nil {
		return "{}"
	}
	return string(b)
}

// marshal encodes without HTML escaping, as a hook author would expect.
func marshal(v any) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return []byte("{}")
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
}

// resultFields are the HookResult fields, in the seed's order, with the
// bit of the events they apply to (0: system_message, everywhere).
var resultFields = []struct {
	name string
	bit  int
}{
	{"user_input", resUserInput}, {"assistant_output", resAssistantOutput}, {"messages", resMessages},
	{"system_prompt", resSystemPrompt}, {"tool_arguments", resToolArguments}, {"tool_result", resToolResult},
	{"tool_error", resToolError}, {"inject_messages", resInjectMessages}, {"retry_feedback", resRetryFeedback},
	{"additional_context", resAdditionalContext}, {"system_message", 0}, {"action", 0}, {"abort", 0},
}

// ResultFields lists every HookResult field (for documentation and the
// llm hook's instruction).
func ResultFields() []string {
	out := make([]string, len(resultFields))
	for i, f := range resultFields {
		out[i] = f.name
	}
	return out
}

// appliesAt lists the result fields event applies, for messages.
func appliesAt(e Event) []string {
	spec := specs[e]
	var out []string
	for _, f := range resultFields {
		if f.bit != 0 && spec.applies&f.bit != 0 {
			out = append(out, f.name)
		}
	}
	if spec.applies&resActionStop != 0 {
		out = append(out, `action "stop"`)
	}
	if spec.applies&resActionSkip != 0 {
		out = append(out, `action "skip"`)
	}
	return append(out, "system_message")
}

// errNotObject and friends explain output that is not a HookResult.
type outputError struct{ msg string }

func (e *outputError) Error() string { return e.msg }

// decodeResult turns a hook's stdout into the effect it asks for at name,
// with a warning for every field that does not apply there (and is
// therefore not applied) or cannot be read. Empty output or {} is no change.
func decodeResult(name Event, out []byte) (engine.Effect, []string, error) {
	var eff engine.Effect
	trimmed := bytes.TrimSpace(out)
	if len(trimmed) == 0 {
		return eff, nil, nil
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(trimmed, &raw); err != nil {
		var probe any
		if json.Unmarshal(trimmed, &probe) == nil {
			return eff, nil, &outputError{"the output is JSON but not an object; a HookResult is a JSON object like {\"action\": \"skip\"}"}
		}
		return eff, nil, &outputError{"the output is not valid JSON: " + err.Error()}
	}
	spec := specs[name]
	var warns []string
	warn := func(format string, args ...any) { warns = append(warns, fmt.Sprintf(format, args...)) }
	ignored := func(field string) {
		if spec.notify {
			warn("%s is a notification: its result is ignored (%s was not applied)", name, field)
			return
		}
		warn("%s has no effect at %s, so it was not applied (%s applies: %s)", field, name, name, strings.Join(appliesAt(name), ", "))
	}
	applies := func(field string, bit int) bool {
		if spec.applies&bit != 0 {
			return true
		}
		ignored(field)
		return false
	}
	str := func(field string, v json.RawMessage) (string, bool) {
		var s string
		if err := json.Unmarshal(v, &s); err != nil {
			warn("%s must be a string; it was not applied", field)
			return "", false
		}
		return s, true
	}
	messages := func(field string, v json.RawMessage) ([]engine.NewMessage, bool) {
		var ms []engine.NewMessage
		if err := json.Unmarshal(v, &ms); err != nil {
			warn("%s must be a list of {\"role\", \"content\"}; it was not applied", field)
			return nil, false
		}
		for _, m := range ms {
			if !slices.Contains([]string{"system", "user", "assistant", "tool"}, m.Role) {
				warn("%s has a message with role %q (system, user, assistant or tool); it was not applied", field, m.Role)
				return nil, false
			}
		}
		if ms == nil {
			ms = []engine.NewMessage{}
		}
		return ms, true
	}
	keys := make([]string, 0, len(raw))
	for k := range raw {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		if !slices.Contains(ResultFields(), k) {
			warn("unknown HookResult field %q; it was ignored.%s", k, diag.DidYouMean(k, ResultFields()))
		}
	}
	for _, f := range resultFields {
		v, ok := raw[f.name]
		if !ok || string(v) == "null" {
			continue
		}
		switch f.name {
		case "system_message":
			if s, ok := str(f.name, v); ok {
				eff.Notice = s
			}
			continue
		case "action":
			s, ok := str(f.name, v)
			if !ok || s == "" {
				continue
			}
			switch s {
			case "stop":
				if applies(`action "stop"`, resActionStop) {
					eff.Action = engine.ActionStop
				}
			case "skip":
				if applies(`action "skip"`, resActionSkip) {
					eff.Action = engine.ActionSkip
				}
			default:
				warn("action %q is neither stop nor skip; it was ignored", s)
			}
			continue
		case "abort":
			var b bool
			if err := json.Unmarshal(v, &b); err != nil {
				warn("abort must be true or false; it was ignored")
			} else if b && eff.Action == "" && applies("abort: true (action \"stop\")", resActionStop) {
				eff.Action = engine.ActionStop
			}
			continue
		}
		if spec.notify {
			ignored(f.name)
			continue
		}
		if !applies(f.name, f.bit) {
			continue
		}
		switch f.name {
		case "user_input":
			if s, ok := str(f.name, v); ok {
				eff.UserInput = &s
			}
		case "assistant_output":
			if s, ok := str(f.name, v); ok {
				eff.Answer = &s
			}
		case "system_prompt":
			if s, ok := str(f.name, v); ok {
				eff.SystemPrompt = &s
			}
		case "tool_result":
			if s, ok := str(f.name, v); ok {
				eff.ToolResult = &s
			}
		case "tool_error":
			if s, ok := str(f.name, v); ok {
				eff.ToolError = &s
			}
		case "retry_feedback":
			if s, ok := str(f.name, v); ok {
				eff.RetryFeedback = s
			}
		case "additional_context":
			if s, ok := str(f.name, v); ok {
				eff.AppendSystem = s
			}
		case "messages":
			if ms, ok := messages(f.name, v); ok {
				eff.Messages = ms
			}
		case "inject_messages":
			if ms, ok := messages(f.name, v); ok && len(ms) > 0 {
				eff.Inject = ms
			}
		case "tool_arguments":
			// jcli passes arguments as a JSON string; an object is accepted too.
			var args map[string]any
			var s string
			if err := json.Unmarshal(v, &s); err == nil {
				if err := json.Unmarshal([]byte(s), &args); err != nil || args == nil {
					warn("tool_arguments is a string but not a JSON object; it was not applied")
					continue
				}
			} else if err := json.Unmarshal(v, &args); err != nil || args == nil {
				warn("tool_arguments must be a JSON object or a string holding one; it was not applied")
				continue
			}
			eff.ToolArguments = args
		}
	}
	if eff.Action == engine.ActionStop {
		eff.Reason = eff.Notice // the request's stop reads as what the user was told
	}
	return eff, warns, nil
}
