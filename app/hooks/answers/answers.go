// Package answers answers the hooks that ask a model themselves (jcli's
// llm hooks, Claude Code's prompt handlers): from a scenario's scripted
// hook_answers under the mock model, or from the run's real model.
package answers

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"hookstudio/app/agent/engine"
)

// Completer answers a hook's prompt with a model. A real run gets a Model
// backed by the run's provider; under the mock the hook systems answer
// from the scenario (Scripted).
type Completer interface {
	Complete(ctx context.Context, model, prompt string) (string, error)
}

// ErrNoAnswer is returned by Scripted for a hook the scenario scripts no
// answer for.
var ErrNoAnswer = errors.New("no scripted answer")

// Scripted answers hooks from a scenario's hook_answers: by key, in order,
// the last answer repeating. It is the mock model of hooks that ask one.
type Scripted struct {
	mu      sync.Mutex
	answers map[string][]string
	next    map[string]int
}

// NewScripted returns scripted answers (key → answers in order).
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

// Model answers with a run's model (a real provider): the prompt as one
// user message, no tools, a direct call. An empty model name keeps the
// provider's configured model. Model is set once the run's model is known
// (its request hooks wrap it).
type Model struct {
	Model engine.Model
}

// Complete asks the model once.
func (c *Model) Complete(ctx context.Context, model, prompt string) (string, error) {
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
