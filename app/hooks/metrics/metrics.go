// Package metrics keeps the hook systems' per-hook counters of a run
// (seed 001's list: runs, successes, failures, skips, total time) in the
// engine's common shape, in the order hooks were first seen.
package metrics

import (
	"sync"

	"hookstudio/app/agent/engine"
)

// Book is one handler's counters; it is safe for concurrent use (the
// engine's goroutine counts, the app reads).
type Book struct {
	system string

	mu    sync.Mutex
	byKey map[string]*engine.HookMetric
	order []string
}

// NewBook returns an empty book for a hook system's handler.
func NewBook(system string) *Book {
	return &Book{system: system, byKey: map[string]*engine.HookMetric{}}
}

// Hook names one hook: where it is declared and what it is called.
type Hook struct{ Event, Name, Source string }

func (b *Book) metric(h Hook) *engine.HookMetric {
	k := h.Source + "\x00" + h.Name
	m, ok := b.byKey[k]
	if !ok {
		m = &engine.HookMetric{System: b.system, Event: h.Event, Hook: h.Name, Source: h.Source}
		b.byKey[k] = m
		b.order = append(b.order, k)
	}
	return m
}

// Ran counts an invocation that ran (a reused result included): an error
// or a timeout is a failure, anything else a success.
func (b *Book) Ran(h Hook, call *engine.HookCall) {
	b.mu.Lock()
	defer b.mu.Unlock()
	m := b.metric(h)
	m.Runs++
	m.TotalMS += call.DurationMS
	if call.Outcome == engine.OutcomeError || call.Outcome == engine.OutcomeTimeout {
		m.Failures++
	} else {
		m.Successes++
	}
}

// Skipped counts hooks that did not run (their chain ended before them).
func (b *Book) Skipped(hs ...Hook) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, h := range hs {
		b.metric(h).Skips++
	}
}

// List is every hook's counters so far, in first-seen order.
func (b *Book) List() []engine.HookMetric {
	b.mu.Lock()
	defer b.mu.Unlock()
	out := make([]engine.HookMetric, 0, len(b.order))
	for _, k := range b.order {
		out = append(out, *b.byKey[k])
	}
	return out
}
