package cmdhook

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"

	"hookstudio/app/agent/engine"
)

// Completer answers type: llm hooks. A real run gets one backed by the
// run's provider (the app wires it); under the mock model the handler
// answers from the scenario's hook_answers (Scripted).
type Completer interface {
	Complete(ctx context.Context, model, prompt string) (string, error)
}

// ErrNoAnswer is returned by Scripted for a hook the scenario scripts no
// answer for.
var ErrNoAnswer = errors.New("no scripted answer")

// Scripted answers llm hooks from a scenario's hook_answers: by hook name,
// in order, the last answer repeating. It is the mock model of llm hooks.
type Scripted struct {
	mu      sync.Mutex
	answers map[string][]string
	next    map[string]int
}

// NewScripted returns a scripted completer over answers (hook name → answers).
func NewScripted(answers map[string][]string) *Scripted {
	return &Scripted{answers: answers, next: map[string]int{}}
}

// Answer returns the next answer for the first key that has answers (a
// qualified "skill/name" first, then the plain name).
func (s *Scripted) Answer(keys ...string) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, k := range keys {
		list := s.answers[k]
		if len(list) == 0 {
			continue
		}
		i := min(s.next[k], len(list)-1)
		s.next[k]++
		return list[i], nil
	}
	return "", fmt.Errorf("%w for llm hook %q: add hook_answers: {%q: ['{}']} to the scenario", ErrNoAnswer, keys[len(keys)-1], keys[len(keys)-1])
}

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

// ModelCompleter answers llm hooks with a run's model (a real provider):
// the prompt as one user message, no tools, a direct call. An empty model
// name keeps the provider's configured model.
type ModelCompleter struct {
	Model engine.Model
}

// Complete asks the model once.
func (c ModelCompleter) Complete(ctx context.Context, model, prompt string) (string, error) {
	if c.Model == nil {
		return "", errors.New("no model to answer llm hooks")
	}
	msgs := []engine.Message{{Role: "user", Content: prompt, Origin: engine.OriginUserInput}}
	rep, err := c.Model.Complete(ctx, engine.Call{Phase: engine.PhaseDirect, Round: -1, Model: model,
		Messages: func() []engine.Message { return msgs }, Stream: func(string) {}})
	if err != nil {
		return "", fmt.Errorf("llm hook: %w", err)
	}
	return rep.Content, nil
}
